#include "codecs/nybble.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::ExactCopy;
using ::crawldb::codecs::testing::SignedTestValues;
using ::crawldb::codecs::testing::TestValues;

// The nybbles of a stream, in stream order, as hex digits: "87" for the byte 0x78.
std::string Nybbles(const std::vector<uint8_t>& bytes, size_t count) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < count; ++i) out += kHex[(bytes[i / 2] >> (4 * (i % 2))) & 0xF];
  return out;
}

// A straightforward encoder of a (up to 65-bit) number, one nybble at a time.
std::string ReferenceNybbles(unsigned __int128 n) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  do {
    const unsigned group = static_cast<unsigned>(n & 7);
    n >>= 3;
    out += kHex[(group << 1) | (n == 0 ? 1 : 0)];
  } while (n != 0);
  return out;
}

unsigned __int128 ReferenceSignMagnitude(int64_t v) {
  const unsigned __int128 magnitude =
      v < 0 ? static_cast<unsigned __int128>(-static_cast<__int128>(v)) : v;
  return (magnitude << 1) | (v < 0 ? 1 : 0);
}

std::string EncodeUnsigned(uint64_t value) {
  NybbleWriter writer;
  writer.WriteNybble(value);
  const size_t count = writer.nybble_length();
  return Nybbles(writer.Finish(), count);
}

std::string EncodeSigned(int64_t value) {
  NybbleWriter writer;
  writer.WriteSignedNybble(value);
  const size_t count = writer.nybble_length();
  return Nybbles(writer.Finish(), count);
}

// Bytes from nybbles given as hex digits in stream order.
std::vector<uint8_t> FromNybbles(const std::string& hex) {
  std::vector<uint8_t> bytes((hex.size() + 1) / 2, 0);
  for (size_t i = 0; i < hex.size(); ++i) {
    const int digit = std::stoi(std::string(1, hex[i]), nullptr, 16);
    bytes[i / 2] |= static_cast<uint8_t>(digit << (4 * (i % 2)));
  }
  return bytes;
}

TEST(Nybble, GoldenExamplesFromThePaper) {
  NybbleWriter writer;
  writer.WriteNybble(28);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0x78}));  // 0111 1000
  writer.WriteSignedNybble(28);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0xF0}));  // 1111 0000
  writer.WriteSignedNybble(-6);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0x3A}));  // 0011 1010

  const std::vector<uint8_t> unsigned_bytes = {0x78};
  NybbleReader unsigned_reader(unsigned_bytes);
  EXPECT_EQ(unsigned_reader.ReadNybble(), 28u);
  const std::vector<uint8_t> signed_bytes = {0xF0, 0x3A};
  NybbleReader signed_reader(signed_bytes);
  EXPECT_EQ(signed_reader.ReadSignedNybble(), 28);
  EXPECT_EQ(signed_reader.ReadSignedNybble(), -6);
  EXPECT_TRUE(unsigned_reader.ok());
  EXPECT_TRUE(signed_reader.ok());
}

TEST(Nybble, FirstCodewords) {
  // Nybbles in stream order, as hex digits: data in the high three bits, stop bit lowest.
  EXPECT_EQ(EncodeUnsigned(0), "1");     // 0001
  EXPECT_EQ(EncodeUnsigned(1), "3");     // 0011
  EXPECT_EQ(EncodeUnsigned(7), "F");     // 1111
  EXPECT_EQ(EncodeUnsigned(8), "03");    // 0000 0011
  EXPECT_EQ(EncodeUnsigned(63), "EF");   // 1110 1111
  EXPECT_EQ(EncodeUnsigned(64), "003");  // 0000 0000 0011
  EXPECT_EQ(EncodeSigned(0), "1");
  EXPECT_EQ(EncodeSigned(1), "5");
  EXPECT_EQ(EncodeSigned(-1), "7");
  EXPECT_EQ(EncodeSigned(2), "9");
  EXPECT_EQ(EncodeSigned(-2), "B");
  EXPECT_EQ(EncodeSigned(3), "D");
  EXPECT_EQ(EncodeSigned(-3), "F");
  EXPECT_EQ(EncodeSigned(4), "03");
  EXPECT_EQ(EncodeSigned(-4), "23");
}

