// Canonical Huffman codes (codecs/canonical_huffman.h): the header's example, optimal and
// length-limited lengths, round trips through the fast table and the long-codeword path, table
// serialization, and refusals of bad lengths, bad tables and bad codewords.
#include "codecs/canonical_huffman.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::BitString;
using ::crawldb::codecs::testing::FromBitString;

HuffmanCode Code(const std::vector<uint8_t>& lengths) {
  absl::StatusOr<HuffmanCode> code = HuffmanCode::FromLengths(lengths);
  EXPECT_TRUE(code.ok()) << code.status();
  return code.ok() ? *std::move(code) : HuffmanCode();
}

double Kraft(const std::vector<uint8_t>& lengths) {
  double sum = 0;
  for (uint8_t l : lengths) {
    if (l != 0) sum += 1.0 / static_cast<double>(uint64_t{1} << l);
  }
  return sum;
}

TEST(CanonicalHuffman, CodesTheHeadersExample) {
  // a:2 b:4 c:1 d:1 → lengths b 1, a 2, c 3, d 3 → b 0, a 10, c 110, d 111.
  const std::vector<uint8_t> lengths = HuffmanCode::Lengths(std::vector<uint64_t>{2, 4, 1, 1});
  EXPECT_EQ(lengths, (std::vector<uint8_t>{2, 1, 3, 3}));
  const HuffmanCode code = Code(lengths);
  BitWriter out;
  for (uint32_t symbol : {0u, 1u, 2u, 3u}) code.Write(symbol, out);
  const uint64_t bits = out.bit_length();
  EXPECT_EQ(BitString(out.Finish(), bits), "100110111");  // 10 | 0 | 110 | 111.
}

TEST(CanonicalHuffman, LengthsOfDegenerateAlphabets) {
  EXPECT_EQ(HuffmanCode::Lengths(std::vector<uint64_t>{0, 0}), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(HuffmanCode::Lengths(std::vector<uint64_t>{0, 9, 0}), (std::vector<uint8_t>{0, 1, 0}));
  EXPECT_TRUE(HuffmanCode::Lengths({}).empty());
  // A one-symbol code reads "0" and refuses "1".
  const HuffmanCode code = Code({0, 1, 0});
  const std::vector<uint8_t> bytes = FromBitString("01");
  BitReader in(bytes);
  EXPECT_EQ(code.Read(in), 1u);
  EXPECT_TRUE(in.ok());
  code.Read(in);
  EXPECT_FALSE(in.ok());
}

TEST(CanonicalHuffman, LimitsLengthsTo24Bits) {
  // Fibonacci frequencies make a Huffman tree as deep as there are symbols.
  std::vector<uint64_t> frequencies = {1, 1};
  while (frequencies.size() < 40) {
    frequencies.push_back(frequencies[frequencies.size() - 1] +
                          frequencies[frequencies.size() - 2]);
  }
  const std::vector<uint8_t> lengths = HuffmanCode::Lengths(frequencies);
  for (uint8_t l : lengths) {
    EXPECT_GE(l, 1);
    EXPECT_LE(l, HuffmanCode::kMaxLength);
  }
  EXPECT_LE(Kraft(lengths), 1.0);
  EXPECT_TRUE(HuffmanCode::FromLengths(lengths).ok());
}

TEST(CanonicalHuffman, HuffmanLengthsAreOptimalAndComplete) {
  // Uniform over 8 symbols: 3 bits each.
  EXPECT_EQ(HuffmanCode::Lengths(std::vector<uint64_t>(8, 5)), std::vector<uint8_t>(8, 3));
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<uint64_t> frequencies(1 + rng() % 300);
    for (uint64_t& f : frequencies) f = rng() % 4 == 0 ? 0 : 1 + rng() % 1000;
    const std::vector<uint8_t> lengths = HuffmanCode::Lengths(frequencies);
    int used = 0;
    for (uint8_t l : lengths) used += l != 0 ? 1 : 0;
    if (used >= 2) {
      EXPECT_DOUBLE_EQ(Kraft(lengths), 1.0);  // Huffman codes are complete.
    }
  }
}

TEST(CanonicalHuffman, RoundTripsShortAndLongCodewords) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 30; ++trial) {
    // Geometric-ish frequencies over up to 3000 symbols: codewords of 1 to ~20 bits.
    std::vector<uint64_t> frequencies(2 + rng() % 3000);
    for (size_t s = 0; s < frequencies.size(); ++s) {
      frequencies[s] = rng() % 5 == 0 ? 0 : (uint64_t{1} << (30 - std::min<size_t>(s / 100, 29)));
    }
    const HuffmanCode code = Code(HuffmanCode::Lengths(frequencies));
    std::vector<uint32_t> symbols;
    for (int k = 0; k < 2000; ++k) {
      const uint32_t s = static_cast<uint32_t>(rng() % frequencies.size());
      if (code.length(s) > 0) symbols.push_back(s);
    }
    BitWriter out;
    for (uint32_t s : symbols) code.Write(s, out);
    const std::vector<uint8_t> bytes = out.Finish();
    BitReader in(bytes);
    for (uint32_t s : symbols) ASSERT_EQ(code.Read(in), s);
    ASSERT_TRUE(in.ok());
  }
}

