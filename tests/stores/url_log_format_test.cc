// The rows of a urls table's log and pending tables: keys, parts, folds, a tail commit's adds and
// ids round-trip (keys compressed), format 4's log rows are read, and damaged rows are DataLoss,
// never a crash.
#include "extension/urls/url_log_format.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace crawldb::urls {
namespace {

std::vector<std::string> Keys(size_t count) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < count; ++i) {
    keys.push_back(absl::StrCat("com.example.h", i % 37, ":http/page/", i * 7919 % 100003));
  }
  return keys;
}

TEST(UrlLogFormat, KeysRoundTripCompressed) {
  for (size_t count : {0, 1, 2, 5000}) {
    std::vector<std::string> keys = Keys(count);
    std::vector<absl::string_view> views(keys.begin(), keys.end());
    std::vector<uint8_t> blob = EncodeLogKeys(views);
    std::string scratch;
    absl::StatusOr<std::vector<absl::string_view>> decoded = DecodeLogKeys(blob, &scratch);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, views) << count;
    if (count == 5000) {
      size_t text = 0;
      for (const std::string& key : keys) text += key.size();
      EXPECT_LT(blob.size() * 2, text) << "compressed to less than half";
    }
  }
}

// A row that carries no keys (it folded itself, or an older row's).
LogAdds Counted(int64_t count, std::vector<size_t> parts, int64_t folded) {
  LogAdds adds;
  adds.added_count = count;
  adds.parts = std::move(parts);
  adds.folded = folded;
  return adds;
}

// A commit in the log tail: ids 10..14, 12 and 10 in part 3, the others in part 700.
LogAdds TailAdds(const std::vector<std::string>& keys) {
  LogAdds adds{5, {3, 700}, 8, {2, 3}, {10, 12, 11, 13, 14}, {}};
  for (const std::string& key : keys) adds.keys.push_back(key);
  return adds;
}

TEST(UrlLogFormat, AddsAndIdGapsRoundTrip) {
  std::string scratch;
  for (const LogAdds& adds :
       {Counted(0, {}, 0), Counted(1, {0}, 4), Counted(7, {3, 4, 1000, 1023}, 12),
        Counted(int64_t{1} << 40, {1023}, int64_t{1} << 33)}) {
    absl::StatusOr<LogAdds> decoded = DecodeLogAdds(EncodeLogAdds(adds, 1), 1, &scratch);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->added_count, adds.added_count);
    EXPECT_EQ(decoded->parts, adds.parts);
    EXPECT_EQ(decoded->folded, adds.folded);
    EXPECT_FALSE(decoded->has_adds());
  }
  const std::vector<std::string> keys = Keys(5);
  const LogAdds adds = TailAdds(keys);
  absl::StatusOr<LogAdds> decoded = DecodeLogAdds(EncodeLogAdds(adds, 10), 10, &scratch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->folded, 8);
  EXPECT_EQ(decoded->part_sizes, adds.part_sizes);
  EXPECT_EQ(decoded->ids, adds.ids);
  EXPECT_EQ(decoded->keys, adds.keys);
  // Format 4's rows: no fold, no adds.
  decoded = DecodeLogAdds(std::vector<uint8_t>{kLogPartsFormatVersion, 9, 2, 5, 1}, 1, &scratch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->added_count, 9);
  EXPECT_EQ(decoded->parts, (std::vector<size_t>{5, 6}));
  EXPECT_EQ(decoded->folded, std::nullopt);
  EXPECT_FALSE(decoded->has_adds());
  for (const std::vector<int64_t>& ids :
       {std::vector<int64_t>{}, {1}, {5, 6, 7, 100, int64_t{1} << 50}}) {
    absl::StatusOr<std::vector<int64_t>> gaps = DecodeIdGaps(EncodeIdGaps(ids));
    ASSERT_TRUE(gaps.ok()) << gaps.status();
    EXPECT_EQ(*gaps, ids);
  }
}

