#include "codecs/bit_writer.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::Binary;
using ::crawldb::codecs::testing::BitString;

TEST(BitWriter, PacksMostSignificantBitFirst) {
  BitWriter writer;
  writer.WriteBits(0b101, 3);
  writer.WriteBits(0b11, 2);
  EXPECT_EQ(writer.bit_length(), 5u);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0xB8}));
}

TEST(BitWriter, WritesWholeBytesAndWords) {
  BitWriter writer;
  writer.WriteBits(0xAB, 8);
  writer.WriteBits(0x0123456789ABCDEF, 64);
  writer.WriteBits(1, 1);
  EXPECT_EQ(writer.Finish(),
            std::vector<uint8_t>({0xAB, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0x80}));
}

TEST(BitWriter, UnalignedSixtyFourBitWrite) {
  BitWriter writer;
  writer.WriteBits(0, 3);
  writer.WriteBits(UINT64_MAX, 64);
  // 3 zeros, 64 ones, 5 padding zeros.
  EXPECT_EQ(writer.Finish(),
            std::vector<uint8_t>({0x1F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xE0}));
}

TEST(BitWriter, IgnoresBitsAboveCount) {
  BitWriter writer;
  writer.WriteBits(0xFF, 4);
  writer.WriteBits(UINT64_MAX, 0);
  writer.WriteBits(0b10, 1);
  EXPECT_EQ(writer.bit_length(), 5u);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0xF0}));
}

TEST(BitWriter, WritesUnary) {
  BitWriter writer;
  writer.WriteUnary(0);
  writer.WriteUnary(3);
  writer.WriteUnary(1);
  EXPECT_EQ(writer.bit_length(), 7u);
  EXPECT_EQ(BitString(writer.Finish(), 7), "1000101");
}

TEST(BitWriter, WritesLongUnary) {
  for (uint64_t n : {55u, 56u, 57u, 63u, 64u, 65u, 111u, 112u, 113u, 200u}) {
    BitWriter writer;
    writer.WriteBits(1, 1);
    writer.WriteUnary(n);
    EXPECT_EQ(writer.bit_length(), n + 2);
    EXPECT_EQ(BitString(writer.Finish(), n + 2), "1" + std::string(n, '0') + "1") << n;
  }
}

TEST(BitWriter, BytesShowsOnlyCompletedBytes) {
  BitWriter writer;
  writer.WriteBits(0xAB, 8);
  writer.WriteBits(0b1, 1);
  absl::Span<const uint8_t> done = writer.bytes();
  EXPECT_EQ(std::vector<uint8_t>(done.begin(), done.end()), std::vector<uint8_t>({0xAB}));
  EXPECT_EQ(writer.bit_length(), 9u);
  writer.WriteBits(0x7F, 7);
  done = writer.bytes();
  EXPECT_EQ(std::vector<uint8_t>(done.begin(), done.end()), std::vector<uint8_t>({0xAB, 0xFF}));
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0xAB, 0xFF}));
}

TEST(BitWriter, FinishEmptiesTheWriter) {
  BitWriter writer;
  EXPECT_TRUE(writer.Finish().empty());
  writer.WriteBits(0b1, 1);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0x80}));
  EXPECT_EQ(writer.bit_length(), 0u);
  writer.WriteBits(0b01, 2);
  EXPECT_EQ(writer.Finish(), std::vector<uint8_t>({0x40}));
}

TEST(BitWriter, MatchesBitByBitReference) {
  std::mt19937_64 random(42);
  BitWriter writer;
  std::string expected;
  for (int i = 0; i < 20000; ++i) {
    const int count = static_cast<int>(random() % 65);
    const uint64_t value = random();
    writer.WriteBits(value, count);
    expected += Binary(value, count);
    if (i % 7 == 0) {
      const uint64_t n = random() % 130;
      writer.WriteUnary(n);
      expected += std::string(n, '0') + "1";
    }
    if (i % 101 == 0) {
      // bytes() moves whole bytes out of the bit buffer; the output must not change.
      const absl::Span<const uint8_t> done = writer.bytes();
      ASSERT_EQ(done.size(), expected.size() / 8);
      ASSERT_EQ(BitString(std::vector<uint8_t>(done.begin(), done.end()), done.size() * 8),
                expected.substr(0, done.size() * 8));
    }
  }
  ASSERT_EQ(writer.bit_length(), expected.size());
  const std::vector<uint8_t> bytes = writer.Finish();
  ASSERT_EQ(bytes.size(), (expected.size() + 7) / 8);
  EXPECT_EQ(BitString(bytes, bytes.size() * 8),
            expected + std::string(bytes.size() * 8 - expected.size(), '0'));
}

}  // namespace
}  // namespace crawldb::codecs
