#include "codecs/url_block_index.h"

#include <algorithm>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "codecs/url_block_model.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

std::vector<std::string> SortedKeys(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::set<std::string> keys;
  while (keys.size() < count) {
    keys.insert("com,site" + std::to_string(rng() % 50) + "(" + std::to_string(rng() % 100000) +
                "/page.html");
  }
  return {keys.begin(), keys.end()};
}

const UrlBlockModel& Model() {
  static const UrlBlockModel* const model = [] {
    const std::vector<std::string> keys = SortedKeys(2000, 1);
    const std::vector<absl::string_view> views(keys.begin(), keys.end());
    return new UrlBlockModel(*UrlBlockModel::Train(views));
  }();
  return *model;
}

UrlBlockIndex Build(const std::vector<std::string>& heads) {
  UrlBlockIndex index(Model());
  for (const std::string& head : heads) EXPECT_TRUE(index.Append(head).ok()) << head;
  return index;
}

TEST(UrlBlockIndex, FindBlockAgreesWithBruteForce) {
  const std::vector<std::string> heads = SortedKeys(300, 2);
  const UrlBlockIndex index = Build(heads);
  ASSERT_EQ(index.size(), heads.size());
  std::vector<std::string> probes = SortedKeys(1000, 3);
  for (const std::string& head : heads) {
    probes.push_back(head);
    probes.push_back(head + "\x01");
    probes.push_back(head.substr(0, head.size() - 1));
  }
  probes.push_back("");
  probes.push_back("\xff");
  for (const std::string& probe : probes) {
    // The last head ≤ probe.
    const auto after = std::upper_bound(heads.begin(), heads.end(), probe);
    const std::optional<size_t> expected =
        after == heads.begin()
            ? std::nullopt
            : std::optional<size_t>(static_cast<size_t>(after - heads.begin()) - 1);
    ASSERT_EQ(*index.FindBlock(probe), expected) << probe;
  }
  std::string head;
  for (size_t b = 0; b < heads.size(); ++b) {
    ASSERT_TRUE(index.Head(b, &head).ok());
    ASSERT_EQ(head, heads[b]);
  }
  EXPECT_EQ(index.Head(heads.size(), &head).code(), absl::StatusCode::kOutOfRange);
  EXPECT_TRUE(index.Validate().ok());
}

TEST(UrlBlockIndex, EmptyIndex) {
  const UrlBlockIndex index(Model());
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(*index.FindBlock("a"), std::nullopt);
  EXPECT_EQ(index.Serialize(), std::vector<uint8_t>{0});
  absl::StatusOr<UrlBlockIndex> loaded = UrlBlockIndex::Load(Model(), index.Serialize());
  ASSERT_TRUE(loaded.ok());
  EXPECT_EQ(loaded->size(), 0u);
}

TEST(UrlBlockIndex, AppendRefusesDisorder) {
  UrlBlockIndex index = Build({"b", "c"});
  EXPECT_EQ(index.Append("c").message(),
            "url_block_index: head of block 2 is not greater than the previous head; append "
            "heads in increasing order");
  EXPECT_FALSE(index.Append("a").ok());
  EXPECT_TRUE(index.Append("ca").ok());
  EXPECT_EQ(index.size(), 3u);
}

TEST(UrlBlockIndex, SerializeLoadRoundTrip) {
  const std::vector<std::string> heads = SortedKeys(100, 4);
  const UrlBlockIndex index = Build(heads);
  const std::vector<uint8_t> bytes = index.Serialize();
  absl::StatusOr<UrlBlockIndex> loaded = UrlBlockIndex::Load(Model(), bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->Serialize(), bytes);
  EXPECT_TRUE(loaded->Validate().ok());
  std::string head;
  ASSERT_TRUE(loaded->Head(57, &head).ok());
  EXPECT_EQ(head, heads[57]);
  EXPECT_EQ(loaded->byte_size(), index.byte_size());
  // Appending continues the order check after a load.
  EXPECT_FALSE(loaded->Append(heads[3]).ok());
}

TEST(UrlBlockIndex, EveryNthKeepsThoseHeadsAsCoded) {
  const std::vector<std::string> heads = SortedKeys(130, 5);
  const UrlBlockIndex index = Build(heads);
  for (size_t stride : {size_t{1}, size_t{64}, size_t{129}, size_t{200}}) {
    std::vector<std::string> kept;
    for (size_t b = 0; b < heads.size(); b += stride) kept.push_back(heads[b]);
    const UrlBlockIndex sampled = index.EveryNth(stride);
    EXPECT_EQ(sampled.Serialize(), Build(kept).Serialize()) << stride;
  }
  EXPECT_EQ(UrlBlockIndex(Model()).EveryNth(64).size(), 0u);
}

TEST(UrlBlockIndex, LoadChecksFraming) {
  auto message = [](std::vector<uint8_t> bytes) {
    absl::StatusOr<UrlBlockIndex> index = UrlBlockIndex::Load(Model(), bytes);
    EXPECT_EQ(index.status().code(), absl::StatusCode::kDataLoss);
    return std::string(index.status().message());
  };
  EXPECT_EQ(message({}), "url_block_index: truncated head count");
  EXPECT_EQ(message({5, 1, 1}), "url_block_index: head count 5 does not fit 3 bytes");
  EXPECT_EQ(message({1, 0, 7}), "url_block_index: head 0 has length 0");
  EXPECT_EQ(message({1, 3, 7, 7}), "url_block_index: head 0 ends past the index");
  EXPECT_EQ(message({1, 1, 7, 7}), "url_block_index: 1 bytes after the last head");
}

TEST(UrlBlockIndex, ValidateFindsDisorderAndCorruptHeads) {
  // Two heads with their coded bytes swapped: the framing is fine, the order is not.
  std::vector<uint8_t> a, b;
  ASSERT_TRUE(AppendEncodedUrlKey(Model(), "com,a(", &a).ok());
  ASSERT_TRUE(AppendEncodedUrlKey(Model(), "com,b(", &b).ok());
  std::vector<uint8_t> bytes = {2, static_cast<uint8_t>(b.size()), static_cast<uint8_t>(a.size())};
  bytes.insert(bytes.end(), b.begin(), b.end());
  bytes.insert(bytes.end(), a.begin(), a.end());
  absl::StatusOr<UrlBlockIndex> swapped = UrlBlockIndex::Load(Model(), bytes);
  ASSERT_TRUE(swapped.ok());
  EXPECT_EQ(swapped->Validate().message(), "url_block_index: head 1 is not greater than head 0");

  const UrlBlockIndex good = Build(SortedKeys(40, 5));
  const std::vector<uint8_t> serialized = good.Serialize();
  std::mt19937_64 rng(6);
  for (int round = 0; round < 2000; ++round) {
    std::vector<uint8_t> corrupt = serialized;
    corrupt[rng() % corrupt.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    absl::StatusOr<UrlBlockIndex> index = UrlBlockIndex::Load(Model(), corrupt);
    if (!index.ok()) continue;
    if (!index->Validate().ok()) {
      EXPECT_EQ(index->Validate().code(), absl::StatusCode::kDataLoss);
    }
    absl::StatusOr<std::optional<size_t>> block = index->FindBlock("com,site25(5");
    if (block.ok() && block->has_value()) {
      EXPECT_LT(**block, index->size());
    }
  }
}

}  // namespace
}  // namespace crawldb::codecs
