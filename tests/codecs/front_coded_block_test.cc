#include "codecs/front_coded_block.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::ExactCopy;
using std::string_literals::operator""s;

std::vector<uint8_t> Build(const std::vector<std::string>& keys) {
  FrontCodedBlockBuilder builder;
  for (const std::string& key : keys) EXPECT_TRUE(builder.Add(key).ok()) << key;
  return builder.Finish();
}

// Decodes a whole block, or returns its error.
absl::StatusOr<std::vector<std::string>> DecodeAll(const std::vector<uint8_t>& block) {
  auto copy = ExactCopy(block);
  absl::StatusOr<FrontCodedBlockReader> reader =
      FrontCodedBlockReader::Open(absl::MakeConstSpan(copy.get(), block.size()));
  if (!reader.ok()) return reader.status();
  std::vector<std::string> keys;
  FrontCodedBlockReader::Cursor cursor = reader->NewCursor();
  while (cursor.Next()) {
    EXPECT_EQ(cursor.index(), keys.size());
    keys.emplace_back(cursor.key());
  }
  if (!cursor.status().ok()) return cursor.status();
  return keys;
}

// Sorted, distinct binary keys: NUL and 0xFF bytes, shared prefixes, proper prefixes.
std::vector<std::string> BinaryKeys() {
  std::set<std::string> keys = {""s,
                                "\0"s,
                                "\0\0"s,
                                "\0a"s,
                                "a"s,
                                "a\0"s,
                                "a\0b"s,
                                "ab"s,
                                "abc"s,
                                "abd"s,
                                "http://example.com/"s,
                                "http://example.com/a"s,
                                "http://example.com/a/b\0c"s,
                                "http://example.org/"s,
                                "\x7F"s,
                                "\x80"s,
                                "\xFF"s,
                                "\xFF\xFF\x00"s,
                                std::string(300, 'z')};
  return std::vector<std::string>(keys.begin(), keys.end());
}

TEST(FrontCodedBlock, GoldenBlock) {
  EXPECT_EQ(Build({"ab", "abc", "b"}),
            std::vector<uint8_t>({0x03, 0x02, 'a', 'b', 0x02, 0x01, 'c', 0x00, 0x01, 'b'}));
  EXPECT_EQ(Build({}), std::vector<uint8_t>({0x00}));
  EXPECT_EQ(Build({""}), std::vector<uint8_t>({0x01, 0x00}));
}

TEST(FrontCodedBlock, BuilderReportsCountAndSize) {
  FrontCodedBlockBuilder builder;
  EXPECT_EQ(builder.encoded_size(), 1u);
  for (const std::string& key : BinaryKeys()) ASSERT_TRUE(builder.Add(key).ok());
  EXPECT_EQ(builder.count(), BinaryKeys().size());
  const size_t size = builder.encoded_size();
  EXPECT_EQ(builder.Finish().size(), size);
  EXPECT_EQ(builder.count(), 0u);
  EXPECT_TRUE(builder.Add("a").ok());  // Order starts over after Finish.
  EXPECT_EQ(builder.Finish(), std::vector<uint8_t>({0x01, 0x01, 'a'}));
}

TEST(FrontCodedBlock, RefusesKeysOutOfOrder) {
  FrontCodedBlockBuilder builder;
  ASSERT_TRUE(builder.Add("b").ok());
  const absl::Status smaller = builder.Add("a");
  EXPECT_EQ(smaller.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(smaller.message(),
            "front_coded_block: key \"a\" is not greater than \"b\"; add keys in strictly "
            "increasing byte order");
  EXPECT_EQ(builder.Add("b").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(builder.Add("\0"s).message(),
            "front_coded_block: key \"\\x00\" is not greater than \"b\"; add keys in strictly "
            "increasing byte order");
  EXPECT_TRUE(builder.Add("\x80").ok());  // Bytes compare unsigned: 0x80 > 'b'.
  EXPECT_EQ(builder.count(), 2u);
  EXPECT_EQ(builder.Finish(), std::vector<uint8_t>({0x02, 0x01, 'b', 0x00, 0x01, 0x80}));
}

TEST(FrontCodedBlock, RoundTripsBinaryKeys) {
  const std::vector<std::string> keys = BinaryKeys();
  const absl::StatusOr<std::vector<std::string>> decoded = DecodeAll(Build(keys));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, keys);
}

TEST(FrontCodedBlock, GetFindAndLowerBound) {
  const std::vector<std::string> keys = BinaryKeys();
  const std::vector<uint8_t> block = Build(keys);
  absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(block);
  ASSERT_TRUE(reader.ok());
  ASSERT_EQ(reader->size(), keys.size());
  EXPECT_TRUE(reader->Validate().ok());
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(reader->Get(i).value(), keys[i]);
    EXPECT_EQ(reader->Find(keys[i]).value(), std::optional<size_t>(i));
    EXPECT_EQ(reader->LowerBound(keys[i]).value(), i);
    // Just above keys[i]: absent, and its lower bound is the next key.
    const std::string above = keys[i] + "\0"s;
    const size_t next =
        static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), above) - keys.begin());
    EXPECT_EQ(reader->LowerBound(above).value(), next);
    if (next == keys.size() || keys[next] != above) {
      EXPECT_EQ(reader->Find(above).value(), std::nullopt) << i;
    }
  }
  EXPECT_EQ(reader->Find("abcd").value(), std::nullopt);
  EXPECT_EQ(reader->Find("\xFF\xFF\xFF").value(), std::nullopt);
  EXPECT_EQ(reader->LowerBound(std::string(301, 'z')).value(),
            static_cast<size_t>(std::find(keys.begin(), keys.end(), "\x7F") - keys.begin()));
  EXPECT_EQ(reader->LowerBound("\xFF\xFF\x01").value(), keys.size());
  EXPECT_EQ(reader->Get(keys.size()).status().code(), absl::StatusCode::kOutOfRange);
}

