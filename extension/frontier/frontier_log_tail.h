// LogTail: the URL changes of the `frontier` commits after the last fold, as one connection
// holds them (frontier_table.h, "The log tail"). A commit's row in <t>_log carries its changes;
// until a fold writes them into <t>_pending, a part read from its snapshot and pending rows
// takes its changes from here. Bounded by the fold rule: log_tail_kb of log rows, kTailRows rows.
//
// Memory: 56 bytes per URL change (UrlChange) plus 12 per part a commit changed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "extension/containers/log_tail_rows.h"
#include "extension/frontier/frontier_changes.h"

namespace crawldb::frontier {

// urls[begin, end) of a change set are changes to part `part`.
struct PartRange {
  uint32_t part = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
};

class LogTail : public LogTailRows {
 public:
  // The hosts the tail's commits touched (a fold writes their rows).
  const absl::btree_set<uint32_t>& hosts() const { return hosts_; }

  // Adds one commit: its URL changes (`ranges` gives their parts), the post-images of the hosts
  // it touched and the bytes of its log row.
  void Add(absl::Span<const UrlChange> urls, absl::Span<const PartRange> ranges,
           absl::Span<const HostChange> hosts, size_t row_bytes);
  // Appends the changes to part `part`, in commit order, to *out.
  void AppendPart(uint32_t part, std::vector<UrlChange>* out) const;
  // The parts the tail changed, in increasing order.
  std::vector<uint32_t> Parts() const;
  // Empties the tail: commit `seq` folded it.
  void Fold(int64_t seq);
  size_t MemoryBytes() const;

 private:
  std::vector<UrlChange> urls_;                                   // every commit's, in commit order
  absl::flat_hash_map<uint32_t, std::vector<PartRange>> ranges_;  // by part, into urls_
  absl::btree_set<uint32_t> hosts_;
};

}  // namespace crawldb::frontier
