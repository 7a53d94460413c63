// UrlStore: every URL of one `urls` table — the arena behind the vtab, a cache of the file.
//
// Ids (design.md §2): ranks 0..B−1 of the base (url_base.h) are ids 1..B; the URLs added since
// have ids B + 1, B + 2, … in arrival order. A deleted id is remembered (deleted ids) and never
// reused before optimize, which rebuilds the base from every live key and so renumbers. URLs are
// held as canonical keys (canonical_key.h); the vtab converts to text.
//
// Parts (paper 003): a URL added since optimize belongs to the part of its host (UrlPartOf, one
// of kUrlParts). A part is a stored run (url_part.h: sorted, coded keys with their ids) and the
// keys added since the run was written, pending (url_pending_keys.h). MergePart folds a part's
// pending keys into a new run; the table decides when (urls_table.h). Runs are coded with the
// base's model once the base has kMinBaseModelKeys keys, else with a model trained on pending
// keys at the first merge after optimize (PartsModel). A look-up of a key probes its part's
// pending keys, its run, then the base; a look-up of an id finds its part in the id map
// (url_id_parts.h) first.
//
// Paging. The store holds the base, the deleted ids and the parts and id-map chunks that
// statements needed: a part is read from the source (the table's shadow tables: its run and
// its pending keys, in its pending rows and then in the log tail) on first use and evicted,
// least recently used, once the parts held pass the cache bound — except parts holding adds not
// yet committed. A look-up of an id the run holds reads the run alone; the pending keys are read
// when something needs them. Without a source (the store used alone, in tests and benchmarks)
// every part is in memory from the start, empty.
// Statements that hold a part (a cursor) keep it alive through a shared pointer even when the
// store evicts it.
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
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_model.h"
#include "extension/urls/url_base.h"
#include "extension/urls/url_id_parts.h"
#include "extension/urls/url_part.h"
#include "extension/urls/url_pending_keys.h"

namespace crawldb::urls {

// Parts share the base's model once the base holds this many keys.
inline constexpr size_t kMinBaseModelKeys = 10'000;
// Key bytes the parts' own model is trained on at most (training takes about 0.45 s per MiB,
// once per optimize).
inline constexpr size_t kPartsSampleBytes = size_t{1} << 20;

// Where a store reads what it does not hold: the table's shadow tables.
class UrlStoreSource {
 public:
  virtual ~UrlStoreSource() = default;
  struct StoredRun {
    int64_t seq = 0;  // the commit that wrote it
    std::vector<uint8_t> data;
  };
  // Part `part`'s stored run; nullopt when none was written.
  virtual absl::StatusOr<std::optional<StoredRun>> ReadRun(size_t part) = 0;
  // Calls add_row(ids, keys) for every pending row of `part` committed after its run was written
  // (by a commit later than `after`), in id order.
  virtual absl::Status ReadPending(
      size_t part, int64_t after,
      const std::function<absl::Status(absl::Span<const int64_t> ids,
                                       absl::Span<const absl::string_view> keys)>& add_row) = 0;
  // Calls add(ids, keys) once with part `part`'s keys in the log tail (urls_table.h), which
  // follow its pending rows; not when it holds none.
  virtual absl::Status ReadTail(
      size_t part,
      const std::function<absl::Status(absl::Span<const int64_t> ids,
                                       absl::Span<const absl::string_view> keys)>& add) = 0;
  // Chunk `chunk` of the id map; nullopt when it is not stored.
  virtual absl::StatusOr<std::optional<std::vector<uint16_t>>> ReadIdChunk(int64_t chunk) = 0;
};

// One part as held in memory.
struct LoadedPart {
  std::shared_ptr<const UrlPart> run = std::make_shared<const UrlPart>();
  int64_t run_seq = 0;  // the commit that wrote the run (0: none)
  PendingKeys pending;
  // The stored pending rows holding `pending`'s entries from the first on, oldest first: their
  // sizes in entries (the entries after them are in the log tail, or not committed yet).
  std::vector<uint32_t> row_sizes;
  // Ranks of the run ordered by id, made by the look-up by id after the first
  // kScannedIdLookups (which scan the run's ids instead; url_store.cc).
  std::vector<uint32_t> ranks_by_id;
  uint32_t id_lookups = 0;
  // False while only the run is read (a part read for look-ups of ids the run holds): `pending`
  // and `row_sizes` are empty then, and read when first needed.
  bool pending_loaded = true;
  size_t MemoryBytes() const;
};

class UrlStore {
 public:
  explicit UrlStore(UrlStoreSource* source = nullptr);

