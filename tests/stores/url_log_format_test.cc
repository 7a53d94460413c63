// The rows of a urls table's log: keys round-trip compressed, rows of the uncompressed version 1
// are still read, and damaged rows are DataLoss, never a crash.
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

TEST(UrlLogFormat, VersionOneRowsAreRead) {
  std::vector<uint8_t> blob = {1, 2};
  for (std::string_view key : {"com.a:http/x", "org.b:https/"}) {
    blob.push_back(static_cast<uint8_t>(key.size()));
    blob.insert(blob.end(), key.begin(), key.end());
  }
  std::string scratch;
  absl::StatusOr<std::vector<std::string_view>> decoded = DecodeLogKeys(blob, &scratch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(*decoded, (std::vector<std::string_view>{"com.a:http/x", "org.b:https/"}));
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
