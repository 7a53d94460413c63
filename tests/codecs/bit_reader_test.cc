#include "codecs/bit_reader.h"

#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "codecs/bit_writer.h"
#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::ExactCopy;

TEST(BitReader, ReadsMostSignificantBitFirst) {
  const std::vector<uint8_t> bytes = {0xB8, 0x01};
  BitReader reader(bytes);
  EXPECT_EQ(reader.ReadBits(3), 0b101u);
  EXPECT_EQ(reader.ReadBits(2), 0b11u);
  EXPECT_EQ(reader.position(), 5u);
  EXPECT_EQ(reader.ReadBits(0), 0u);
  EXPECT_EQ(reader.ReadBits(11), 0b00000000001u);
  EXPECT_EQ(reader.bits_left(), 0u);
  EXPECT_TRUE(reader.ok());
}

TEST(BitReader, ReadsSixtyFourBitsAtEveryOffset) {
  const std::vector<uint8_t> bytes = {0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF, 0xF0, 0x0F};
  const unsigned __int128 all = (static_cast<unsigned __int128>(0x0123456789ABCDEF) << 16) | 0xF00F;
  for (int offset = 0; offset <= 16; ++offset) {
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    reader.Seek(offset);
    const uint64_t expected = static_cast<uint64_t>(all >> (16 - offset));
    EXPECT_EQ(reader.PeekBits(64), expected) << offset;
    EXPECT_EQ(reader.ReadBits(64), expected) << offset;
    EXPECT_TRUE(reader.ok());
  }
}

TEST(BitReader, ReadsUnary) {
  const std::vector<uint8_t> bytes = {0b10001010, 0b00000000, 0b00000001};
  BitReader reader(bytes);
  EXPECT_EQ(reader.ReadUnary(), 0u);
  EXPECT_EQ(reader.ReadUnary(), 3u);
  EXPECT_EQ(reader.ReadUnary(), 1u);
  EXPECT_EQ(reader.ReadUnary(), 16u);
  EXPECT_EQ(reader.bits_left(), 0u);
  EXPECT_TRUE(reader.ok());
}

TEST(BitReader, ReadsLongUnaryAcrossWords) {
  for (uint64_t zeros : {56u, 57u, 63u, 64u, 65u, 127u, 128u, 129u, 500u}) {
    for (int lead = 0; lead < 8; ++lead) {
      BitWriter writer;
      writer.WriteBits(0, lead);
      writer.WriteUnary(zeros);
      writer.WriteBits(0b101, 3);
      const std::vector<uint8_t> bytes = writer.Finish();
      auto copy = ExactCopy(bytes);
      BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
      reader.SkipBits(lead);
      EXPECT_EQ(reader.ReadUnary(), zeros) << zeros << " " << lead;
      EXPECT_EQ(reader.ReadBits(3), 0b101u);
      EXPECT_TRUE(reader.ok());
    }
  }
}

TEST(BitReader, RoundTripsRandomWrites) {
  std::mt19937_64 random(7);
  std::vector<std::pair<uint64_t, int>> written;  // count -1 marks a unary code
  BitWriter writer;
  for (int i = 0; i < 50000; ++i) {
    if (random() % 5 == 0) {
      const uint64_t n = random() % 200;
      writer.WriteUnary(n);
      written.emplace_back(n, -1);
    } else {
      const int count = static_cast<int>(random() % 65);
      const uint64_t value = count == 64 ? random() : random() & ((uint64_t{1} << count) - 1);
      writer.WriteBits(value, count);
      written.emplace_back(value, count);
    }
  }
  const uint64_t bit_length = writer.bit_length();
  const std::vector<uint8_t> bytes = writer.Finish();
  auto copy = ExactCopy(bytes);
  BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
  for (const auto& [value, count] : written) {
    if (count < 0) {
      ASSERT_EQ(reader.ReadUnary(), value);
    } else {
      ASSERT_EQ(reader.ReadBits(count), value);
    }
  }
  EXPECT_EQ(reader.position(), bit_length);
  EXPECT_TRUE(reader.ok());
}

