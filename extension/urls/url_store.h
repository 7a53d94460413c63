// UrlStore: every URL of one `urls` table, in memory, compressed — the arena behind the vtab.
//
// Ids (design.md §2): ranks 0..B−1 of the base (url_base.h) are ids 1..B; the URLs added since
// have ids B + 1 + i in arrival order, entry i of the tail (url_tail.h). A deleted id is
// remembered as a tombstone and never reused before optimize, which rebuilds the base from every
// live key and so renumbers. URLs are held as canonical keys (canonical_key.h); the vtab
// converts to text.
//
// Batch merges (paper 003): a new URL's key waits, pending, in the tail; MergePart(p) sorts the
// pending keys of part p (url_part.h: the URLs of a set of hosts) and merges them into that
// part's coded keys in one pass, keeping every id. The table decides when (urls_table.h). Parts
// are coded with the base's model once the base has kMinBaseModelKeys keys, else with a model
// trained on the pending keys at the first merge after optimize (PartsModel). So a crawl that
// never optimizes still holds its URLs compressed, and a look-up probes three places: the
// pending keys' hash set, one part, the base.
//
// Every change is recorded in an undo log until the transaction that made it ends, so that a
// rollback, or a rollback to a savepoint, puts the store back exactly (UndoTo). The changes since
// a mark are also what a transaction writes to the shadow tables (PendingSince).
//
// Not thread-safe: one store belongs to one connection's vtab.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "codecs/url_block_model.h"
#include "extension/urls/url_base.h"
#include "extension/urls/url_part.h"
#include "extension/urls/url_tail.h"

namespace crawldb::urls {

// Parts share the base's model once the base holds this many keys.
inline constexpr size_t kMinBaseModelKeys = 10'000;
// Key bytes the parts' own model is trained on at most (training takes about 0.45 s per MiB,
// once per optimize); the table waits for this many pending bytes before the first merge that
// trains it (urls_table.h), unless told to merge sooner.
inline constexpr size_t kPartsSampleBytes = size_t{1} << 20;

class UrlStore {
 public:
  UrlStore() : tail_(std::make_unique<UrlTail>()), parts_(kUrlParts) {}

  // Replaces the whole state: a base and no tail, no parts (after load or optimize).
  void Reset(UrlBase base);

  // The live id holding `key`, or nullopt.
  absl::StatusOr<std::optional<int64_t>> Find(std::string_view key) const;
  // The key of a live id, or nullopt when the id does not exist or was deleted.
  absl::StatusOr<std::optional<std::string>> KeyOf(int64_t id) const;
  // The key an id holds, live or deleted; nullopt when it holds none (out of range, or deleted
  // and dropped by a merge).
  absl::StatusOr<std::optional<std::string>> StoredKey(int64_t id) const;
  bool IsLive(int64_t id) const;

  // Adds `key`, which must not be live (Find first); returns its new id.
  int64_t Add(std::string_view key);
  // Deletes a live id; false when it is not live.
  bool Delete(int64_t id);

  // Replays a committed change read from the shadow tables (another connection's, or this one's
  // on load): the add must get exactly `expected_id`. DataLossError when it would not.
  absl::Status ReplayAdd(std::string_view key, int64_t expected_id);
  absl::Status ReplayDelete(int64_t id);

  // Loading the merged state (after Reset): the parts' model when they have their own, a stored
  // part, the ids up to max_id (absent until given), a pending key, a deleted id.
  void SetPartsModel(std::shared_ptr<const codecs::UrlBlockModel> model);
  absl::Status InstallPart(size_t part, UrlPart stored);
  void GrowTo(int64_t max_id);
  absl::Status LoadPending(std::string_view key, int64_t id);
  void LoadDeleted(int64_t id) { deleted_.insert(id); }

  // The model parts are coded with: the base's, or their own (trained by the first MergePart
  // after Reset when the base is small; null until then).
  std::shared_ptr<const codecs::UrlBlockModel> PartsModel() const;
  bool parts_have_own_model() const { return own_parts_model_ != nullptr; }
  const std::shared_ptr<const codecs::UrlBlockModel>& own_parts_model() const {
    return own_parts_model_;
  }
  // Rewrites part `part` with its pending keys merged in and its deleted ids dropped. Only
  // between transactions' changes: it leaves nothing to undo.
  absl::Status MergePart(size_t part);
  const UrlPart& part(size_t part) const;

  // Ids run from 1 to max_id(); live_count() of them are live.
  int64_t max_id() const { return static_cast<int64_t>(base_.size() + tail_->size()); }
  size_t live_count() const { return base_.size() + tail_->size() - deleted_.size(); }
  size_t merged_count() const;
  // Bytes the parts that hold keys take stored.
  size_t PartsStoredBytes() const;
  size_t tail_size() const { return tail_->size(); }
  size_t deleted_count() const { return deleted_.size(); }
  const UrlBase& base() const { return base_; }
  const UrlTail& tail() const { return *tail_; }
  // Counts the rollbacks that removed tail entries: a tail index may name another URL after one.
  uint64_t tail_rewinds() const { return tail_rewinds_; }

  // A new base holding every live key (what optimize installs with Reset): the base's keys and
  // the tail's, merged in order, twice — once to sample them and train the base's model
  // (UrlBaseSampler), once to encode them — never all held at once. When old_to_new is given,
  // it is set to max_id() + 1 entries: for every old id 1..max_id() its id in the new base, 0
  // for a deleted id (entry 0 is unused).
  absl::StatusOr<UrlBase> Rebuild(std::vector<int64_t>* old_to_new = nullptr) const;

  // Undo log. A mark is a position in it; UndoTo(mark) reverts every change made after it.
  size_t UndoMark() const { return undo_.size(); }
  void UndoTo(size_t mark);
  // Forgets the undo log (the changes are committed) and the memory a large one took.
  void ClearUndo();

  // The changes made after `mark`, as the shadow tables record them.
  struct Pending {
    int64_t first_added_id = 0;                // id of added_keys[0]
    std::vector<std::string_view> added_keys;  // consecutive ids, valid until the next change
    std::vector<int64_t> deleted_ids;
  };
  Pending PendingSince(size_t mark) const;

  size_t MemoryBytes() const;

 private:
  enum class Op : uint8_t { kAdd, kDelete, kUnindex };
  struct UndoEntry {
    Op op;
    int64_t value;  // kAdd: the tail index; kDelete: the id; kUnindex: the tail index
  };

  int64_t TailId(size_t index) const { return static_cast<int64_t>(base_.size() + index + 1); }
  // Calls visit(key, id) for every live key in key order, merging base and tail; stops at the
  // first error visit or a block's decoding returns.
  absl::Status ForEachLiveKey(
      const std::function<absl::Status(std::string_view key, int64_t id)>& visit) const;

  // Makes the ids of part `part`'s keys absent, before the part is replaced.
  void UnlocatePart(size_t part);
  // Trains own_parts_model_ on a sample of all the pending keys.
  absl::Status TrainPartsModel();

  UrlBase base_;
  std::unique_ptr<UrlTail> tail_;
  // Null for a part that holds no key yet: a store that never merged allocates nothing for them.
  std::vector<std::unique_ptr<UrlPart>> parts_;
  std::shared_ptr<const codecs::UrlBlockModel> own_parts_model_;
  absl::flat_hash_set<int64_t> deleted_;
  std::vector<UndoEntry> undo_;
  uint64_t tail_rewinds_ = 0;
};

}  // namespace crawldb::urls
