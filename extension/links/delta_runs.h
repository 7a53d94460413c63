// DeltaRuns: the arcs a link store has added since its base, in one direction, frozen into a
// few compressed sorted runs (codecs/arc_run.h) — what LinkStore's delta becomes once its
// mutable buffer fills. SQLite-free.
//
// Runs are merged as they come so that each holds more than twice the arcs of the next: with
// buffers of B arcs, at most log2(size() / B) + 1 runs, and each arc is rewritten O(log) times
// in all. The runs' key sets are disjoint (the store adds an arc to a run only when no run holds
// it). A filtered DeltaRuns also keeps a blocked Bloom filter of its keys (4 bits in one 64-bit
// word per key, sized for twice the keys at each rebuild: 1–2 bytes per key, at most about 3%
// false positives) so that Contains() for an absent key, the common case when a crawl adds
// links, mostly touches one cache line instead of every run.
//
// Cost: the runs' bytes (2–3 per arc on crawl data) plus, when filtered, 1–2 bytes per key.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "codecs/arc_run.h"

namespace crawldb::links {

// splitmix64's finaliser: spreads an arc key over 64 bits (for filters and order-free sums).
uint64_t MixArcKey(uint64_t key);

class DeltaRuns {
 public:
  explicit DeltaRuns(bool filtered) : filtered_(filtered) {}

  // Adds `run`, whose keys no run here holds, and merges runs as above.
  void Add(codecs::ArcRun run);
  bool Contains(uint64_t key) const;
  // Appends the minors of `major` in each run to *minors: sorted within each run's share, not
  // across runs.
  void AppendMinors(uint32_t major, std::vector<uint32_t>* minors) const;
  // How many keys have major `major`.
  size_t CountMinors(uint32_t major) const;
  // Calls visit(key) for every key, run by run (sorted within each run only).
  void ForEachKey(absl::FunctionRef<void(uint64_t)> visit) const;
  // Rewrites the runs without the keys `removed` accepts (one pass over every key).
  void Remove(absl::FunctionRef<bool(uint64_t)> removed);

  size_t size() const { return size_; }
  size_t run_count() const { return runs_.size(); }
  void Clear();
  size_t MemoryBytes() const;

 private:
  void FilterInsert(uint64_t key);
  bool FilterMayContain(uint64_t key) const;
  // Sizes the filter for twice size() and inserts every key again.
  void RebuildFilter();
  // Merges the last runs while the one before the last is not more than twice its size.
  void MergeTail();

  bool filtered_;
  std::vector<codecs::ArcRun> runs_;  // larger first
  size_t size_ = 0;
  std::vector<uint64_t> filter_;  // 8 keys per word, 4 bits each
};

}  // namespace crawldb::links
