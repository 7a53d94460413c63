// Breadth-first search over a GraphLists from one node: every node reached, with its depth (the
// fewest arcs from the source), in the order the search reaches them (depth by depth). Reads the
// list of each node reached once per direction followed; memory: a bit per id and the nodes
// reached.
#pragma once

#include <cstdint>
#include <vector>

#include "extension/graph/graph_lists.h"

namespace crawldb::graph {

// Which arcs the search follows: from a node to the nodes it links to, to the nodes that link to
// it, or both (the graph taken as undirected).
enum class Along : uint8_t { kOut, kIn, kBoth };

struct Reached {
  uint32_t node;
  uint32_t depth;
};

// The nodes reached from `source` within `max_depth` arcs, the source first (depth 0); nothing
// when `source` is not a node of the graph (or not below node_limit()).
std::vector<Reached> BreadthFirst(const GraphLists& graph, uint32_t source, Along along,
                                  uint32_t max_depth = UINT32_MAX);

}  // namespace crawldb::graph
