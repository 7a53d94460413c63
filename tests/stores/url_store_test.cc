// UrlStore without SQL: ids, tombstones, the undo log and replay.
#include "extension/urls/url_store.h"

#include <gtest/gtest.h>

namespace crawldb::urls {
namespace {

std::optional<int64_t> FindOk(const UrlStore& store, std::string_view key) {
  absl::StatusOr<std::optional<int64_t>> id = store.Find(key);
  EXPECT_TRUE(id.ok()) << id.status();
  return id.ok() ? *id : std::nullopt;
}

std::string KeyOk(const UrlStore& store, int64_t id) {
  absl::StatusOr<std::optional<std::string>> key = store.KeyOf(id);
  EXPECT_TRUE(key.ok()) << key.status();
  return key.ok() && key->has_value() ? **key : "<none>";
}

UrlBase BuildBase(const std::vector<std::string>& sorted) {
  UrlBaseBuilder builder;
  for (const std::string& key : sorted) EXPECT_TRUE(builder.Add(key).ok()) << key;
  return builder.Finish();
}

UrlStore WithBase(std::vector<std::string> sorted) {
  UrlStore store;
  store.Reset(BuildBase(sorted));
  return store;
}

TEST(UrlStore, BaseRanksAreIdsAndTheTailFollows) {
  UrlStore store = WithBase({"com,a(", "com,b(", "com,c("});
  EXPECT_EQ(FindOk(store, "com,b("), 2);
  EXPECT_EQ(store.Add("com,0("), 4);
  EXPECT_EQ(store.Add("com,z("), 5);
  EXPECT_EQ(FindOk(store, "com,0("), 4);
  EXPECT_EQ(KeyOk(store, 1), "com,a(");
  EXPECT_EQ(KeyOk(store, 5), "com,z(");
  EXPECT_EQ(KeyOk(store, 6), "<none>");
  EXPECT_EQ(KeyOk(store, 0), "<none>");
  EXPECT_EQ(store.max_id(), 5);
  EXPECT_EQ(store.live_count(), 5u);
}

TEST(UrlStore, DeletedIdsAreNotReusedAndReAddGetsANewId) {
  UrlStore store = WithBase({"com,a(", "com,b("});
  EXPECT_TRUE(store.Delete(1));
  EXPECT_FALSE(store.Delete(1));
  EXPECT_FALSE(store.Delete(9));
  EXPECT_EQ(FindOk(store, "com,a("), std::nullopt);
  EXPECT_EQ(store.Add("com,a("), 3);
  EXPECT_EQ(FindOk(store, "com,a("), 3);
  // Deleted from the tail and added again: the newest entry is the one found.
  EXPECT_TRUE(store.Delete(3));
  EXPECT_EQ(store.Add("com,a("), 4);
  EXPECT_EQ(FindOk(store, "com,a("), 4);
  EXPECT_EQ(store.live_count(), 2u);
  absl::StatusOr<UrlBase> rebuilt = store.Rebuild();
  ASSERT_TRUE(rebuilt.ok());
  EXPECT_EQ(rebuilt->size(), 2u);
  std::string key;
  ASSERT_TRUE(rebuilt->Get(0, &key).ok());
  EXPECT_EQ(key, "com,a(");
  ASSERT_TRUE(rebuilt->Get(1, &key).ok());
  EXPECT_EQ(key, "com,b(");
}

TEST(UrlStore, UndoRestoresEveryStep) {
  UrlStore store = WithBase({"com,a("});
  size_t start = store.UndoMark();
  store.Add("com,b(");
  size_t middle = store.UndoMark();
  store.Delete(1);
  store.Delete(2);
  store.Add("com,b(");  // re-add of a deleted tail URL: unindexes the old entry
  store.Add("com,c(");
  EXPECT_EQ(FindOk(store, "com,b("), 3);
  store.UndoTo(middle);
  EXPECT_EQ(store.max_id(), 2);
  EXPECT_EQ(FindOk(store, "com,a("), 1);
  EXPECT_EQ(FindOk(store, "com,b("), 2);
  EXPECT_EQ(FindOk(store, "com,c("), std::nullopt);
  store.UndoTo(start);
  EXPECT_EQ(store.max_id(), 1);
  EXPECT_EQ(FindOk(store, "com,b("), std::nullopt);
  EXPECT_GE(store.tail_rewinds(), 1u);
}

TEST(UrlStore, PendingListsWhatATransactionChanged) {
  UrlStore store = WithBase({"com,a(", "com,b("});
  store.ClearUndo();
  store.Add("com,c(");
  store.Delete(1);
  store.Add("com,d(");
  UrlStore::Pending pending = store.PendingSince(0);
  EXPECT_EQ(pending.first_added_id, 3);
  EXPECT_EQ(pending.added_keys, (std::vector<std::string_view>{"com,c(", "com,d("}));
  EXPECT_EQ(pending.deleted_ids, (std::vector<int64_t>{1}));
  EXPECT_TRUE(store.PendingSince(store.UndoMark()).added_keys.empty());
}

TEST(UrlStore, ReplayRefusesWhatCannotBeTheLog) {
  UrlStore store = WithBase({"com,a("});
  EXPECT_TRUE(store.ReplayAdd("com,b(", 2).ok());
  EXPECT_EQ(store.ReplayAdd("com,c(", 5).message(), "url log: id 5 follows id 2");
  EXPECT_EQ(store.ReplayAdd("com,a(", 3).message(), "url log: id 3 repeats the URL of id 1");
  EXPECT_EQ(store.ReplayDelete(7).message(), "url log: deletes id 7, which is not live");
  EXPECT_TRUE(store.ReplayDelete(2).ok());
  EXPECT_EQ(store.ReplayDelete(2).code(), absl::StatusCode::kDataLoss);
}

TEST(UrlStore, RebuildMergesBaseAndTailInOrder) {
  UrlStore store = WithBase({"com,b(", "com,d(", "com,f("});
  store.Add("com,e(");
  store.Add("com,a(");
  store.Add("com,g(");
  store.Delete(2);
  absl::StatusOr<UrlBase> rebuilt = store.Rebuild();
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  std::vector<std::string> keys;
  for (size_t rank = 0; rank < rebuilt->size(); ++rank) {
    std::string key;
    ASSERT_TRUE(rebuilt->Get(rank, &key).ok());
    keys.push_back(key);
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"com,a(", "com,b(", "com,e(", "com,f(", "com,g("}));
}

