// Uncompressed adjacency lists in compressed-sparse-row form: what the adjacency encoders
// (adjacency_codec.h) take, and the transforms the Link Database needs around them — building
// from arcs, the transpose (inlinks from outlinks), renumbering.
//
// A graph of n nodes has ids 0..n−1; the list of node v is targets[offsets[v], offsets[v + 1]).
// A list is an *adjacency list* when it is strictly increasing (sorted, no duplicates) and every
// id is < n. Self loops (v in the list of v) are allowed: paper 001 drops them (§3.1), but the
// arc files of other tools keep them (issue 5, crawldb_import_arcs), and every codec here
// encodes them.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb::codecs {

// The most nodes a graph may have: ids are uint32_t and the count must fit too.
inline constexpr uint32_t kMaxGraphNodes = UINT32_MAX;

// A borrowed graph. offsets has n + 1 entries (or none, for the empty graph); the spans must
// outlive the view.
struct AdjacencyListsView {
  absl::Span<const uint64_t> offsets;  // offsets[v]: index into targets where list v starts.
  absl::Span<const uint32_t> targets;  // The lists, back to back.

  uint32_t size() const { return offsets.empty() ? 0 : static_cast<uint32_t>(offsets.size() - 1); }
  uint64_t arc_count() const { return targets.size(); }
  // Requires node < size() and a view that passed CheckAdjacencyLists.
  absl::Span<const uint32_t> list(uint32_t node) const {
    return targets.subspan(offsets[node], offsets[node + 1] - offsets[node]);
  }
};

// OK when `graph` is well formed: at most kMaxGraphNodes nodes, offsets[0] = 0, offsets
// non-decreasing, offsets[n] = targets.size(), every list strictly increasing with ids < n.
// InvalidArgumentError "adjacency_lists: …" naming the first offending node otherwise.
absl::Status CheckAdjacencyLists(AdjacencyListsView graph);

// One arc src → dst.
struct Arc {
  uint32_t src;
  uint32_t dst;
};

// An owned graph whose lists are adjacency lists (every constructor guarantees it). Copyable and
// movable.
class AdjacencyLists {
 public:
  // The graph of 0 nodes.
  AdjacencyLists() = default;

  // The graph of `node_count` nodes holding `arcs`, in any order; exact duplicates are dropped,
  // self loops kept. InvalidArgumentError if an id is ≥ node_count.
  static absl::StatusOr<AdjacencyLists> FromArcs(uint32_t node_count, absl::Span<const Arc> arcs);

  // The graph whose list v is lists[v]; each list must already be an adjacency list
  // (CheckAdjacencyLists's error otherwise). Convenient for small hand-made graphs.
  static absl::StatusOr<AdjacencyLists> FromLists(const std::vector<std::vector<uint32_t>>& lists);

  // The graph of these arrays, laid out as AdjacencyListsView's (taken over, not copied);
  // CheckAdjacencyLists's error when they are not adjacency lists.
  static absl::StatusOr<AdjacencyLists> FromCsr(std::vector<uint64_t> offsets,
                                                std::vector<uint32_t> targets);

  uint32_t size() const { return view().size(); }
  uint64_t arc_count() const { return targets_.size(); }
  absl::Span<const uint32_t> list(uint32_t node) const { return view().list(node); }
  AdjacencyListsView view() const { return {offsets_, targets_}; }

  // The transpose: u is in list v of the result iff v is in list u of this graph. Lists come out
  // sorted without a sort, since sources are visited in increasing order.
  AdjacencyLists Transpose() const;

  // The same graph with node v renamed new_id[v]; `new_id` must be a permutation of 0..n−1.
  AdjacencyLists Renumber(absl::Span<const uint32_t> new_id) const;

 private:
  std::vector<uint64_t> offsets_;  // n + 1 entries, or none when n = 0.
  std::vector<uint32_t> targets_;
};

}  // namespace crawldb::codecs
