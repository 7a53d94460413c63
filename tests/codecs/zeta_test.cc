#include "codecs/zeta.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/elias_gamma.h"
#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::Binary;
using ::crawldb::codecs::testing::BitString;
using ::crawldb::codecs::testing::ExactCopy;
using ::crawldb::codecs::testing::FromBitString;
using ::crawldb::codecs::testing::Log2;
using ::crawldb::codecs::testing::TestValues;

// ζ_k(y) by the definition in Boldi and Vigna: h = floor(floor(log2 y) / k) in unary (h zeros
// and a one), then the minimal binary code of y − 2^(hk) in [0, 2^((h+1)k) − 2^(hk)).
std::string ReferenceZeta(unsigned __int128 y, int k) {
  const int h = Log2(y) / k;
  const unsigned __int128 left = static_cast<unsigned __int128>(1) << (h * k);
  const unsigned __int128 interval = (static_cast<unsigned __int128>(1) << ((h + 1) * k)) - left;
  // Minimal binary: s = ceil(log2 interval); the first 2^s − interval values take s − 1 bits.
  int s = Log2(interval);
  if ((static_cast<unsigned __int128>(1) << s) < interval) ++s;
  const unsigned __int128 short_values = (static_cast<unsigned __int128>(1) << s) - interval;
  const unsigned __int128 v = y - left;
  const std::string unary = std::string(h, '0') + "1";
  if (v < short_values) return unary + Binary(v, s - 1);
  return unary + Binary(v + short_values, s);
}

std::string Encode(uint64_t x, int k) {
  BitWriter writer;
  WriteZeta(writer, x, k);
  const uint64_t length = writer.bit_length();
  return BitString(writer.Finish(), length);
}

TEST(Zeta, GoldenCodewords) {
  const std::vector<std::vector<std::string>> table = {
      // x, ζ_2, ζ_3 (Boldi and Vigna's table, shifted to x = y − 1).
      {"0", "10", "100"},         {"1", "110", "1010"},       {"2", "111", "1011"},
      {"3", "01000", "1100"},     {"4", "01001", "1101"},     {"6", "01011", "1111"},
      {"7", "011000", "0100000"}, {"8", "011001", "0100001"}, {"15", "00100000", "01010000"},
  };
  for (const auto& row : table) {
    const uint64_t x = std::stoull(row[0]);
    EXPECT_EQ(Encode(x, 2), row[1]) << x;
    EXPECT_EQ(Encode(x, 3), row[2]) << x;
  }
  // ζ_k(1) is a one and k − 1 zeros.
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    EXPECT_EQ(Encode(0, k), "1" + std::string(k - 1, '0')) << k;
  }
}

TEST(Zeta, Uint64MaxCodewords) {
  // k = 2: h = 32, hk = 64, y − 2^64 = 0 in 65 bits.
  EXPECT_EQ(Encode(UINT64_MAX, 2), std::string(32, '0') + "1" + std::string(65, '0'));
  // k = 3: h = 21, hk = 63, y = 2^64 in 66 bits.
  EXPECT_EQ(Encode(UINT64_MAX, 3), std::string(21, '0') + "1" + "01" + std::string(64, '0'));
  // k = 5: h = 12, hk = 60, y = 2^64 in 65 bits.
  EXPECT_EQ(Encode(UINT64_MAX, 5), std::string(12, '0') + "1" + "1" + std::string(64, '0'));
  const int longest[] = {129, 98, 88, 84, 78, 77, 80};
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    EXPECT_EQ(ZetaLength(UINT64_MAX, k), longest[k - 1]) << k;
  }
}

TEST(Zeta, MatchesDefinition) {
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    for (uint64_t x : TestValues()) {
      ASSERT_EQ(Encode(x, k), ReferenceZeta(static_cast<unsigned __int128>(x) + 1, k))
          << x << " k=" << k;
    }
  }
}

TEST(Zeta, ZetaOneIsGamma) {
  for (uint64_t x : TestValues()) {
    BitWriter gamma;
    WriteGamma(gamma, x);
    const uint64_t length = gamma.bit_length();
    ASSERT_EQ(Encode(x, 1), BitString(gamma.Finish(), length)) << x;
  }
}

TEST(Zeta, LengthsAgreeWithWriter) {
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    for (uint64_t x : TestValues()) {
      BitWriter writer;
      WriteZeta(writer, x, k);
      ASSERT_EQ(writer.bit_length(), static_cast<uint64_t>(ZetaLength(x, k))) << x << " k=" << k;
      ASSERT_LE(ZetaLength(x, k), ZetaLength(UINT64_MAX, k));
    }
  }
}