TEST(UrlBase, RefusesUnsortedKeysAndLoadsWhatItStores) {
  UrlBaseBuilder unsorted;
  ASSERT_TRUE(unsorted.Add("b").ok());
  EXPECT_FALSE(unsorted.Add("a").ok());
  // Enough keys for several blocks and several parts.
  std::vector<std::string> keys;
  for (int i = 0; i < 5000; ++i) keys.push_back("com,site" + std::to_string(10000 + i) + "(");
  UrlBase base = BuildBase(keys);
  std::vector<std::vector<uint8_t>> parts = base.Parts();
  EXPECT_EQ(parts.size(), 1 + (5000 / kKeysPerBlock + 1 + kBlocksPerPart - 1) / kBlocksPerPart);
  std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
  absl::StatusOr<UrlBase> loaded = UrlBase::Load(spans);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  for (size_t i = 0; i < keys.size(); i += 37) {
    std::string key;
    ASSERT_TRUE(loaded->Get(i, &key).ok());
    EXPECT_EQ(key, keys[i]);
    absl::StatusOr<std::optional<size_t>> rank = loaded->Find(keys[i]);
    ASSERT_TRUE(rank.ok());
    EXPECT_EQ(*rank, i);
  }
  absl::StatusOr<size_t> bound = loaded->LowerBound("com,site10500");
  ASSERT_TRUE(bound.ok());
  EXPECT_EQ(*bound, 500u);
  // A missing block, or a header that disagrees with the blocks, is refused.
  spans.pop_back();
  EXPECT_EQ(UrlBase::Load(spans).status().code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace crawldb::urls