TEST(FrontCodedBlock, EmptyBlock) {
  const std::vector<uint8_t> block = Build({});
  absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(block);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(reader->size(), 0u);
  EXPECT_EQ(reader->LowerBound("").value(), 0u);
  EXPECT_EQ(reader->Find("").value(), std::nullopt);
  EXPECT_TRUE(reader->Validate().ok());
}

struct CorruptCase {
  std::vector<uint8_t> block;
  std::string message;
};

TEST(FrontCodedBlock, CorruptBlocksAreDataLoss) {
  const std::vector<CorruptCase> cases = {
      {{}, "front_coded_block: truncated count"},
      {{0x80}, "front_coded_block: truncated count"},
      {{0x05, 0x01, 'a'}, "front_coded_block: count 5 exceeds the block's 2 bytes"},
      {{0x01}, "front_coded_block: count 1 exceeds the block's 0 bytes"},
      {{0x01, 0x05, 'a'},
       "front_coded_block: string 0: suffix length 5 exceeds the 1 bytes left in the block"},
      {{0x02, 0x01, 'a', 0x02, 0x01, 'b'},
       "front_coded_block: string 1: shared prefix length 2 exceeds the previous string's "
       "length 1"},
      {{0x02, 0x01, 'b', 0x00, 0x01, 'a'},
       "front_coded_block: string 1: not greater than the previous string, or shared prefix "
       "not maximal"},
      {{0x02, 0x01, 'a', 0x01, 0x00},  // "a" again.
       "front_coded_block: string 1: not greater than the previous string, or shared prefix "
       "not maximal"},
      {{0x02, 0x02, 'a', 'b', 0x00, 0x02, 'a', 'c'},  // "ac" with shared 0 instead of 1.
       "front_coded_block: string 1: not greater than the previous string, or shared prefix "
       "not maximal"},
      {{0x02, 0x01, 'a', 0x01}, "front_coded_block: string 1: truncated suffix length"},
      {{0x02, 0x01, 'a', 0x81}, "front_coded_block: string 1: truncated shared prefix length"},
      {{0x01, 0x01, 'a', 0x00}, "front_coded_block: 1 bytes after the last of 1 strings"},
      {{0x00, 0x00}, "front_coded_block: 1 bytes after the last of 0 strings"},
  };
  for (const CorruptCase& test : cases) {
    const absl::StatusOr<std::vector<std::string>> decoded = DecodeAll(test.block);
    ASSERT_FALSE(decoded.ok()) << test.message;
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss);
    EXPECT_EQ(decoded.status().message(), test.message);
  }
}

TEST(FrontCodedBlock, LookupsReportCorruption) {
  // "a", then a string whose suffix runs past the block.
  const std::vector<uint8_t> block = {0x02, 0x01, 'a', 0x01, 0x09, 'b'};
  absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(block);
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(reader->Get(0).value(), "a");
  EXPECT_EQ(reader->Get(1).status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(reader->Find("a").value(), std::optional<size_t>(0));
  EXPECT_EQ(reader->Find("b").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(reader->LowerBound("b").status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(reader->Validate().code(), absl::StatusCode::kDataLoss);
  FrontCodedBlockReader::Cursor cursor = reader->NewCursor();
  EXPECT_TRUE(cursor.Next());
  EXPECT_FALSE(cursor.Next());
  EXPECT_FALSE(cursor.Next());
  EXPECT_EQ(cursor.status().code(), absl::StatusCode::kDataLoss);
}

TEST(FrontCodedBlock, EveryTruncationIsDataLoss) {
  const std::vector<uint8_t> block = Build(BinaryKeys());
  for (size_t size = 0; size < block.size(); ++size) {
    const absl::StatusOr<std::vector<std::string>> decoded =
        DecodeAll(std::vector<uint8_t>(block.begin(), block.begin() + size));
    ASSERT_FALSE(decoded.ok()) << size;
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss);
  }
}

// Any flipped byte either is caught or still decodes to strictly increasing keys.
TEST(FrontCodedBlock, FlippedBytesAreCaughtOrHarmless) {
  const std::vector<uint8_t> block = Build(BinaryKeys());
  std::mt19937_64 random(23);
  for (size_t i = 0; i < block.size(); ++i) {
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<uint8_t> corrupt = block;
      corrupt[i] ^= static_cast<uint8_t>(1 + random() % 255);
      const absl::StatusOr<std::vector<std::string>> decoded = DecodeAll(corrupt);
      if (!decoded.ok()) {
        EXPECT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss);
        continue;
      }
      for (size_t k = 1; k < decoded->size(); ++k) {
        EXPECT_LT((*decoded)[k - 1], (*decoded)[k]);
      }
    }
  }
}

TEST(FrontCodedBlock, RandomBytesNeverOverrun) {
  std::mt19937_64 random(29);
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> bytes(random() % 24);
    // Small bytes, so counts and lengths are often plausible.
    for (auto& byte : bytes) byte = static_cast<uint8_t>(random() % 3 ? random() % 4 : random());
    const absl::StatusOr<std::vector<std::string>> decoded = DecodeAll(bytes);
    if (!decoded.ok()) {
      ASSERT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss);
    } else {
      for (size_t k = 1; k < decoded->size(); ++k) ASSERT_LT((*decoded)[k - 1], (*decoded)[k]);
    }
  }
}

}  // namespace
}  // namespace crawldb::codecs