TEST(BitReader, PeekPastTheEndReadsZerosWithoutError) {
  const std::vector<uint8_t> bytes = {0xFF};
  BitReader reader(bytes);
  reader.SkipBits(4);
  EXPECT_EQ(reader.PeekBits(8), 0xF0u);
  EXPECT_EQ(reader.PeekBits(64), uint64_t{0xF} << 60);
  EXPECT_TRUE(reader.ok());
  EXPECT_EQ(reader.position(), 4u);
}

TEST(BitReader, ReadPastTheEndIsStickyError) {
  const std::vector<uint8_t> bytes = {0xFF, 0xFF};
  BitReader reader(bytes);
  EXPECT_EQ(reader.ReadBits(10), 0x3FFu);
  EXPECT_EQ(reader.ReadBits(7), 0u);  // Only 6 bits left.
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.bits_left(), 0u);
  EXPECT_EQ(reader.ReadBits(1), 0u);
  reader.Seek(0);
  EXPECT_EQ(reader.ReadBits(8), 0xFFu);
  EXPECT_FALSE(reader.ok());
}

TEST(BitReader, UnaryWithoutOneBitIsError) {
  const std::vector<uint8_t> bytes(20, 0);
  for (size_t size = 0; size <= bytes.size(); ++size) {
    std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
    auto copy = ExactCopy(prefix);
    BitReader reader(absl::MakeConstSpan(copy.get(), size));
    EXPECT_EQ(reader.ReadUnary(), 0u);
    EXPECT_FALSE(reader.ok()) << size;
    EXPECT_EQ(reader.bits_left(), 0u);
  }
}

TEST(BitReader, UnaryEndingOnTheLastBit) {
  for (size_t size = 1; size <= 20; ++size) {
    std::vector<uint8_t> bytes(size, 0);
    bytes.back() = 1;
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), size));
    EXPECT_EQ(reader.ReadUnary(), size * 8 - 1);
    EXPECT_TRUE(reader.ok());
    EXPECT_EQ(reader.ReadUnary(), 0u);
    EXPECT_FALSE(reader.ok());
  }
}

TEST(BitReader, SeekAndSkipBeyondTheEndAreErrors) {
  const std::vector<uint8_t> bytes = {0x12, 0x34};
  BitReader reader(bytes);
  reader.Seek(16);
  EXPECT_TRUE(reader.ok());
  reader.Seek(8);
  EXPECT_EQ(reader.ReadBits(8), 0x34u);
  reader.Seek(17);
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.position(), 16u);

  BitReader skipper(bytes);
  skipper.SkipBits(17);
  EXPECT_FALSE(skipper.ok());
}

TEST(BitReader, EmptyInput) {
  BitReader reader(absl::Span<const uint8_t>{});
  EXPECT_EQ(reader.bit_size(), 0u);
  EXPECT_EQ(reader.PeekBits(64), 0u);
  EXPECT_EQ(reader.ReadBits(0), 0u);
  EXPECT_TRUE(reader.ok());
  EXPECT_EQ(reader.ReadBits(1), 0u);
  EXPECT_FALSE(reader.ok());
}

TEST(BitReader, FailMovesToTheEnd) {
  const std::vector<uint8_t> bytes = {0xFF};
  BitReader reader(bytes);
  EXPECT_EQ(reader.Fail(), 0u);
  EXPECT_FALSE(reader.ok());
  EXPECT_EQ(reader.bits_left(), 0u);
}

TEST(BitReader, RandomReadsNeverOverrun) {
  std::mt19937_64 random(3);
  for (int round = 0; round < 2000; ++round) {
    std::vector<uint8_t> bytes(random() % 24);
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 4 == 0 ? random() : 0);
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    while (reader.ok()) {
      if (random() % 2) {
        reader.ReadUnary();
      } else {
        reader.ReadBits(static_cast<int>(random() % 65));
      }
    }
    EXPECT_EQ(reader.bits_left(), 0u);
  }
}

}  // namespace
}  // namespace crawldb::codecs
