#include "extension/graph/pagerank.h"

namespace crawldb::graph {

std::vector<double> PageRank(const GraphLists& graph, const PageRankOptions& options) {
  const uint32_t limit = graph.node_limit();
  std::vector<bool> is_node(limit);
  uint32_t nodes = 0;
  for (uint32_t node = 0; node < limit; ++node) {
    if (graph.IsNode(node)) {
      is_node[node] = true;
      ++nodes;
    }
  }
  std::vector<double> rank(limit, 0.0);
  if (nodes == 0) return rank;
  std::vector<uint32_t> outdegree(limit, 0);
  graph.ForEachList(Follow::kOut, [&](uint32_t node, absl::Span<const uint32_t> list) {
    outdegree[node] = static_cast<uint32_t>(list.size());
  });
  const double n = nodes;
  const double d = options.damping;
  for (uint32_t node = 0; node < limit; ++node) {
    if (is_node[node]) rank[node] = 1.0 / n;
  }
  // share[u] = rank(u) / outdegree(u): what u gives each node it links to.
  std::vector<double> share(limit, 0.0);
  for (uint64_t iteration = 0; iteration < options.iterations; ++iteration) {
    double dangling = 0;
    for (uint32_t node = 0; node < limit; ++node) {
      if (outdegree[node] != 0) {
        share[node] = rank[node] / outdegree[node];
      } else if (is_node[node]) {
        dangling += rank[node];
      }
    }
    // The recipe's order of operations: one base for every node, then the node's shares.
    const double base = (1 - d) / n + d * dangling / n;
    graph.ForEachList(Follow::kIn, [&](uint32_t node, absl::Span<const uint32_t> list) {
      if (!is_node[node]) return;
      if (list.empty()) {
        rank[node] = base;
        return;
      }
      double sum = 0;
      for (uint32_t source : list) sum += share[source];
      rank[node] = base + d * sum;
    });
  }
  return rank;
}

}  // namespace crawldb::graph
