#include "codecs/varint.h"

#include <cstdint>
#include <limits>
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

std::vector<uint8_t> Encode(uint64_t value) {
  std::vector<uint8_t> bytes;
  AppendVarint(value, &bytes);
  return bytes;
}

// Decodes from an exact heap copy so that AddressSanitizer sees any over-read.
const uint8_t* DecodeExact(const std::vector<uint8_t>& bytes, uint64_t* out, size_t* consumed) {
  auto copy = ExactCopy(bytes);
  const uint8_t* end = ReadVarint(copy.get(), copy.get() + bytes.size(), out);
  *consumed = end == nullptr ? 0 : static_cast<size_t>(end - copy.get());
  return end;
}

TEST(Varint, GoldenCodewords) {
  EXPECT_EQ(Encode(0), std::vector<uint8_t>({0x00}));
  EXPECT_EQ(Encode(1), std::vector<uint8_t>({0x01}));
  EXPECT_EQ(Encode(127), std::vector<uint8_t>({0x7F}));
  EXPECT_EQ(Encode(128), std::vector<uint8_t>({0x80, 0x01}));
  EXPECT_EQ(Encode(300), std::vector<uint8_t>({0xAC, 0x02}));
  EXPECT_EQ(Encode(16383), std::vector<uint8_t>({0xFF, 0x7F}));
  EXPECT_EQ(Encode(16384), std::vector<uint8_t>({0x80, 0x80, 0x01}));
  EXPECT_EQ(Encode(UINT64_MAX),
            std::vector<uint8_t>({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
  EXPECT_EQ(Encode(uint64_t{1} << 63),
            std::vector<uint8_t>({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}));
}

TEST(Varint, StringAndVectorAppendAgree) {
  std::string text;
  std::vector<uint8_t> bytes;
  for (uint64_t value : {uint64_t{300}, uint64_t{5}, UINT64_MAX}) {
    AppendVarint(value, &text);
    AppendVarint(value, &bytes);
  }
  EXPECT_EQ(text.substr(0, 3), std::string("\xAC\x02\x05", 3));
  EXPECT_EQ(text, std::string(bytes.begin(), bytes.end()));
}

TEST(Varint, LengthBoundaries) {
  EXPECT_EQ(VarintLength(0), 1u);
  EXPECT_EQ(VarintLength(127), 1u);
  EXPECT_EQ(VarintLength(128), 2u);
  EXPECT_EQ(VarintLength((uint64_t{1} << 56) - 1), 8u);
  EXPECT_EQ(VarintLength(uint64_t{1} << 56), 9u);
  EXPECT_EQ(VarintLength((uint64_t{1} << 63) - 1), 9u);
  EXPECT_EQ(VarintLength(uint64_t{1} << 63), 10u);
  EXPECT_EQ(VarintLength(UINT64_MAX), kMaxVarintBytes);
}

TEST(Varint, RoundTripsBoundaries) {
  for (uint64_t value : TestValues()) {
    uint8_t buffer[kMaxVarintBytes];
    const size_t length = WriteVarint(value, buffer);
    ASSERT_EQ(length, VarintLength(value)) << value;
    const std::vector<uint8_t> bytes(buffer, buffer + length);
    uint64_t decoded = 0;
    size_t consumed = 0;
    ASSERT_NE(DecodeExact(bytes, &decoded, &consumed), nullptr) << value;
    EXPECT_EQ(decoded, value);
    EXPECT_EQ(consumed, length);
  }
}

TEST(Varint, ReadsSequence) {
  std::vector<uint8_t> bytes;
  const std::vector<uint64_t> values = TestValues();
  for (uint64_t value : values) AppendVarint(value, &bytes);
  const uint8_t* p = bytes.data();
  const uint8_t* end = p + bytes.size();
  for (uint64_t value : values) {
    uint64_t decoded;
    p = ReadVarint(p, end, &decoded);
    ASSERT_NE(p, nullptr);
    ASSERT_EQ(decoded, value);
  }
  EXPECT_EQ(p, end);
}

TEST(Varint, TruncatedInputIsError) {
  for (uint64_t value : TestValues()) {
    const std::vector<uint8_t> bytes = Encode(value);
    for (size_t size = 0; size < bytes.size(); ++size) {
      uint64_t decoded = 12345;
      size_t consumed;
      EXPECT_EQ(DecodeExact(std::vector<uint8_t>(bytes.begin(), bytes.begin() + size), &decoded,
                            &consumed),
                nullptr)
          << value << " cut at " << size;
      EXPECT_EQ(decoded, 12345u);
    }
  }
}

TEST(Varint, OverlongAndOverflowingInputIsError) {
  uint64_t decoded;
  size_t consumed;
  // Ten bytes, the last one 1: UINT64_MAX, fine.
  std::vector<uint8_t> bytes(9, 0xFF);
  bytes.push_back(0x01);
  ASSERT_NE(DecodeExact(bytes, &decoded, &consumed), nullptr);
  EXPECT_EQ(decoded, UINT64_MAX);
  // A 10th byte of 2 would be bit 64.
  bytes.back() = 0x02;
  EXPECT_EQ(DecodeExact(bytes, &decoded, &consumed), nullptr);
  // A 10th byte with its continuation bit asks for an 11th.
  bytes.back() = 0x81;
  bytes.push_back(0x00);
  EXPECT_EQ(DecodeExact(bytes, &decoded, &consumed), nullptr);
  // Eleven bytes of zero groups.
  std::vector<uint8_t> zeros(10, 0x80);
  zeros.push_back(0x00);
  EXPECT_EQ(DecodeExact(zeros, &decoded, &consumed), nullptr);
}

TEST(Varint, AcceptsRedundantZeroGroups) {
  uint64_t decoded;
  size_t consumed;
  ASSERT_NE(DecodeExact({0x80, 0x00}, &decoded, &consumed), nullptr);
  EXPECT_EQ(decoded, 0u);
  EXPECT_EQ(consumed, 2u);
}

TEST(Varint, RandomBytesNeverOverrun) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> bytes(random() % 16);
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 3 ? 0x80 | random() : random());
    uint64_t decoded;
    size_t consumed;
    if (DecodeExact(bytes, &decoded, &consumed) != nullptr) {
      // Whatever decodes re-encodes to a varint of the same value no longer than what was read.
      EXPECT_LE(VarintLength(decoded), consumed);
      EXPECT_LE(consumed, kMaxVarintBytes);
    }
  }
}