  // Bytes of parts and id-map chunks held beyond those with uncommitted adds.
  void set_cache_bytes(size_t bytes);

  // Replaces the whole state: a base and no id after it; forgets every part held.
  void Reset(UrlBase base);
  // Loading the stored state after Reset: the last id given, the parts' own model, a deleted id.
  void SetMaxId(int64_t max_id);
  void SetPartsModel(std::shared_ptr<const codecs::UrlBlockModel> model);
  void LoadDeleted(int64_t id) { deleted_.insert(id); }

  // Catching up with commits of other connections: ids first_id, … were added (`count` of
  // them: DataLossError unless first_id follows max_id()); an id was deleted; part `part` changed
  // (read again when next needed).
  absl::Status ReplayAdds(int64_t first_id, int64_t count);
  absl::Status ReplayDelete(int64_t id);
  void ForgetPart(size_t part);

  // The live id holding `key`, or nullopt. The part's pending keys are read only when its run
  // lacks the URL.
  absl::StatusOr<std::optional<int64_t>> Find(absl::string_view key);
  // The key of a live id, or nullopt when the id does not exist or was deleted.
  absl::StatusOr<std::optional<std::string>> KeyOf(int64_t id);
  // The key an id holds, live or deleted; nullopt when it holds none (out of range, or deleted
  // and dropped by a merge).
  absl::StatusOr<std::optional<std::string>> StoredKey(int64_t id);
  bool IsLive(int64_t id) const;

  // Adds `key`, which must not be live (Find first); returns its new id.
  absl::StatusOr<int64_t> Add(absl::string_view key);
  // Deletes a live id; false when it is not live.
  bool Delete(int64_t id);

  // The model runs are coded with: the base's, or their own (trained by the first MergePart
  // after Reset when the base is small; null until then).
  std::shared_ptr<const codecs::UrlBlockModel> PartsModel() const;
  bool parts_have_own_model() const { return own_parts_model_ != nullptr; }
  const std::shared_ptr<const codecs::UrlBlockModel>& own_parts_model() const {
    return own_parts_model_;
  }
  // Part `part` with its pending keys: read from the source when not held, its pending keys
  // read when it is held with its run alone. May evict other parts.
  absl::StatusOr<std::shared_ptr<LoadedPart>> Part(size_t part);
  // Replaces part `part` by a run of its live keys, written by commit `seq`. Only between
  // transactions' changes: it leaves nothing to undo. Trains the parts' own model first when
  // they have none, on the pending keys of the parts held.
  absl::Status MergePart(size_t part, int64_t seq);
  // Key bytes pending in the parts held.
  size_t HeldPendingBytes() const;

  // Pending rows (the table writes them when it folds the log tail). A row of the `count`
  // entries after part `part`'s last row was written (nothing to do when the part is not held
  // with its pending keys: they are read with the row). RowsToFold and RowsFolded take a part
  // Part() returned.
  void RowWritten(size_t part, size_t count);
  // How many of part `part`'s newest rows are to be folded into one, or 0: rows are folded while
  // the one before the newest ones is no larger than they are together, so that a part has
  // about log2(its pending commits) rows and a key is written again about as many times.
  size_t RowsToFold(size_t part) const;
  // They were written as one row.
  void RowsFolded(size_t part, size_t rows);

  // The ids of part `part` whose keys are in [low, high), unordered.
  absl::Status IdsInRange(size_t part, absl::string_view low, absl::string_view high,
                          std::vector<int64_t>* ids);

  // Ids run from 1 to max_id(); live_count() of them are live.
  int64_t max_id() const { return max_id_; }
  size_t live_count() const { return static_cast<size_t>(max_id_) - deleted_.size(); }
  size_t tail_size() const { return static_cast<size_t>(max_id_) - base_.size(); }
  size_t deleted_count() const { return deleted_.size(); }
  size_t held_parts() const;
  const UrlBase& base() const { return base_; }
  // Counts the rollbacks that removed ids: an id may name another URL after one.
  uint64_t tail_rewinds() const { return tail_rewinds_; }

