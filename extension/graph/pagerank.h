// PageRank by power iteration over a GraphLists, exactly as sql/recipes/pagerank.sql defines it:
// with N the graph's nodes, d the damping and outdegree(u) the length of u's out-list,
//   rank_0(v)   = 1 / N
//   rank'(v)    = (1 − d) / N + d · Σ_{u dangling} rank(u) / N + d · Σ_{u → v} rank(u) / outdegree(u)
// where a dangling node has no out-list; the ranks sum to 1. Each iteration reads every in-list
// once (ForEachList(kIn)) after one pass over the out-lists for the outdegrees; memory: three
// numbers per id below node_limit().
#pragma once

#include <cstdint>
#include <vector>

#include "extension/graph/graph_lists.h"

namespace crawldb::graph {

struct PageRankOptions {
  double damping = 0.85;  // d, in (0, 1): the caller checks
  uint64_t iterations = 30;
};

// rank[v] for every id v below graph.node_limit(); 0 for ids that are not nodes.
std::vector<double> PageRank(const GraphLists& graph, const PageRankOptions& options);

}  // namespace crawldb::graph
