// Batch merges (url_part.h, UrlStore::MergePart): a part's stored form, and random adds, deletes,
// re-adds, rollbacks and merges checked against a plain map after every step.
#include "extension/urls/url_part.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_normalizer.h"
#include "extension/urls/url_store.h"
#include "tests/shared_data.h"

namespace crawldb::urls {
namespace {

// Canonical keys of the first `count` distinct valid reddit URLs.
std::vector<std::string> RedditKeys(size_t count) {
  std::vector<std::string> keys;
  std::set<std::string> seen;
  for (const std::string& line :
       testing::ReadXzLines(testing::SharedDataPath("reddit/urls-2005-2007.txt.xz"), count * 2)) {
    absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(line);
    if (!url.ok()) continue;
    std::string key = identity::CanonicalKey(*url);
    if (seen.insert(key).second) keys.push_back(key);
    if (keys.size() == count) break;
  }
  return keys;
}

TEST(UrlPart, EveryUrlOfAHostIsInOnePart) {
  EXPECT_EQ(UrlPartOf("com,example(a"), UrlPartOf("com,example)b?x"));
  EXPECT_EQ(UrlPartOf("com,example(a"), UrlPartOf("com,example*8080/"));
  std::set<size_t> parts;
  for (int i = 0; i < 200; ++i) parts.insert(UrlPartOf("com,host" + std::to_string(i) + "("));
  EXPECT_GT(parts.size(), 150u);  // hosts spread over the parts
}

TEST(UrlPart, StoredFormRoundTripsAndRefusesDamage) {
  std::vector<std::string> keys = RedditKeys(500);
  std::sort(keys.begin(), keys.end());
  std::vector<absl::string_view> views(keys.begin(), keys.end());
  std::vector<int64_t> ids;
  for (size_t i = 0; i < keys.size(); ++i) ids.push_back(static_cast<int64_t>(1000 + 7 * i % 997));
  auto model = std::make_shared<const codecs::UrlBlockModel>();
  absl::StatusOr<UrlPart> part = UrlPart::Build(views, ids, 3000, model);
  ASSERT_TRUE(part.ok()) << part.status();
  const std::vector<uint8_t> data = part->Serialize();
  absl::StatusOr<UrlPart> loaded = UrlPart::Load(data, model);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), keys.size());
  EXPECT_EQ(loaded->through_id(), 3000);
  for (size_t rank = 0; rank < keys.size(); ++rank) {
    EXPECT_EQ(loaded->IdAt(rank), ids[rank]);
    std::string key;
    ASSERT_TRUE(loaded->Get(rank, &key).ok());
    EXPECT_EQ(key, keys[rank]);
  }
  EXPECT_EQ(UrlPart::Build(views, ids, 1500, model).status().code(),
            absl::StatusCode::kInvalidArgument);  // an id above the through id
  // A reader's id range that leaves the lowest or the highest id out refuses the part.
  const int64_t high = *std::max_element(ids.begin(), ids.end());
  ASSERT_EQ(*std::min_element(ids.begin(), ids.end()), 1000);
  EXPECT_TRUE(UrlPart::Load(data, model, 1000, high).ok());
  EXPECT_EQ(UrlPart::Load(data, model, 1001, high).status().message(),
            absl::StrCat("url part: id 1000 is outside 1001..", high, " (the through id is 3000)"));
  EXPECT_EQ(UrlPart::Load(data, model, 1000, high - 1).status().code(),
            absl::StatusCode::kDataLoss);
  // Every truncation and many byte flips: refused or read, never out of bounds (ASan).
  for (size_t length = 0; length < data.size(); ++length) {
    absl::StatusOr<UrlPart> cut =
        UrlPart::Load(absl::MakeConstSpan(data).subspan(0, length), model);
    EXPECT_EQ(cut.status().code(), absl::StatusCode::kDataLoss) << length;
  }
  std::mt19937 random(5);
  for (int flip = 0; flip < 300; ++flip) {
    std::vector<uint8_t> damaged = data;
    damaged[random() % damaged.size()] ^= static_cast<uint8_t>(1 + random() % 255);
    absl::StatusOr<UrlPart> read = UrlPart::Load(damaged, model);
    if (!read.ok()) {
      EXPECT_EQ(read.status().code(), absl::StatusCode::kDataLoss);
      continue;
    }
    std::string key;
    for (size_t rank = 0; rank < read->size(); ++rank) (void)read->Get(rank, &key);
  }
  std::vector<uint8_t> repeated = data;
  EXPECT_EQ(UrlPart::Load({}, model).status().message(), "url part: empty");
  repeated[0] = 9;
  EXPECT_EQ(UrlPart::Load(repeated, model).status().message(),
            "url part: format version 9, this build reads 1");
}

// The store against a map, with merges of random parts between "transactions".
class MergeOracle {
 public:
  explicit MergeOracle(uint32_t seed) : random_(seed), pool_(RedditKeys(3000)) {}

  void Run(int steps) {
    for (int step = 0; step < steps && !::testing::Test::HasFailure(); ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      const int op = static_cast<int>(random_() % 100);
      if (op < 55) {
        Add();
      } else if (op < 70) {
        Delete();
      } else if (op < 80) {
        RolledBackTransaction();
      } else if (op < 97) {
        MergeSome();
      } else {
        Optimize();
      }
      store_.ClearUndo();
      if (step % 50 == 0) CompareAll();
    }
    CompareAll();
  }
  size_t merges() const { return merges_; }

