// UrlStore without SQL: ids, tombstones, the undo log and replay, and what a part read from a
// source reads (its run alone for a look-up of an id the run holds).
#include "extension/urls/url_store.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_model.h"

namespace crawldb::urls {
namespace {

std::optional<int64_t> FindOk(UrlStore& store, absl::string_view key) {
  absl::StatusOr<std::optional<int64_t>> id = store.Find(key);
  EXPECT_TRUE(id.ok()) << id.status();
  return id.ok() ? *id : std::nullopt;
}

std::string KeyOk(UrlStore& store, int64_t id) {
  absl::StatusOr<std::optional<std::string>> key = store.KeyOf(id);
  EXPECT_TRUE(key.ok()) << key.status();
  return key.ok() && key->has_value() ? **key : "<none>";
}

int64_t AddOk(UrlStore& store, absl::string_view key) {
  absl::StatusOr<int64_t> id = store.Add(key);
  EXPECT_TRUE(id.ok()) << id.status();
  return id.ok() ? *id : -1;
}

UrlBase BuildBase(const std::vector<std::string>& sorted) {
  UrlBaseBuilder builder;
  for (const std::string& key : sorted) EXPECT_TRUE(builder.Add(key).ok()) << key;
  absl::StatusOr<UrlBase> base = builder.Finish();
  EXPECT_TRUE(base.ok()) << base.status();
  return base.ok() ? *std::move(base) : UrlBase();
}

UrlStore WithBase(std::vector<std::string> sorted) {
  UrlStore store;
  store.Reset(BuildBase(sorted));
  return store;
}

TEST(UrlStore, BaseRanksAreIdsAndTheTailFollows) {
  UrlStore store = WithBase({"com,a(", "com,b(", "com,c("});
  EXPECT_EQ(FindOk(store, "com,b("), 2);
  EXPECT_EQ(AddOk(store, "com,0("), 4);
  EXPECT_EQ(AddOk(store, "com,z("), 5);
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
  EXPECT_EQ(AddOk(store, "com,a("), 3);
  EXPECT_EQ(FindOk(store, "com,a("), 3);
  // Deleted from the tail and added again: the newest entry is the one found.
  EXPECT_TRUE(store.Delete(3));
  EXPECT_EQ(AddOk(store, "com,a("), 4);
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
  AddOk(store, "com,b(");
  size_t middle = store.UndoMark();
  store.Delete(1);
  store.Delete(2);
  AddOk(store, "com,b(");  // re-add of a deleted tail URL: unindexes the old entry
  AddOk(store, "com,c(");
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
  AddOk(store, "com,c(");
  store.Delete(1);
  AddOk(store, "com,d(");
  UrlStore::Pending pending = store.PendingSince(0);
  EXPECT_EQ(pending.first_added_id, 3);
  EXPECT_EQ(pending.added_count, 2);
  std::vector<absl::string_view> keys;
  std::vector<int64_t> ids;
  for (const UrlStore::PartAdds& part : pending.parts) {
    EXPECT_EQ(part.ids.size(), part.keys.size());
    for (size_t i = 0; i < part.ids.size(); ++i) {
      EXPECT_EQ(UrlPartOf(part.keys[i]), part.part);
      keys.push_back(part.keys[i]);
      ids.push_back(part.ids[i]);
    }
  }
  std::sort(keys.begin(), keys.end());
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(keys, (std::vector<absl::string_view>{"com,c(", "com,d("}));
  EXPECT_EQ(ids, (std::vector<int64_t>{3, 4}));
  EXPECT_EQ(pending.deleted_ids, (std::vector<int64_t>{1}));
  EXPECT_EQ(store.PendingSince(store.UndoMark()).added_count, 0);
}

TEST(UrlStore, ReplayRefusesWhatCannotBeTheLog) {
  UrlStore store = WithBase({"com,a("});
  EXPECT_TRUE(store.ReplayAdds(2, 1).ok());
  EXPECT_EQ(store.max_id(), 2);
  EXPECT_EQ(store.ReplayAdds(5, 1).message(), "url log: ids from 5 follow id 2");
  EXPECT_EQ(store.ReplayDelete(7).message(), "url log: deletes id 7, which is not live");
  EXPECT_TRUE(store.ReplayDelete(2).ok());
  EXPECT_EQ(store.ReplayDelete(2).code(), absl::StatusCode::kDataLoss);
}

TEST(UrlStore, RebuildMergesBaseAndTailInOrder) {
  UrlStore store = WithBase({"com,b(", "com,d(", "com,f("});
  AddOk(store, "com,e(");
  AddOk(store, "com,a(");
  AddOk(store, "com,g(");
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

// Keys 0..count-1 of one host, sorted: "com,h(p/00000", "com,h(p/00001", …
std::vector<std::string> PageKeys(size_t count) {
  std::vector<std::string> keys;
  for (size_t i = 0; i < count; ++i) {
    std::string number = std::to_string(100000 + i).substr(1);
    keys.push_back("com,h(p/" + number);
  }
  return keys;
}

// The keys of a rebuilt base, by rank.
std::vector<std::string> KeysOf(const UrlBase& base) {
  std::vector<std::string> keys(base.size());
  for (size_t rank = 0; rank < base.size(); ++rank) {
    EXPECT_TRUE(base.Get(rank, &keys[rank]).ok()) << rank;
  }
  return keys;
}

TEST(UrlStore, RebuildsEmptyAndTinyStores) {
  for (size_t count : {0, 1, 31, 32, 33, 100}) {
    SCOPED_TRACE(std::to_string(count) + " keys");
    const std::vector<std::string> keys = PageKeys(count);
    UrlStore store;
    // Added in reverse: the tail is sorted by the rebuild.
    for (size_t i = count; i-- > 0;) AddOk(store, keys[i]);
    std::vector<int64_t> old_to_new;
    absl::StatusOr<UrlBase> rebuilt = store.Rebuild(&old_to_new);
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
    EXPECT_EQ(KeysOf(*rebuilt), keys);
    EXPECT_EQ(old_to_new.size(), count + 1);
    store.Reset(*std::move(rebuilt));
    for (size_t i = 0; i < count; ++i) EXPECT_EQ(FindOk(store, keys[i]), i + 1);
    // Rebuilt again from a base alone, and from a base with a tail around it.
    AddOk(store, "com,a(");
    AddOk(store, "com,z(");
    rebuilt = store.Rebuild();
    ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
    std::vector<std::string> expected = keys;
    expected.insert(expected.begin(), "com,a(");
    expected.push_back("com,z(");
    EXPECT_EQ(KeysOf(*rebuilt), expected);
  }
}

TEST(UrlStore, RebuildMapsOldIdsToNewIds) {
  // 70 base keys (three blocks), every third one deleted; tail keys landing before, between and
  // after them, one deleted; a base key deleted and added again (a new id in the tail).
  const std::vector<std::string> keys = PageKeys(140);
  std::vector<std::string> base_keys;
  for (size_t i = 0; i < keys.size(); i += 2) base_keys.push_back(keys[i]);
  UrlStore store = WithBase(base_keys);
  for (int64_t id = 1; id <= 70; id += 3) ASSERT_TRUE(store.Delete(id));
  const int64_t before = AddOk(store, "com,a(");
  const int64_t between = AddOk(store, keys[41]);
  const int64_t gone = AddOk(store, keys[43]);
  const int64_t after = AddOk(store, "com,z(");
  const int64_t again = AddOk(store, keys[0]);  // id 1 was deleted
  ASSERT_TRUE(store.Delete(gone));
  std::vector<int64_t> old_to_new = {42, 42};  // overwritten
  absl::StatusOr<UrlBase> rebuilt = store.Rebuild(&old_to_new);
  ASSERT_TRUE(rebuilt.ok()) << rebuilt.status();
  ASSERT_EQ(old_to_new.size(), static_cast<size_t>(store.max_id()) + 1);
  EXPECT_EQ(old_to_new[0], 0);
  EXPECT_EQ(rebuilt->size(), store.live_count());
  std::vector<bool> taken(rebuilt->size() + 1, false);
  for (int64_t id = 1; id <= store.max_id(); ++id) {
    SCOPED_TRACE("old id " + std::to_string(id));
    const int64_t new_id = old_to_new[static_cast<size_t>(id)];
    if (!store.IsLive(id)) {
      EXPECT_EQ(new_id, 0);
      continue;
    }
    ASSERT_GE(new_id, 1);
    ASSERT_LE(static_cast<size_t>(new_id), rebuilt->size());
    EXPECT_FALSE(taken[static_cast<size_t>(new_id)]);
    taken[static_cast<size_t>(new_id)] = true;
    std::string key;
    ASSERT_TRUE(rebuilt->Get(static_cast<size_t>(new_id - 1), &key).ok());
    EXPECT_EQ(key, KeyOk(store, id));
  }
  EXPECT_EQ(old_to_new[static_cast<size_t>(before)], 1);
  EXPECT_EQ(old_to_new[static_cast<size_t>(again)], 2);
  EXPECT_EQ(old_to_new[static_cast<size_t>(after)], static_cast<int64_t>(rebuilt->size()));
  EXPECT_EQ(old_to_new[static_cast<size_t>(gone)], 0);
  EXPECT_EQ(old_to_new[1], 0);
  EXPECT_GT(old_to_new[static_cast<size_t>(between)], 0);
}

// One part stored, all of one host: a run of ids 1..5 (through id 5) and one pending row of two
// more ids, first_pending_id and the next (6 and 7 in a sound file).
class OnePartSource : public UrlStoreSource {
 public:
  OnePartSource(std::shared_ptr<const codecs::UrlBlockModel> model, int64_t first_pending_id)
      : first_pending_id_(first_pending_id) {
    for (const char* path : {"a", "b", "c", "d", "e", "f", "g"}) {
      keys_.push_back(std::string("com,example)/") + path);
    }
    part_ = UrlPartOf(keys_[0]);
    const std::vector<absl::string_view> run_keys(keys_.begin(), keys_.begin() + 5);
    const std::vector<int64_t> run_ids = {3, 1, 5, 2, 4};  // ids by key rank
    absl::StatusOr<UrlPart> run = UrlPart::Build(run_keys, run_ids, 5, std::move(model));
    EXPECT_TRUE(run.ok()) << run.status();
    if (run.ok()) run_ = run->Serialize();
  }

  absl::StatusOr<std::optional<StoredRun>> ReadRun(size_t part) override {
    if (part != part_) return std::optional<StoredRun>();
    return std::optional<StoredRun>(StoredRun{1, run_});
  }
  absl::Status ReadPending(
      size_t part, int64_t,
      const std::function<absl::Status(absl::Span<const int64_t>,
                                       absl::Span<const absl::string_view>)>& add_row) override {
    ++pending_reads_;
    if (part != part_) return absl::OkStatus();
    const std::vector<int64_t> ids = {first_pending_id_, first_pending_id_ + 1};
    const std::vector<absl::string_view> keys = {keys_[5], keys_[6]};
    return add_row(ids, keys);
  }
  absl::Status ReadTail(
      size_t, const std::function<absl::Status(absl::Span<const int64_t>,
                                               absl::Span<const absl::string_view>)>&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<std::optional<std::vector<uint16_t>>> ReadIdChunk(int64_t chunk) override {
    if (chunk != 0) return std::optional<std::vector<uint16_t>>();
    return std::optional<std::vector<uint16_t>>(std::vector<uint16_t>(7, part_));
  }

  const std::vector<std::string>& keys() const { return keys_; }
  int pending_reads() const { return pending_reads_; }
  size_t part() const { return part_; }

 private:
  int64_t first_pending_id_;
  std::vector<std::string> keys_;
  size_t part_ = 0;
  std::vector<uint8_t> run_;
  int pending_reads_ = 0;
};

// A store over OnePartSource, with ids through 7.
struct OnePartStore {
  explicit OnePartStore(int64_t first_pending_id)
      : model(std::make_shared<const codecs::UrlBlockModel>()),
        source(model, first_pending_id),
        store(&source) {
    store.SetPartsModel(model);
    store.SetMaxId(7);
  }
  std::shared_ptr<const codecs::UrlBlockModel> model;
  OnePartSource source;
  UrlStore store;
};

TEST(UrlStore, ALookUpOfAnIdTheRunHoldsReadsTheRunAlone) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  EXPECT_EQ(KeyOk(store, 1), source.keys()[1]);
  EXPECT_EQ(KeyOk(store, 5), source.keys()[2]);
  EXPECT_EQ(source.pending_reads(), 0);
  // An id above the run's through id reads the pending keys, once.
  EXPECT_EQ(KeyOk(store, 7), source.keys()[6]);
  EXPECT_EQ(KeyOk(store, 6), source.keys()[5]);
  EXPECT_EQ(source.pending_reads(), 1);
  // A look-up by URL and an add see the pending keys read that way.
  EXPECT_EQ(FindOk(store, source.keys()[6]), 7);
  EXPECT_EQ(FindOk(store, source.keys()[0]), 3);
  EXPECT_EQ(AddOk(store, "com,example)/h"), 8);
  EXPECT_EQ(FindOk(store, "com,example)/h"), 8);
  EXPECT_EQ(source.pending_reads(), 1);
}

TEST(UrlStore, ALookUpByUrlReadsThePendingKeysWhenTheRunLacksTheUrl) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  EXPECT_EQ(FindOk(store, source.keys()[0]), 3);
  EXPECT_EQ(source.pending_reads(), 0);
  EXPECT_EQ(FindOk(store, source.keys()[5]), 6);
  EXPECT_EQ(source.pending_reads(), 1);
  EXPECT_EQ(KeyOk(store, 4), source.keys()[4]);
  EXPECT_EQ(source.pending_reads(), 1);

  // A URL the part does not hold reads them too.
  OnePartStore other(6);
  EXPECT_EQ(FindOk(other.store, "com,example)/h"), std::nullopt);
  EXPECT_EQ(other.source.pending_reads(), 1);

  // A URL of the run deleted and added again: its live id is the new one, then the old one
  // once the add is undone and the delete too.
  OnePartStore again(6);
  const size_t mark = again.store.UndoMark();
  EXPECT_TRUE(again.store.Delete(3));
  EXPECT_EQ(FindOk(again.store, again.source.keys()[0]), std::nullopt);
  EXPECT_EQ(AddOk(again.store, again.source.keys()[0]), 8);
  EXPECT_EQ(FindOk(again.store, again.source.keys()[0]), 8);
  again.store.UndoTo(mark);
  EXPECT_EQ(FindOk(again.store, again.source.keys()[0]), 3);
  EXPECT_EQ(again.source.pending_reads(), 1);
}

TEST(UrlStore, PendingKeysAtOrBelowTheRunsThroughIdAreRefused) {
  OnePartStore one(5);  // pending ids 5 and 6, but the run holds ids through 5
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  EXPECT_EQ(KeyOk(store, 2), source.keys()[3]);  // the run alone is sound
  absl::StatusOr<std::optional<std::string>> key = store.KeyOf(6);
  EXPECT_EQ(key.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(key.status().message(),
            absl::StrCat("url part ", source.part(),
                         ": pending id 5 is not above its run's through id 5"));
  // Refused, the part is not kept half read: the run is read again, and refused again.
  EXPECT_EQ(store.held_parts(), 0u);
  EXPECT_EQ(KeyOk(store, 4), source.keys()[4]);
  EXPECT_EQ(store.KeyOf(7).status().code(), absl::StatusCode::kDataLoss);
}

TEST(UrlStore, APartHeldWithItsRunAloneIsCompletedForFoldsAndReadAgainWhenEvicted) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  EXPECT_EQ(KeyOk(store, 3), source.keys()[0]);
  // A fold writing a row for a part held with its run alone leaves it to the next read.
  store.RowWritten(source.part(), 2);
  absl::StatusOr<std::shared_ptr<LoadedPart>> part = store.Part(source.part());
  ASSERT_TRUE(part.ok()) << part.status();
  EXPECT_EQ((*part)->row_sizes, std::vector<uint32_t>{2});  // the stored row, not twice
  EXPECT_EQ((*part)->pending.size(), 2u);
  EXPECT_EQ(store.RowsToFold(source.part()), 0u);
  EXPECT_EQ(source.pending_reads(), 1);
  // Evicted, the part is read again as needed: the run alone for an id it holds.
  store.set_cache_bytes(0);
  EXPECT_EQ(store.held_parts(), 0u);
  EXPECT_EQ(KeyOk(store, 4), source.keys()[4]);
  EXPECT_EQ(source.pending_reads(), 1);
}

TEST(UrlStore, TheIndexOfPendingKeysBuiltByLookUpsIsCounted) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  ASSERT_TRUE(store.Part(source.part()).ok());
  const size_t before = store.MemoryBytes();
  // The first kScannedFinds look-ups scan the pending keys; the next one indexes them.
  for (uint32_t find = 0; find < kScannedFinds; ++find) {
    EXPECT_EQ(FindOk(store, source.keys()[6]), 7);
  }
  EXPECT_EQ(store.MemoryBytes(), before);
  EXPECT_EQ(FindOk(store, source.keys()[6]), 7);
  EXPECT_GT(store.MemoryBytes(), before);
}

// A run read from its row reads a group of blocks when a look-up first needs one (url_part.h):
// the part is counted again then, so that the cache bound sees it.
TEST(UrlStore, AGroupOfARunReadByALookUpIsCounted) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  ASSERT_TRUE(store.Part(source.part()).ok());
  const size_t before = store.MemoryBytes();
  EXPECT_EQ(FindOk(store, source.keys()[0]), 3);
  EXPECT_GT(store.MemoryBytes(), before);
}

