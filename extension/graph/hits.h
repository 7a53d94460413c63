// HITS (Kleinberg's hubs and authorities) by power iteration over a GraphLists. With N the
// graph's nodes:
//   hub_0(v) = authority_0(v) = 1 / N
//   authority'(v) = Σ_{u → v} hub(u)            (from the in-lists)
//   hub'(u)       = Σ_{u → w} authority'(w)     (from the out-lists, with the new authorities)
// then both are divided by their sums, so that each sums to 1 (a sum of 0 — a graph without arcs
// — leaves the zeros). Each iteration reads every list once in each direction; memory: two
// numbers per id below node_limit().
#pragma once

#include <cstdint>
#include <vector>

#include "extension/graph/graph_lists.h"

namespace crawldb::graph {

struct HitsScores {
  // Indexed by id below node_limit(); 0 for ids that are not nodes.
  std::vector<double> hub;
  std::vector<double> authority;
};

HitsScores Hits(const GraphLists& graph, uint64_t iterations);

}  // namespace crawldb::graph
