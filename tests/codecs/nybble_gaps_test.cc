// Link2's single-list code (codecs/nybble_gaps.h): golden nybbles, lengths, the decoder's range
// checks and its reads near the end of a span, and the count of codes in a nybble range.
#include "codecs/nybble_gaps.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::ExactCopy;

// The nybbles of a stream, in stream order, as hex digits.
std::string Nybbles(const std::vector<uint8_t>& bytes, size_t count) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (size_t i = 0; i < count; ++i) out += kHex[(bytes[i / 2] >> (4 * (i % 2))) & 0xF];
  return out;
}

std::vector<uint8_t> Encode(uint32_t source, const std::vector<uint32_t>& list, size_t* nybbles) {
  NybbleWriter writer;
  WriteGapList(source, list, &writer);
  *nybbles = writer.nybble_length();
  EXPECT_EQ(*nybbles, GapListLength(source, list));
  return writer.Finish();
}

TEST(NybbleGaps, CodesThePapersFigure2) {
  // 104 → 101, 132, 174: −3 (N = 7: F), 30 (C 7), 41 (2 B).
  size_t nybbles;
  const std::vector<uint8_t> bytes = Encode(104, {101, 132, 174}, &nybbles);
  EXPECT_EQ(Nybbles(bytes, nybbles), "FC72B");
}

TEST(NybbleGaps, StoresLaterGapsLessOne) {
  // A self loop is first gap 0 (signed: 1); consecutive ids are gap 1, stored 0 (1).
  size_t nybbles;
  const std::vector<uint8_t> bytes = Encode(5, {5, 6, 7, 15}, &nybbles);
  EXPECT_EQ(Nybbles(bytes, nybbles), "111F");  // 15 − 7 − 1 = 7: one nybble.
}

TEST(NybbleGaps, RoundTripsRandomListsEverywhereInTheSpan) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % (trial % 2 ? 100 : 1u << 31));
    const uint32_t source = static_cast<uint32_t>(rng() % n);
    std::vector<uint32_t> list;
    for (uint64_t id = rng() % n; id < n && list.size() < 40; id += 1 + rng() % (n / 8 + 1)) {
      list.push_back(static_cast<uint32_t>(id));
    }
    // Behind 0 to 3 other nybbles, so that the list starts on either half of a byte and ends
    // near the end of an exact-size span (the decoder's byte-at-a-time path).
    NybbleWriter writer;
    const int lead = trial % 4;
    for (int k = 0; k < lead; ++k) writer.WriteNybble(0);
    WriteGapList(source, list, &writer);
    const uint64_t end = writer.nybble_length();
    const std::vector<uint8_t> bytes = writer.Finish();
    const auto exact = ExactCopy(bytes);
    std::vector<uint32_t> decoded;
    ASSERT_TRUE(ReadGapList(source, n, {exact.get(), bytes.size()}, lead, end, &decoded));
    ASSERT_EQ(decoded, list);
    ASSERT_EQ(CountNybbleCodes({exact.get(), bytes.size()}, lead, end), list.size());
  }
}

TEST(NybbleGaps, RefusesIdsOutOfRangeAndUnendedCodes) {
  size_t nybbles;
  const std::vector<uint8_t> bytes = Encode(2, {0, 3, 9}, &nybbles);
  std::vector<uint32_t> out;
  EXPECT_TRUE(ReadGapList(2, 10, bytes, 0, nybbles, &out));
  out.clear();
  EXPECT_FALSE(ReadGapList(2, 9, bytes, 0, nybbles, &out));  // 9 is not below 9.
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 3}));
  out.clear();
  EXPECT_FALSE(ReadGapList(1, 10, bytes, 0, nybbles, &out));  // 1 − 2 < 0.
  // A code cut by the list's end: 0 → 0, 20 is 0 (1 nybble) then 19 = 3 + 2·8 (2 nybbles);
  // a list ending after nybble 2 ends inside the second code.
  const std::vector<uint8_t> two = Encode(0, {0, 20}, &nybbles);
  ASSERT_EQ(nybbles, 3u);
  out.clear();
  EXPECT_FALSE(ReadGapList(0, 100, two, 0, 2, &out));
}

TEST(NybbleGaps, AcceptsElevenNybblesAndRefusesTwelve) {
  // 0 → 0, 2^32 − 2 in a graph of 2^32 − 1 nodes: the gap less one, 2^32 − 3, takes 11 nybbles.
  size_t nybbles;
  const std::vector<uint8_t> bytes = Encode(0, {0, UINT32_MAX - 1}, &nybbles);
  ASSERT_EQ(nybbles, 12u);
  std::vector<uint32_t> out;
  EXPECT_TRUE(ReadGapList(0, UINT32_MAX, bytes, 0, nybbles, &out));
  EXPECT_EQ(out, (std::vector<uint32_t>{0, UINT32_MAX - 1}));
  // A code of 12 nybbles stands for 2^33 or more: refused. Nybbles 1..11 without stop bits,
  // nybble 12 with one, read as one list from nybble 1 to 13.
  std::vector<uint8_t> twelve(6, 0x00);
  twelve.push_back(0x01);
  out.clear();
  EXPECT_FALSE(ReadGapList(0, UINT32_MAX, twelve, 1, 2 * twelve.size() - 1, &out));
}

TEST(NybbleGaps, CountsCodesInAnyRange) {
  // Stop bits at nybbles 1, 2, 5 and every nybble from 16 to 40.
  std::vector<uint8_t> bytes(21, 0);
  const auto set = [&bytes](size_t nybble) { bytes[nybble / 2] |= 1 << (4 * (nybble % 2)); };
  set(1);
  set(2);
  set(5);
  for (size_t i = 16; i <= 40; ++i) set(i);
  for (uint64_t begin = 0; begin <= 42; ++begin) {
    for (uint64_t end = begin; end <= 42; ++end) {
      uint64_t expected = 0;
      for (uint64_t i = begin; i < end; ++i) expected += (bytes[i / 2] >> (4 * (i % 2))) & 1;
      ASSERT_EQ(CountNybbleCodes(bytes, begin, end), expected) << begin << ".." << end;
    }
  }
}

}  // namespace
}  // namespace crawldb::codecs