TEST(ZigZag, GoldenMapping) {
  EXPECT_EQ(ZigZagEncode(0), 0u);
  EXPECT_EQ(ZigZagEncode(-1), 1u);
  EXPECT_EQ(ZigZagEncode(1), 2u);
  EXPECT_EQ(ZigZagEncode(-2), 3u);
  EXPECT_EQ(ZigZagEncode(63), 126u);
  EXPECT_EQ(ZigZagEncode(-64), 127u);
  EXPECT_EQ(ZigZagEncode(INT64_MAX), UINT64_MAX - 1);
  EXPECT_EQ(ZigZagEncode(INT64_MIN), UINT64_MAX);
  EXPECT_EQ(ZigZagDecode(UINT64_MAX), INT64_MIN);
  EXPECT_EQ(ZigZagDecode(3), -2);
}

TEST(SignedVarint, GoldenCodewords) {
  std::vector<uint8_t> bytes;
  AppendSignedVarint(-1, &bytes);
  AppendSignedVarint(64, &bytes);
  AppendSignedVarint(-64, &bytes);
  EXPECT_EQ(bytes, std::vector<uint8_t>({0x01, 0x80, 0x01, 0x7F}));
  std::string text;
  AppendSignedVarint(INT64_MIN, &text);
  EXPECT_EQ(text, std::string("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF\x01", 10));
}

TEST(SignedVarint, RoundTripsBoundaries) {
  for (int64_t value : SignedTestValues()) {
    uint8_t buffer[kMaxVarintBytes];
    const size_t length = WriteSignedVarint(value, buffer);
    ASSERT_EQ(length, SignedVarintLength(value)) << value;
    int64_t decoded = 0;
    const uint8_t* end = ReadSignedVarint(buffer, buffer + length, &decoded);
    ASSERT_EQ(end, buffer + length) << value;
    EXPECT_EQ(decoded, value);
    EXPECT_EQ(ReadSignedVarint(buffer, buffer + length - 1, &decoded), nullptr) << value;
  }
}

}  // namespace
}  // namespace crawldb::codecs
