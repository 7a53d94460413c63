// The rows of a urls table's log and pending tables: keys, parts and ids round-trip (keys
// compressed), and damaged rows are DataLoss, never a crash.
#include "extension/urls/url_log_format.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"

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
    std::vector<std::string_view> views(keys.begin(), keys.end());
    std::vector<uint8_t> blob = EncodeLogKeys(views);
    std::string scratch;
    absl::StatusOr<std::vector<std::string_view>> decoded = DecodeLogKeys(blob, &scratch);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, views) << count;
    if (count == 5000) {
      size_t text = 0;
      for (const std::string& key : keys) text += key.size();
      EXPECT_LT(blob.size() * 2, text) << "compressed to less than half";
    }
  }
}

TEST(UrlLogFormat, PartsAndIdGapsRoundTrip) {
  for (const LogParts& parts : {LogParts{0, {}}, LogParts{1, {0}}, LogParts{7, {3, 4, 1000, 1023}},
                                LogParts{int64_t{1} << 40, {1023}}}) {
    absl::StatusOr<LogParts> decoded = DecodeLogParts(EncodeLogParts(parts));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->added_count, parts.added_count);
    EXPECT_EQ(decoded->parts, parts.parts);
  }
  for (const std::vector<int64_t>& ids :
       {std::vector<int64_t>{}, {1}, {5, 6, 7, 100, int64_t{1} << 50}}) {
    absl::StatusOr<std::vector<int64_t>> decoded = DecodeIdGaps(EncodeIdGaps(ids));
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(*decoded, ids);
  }
}

TEST(UrlLogFormat, DamagedPartsAndIdGapsAreDataLoss) {
  const std::vector<uint8_t> parts = EncodeLogParts({9, {2, 500, 1000}});
  const std::vector<uint8_t> ids = EncodeIdGaps({3, 9, 400, 70000});
  for (const std::vector<uint8_t>* blob : {&parts, &ids}) {
    for (size_t size = 0; size < blob->size(); ++size) {
      const std::vector<uint8_t> cut(blob->begin(), blob->begin() + static_cast<ptrdiff_t>(size));
      const absl::Status status =
          blob == &parts ? DecodeLogParts(cut).status() : DecodeIdGaps(cut).status();
      EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss) << size;
    }
  }
  // A part out of range, repeated, or not increasing.
  for (const std::vector<uint8_t>& bad :
       {std::vector<uint8_t>{3, 1, 1, 0x80, 0x08}, std::vector<uint8_t>{3, 1, 2, 4, 0}}) {
    EXPECT_EQ(DecodeLogParts(bad).status().code(), absl::StatusCode::kDataLoss);
  }
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
  std::vector<std::string_view> views(keys.begin(), keys.end());
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
    absl::StatusOr<std::vector<std::string_view>> decoded = DecodeLogKeys(flipped, &scratch);
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