TEST(Nybble, ExtremeCodewords) {
  EXPECT_EQ(EncodeUnsigned(UINT64_MAX), std::string(21, 'E') + "3");
  EXPECT_EQ(EncodeSigned(INT64_MAX), "C" + std::string(20, 'E') + "3");
  EXPECT_EQ(EncodeSigned(-INT64_MAX), std::string(21, 'E') + "3");
  EXPECT_EQ(EncodeSigned(INT64_MIN), "2" + std::string(20, '0') + "5");
}

TEST(Nybble, MatchesReferenceEncoder) {
  std::mt19937_64 random(5);
  for (uint64_t value : TestValues()) {
    ASSERT_EQ(EncodeUnsigned(value), ReferenceNybbles(value)) << value;
  }
  for (int64_t value : SignedTestValues()) {
    ASSERT_EQ(EncodeSigned(value), ReferenceNybbles(ReferenceSignMagnitude(value))) << value;
  }
  for (int i = 0; i < 10000; ++i) {
    const uint64_t value = random() >> (random() % 64);
    ASSERT_EQ(EncodeUnsigned(value), ReferenceNybbles(value)) << value;
    const int64_t signed_value = static_cast<int64_t>(value) * (i % 2 ? -1 : 1);
    ASSERT_EQ(EncodeSigned(signed_value), ReferenceNybbles(ReferenceSignMagnitude(signed_value)))
        << signed_value;
  }
}

// A long stream, so codes start at both byte halves and cross the writer's growth.
TEST(Nybble, StreamMatchesReferenceEncoder) {
  std::mt19937_64 random(6);
  NybbleWriter writer;
  std::string expected;
  for (int i = 0; i < 20000; ++i) {
    const uint64_t value = random() >> (random() % 64);
    if (i % 3 == 0) {
      const int64_t signed_value = static_cast<int64_t>(value);
      writer.WriteSignedNybble(signed_value);
      expected += ReferenceNybbles(ReferenceSignMagnitude(signed_value));
    } else {
      writer.WriteNybble(value);
      expected += ReferenceNybbles(value);
    }
    if (i % 997 == 0) {
      const absl::Span<const uint8_t> bytes = writer.bytes();
      ASSERT_EQ(bytes.size(), (expected.size() + 1) / 2);
      ASSERT_EQ(Nybbles(std::vector<uint8_t>(bytes.begin(), bytes.end()), bytes.size() * 2),
                expected + (expected.size() % 2 ? "0" : ""));
    }
  }
  ASSERT_EQ(writer.nybble_length(), expected.size());
  EXPECT_EQ(Nybbles(writer.Finish(), expected.size()), expected);
}

TEST(Nybble, LengthsAgreeWithWriter) {
  for (uint64_t value : TestValues()) {
    NybbleWriter writer;
    writer.WriteNybble(value);
    EXPECT_EQ(writer.nybble_length(), static_cast<size_t>(NybbleLength(value))) << value;
  }
  for (int64_t value : SignedTestValues()) {
    NybbleWriter writer;
    writer.WriteSignedNybble(value);
    EXPECT_EQ(writer.nybble_length(), static_cast<size_t>(SignedNybbleLength(value))) << value;
  }
  EXPECT_EQ(NybbleLength(0), 1);
  EXPECT_EQ(NybbleLength(7), 1);
  EXPECT_EQ(NybbleLength(8), 2);
  EXPECT_EQ(NybbleLength((uint64_t{1} << 48) - 1), 16);
  EXPECT_EQ(NybbleLength(uint64_t{1} << 48), 17);
  EXPECT_EQ(NybbleLength(UINT64_MAX), kMaxNybbleLength);
  EXPECT_EQ(SignedNybbleLength(INT64_MIN), kMaxNybbleLength);
  EXPECT_EQ(SignedNybbleLength(INT64_MAX), kMaxNybbleLength);
  EXPECT_EQ(SignedNybbleLength(-3), 1);
  EXPECT_EQ(SignedNybbleLength(4), 2);
}

