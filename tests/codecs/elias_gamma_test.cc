#include "codecs/elias_gamma.h"

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

// γ(y) by the definition: floor(log2 y) zeros, then y in binary.
std::string ReferenceGamma(unsigned __int128 y) {
  const int m = Log2(y);
  return std::string(m, '0') + Binary(y, m + 1);
}

std::string Encode(uint64_t x) {
  BitWriter writer;
  WriteGamma(writer, x);
  const uint64_t length = writer.bit_length();
  return BitString(writer.Finish(), length);
}

TEST(EliasGamma, GoldenCodewords) {
  EXPECT_EQ(Encode(0), "1");
  EXPECT_EQ(Encode(1), "010");
  EXPECT_EQ(Encode(2), "011");
  EXPECT_EQ(Encode(3), "00100");
  EXPECT_EQ(Encode(4), "00101");
  EXPECT_EQ(Encode(6), "00111");
  EXPECT_EQ(Encode(7), "0001000");
  EXPECT_EQ(Encode(14), "0001111");
  EXPECT_EQ(Encode(UINT64_MAX), std::string(64, '0') + "1" + std::string(64, '0'));
}

TEST(EliasGamma, MatchesDefinition) {
  for (uint64_t x : TestValues()) {
    ASSERT_EQ(Encode(x), ReferenceGamma(static_cast<unsigned __int128>(x) + 1)) << x;
  }
}

TEST(EliasGamma, LengthsAgreeWithWriter) {
  for (uint64_t x : TestValues()) {
    BitWriter writer;
    WriteGamma(writer, x);
    ASSERT_EQ(writer.bit_length(), static_cast<uint64_t>(GammaLength(x))) << x;
  }
  EXPECT_EQ(GammaLength(0), 1);
  EXPECT_EQ(GammaLength((uint64_t{1} << 32) - 2), 63);
  EXPECT_EQ(GammaLength((uint64_t{1} << 32) - 1), 65);
  EXPECT_EQ(GammaLength(UINT64_MAX - 1), 127);
  EXPECT_EQ(GammaLength(UINT64_MAX), 129);
}

// One stream of every test value, read back from an exact-size buffer.
TEST(EliasGamma, RoundTripsBoundaries) {
  BitWriter writer;
  std::vector<uint64_t> ends;
  for (uint64_t x : TestValues()) {
    WriteGamma(writer, x);
    ends.push_back(writer.bit_length());
  }
  const std::vector<uint8_t> bytes = writer.Finish();
  auto copy = ExactCopy(bytes);
  BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
  size_t i = 0;
  for (uint64_t x : TestValues()) {
    ASSERT_EQ(ReadGamma(reader), x);
    ASSERT_EQ(reader.position(), ends[i++]) << x;
  }
  EXPECT_TRUE(reader.ok());
}

TEST(EliasGamma, RoundTripsAloneAtTheEnd) {
  for (uint64_t x : TestValues()) {
    BitWriter writer;
    WriteGamma(writer, x);
    const std::vector<uint8_t> bytes = writer.Finish();
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    ASSERT_EQ(ReadGamma(reader), x);
    ASSERT_TRUE(reader.ok());
  }
}

// Each codeword is placed to end on a byte boundary, then cut by whole bytes: every cut
// leaves a proper prefix, which must be reported.
TEST(EliasGamma, TruncatedInputIsError) {
  for (uint64_t x : TestValues()) {
    const int filler = (8 - GammaLength(x) % 8) % 8;
    BitWriter writer;
    writer.WriteBits(UINT64_MAX, filler);
    WriteGamma(writer, x);
    const std::vector<uint8_t> bytes = writer.Finish();
    for (size_t size = 0; size < bytes.size(); ++size) {
      const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
      auto copy = ExactCopy(prefix);
      BitReader reader(absl::MakeConstSpan(copy.get(), size));
      reader.SkipBits(std::min<uint64_t>(filler, size * 8));
      ReadGamma(reader);
      ASSERT_FALSE(reader.ok()) << x << " cut to " << size << " bytes";
    }
  }
}

TEST(EliasGamma, PrefixOfMoreThanSixtyFourZerosIsError) {
  const std::vector<uint8_t> bytes =
      FromBitString(std::string(65, '0') + "1" + std::string(65, '0'));
  BitReader reader(bytes);
  ReadGamma(reader);
  EXPECT_FALSE(reader.ok());
}

TEST(EliasGamma, ValueAboveUint64MaxIsError) {
  const std::string prefix = std::string(64, '0') + "1";
  const std::vector<uint8_t> max = FromBitString(prefix + std::string(64, '0'));
  BitReader max_reader(max);
  EXPECT_EQ(ReadGamma(max_reader), UINT64_MAX);
  EXPECT_TRUE(max_reader.ok());
  const std::vector<uint8_t> above = FromBitString(prefix + std::string(63, '0') + "1");
  BitReader above_reader(above);
  ReadGamma(above_reader);
  EXPECT_FALSE(above_reader.ok());
}

TEST(EliasGamma, RandomBytesNeverOverrun) {
  std::mt19937_64 random(13);
  for (int round = 0; round < 5000; ++round) {
    std::vector<uint8_t> bytes(random() % 40);
    // Mostly zero bytes, so long prefixes occur.
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 4 ? 0 : random());
    auto copy = ExactCopy(bytes);
    BitReader reader(absl::MakeConstSpan(copy.get(), bytes.size()));
    while (reader.ok()) {
      const uint64_t before = reader.position();
      const uint64_t x = ReadGamma(reader);
      if (reader.ok()) {
        ASSERT_EQ(reader.position() - before, static_cast<uint64_t>(GammaLength(x)));
      }
    }
    EXPECT_EQ(reader.bits_left(), 0u);
  }
}

}  // namespace
}  // namespace crawldb::codecs