  // A new base holding every live key (what optimize installs with Reset): the base's keys and
  // the parts', merged in order, twice — once to sample them and train the base's model
  // (UrlBaseSampler; a base under kMinBaseModelKeys keys trains two and keeps the smaller), once
  // to encode them. When old_to_new is given, it is set to max_id() + 1 entries: for every old
  // id 1..max_id() its id in the new base, 0 for a deleted id (entry 0 is unused). Holds every
  // part while it runs.
  absl::StatusOr<UrlBase> Rebuild(std::vector<int64_t>* old_to_new = nullptr);

  // Undo log. A mark is a position in it; UndoTo(mark) reverts every change made after it.
  size_t UndoMark() const { return undo_.size(); }
  void UndoTo(size_t mark);
  // Forgets the undo log (the changes are committed) and the memory a large one took.
  void ClearUndo();

  // The changes made after `mark`, as the shadow tables record them.
  struct PartAdds {
    size_t part = 0;
    std::vector<int64_t> ids;             // increasing
    std::vector<absl::string_view> keys;  // valid until the next change
  };
  struct Pending {
    int64_t first_added_id = 0;  // max_id() + 1 at the mark
    int64_t added_count = 0;
    std::vector<PartAdds> parts;  // by part number
    std::vector<int64_t> deleted_ids;
  };
  Pending PendingSince(size_t mark);
  // The id-map chunks holding ids not yet written, and their being written.
  std::vector<std::pair<int64_t, absl::Span<const uint16_t>>> DirtyIdChunks() const {
    return id_parts_.Dirty();
  }
  void IdChunksWritten() { id_parts_.Written(); }

  size_t MemoryBytes() const;

 private:
  enum class Op : uint8_t { kAdd, kDelete };
  struct UndoEntry {
    Op op;
    uint16_t part;         // kAdd
    int64_t value;         // kAdd: the pending index; kDelete: the id
    int64_t reindex = -1;  // kAdd: the pending entry it took out of the hash set, or −1
  };
  struct Slot {
    std::shared_ptr<LoadedPart> held;  // null: not held
    uint64_t used = 0;                 // tick of the last use
    size_t uncommitted = 0;            // adds not yet committed (never evicted while > 0)
    size_t bytes = 0;                  // held->MemoryBytes() when last counted
  };

  // Calls visit(key, id) for every live key in key order, merging base and parts; stops at the
  // first error visit or a block's decoding returns.
  absl::Status ForEachLiveKey(
      const std::function<absl::Status(absl::string_view key, int64_t id)>& visit);
  absl::Status TrainPartsModel();
  // Part `part`'s run, read from the source (pending keys not read).
  absl::StatusOr<std::shared_ptr<LoadedPart>> LoadRun(size_t part);
  // Reads part `part`'s pending keys into `loaded`, which holds its run.
  absl::Status LoadPending(size_t part, LoadedPart* loaded);
  // Part `part` as held, or its run read from the source when not held.
  absl::StatusOr<std::shared_ptr<LoadedPart>> HeldRun(size_t part);
  void Recount(size_t part);
  // Part `part` grew where it is held (its pending keys read, or their hash set built): its
  // memory is counted again, and other parts evicted past the bound.
  void GrewInPlace(size_t part);
  // look_up(), a look-up in `run`, part `part`'s: its result, after counting the part again when
  // the look-up read one of the run's groups of blocks (UrlPart reads them when first needed),
  // and with the part named in a DataLossError (a group read late fails as "url base: …").
  template <typename LookUp>
  auto InRun(size_t part, const UrlPart& run, const LookUp& look_up) -> decltype(look_up());
  // Evicts parts, least recently used first, while the parts held pass the bound; never `keep`.
  void Evict(size_t keep);

  UrlStoreSource* source_;
  size_t cache_bytes_;
  UrlBase base_;
  int64_t max_id_ = 0;
  std::vector<Slot> slots_;
  size_t held_bytes_ = 0;
  uint64_t tick_ = 0;
  IdPartMap id_parts_;
  std::shared_ptr<const codecs::UrlBlockModel> own_parts_model_;
  absl::flat_hash_set<int64_t> deleted_;
  std::vector<UndoEntry> undo_;
  uint64_t tail_rewinds_ = 0;
};

}  // namespace crawldb::urls