// Writes every value after a 0- or 1-nybble lead, so codes start at both byte halves, then
// reads them back from an exact-size buffer bounded at the exact nybble count.
TEST(Nybble, RoundTripsBoundaries) {
  for (int lead = 0; lead < 2; ++lead) {
    NybbleWriter writer;
    if (lead) writer.WriteNybble(0);
    std::vector<size_t> starts;
    for (uint64_t value : TestValues()) {
      starts.push_back(writer.nybble_length());
      writer.WriteNybble(value);
    }
    for (int64_t value : SignedTestValues()) {
      starts.push_back(writer.nybble_length());
      writer.WriteSignedNybble(value);
    }
    const size_t count = writer.nybble_length();
    const std::vector<uint8_t> bytes = writer.Finish();
    ASSERT_EQ(bytes.size(), (count + 1) / 2);
    auto copy = ExactCopy(bytes);
    NybbleReader reader(absl::MakeConstSpan(copy.get(), bytes.size()), count);
    if (lead) {
      EXPECT_EQ(reader.ReadNybble(), 0u);
    }
    size_t i = 0;
    for (uint64_t value : TestValues()) {
      ASSERT_EQ(reader.position(), starts[i++]);
      ASSERT_EQ(reader.ReadNybble(), value);
    }
    for (int64_t value : SignedTestValues()) {
      ASSERT_EQ(reader.position(), starts[i++]);
      ASSERT_EQ(reader.ReadSignedNybble(), value);
    }
    EXPECT_TRUE(reader.ok());
    EXPECT_EQ(reader.nybbles_left(), 0u);
  }
}

TEST(Nybble, SeeksToAnyCode) {
  NybbleWriter writer;
  std::vector<size_t> starts;
  const std::vector<uint64_t> values = TestValues();
  for (uint64_t value : values) {
    starts.push_back(writer.nybble_length());
    writer.WriteNybble(value);
  }
  const std::vector<uint8_t> bytes = writer.Finish();
  NybbleReader reader(bytes);
  for (size_t i = values.size(); i-- > 0;) {
    reader.Seek(starts[i]);
    ASSERT_EQ(reader.ReadNybble(), values[i]);
  }
  EXPECT_TRUE(reader.ok());
}

TEST(Nybble, BytesShowsAPendingHalfAsZero) {
  NybbleWriter writer;
  writer.WriteNybble(8);  // 0000 0011: one byte 0x30.
  writer.WriteNybble(1);  // 0011, a half byte.
  EXPECT_EQ(writer.nybble_length(), 3u);
  EXPECT_EQ(std::vector<uint8_t>(writer.bytes().begin(), writer.bytes().end()),
            std::vector<uint8_t>({0x30, 0x03}));
  writer.WriteNybble(0);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0x30, 0x13}));
  EXPECT_EQ(writer.nybble_length(), 0u);
}

TEST(Nybble, TruncatedInputIsError) {
  std::vector<uint64_t> values = TestValues();
  for (uint64_t value : values) {
    NybbleWriter writer;
    writer.WriteNybble(value);
    const size_t count = writer.nybble_length();
    const std::vector<uint8_t> bytes = writer.Finish();
    for (size_t cut = 0; cut < count; ++cut) {
      // Bounded by a nybble count within the full bytes, and by the bytes themselves.
      NybbleReader bounded(bytes, cut);
      EXPECT_EQ(bounded.ReadNybble(), 0u);
      EXPECT_FALSE(bounded.ok()) << value << " cut at " << cut;
      EXPECT_EQ(bounded.nybbles_left(), 0u);
      const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + cut / 2);
      auto copy = ExactCopy(prefix);
      NybbleReader short_bytes(absl::MakeConstSpan(copy.get(), prefix.size()));
      short_bytes.ReadNybble();
      EXPECT_FALSE(short_bytes.ok()) << value << " cut at " << cut;
    }
  }
}

TEST(Nybble, TruncatedSignedInputIsError) {
  for (int64_t value : SignedTestValues()) {
    NybbleWriter writer;
    writer.WriteSignedNybble(value);
    const size_t count = writer.nybble_length();
    const std::vector<uint8_t> bytes = writer.Finish();
    NybbleReader reader(bytes, count - 1);
    EXPECT_EQ(reader.ReadSignedNybble(), 0);
    EXPECT_FALSE(reader.ok()) << value;
  }
}

TEST(Nybble, StopBitPastTheBoundIsError) {
  // 20 bytes of continuation nybbles then a stop: the fast path sees the stop bit in its word,
  // but the reader is bounded before it.
  std::vector<uint8_t> bytes(20, 0x00);
  bytes[5] = 0x10;  // Nybble 11 stops.
  NybbleReader whole(bytes);
  EXPECT_EQ(whole.ReadNybble(), 0u);
  EXPECT_EQ(whole.position(), 12u);
  EXPECT_TRUE(whole.ok());
  NybbleReader bounded(bytes, 11);
  EXPECT_EQ(bounded.ReadNybble(), 0u);
  EXPECT_FALSE(bounded.ok());
}