 private:
  const std::string& AnyKey() { return pool_[random_() % pool_.size()]; }
  void Add() {
    const std::string& key = AnyKey();
    absl::StatusOr<std::optional<int64_t>> found = store_.Find(key);
    ASSERT_TRUE(found.ok()) << found.status();
    auto it = live_.find(key);
    ASSERT_EQ(found->has_value(), it != live_.end()) << key;
    if (it != live_.end()) {
      EXPECT_EQ(**found, it->second);
      return;
    }
    absl::StatusOr<int64_t> id = store_.Add(key);
    ASSERT_TRUE(id.ok()) << id.status();
    EXPECT_EQ(*id, ++max_id_);
    live_[key] = *id;
  }
  void Delete() {
    if (live_.empty()) return;
    auto it = live_.begin();
    std::advance(it, random_() % live_.size());
    ASSERT_TRUE(store_.Delete(it->second));
    dead_[it->second] = it->first;
    live_.erase(it);
  }
  void RolledBackTransaction() {
    const size_t mark = store_.UndoMark();
    const auto live = live_;
    const auto dead = dead_;
    const int64_t max_id = max_id_;
    for (int i = 0; i < 20; ++i) {
      if (random_() % 3 == 0) {
        Delete();
      } else {
        Add();
      }
    }
    store_.UndoTo(mark);
    live_ = live;
    dead_ = dead;
    max_id_ = max_id;
  }
  void MergeSome() {
    for (int i = 0; i < 40; ++i) {
      // Parts that have pending keys, found through a key of the pool.
      const size_t part = UrlPartOf(AnyKey());
      absl::Status status = store_.MergePart(part, ++merges_);
      ASSERT_TRUE(status.ok()) << status;
      absl::StatusOr<std::shared_ptr<LoadedPart>> merged = store_.Part(part);
      ASSERT_TRUE(merged.ok());
      EXPECT_TRUE((*merged)->pending.empty());
    }
  }
  void Optimize() {
    std::vector<int64_t> old_to_new;
    absl::StatusOr<UrlBase> base = store_.Rebuild(&old_to_new);
    ASSERT_TRUE(base.ok()) << base.status();
    store_.Reset(*std::move(base));
    for (auto& [key, id] : live_) id = old_to_new[static_cast<size_t>(id)];
    dead_.clear();  // optimize forgets deleted ids
    max_id_ = static_cast<int64_t>(live_.size());
  }
  void CompareAll() {
    ASSERT_EQ(store_.live_count(), live_.size());
    ASSERT_EQ(store_.max_id(), max_id_);
    std::set<int64_t> live_ids;
    for (const auto& [key, id] : live_) {
      live_ids.insert(id);
      absl::StatusOr<std::optional<int64_t>> found = store_.Find(key);
      ASSERT_TRUE(found.ok()) << found.status();
      ASSERT_EQ(*found, std::optional<int64_t>(id)) << key;
      absl::StatusOr<std::optional<std::string>> back = store_.KeyOf(id);
      ASSERT_TRUE(back.ok()) << back.status();
      ASSERT_EQ(*back, std::optional<std::string>(key)) << id;
    }
    for (int64_t id = 1; id <= max_id_; ++id) ASSERT_EQ(store_.IsLive(id), live_ids.contains(id));
    // A deleted id holds its own URL until a merge drops it, never another one.
    for (const auto& [id, key] : dead_) {
      absl::StatusOr<std::optional<std::string>> stored = store_.StoredKey(id);
      ASSERT_TRUE(stored.ok()) << stored.status();
      ASSERT_TRUE(!stored->has_value() || **stored == key) << id << " holds " << **stored;
    }
    for (const std::string& key : pool_) {
      if (live_.contains(key)) continue;
      absl::StatusOr<std::optional<int64_t>> found = store_.Find(key);
      ASSERT_TRUE(found.ok() && !found->has_value()) << key;
    }
  }

  std::mt19937 random_;
  std::vector<std::string> pool_;
  UrlStore store_;
  std::map<std::string, int64_t> live_;
  std::map<int64_t, std::string> dead_;  // deleted ids since the last optimize, with their URL
  int64_t max_id_ = 0;
  size_t merges_ = 0;
};

TEST(UrlStoreMerges, AgreeWithAMapThroughAddsDeletesRollbacksAndOptimize) {
  for (uint32_t seed : {1u, 2u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    MergeOracle oracle(seed);
    oracle.Run(3000);
    EXPECT_GT(oracle.merges(), 1000u);
  }
}

TEST(UrlStoreMerges, PartsUseTheBaseModelOnceTheBaseIsLarge) {
  std::vector<std::string> keys = RedditKeys(kMinBaseModelKeys + 2000);
  UrlStore store;
  for (size_t i = 0; i < 1000; ++i) ASSERT_TRUE(store.Add(keys[i]).ok());
  ASSERT_TRUE(store.MergePart(UrlPartOf(keys[0]), 1).ok());
  EXPECT_TRUE(store.parts_have_own_model());  // a small base: the parts train their own
  for (size_t i = 1000; i < keys.size() - 1000; ++i) ASSERT_TRUE(store.Add(keys[i]).ok());
  absl::StatusOr<UrlBase> base = store.Rebuild();
  ASSERT_TRUE(base.ok());
  store.Reset(*std::move(base));
  for (size_t i = keys.size() - 1000; i < keys.size(); ++i) ASSERT_TRUE(store.Add(keys[i]).ok());
  ASSERT_TRUE(store.MergePart(UrlPartOf(keys.back()), 2).ok());
  EXPECT_FALSE(store.parts_have_own_model());
  EXPECT_EQ(store.PartsModel(), store.base().model());
  EXPECT_EQ(*store.Find(keys.back()), static_cast<int64_t>(keys.size()));
}

}  // namespace
}  // namespace crawldb::urls
