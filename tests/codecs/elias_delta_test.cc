#include "codecs/elias_delta.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
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

// δ(y) by the definition: γ(floor(log2 y) + 1), then the bits of y below its leading one.
std::string ReferenceDelta(unsigned __int128 y) {
  const int m = Log2(y);
  const int mm = Log2(m + 1);
  return std::string(mm, '0') + Binary(m + 1, mm + 1) + Binary(y, m);
}

std::string Encode(uint64_t x) {
  BitWriter writer;
  WriteDelta(writer, x);
  const uint64_t length = writer.bit_length();
  return BitString(writer.Finish(), length);
}

TEST(EliasDelta, GoldenCodewords) {
  EXPECT_EQ(Encode(0), "1");
  EXPECT_EQ(Encode(1), "0100");
  EXPECT_EQ(Encode(2), "0101");
  EXPECT_EQ(Encode(3), "01100");
  EXPECT_EQ(Encode(4), "01101");
  EXPECT_EQ(Encode(6), "01111");
  EXPECT_EQ(Encode(7), "00100000");
  EXPECT_EQ(Encode(14), "00100111");
  EXPECT_EQ(Encode(15), "001010000");
  // γ(65) = 0000001000001, then 64 zeros.
  EXPECT_EQ(Encode(UINT64_MAX), "0000001000001" + std::string(64, '0'));
}

TEST(EliasDelta, MatchesDefinition) {
  for (uint64_t x : TestValues()) {
    ASSERT_EQ(Encode(x), ReferenceDelta(static_cast<unsigned __int128>(x) + 1)) << x;
  }
}

TEST(EliasDelta, LengthsAgreeWithWriter) {
  for (uint64_t x : TestValues()) {
    BitWriter writer;
    WriteDelta(writer, x);
    ASSERT_EQ(writer.bit_length(), static_cast<uint64_t>(DeltaLength(x))) << x;
  }
  EXPECT_EQ(DeltaLength(0), 1);
  EXPECT_EQ(DeltaLength(UINT64_MAX - 1), 13 + 63);  // γ(64) then 63 bits.
  EXPECT_EQ(DeltaLength(UINT64_MAX), 77);
}

TEST(EliasDelta, RoundTripsBoundaries) {
  BitWriter writer;
  std::vector<uint64_t> ends;
  for (uint64_t x : TestValues()) {
    WriteDelta(writer, x);
    ends.push_back(writer.bit_length());
  }
  const std::vector<uint8_t> bytes = writer.Finish();
  auto copy = ExactCopy(bytes);
  BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
  size_t i = 0;
  for (uint64_t x : TestValues()) {
    ASSERT_EQ(ReadDelta(reader), x);
    ASSERT_EQ(reader.position(), ends[i++]) << x;
  }
  EXPECT_TRUE(reader.ok());
}

TEST(EliasDelta, RoundTripsAloneAtTheEnd) {
  for (uint64_t x : TestValues()) {
    BitWriter writer;
    WriteDelta(writer, x);
    const std::vector<uint8_t> bytes = writer.Finish();
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    ASSERT_EQ(ReadDelta(reader), x);
    ASSERT_TRUE(reader.ok());
  }
}

// Each codeword is placed to end on a byte boundary, then cut by whole bytes: every cut
// leaves a proper prefix, which must be reported.
TEST(EliasDelta, TruncatedInputIsError) {
  for (uint64_t x : TestValues()) {
    const int filler = (8 - DeltaLength(x) % 8) % 8;
    BitWriter writer;
    writer.WriteBits(UINT64_MAX, filler);
    WriteDelta(writer, x);
    const std::vector<uint8_t> bytes = writer.Finish();
    for (size_t size = 0; size < bytes.size(); ++size) {
      const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
      auto copy = ExactCopy(prefix);
      BitReader reader(absl::MakeConstSpan(copy.get(), size));
      reader.SkipBits(std::min<uint64_t>(filler, size * 8));
      ReadDelta(reader);
      ASSERT_FALSE(reader.ok()) << x << " cut to " << size << " bytes";
    }
  }
}

TEST(EliasDelta, LengthAboveSixtyFourIsError) {
  // γ(66): m = 65.
  const std::vector<uint8_t> bytes = FromBitString("0000001000010" + std::string(70, '0'));
  BitReader reader(bytes);
  ReadDelta(reader);
  EXPECT_FALSE(reader.ok());
}

TEST(EliasDelta, ValueAboveUint64MaxIsError) {
  const std::string prefix = "0000001000001";  // γ(65): m = 64.
  const std::vector<uint8_t> max = FromBitString(prefix + std::string(64, '0'));
  BitReader max_reader(max);
  EXPECT_EQ(ReadDelta(max_reader), UINT64_MAX);
  EXPECT_TRUE(max_reader.ok());
  const std::vector<uint8_t> above = FromBitString(prefix + "1" + std::string(63, '0'));
  BitReader above_reader(above);
  ReadDelta(above_reader);
  EXPECT_FALSE(above_reader.ok());
}

TEST(EliasDelta, RandomBytesNeverOverrun) {
  std::mt19937_64 random(17);
  for (int round = 0; round < 5000; ++round) {
    std::vector<uint8_t> bytes(random() % 40);
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 4 ? 0 : random());
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    while (reader.ok()) {
      const uint64_t before = reader.position();
      const uint64_t x = ReadDelta(reader);
      if (reader.ok()) {
        ASSERT_EQ(reader.position() - before, static_cast<uint64_t>(DeltaLength(x)));
      }
    }
    EXPECT_EQ(reader.bits_left(), 0u);
  }
}

}  // namespace
}  // namespace crawldb::codecs
