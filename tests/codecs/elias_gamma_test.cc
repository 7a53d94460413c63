#include "codecs/elias_gamma.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

// 0..1023, then 2^k − 1, 2^k and 2^k + 1 for every k that fits, and UINT64_MAX.
std::vector<uint64_t> TestValues() {
  std::vector<uint64_t> values;
  for (uint64_t v = 0; v < 1024; ++v) values.push_back(v);
  for (int k = 1; k < 64; ++k) {
    const uint64_t power = uint64_t{1} << k;
    values.insert(values.end(), {power - 1, power, power + 1});
  }
  values.insert(values.end(), {UINT64_MAX - 1, UINT64_MAX});
  return values;
}

// The low `count` bits of `value` as '0'/'1', most significant first.
std::string Binary(unsigned __int128 value, int count) {
  std::string bits;
  for (int i = count - 1; i >= 0; --i) bits += ((value >> i) & 1) ? '1' : '0';
  return bits;
}

// floor(log2 y), y ≥ 1.
int Log2(unsigned __int128 y) {
  int m = 0;
  while (y >>= 1) ++m;
  return m;
}

// The first `bit_count` bits of `bytes` as '0'/'1'.
std::string BitString(const std::vector<uint8_t>& bytes, uint64_t bit_count) {
  std::string bits;
  for (uint64_t i = 0; i < bit_count; ++i) {
    bits += ((bytes[i / 8] >> (7 - i % 8)) & 1) ? '1' : '0';
  }
  return bits;
}

// Bytes holding '0'/'1' bits, the last byte padded with zeros.
std::vector<uint8_t> FromBitString(const std::string& bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(0x80 >> (i % 8));
  }
  return bytes;
}

// A heap copy with no slack after the last byte, so AddressSanitizer catches any over-read.
std::unique_ptr<uint8_t[]> ExactCopy(const std::vector<uint8_t>& bytes) {
  auto copy = std::make_unique<uint8_t[]>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), copy.get());
  return copy;
}

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