TEST(Nybble, OverlongStringIsError) {
  // 22 continuation nybbles: no stop bit within the longest code.
  const std::vector<uint8_t> reader_bytes = FromNybbles(std::string(22, '0') + "1");
  NybbleReader reader(reader_bytes);
  EXPECT_EQ(reader.ReadNybble(), 0u);
  EXPECT_FALSE(reader.ok());
  const std::vector<uint8_t> signed_reader_bytes = FromNybbles(std::string(22, '0') + "1");
  NybbleReader signed_reader(signed_reader_bytes);
  EXPECT_EQ(signed_reader.ReadSignedNybble(), 0);
  EXPECT_FALSE(signed_reader.ok());
}

TEST(Nybble, OverflowIsError) {
  // 22nd nybble with data 010: bit 64, one above UINT64_MAX.
  const std::vector<uint8_t> unsigned_reader_bytes = FromNybbles(std::string(21, '0') + "5");
  NybbleReader unsigned_reader(unsigned_reader_bytes);
  EXPECT_EQ(unsigned_reader.ReadNybble(), 0u);
  EXPECT_FALSE(unsigned_reader.ok());
  // Signed: N = 2^64 is +2^63, one above INT64_MAX.
  const std::vector<uint8_t> signed_reader_bytes = FromNybbles(std::string(21, '0') + "5");
  NybbleReader signed_reader(signed_reader_bytes);
  EXPECT_EQ(signed_reader.ReadSignedNybble(), 0);
  EXPECT_FALSE(signed_reader.ok());
  // N = 2^64 + 3 is −(2^63 + 1).
  const std::vector<uint8_t> below_min_bytes = FromNybbles("6" + std::string(20, '0') + "5");
  NybbleReader below_min(below_min_bytes);
  EXPECT_EQ(below_min.ReadSignedNybble(), 0);
  EXPECT_FALSE(below_min.ok());
  // Data 011 in the 22nd nybble: bits 63 and 64.
  const std::vector<uint8_t> top_three_bytes = FromNybbles("2" + std::string(20, '0') + "7");
  NybbleReader top_three(top_three_bytes);
  EXPECT_EQ(top_three.ReadSignedNybble(), 0);
  EXPECT_FALSE(top_three.ok());
}

TEST(Nybble, ErrorIsSticky) {
  const std::vector<uint8_t> reader_bytes = FromNybbles("0");
  NybbleReader reader(reader_bytes);
  reader.ReadNybble();
  EXPECT_FALSE(reader.ok());
  reader.Seek(0);
  EXPECT_FALSE(reader.ok());
  const std::vector<uint8_t> seeker_bytes = FromNybbles("11");
  NybbleReader seeker(seeker_bytes);
  seeker.Seek(3);
  EXPECT_FALSE(seeker.ok());
  EXPECT_EQ(seeker.nybbles_left(), 0u);
}

TEST(Nybble, AcceptsNonMinimalStringsAndNegativeZero) {
  const std::vector<uint8_t> reader_bytes = FromNybbles(
      "0001"
      "3");
  NybbleReader reader(reader_bytes);
  EXPECT_EQ(reader.ReadNybble(), 0u);
  EXPECT_EQ(reader.ReadSignedNybble(), 0);  // Sign 1, magnitude 0.
  EXPECT_TRUE(reader.ok());
}

TEST(Nybble, RandomBytesNeverOverrun) {
  std::mt19937_64 random(9);
  for (int round = 0; round < 5000; ++round) {
    std::vector<uint8_t> bytes(random() % 40);
    // Mostly continuation nybbles, so long strings and both error kinds occur.
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 8 ? random() & 0xEE : random());
    auto copy = ExactCopy(bytes);
    NybbleReader reader(absl::MakeConstSpan(copy.get(), bytes.size()),
                        random() % (2 * bytes.size() + 2));
    for (int i = 0; reader.ok() && i < 100; ++i) {
      const size_t before = reader.position();
      if (random() % 2) {
        const uint64_t value = reader.ReadNybble();
        if (reader.ok()) {
          ASSERT_LE(static_cast<size_t>(NybbleLength(value)), reader.position() - before);
        }
      } else {
        const int64_t value = reader.ReadSignedNybble();
        if (reader.ok()) {
          ASSERT_LE(static_cast<size_t>(SignedNybbleLength(value)), reader.position() - before);
        }
      }
    }
    if (!reader.ok()) {
      EXPECT_EQ(reader.nybbles_left(), 0u);
    }
  }
}

}  // namespace
}  // namespace crawldb::codecs