TEST(UrlStore, UndoPutsBackAStoredPendingKeyItsReAddReplaced) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  ASSERT_TRUE(store.Delete(6));
  const size_t mark = store.UndoMark();
  EXPECT_EQ(AddOk(store, source.keys()[5]), 8);  // the first Append builds the index
  EXPECT_EQ(FindOk(store, source.keys()[5]), 8);
  store.UndoTo(mark);
  EXPECT_EQ(FindOk(store, source.keys()[5]), std::nullopt);  // id 6 is still deleted
  store.UndoTo(0);
  EXPECT_EQ(FindOk(store, source.keys()[5]), 6);
}

TEST(UrlStore, ARunWithIdsOutsideTheStoresRangeIsRefusedAndTheStoreReadsOn) {
  OnePartStore one(6);
  UrlStore& store = one.store;
  const OnePartSource& source = one.source;
  // A second store that knows ids 1..4 only: the run's id 5 is out of its range.
  UrlStore short_store(&one.source);
  short_store.SetPartsModel(one.model);
  short_store.SetMaxId(4);
  absl::StatusOr<std::optional<std::string>> key = short_store.KeyOf(1);
  EXPECT_EQ(key.status().message(), absl::StrCat("url part ", source.part(),
                                                 ": id 5 is outside 1..4 (the through id is 5)"));
  EXPECT_EQ(short_store.held_parts(), 0u);
  EXPECT_EQ(KeyOk(store, 2), source.keys()[3]);
}

}  // namespace
}  // namespace crawldb::urls