TEST(Zeta, RoundTripsBoundaries) {
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    BitWriter writer;
    std::vector<uint64_t> ends;
    for (uint64_t x : TestValues()) {
      WriteZeta(writer, x, k);
      ends.push_back(writer.bit_length());
    }
    const std::vector<uint8_t> bytes = writer.Finish();
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    size_t i = 0;
    for (uint64_t x : TestValues()) {
      ASSERT_EQ(ReadZeta(reader, k), x) << " k=" << k;
      ASSERT_EQ(reader.position(), ends[i++]) << x << " k=" << k;
    }
    EXPECT_TRUE(reader.ok());
  }
}

// Each codeword is placed to end on a byte boundary, then cut by whole bytes: every cut
// leaves a proper prefix, which must be reported.
TEST(Zeta, TruncatedInputIsError) {
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    for (uint64_t x : TestValues()) {
      const int filler = (8 - ZetaLength(x, k) % 8) % 8;
      BitWriter writer;
      writer.WriteBits(UINT64_MAX, filler);
      WriteZeta(writer, x, k);
      const std::vector<uint8_t> bytes = writer.Finish();
      for (size_t size = 0; size < bytes.size(); ++size) {
        const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
        auto copy = ExactCopy(prefix);
        BitReader reader(absl::MakeConstSpan(copy.get(), size));
        reader.SkipBits(std::min<uint64_t>(filler, size * 8));
        ReadZeta(reader, k);
        ASSERT_FALSE(reader.ok()) << x << " k=" << k << " cut to " << size << " bytes";
      }
    }
  }
}

TEST(Zeta, InvalidKIsError) {
  const std::vector<uint8_t> bytes = {0xFF, 0xFF};
  for (int k : {0, -1, 8, 64}) {
    BitReader reader(bytes);
    EXPECT_EQ(ReadZeta(reader, k), 0u);
    EXPECT_FALSE(reader.ok()) << k;
  }
}

TEST(Zeta, UnaryPrefixAboveLimitIsError) {
  for (int k = kMinZetaK; k <= kMaxZetaK; ++k) {
    const int h = 64 / k + 1;
    const std::vector<uint8_t> bytes =
        FromBitString(std::string(h, '0') + "1" + std::string(80, '0'));
    BitReader reader(bytes);
    ReadZeta(reader, k);
    EXPECT_FALSE(reader.ok()) << k;
  }
}

TEST(Zeta, ValueAboveUint64MaxIsError) {
  const std::string k3_prefix = std::string(21, '0') + "1";  // h = 21, 66-bit long form.
  struct Case {
    int k;
    std::string bits;
    bool valid;
  };
  const std::vector<Case> cases = {
      {3, k3_prefix + "01" + std::string(64, '0'), true},            // 2^64
      {3, k3_prefix + "01" + std::string(63, '0') + "1", false},     // 2^64 + 1
      {3, k3_prefix + "1" + std::string(65, '0'), false},            // 2^65
      {3, k3_prefix + "011" + std::string(63, '0'), false},          // 2^64 + 2^63
      {2, std::string(32, '0') + "1" + std::string(65, '0'), true},  // 2^64
      {2, std::string(32, '0') + "1" + std::string(64, '0') + "1", false},
      {2, std::string(32, '0') + "1" + "1" + std::string(64, '0'), false},
      {7, std::string(9, '0') + "1" + std::string(5, '0') + "1" + std::string(64, '0'), true},
      {7, std::string(9, '0') + "1" + std::string(4, '0') + "1" + std::string(65, '0'), false},
  };
  for (const Case& test : cases) {
    const std::vector<uint8_t> bytes = FromBitString(test.bits);
    BitReader reader(bytes);
    const uint64_t x = ReadZeta(reader, test.k);
    EXPECT_EQ(reader.ok(), test.valid) << test.bits;
    if (test.valid) {
      EXPECT_EQ(x, UINT64_MAX);
    }
  }
}

TEST(Zeta, RandomBytesNeverOverrun) {
  std::mt19937_64 random(19);
  for (int round = 0; round < 5000; ++round) {
    const int k = static_cast<int>(random() % kMaxZetaK) + 1;
    std::vector<uint8_t> bytes(random() % 40);
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 4 ? 0 : random());
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    while (reader.ok()) {
      const uint64_t before = reader.position();
      const uint64_t x = ReadZeta(reader, k);
      if (reader.ok()) {
        ASSERT_EQ(reader.position() - before, static_cast<uint64_t>(ZetaLength(x, k)));
      }
    }
    EXPECT_EQ(reader.bits_left(), 0u);
  }
}

}  // namespace
}  // namespace crawldb::codecs
