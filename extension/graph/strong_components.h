// Strongly connected components of a GraphLists: Tarjan's algorithm made iterative (no
// recursion, whatever the depth of the search).
//
// Each node's out-list is taken by List (random access) when the search first reaches it and
// kept on a stack of lists until the node is done; the stack holds at most node_limit() ids, and
// a node whose list does not fit is re-read when the search comes back to it. Memory: O(nodes)
// — four 32-bit numbers and a bit per id, plus that stack — whatever the number of arcs.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "extension/graph/graph_lists.h"

namespace crawldb::graph {

// Marks the ids that are not nodes in StrongComponents' result.
inline constexpr uint32_t kNotANode = UINT32_MAX;

// component[v] for every id v below graph.node_limit(): the smallest node id of v's strongly
// connected component (so component[v] == v for exactly one node of each), kNotANode for an id
// that is not a node.
std::vector<uint32_t> StrongComponents(const GraphLists& graph);

// The number of components and the nodes in the largest, from StrongComponents' result.
struct ComponentCounts {
  uint64_t components = 0;
  uint64_t largest = 0;
};
ComponentCounts CountComponents(absl::Span<const uint32_t> component);

}  // namespace crawldb::graph