TEST(UrlLogFormat, DamagedAddsAndIdGapsAreDataLoss) {
  const std::vector<std::string> keys = Keys(5);
  std::string scratch;
  const std::vector<uint8_t> parts = EncodeLogAdds(Counted(9, {2, 500, 1000}, 3), 1);
  const std::vector<uint8_t> adds = EncodeLogAdds(TailAdds(keys), 10);
  const std::vector<uint8_t> ids = EncodeIdGaps({3, 9, 400, 70000});
  // A row cut right after its fold is a whole row without adds.
  const size_t without_adds = EncodeLogAdds(Counted(5, {3, 700}, 8), 10).size();
  for (const std::vector<uint8_t>* blob : {&parts, &adds, &ids}) {
    for (size_t size = 0; size < blob->size(); ++size) {
      const std::vector<uint8_t> cut(blob->begin(), blob->begin() + static_cast<ptrdiff_t>(size));
      if (blob == &adds && size == without_adds) continue;
      const absl::Status status =
          blob == &ids ? DecodeIdGaps(cut).status() : DecodeLogAdds(cut, 10, &scratch).status();
      EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << size;
    }
  }
  // A part out of range, repeated, or not increasing.
  for (const std::vector<uint8_t>& bad :
       {std::vector<uint8_t>{3, 1, 1, 0x80, 0x08}, std::vector<uint8_t>{3, 1, 2, 4, 0},
        std::vector<uint8_t>{4, 1, 2, 4, 0, 0}}) {
    EXPECT_EQ(DecodeLogAdds(bad, 1, &scratch).status().code(), absl::StatusCode::kDataLoss);
  }
  // Adds whose ids repeat, leave one out, or whose part counts do not sum to the count.
  LogAdds repeated = TailAdds(keys);
  repeated.ids = {10, 12, 10, 13, 14};
  EXPECT_EQ(DecodeLogAdds(EncodeLogAdds(repeated, 10), 10, &scratch).status().message(),
            "url log: id 2 is malformed");
  LogAdds beyond = TailAdds(keys);
  beyond.ids = {10, 12, 11, 13, 15};
  EXPECT_EQ(DecodeLogAdds(EncodeLogAdds(beyond, 10), 10, &scratch).status().message(),
            "url log: id 4 is malformed");
  LogAdds short_count = TailAdds(keys);
  short_count.part_sizes = {2, 2};
  EXPECT_EQ(DecodeLogAdds(EncodeLogAdds(short_count, 10), 10, &scratch).status().message(),
            "url log: the parts' add counts do not sum to the count");
  // An id of 0.
  EXPECT_EQ(DecodeIdGaps(std::vector<uint8_t>{1, 1, 0}).status().code(),
            absl::StatusCode::kDataLoss);
  // A gap of 2^64 − 1, whose id + gap + 1 wraps around to the previous id (found by the
  // url_log fuzz target), and one that passes INT64_MAX.
  const uint8_t max_varint[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
  std::vector<uint8_t> wrapping = {1, 2, 5};
  wrapping.insert(wrapping.end(), std::begin(max_varint), std::end(max_varint));
  EXPECT_EQ(DecodeIdGaps(wrapping).status().message(), "url log: id 1 is malformed");
  std::vector<uint8_t> past_max = {1,    2,    5,    0xFA, 0xFF, 0xFF,
                                   0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};  // INT64_MAX − 5
  EXPECT_EQ(DecodeIdGaps(past_max).status().message(), "url log: id 1 is malformed");
  past_max[3] = 0xF9;  // gap INT64_MAX − 6: the id INT64_MAX itself
  ASSERT_TRUE(DecodeIdGaps(past_max).ok());
  EXPECT_EQ(DecodeIdGaps(past_max)->back(), INT64_MAX);
}

TEST(UrlLogFormat, DamagedRowsAreDataLoss) {
  std::vector<std::string> keys = Keys(200);
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  const std::vector<uint8_t> blob = EncodeLogKeys(views);
  std::string scratch;
  for (size_t size = 0; size < blob.size(); ++size) {
    std::vector<uint8_t> cut(blob.begin(), blob.begin() + static_cast<ptrdiff_t>(size));
    EXPECT_EQ(DecodeLogKeys(cut, &scratch).status().code(), absl::StatusCode::kDataLoss) << size;
  }
  // Every flipped bit — the version, the count, the body size, the frame — is DataLoss (the
  // frame's checksum), or a bit the decoder never reads: never other keys.
  size_t refused = 0;
  for (size_t bit = 0; bit < blob.size() * 8; ++bit) {
    std::vector<uint8_t> flipped = blob;
    flipped[bit / 8] ^= static_cast<uint8_t>(1 << (bit % 8));
    absl::StatusOr<std::vector<absl::string_view>> decoded = DecodeLogKeys(flipped, &scratch);
    if (decoded.ok()) {
      EXPECT_EQ(*decoded, views) << bit;
    } else {
      EXPECT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss) << bit;
      ++refused;
    }
  }
  EXPECT_GT(refused, blob.size() * 8 * 95 / 100);
}

}  // namespace
}  // namespace crawldb::urls