TEST(CanonicalHuffman, RefusesBadLengths) {
  EXPECT_EQ(HuffmanCode::FromLengths({1, 1, 1}).status().message(),
            "canonical_huffman: lengths over-subscribe the code");
  EXPECT_EQ(HuffmanCode::FromLengths({25, 1}).status().message(),
            "canonical_huffman: symbol 0 has length 25");
  EXPECT_TRUE(HuffmanCode::FromLengths({1, 2, 0, 3}).ok());  // Incomplete: legal.
}

TEST(CanonicalHuffman, IncompleteCodesRefuseUnusedPatterns) {
  // 0 → "0", 1 → "10"; "11" starts no codeword.
  const HuffmanCode code = Code({1, 2});
  const std::vector<uint8_t> bytes = FromBitString("01011");
  BitReader in(bytes);
  EXPECT_EQ(code.Read(in), 0u);
  EXPECT_EQ(code.Read(in), 1u);
  code.Read(in);
  EXPECT_FALSE(in.ok());
  // Long codewords too: 24-bit lengths leave most 24-bit patterns unused.
  std::vector<uint8_t> lengths(30, 24);
  lengths[0] = 1;
  const HuffmanCode long_code = Code(lengths);
  const std::vector<uint8_t> ones = FromBitString(std::string(24, '1'));
  BitReader long_in(ones);
  long_code.Read(long_in);
  EXPECT_FALSE(long_in.ok());
}

TEST(CanonicalHuffman, FailsAtTheEndOfInput) {
  const HuffmanCode code = Code({1, 2, 2});  // 0, 10, 11.
  const std::vector<uint8_t> bytes = FromBitString("11000000");
  BitReader in(bytes);
  EXPECT_EQ(code.Read(in), 2u);
  for (int k = 0; k < 6; ++k) EXPECT_EQ(code.Read(in), 0u);
  EXPECT_TRUE(in.ok());
  code.Read(in);  // Nothing left, though the bits past the end peek as a codeword "0".
  EXPECT_FALSE(in.ok());
}

TEST(CanonicalHuffman, TablesRoundTrip) {
  std::vector<uint8_t> lengths(500, 0);
  lengths[0] = 2;
  lengths[1] = 2;
  lengths[2] = 3;
  lengths[300] = 3;
  lengths[499] = 2;
  const HuffmanCode code = Code(lengths);
  std::vector<uint8_t> bytes;
  code.AppendTo(&bytes);
  EXPECT_EQ(8 * bytes.size(), code.TableBits());
  // alphabet 500 (2 bytes), used 5, then (gap, length): (0,2) (0,2) (0,3) (297: 2 bytes, 3)
  // (198: 2 bytes, 2).
  EXPECT_EQ(bytes.size(), 2u + 1 + 2 + 2 + 2 + 3 + 3);
  LittleEndianReader in(bytes);
  absl::StatusOr<HuffmanCode> parsed = HuffmanCode::Parse(&in, 1000);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(in.remaining(), 0u);
  for (uint32_t s = 0; s < 500; ++s) EXPECT_EQ(parsed->length(s), lengths[s]);

  const auto parse = [](const std::vector<uint8_t>& b, uint32_t max_alphabet) {
    LittleEndianReader reader(b);
    return HuffmanCode::Parse(&reader, max_alphabet).status();
  };
  EXPECT_EQ(parse(bytes, 499).message(),
            "canonical_huffman: a table of 5 of 500 symbols; at most 499 are possible");
  EXPECT_EQ(parse({3, 1, 3, 1}, 1000).message(),
            "canonical_huffman: a symbol outside the alphabet");
  EXPECT_EQ(parse({3, 1, 0, 0}, 1000).message(), "canonical_huffman: a length of 0 bits");
  EXPECT_EQ(parse({3, 1, 0, 25}, 1000).message(), "canonical_huffman: a length of 25 bits");
  EXPECT_EQ(parse({3, 3, 0, 1, 0, 1, 0, 1}, 1000).message(),
            "canonical_huffman: lengths over-subscribe the code");
  EXPECT_EQ(parse({3, 3, 0, 1}, 1000).message(), "canonical_huffman: truncated table");
  for (size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + size);
    EXPECT_EQ(parse(truncated, 1000).code(), absl::StatusCode::kDataLoss) << size;
  }
}

}  // namespace
}  // namespace crawldb::codecs
