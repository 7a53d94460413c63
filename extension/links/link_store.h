// LinkStore: the link graph of one `outlinks` table in memory — the arena behind the link
// vtabs. SQLite-free.
//
// The graph as of the last optimize (or import) is the base: both directions encoded with the
// table's adjacency codec (codecs/adjacency_codec.h), `out` (list v = the nodes v links to) and
// `in`, its transpose. Arcs added since live in a delta, both directions: first in a buffer (a
// sorted list per node in a hash map, about 60 bytes per arc), which at delta_buffer_arcs()
// arcs is frozen into compressed sorted runs (delta_runs.h, about 6 bytes per arc for both
// directions with the filter); a replayed log's additions, a buffer's worth or more at once, go
// into runs directly (ReplayInBatches). Arcs of the base or of the runs removed since are
// remembered as tombstones. A list read through the store is the base list and the runs' lists
// less their tombstones, merged with the buffer's list: every change is visible at once. Node
// ids are uint32_t; a node with no base list (id ≥ base size) may still have delta arcs.
// Tombstones of run arcs are purged (the runs rewritten without those arcs) at every undo, so
// that a rolled back transaction leaves nothing behind, and once they reach an eighth of the
// runs' arcs.
//
// Every change is recorded in an undo log until its transaction ends, so that a rollback, or a
// rollback to a savepoint, restores the store exactly (UndoTo); the changes after a mark are what
// a transaction writes to the shadow tables (ChangesSince).
//
// Not thread-safe: one store belongs to one connection's table.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"
#include "codecs/adjacency_lists.h"
#include "extension/containers/skewed_parts.h"
#include "extension/containers/split_hash_map.h"
#include "extension/links/delta_runs.h"

namespace crawldb::links {

enum class Direction : uint8_t { kOut, kIn };

// One logged change.
struct LinkChange {
  bool added;  // true: the arc was added; false: removed
  uint32_t src;
  uint32_t dst;
};

class LinkStore {
 public:
  // Empty base (0 nodes, no arcs).
  LinkStore();

  // Replaces everything by a base: `out` and its transpose `in` (same node count and arcs; the
  // caller checks or has built them so), no delta.
  void Reset(std::unique_ptr<codecs::EncodedGraph> out, std::unique_ptr<codecs::EncodedGraph> in);

  // The current list of `node` in `direction`, sorted, into *list (replaced).
  void List(Direction direction, uint32_t node, std::vector<uint32_t>* list) const;
  bool Contains(uint32_t src, uint32_t dst) const;
  // The length of that list without decoding it where the codec allows; nullopt while removed
  // base arcs are pending (decode the list then).
  std::optional<uint32_t> Degree(Direction direction, uint32_t node) const;

  // Changes; each returns false (and changes nothing) when there is nothing to do: the arc is
  // already there / not there, or status() is not OK.
  bool Add(uint32_t src, uint32_t dst);
  bool Remove(uint32_t src, uint32_t dst);
  // Replays a committed change read from the shadow tables; DataLossError when it does not fit
  // the current state (an add of a present arc, a removal of an absent one) or status() is not
  // OK.
  absl::Status Replay(const LinkChange& change);
  // The same for a run of committed changes, in order (a log row's, a log's; EndReplay() after
  // the last): additions are gathered and go in together at the next removal, at
  // kReplayBatchArcs and at EndReplay(); a buffer's worth or more are sorted and added as one
  // run per direction (the arcs with a tombstone lose it, as Replay does), rather than one by
  // one through the buffer. A new process's first look-up in a crawl of a million links that
  // never optimized: 0.2 s, against 1.6–2.0 s one by one (bench/scale.sh's "first outlinks
  // look-up"); of 2.97 million, 0.42–0.46 s with batches of 2^22 arcs, against 0.70–0.73 s with
  // batches of 2^20, which merged runs and rebuilt the filter. A batch going in holds 8 bytes
  // per arc three times (its keys, their transposes, the sort's scratch): 96 MiB at 2^22.
  // Until EndReplay(), the lists lack the gathered additions, and nothing else may change the
  // store. Errors as Replay's, found when the additions go in; after one, the store is to be
  // Reset (the table reloads).
  absl::Status ReplayInBatches(absl::Span<const LinkChange> changes);
  absl::Status EndReplay();
  static constexpr size_t kReplayBatchArcs = size_t{1} << 22;

  // Every node id below node_limit() may have a list; none at or above it has.
  uint32_t node_limit() const;
  // Arcs in the current graph.
  uint64_t arc_count() const { return arc_count_; }
  // Moves on every change (an arc added or removed, a new base): lists decoded at one version
  // are the store's lists while it stays.
  uint64_t version() const { return version_; }
  const codecs::EncodedGraph& base(Direction direction) const {
    return direction == Direction::kOut ? *out_ : *in_;
  }
  // Arcs added since the base (buffered or in runs; those removed again by a tombstone counted).
  size_t delta_arcs() const { return delta_arcs_; }
  size_t delta_runs() const { return runs_out_.run_count(); }
  size_t tombstones() const { return tombstones_.size(); }
  // The buffer's size at which it is frozen into runs (at least 1); tests set it small.
  static constexpr size_t kDefaultDeltaBufferArcs = size_t{1} << 16;
  size_t delta_buffer_arcs() const { return buffer_limit_; }
  void SetDeltaBufferArcs(size_t arcs);

  // The whole current graph as arcs src → dst: base less tombstones plus delta, in src order;
  // the DataLossError of CheckBase() when the base is corrupt.
  absl::StatusOr<std::vector<codecs::Arc>> Arcs() const;

  // Undo log. A mark is a position in it; UndoTo(mark) reverts every change made after it.
  size_t UndoMark() const { return undo_.size(); }
  void UndoTo(size_t mark);
  void ClearUndo();
  // The changes made after `mark`, in order.
  absl::Span<const LinkChange> ChangesSince(size_t mark) const {
    return absl::MakeConstSpan(undo_).subspan(mark);
  }

  // OK, or the corruption a decode met in the base (codecs/adjacency_codec.h, "Deferred
  // checks"): a base loaded with deferred checks finds a corrupt list when it first reads it,
  // and the list then reads as empty; or a paged base's read failure. Whoever reads lists
  // checks this before trusting them.
  absl::Status status() const;
  // Checks every list of the base not checked yet (EncodedGraph::CheckAll).
  absl::Status CheckBase() const;
  // The bound on the bytes of a paged base's parts held, both directions together (each gets
  // half; EncodedGraph::SetMemoryBudget), kept for the bases Reset installs later.
  void SetBaseBudget(uint64_t bytes);
  // Forgets the base's read failures (EncodedGraph::ClearReadFailure): a paged base fetches the
  // parts again.
  void ClearReadFailures() const {
    out_->ClearReadFailure();
    in_->ClearReadFailure();
  }

  // Problems with the invariants (the base's lists, CheckBase; the buffer's and the runs'
  // directions mirror each other, tombstones name base or run arcs, delta arcs are in one place
  // only, in is the transpose of out), one line each.
  void Check(std::vector<std::string>* problems) const;

  size_t MemoryBytes() const;

 private:
  // Node ids are dense: a multiplicative hash spreads them over parts of skewed shares
  // (skewed_parts.h), so that the parts do not all rehash at once.
  struct DeltaPartOf {
    size_t operator()(uint32_t node) const { return SkewedPartOf(node * 0x9E3779B9u); }
  };
  using DeltaLists = SplitHashMap<uint32_t, std::vector<uint32_t>, DeltaPartOf, kSkewedPartBits>;
  static uint64_t ArcKey(uint32_t src, uint32_t dst) { return codecs::ArcKey(src, dst); }
  // The key of the same arc the other way: (major, minor) → (minor, major).
  static uint64_t TransposedKey(uint64_t key) {
    return ArcKey(codecs::ArcMinor(key), codecs::ArcMajor(key));
  }
  bool InBase(uint32_t src, uint32_t dst) const;
  bool InBuffer(uint32_t src, uint32_t dst) const;
  // Inserts / erases `value` in the sorted delta list of `node`.
  static void DeltaInsert(DeltaLists* lists, uint32_t node, uint32_t value);
  static void DeltaErase(DeltaLists* lists, uint32_t node, uint32_t value);
  // Applies a change without logging it; the change must fit the state.
  void ApplyAdd(uint32_t src, uint32_t dst);
  void ApplyRemove(uint32_t src, uint32_t dst);
  // Moves the buffer into the runs.
  void FreezeBuffer();
  // Adds `keys` (ArcKeys, sorted; none in the runs) to the runs, one run per direction, given
  // their transposes `in_keys` in any order (sorted here, at once when they come sorted); the
  // caller counts them (FreezeBuffer's were counted when buffered; EndReplay counts its own).
  void AddRuns(const std::vector<uint64_t>& keys, std::vector<uint64_t> in_keys);
  // Each key's transpose (ArcKey(minor, major)), in the same order: sorted keys give transposes
  // whose minors come sorted (RadixSortKeys sorts them in half the passes).
  static std::vector<uint64_t> Transposed(absl::Span<const uint64_t> keys);
  // Rewrites the runs without their tombstoned arcs, and drops those tombstones.
  void PurgeRunTombstones();
  // The same once run tombstones reach an eighth of the runs' arcs (at least kMinPurge).
  void MaybePurgeRunTombstones();
  static constexpr size_t kMinPurge = 1024;
  // The node's added arcs in `direction` (buffer and runs; tombstones not applied), sorted:
  // the buffer's list, or added_scratch_ once there are runs. Valid until the next call.
  absl::Span<const uint32_t> Added(Direction direction, uint32_t node) const;

  std::unique_ptr<codecs::EncodedGraph> out_;
  std::unique_ptr<codecs::EncodedGraph> in_;
  DeltaLists delta_out_;  // the buffer
  DeltaLists delta_in_;
  DeltaRuns runs_out_{/*filtered=*/true};     // keys (src, dst)
  DeltaRuns runs_in_{/*filtered=*/false};     // keys (dst, src)
  absl::flat_hash_set<uint64_t> tombstones_;  // base or run arcs removed, as ArcKey
  uint32_t delta_limit_ = 0;                  // 1 + the largest node id in the delta
  size_t delta_arcs_ = 0;                     // buffered and in runs
  size_t buffer_arcs_ = 0;
  size_t buffer_limit_ = kDefaultDeltaBufferArcs;
  size_t run_tombstones_ = 0;  // tombstones that name run arcs
  uint64_t arc_count_ = 0;
  uint64_t version_ = 0;
  std::vector<LinkChange> undo_;
  std::vector<uint64_t> replayed_adds_;  // ReplayInBatches' gathered additions, as ArcKeys
  mutable std::vector<uint32_t> scratch_;
  mutable std::vector<uint32_t> added_scratch_;
  uint64_t base_budget_ = codecs::PagedBytes::kUnbounded;
};

}  // namespace crawldb::links
