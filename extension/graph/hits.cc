#include "extension/graph/hits.h"

namespace crawldb::graph {
namespace {

// Divides every score by their sum, unless it is 0.
void Normalize(std::vector<double>* scores) {
  double sum = 0;
  for (double score : *scores) sum += score;
  if (sum == 0) return;
  for (double& score : *scores) score /= sum;
}

// (*to)[v] = Σ of from[u] over the `follow` list of every node v.
void Gather(const GraphLists& graph, Follow follow, const std::vector<double>& from,
            std::vector<double>* to) {
  graph.ForEachList(follow, [&](uint32_t node, absl::Span<const uint32_t> list) {
    double sum = 0;
    for (uint32_t other : list) sum += from[other];
    (*to)[node] = sum;
  });
}

}  // namespace

HitsScores Hits(const GraphLists& graph, uint64_t iterations) {
  const uint32_t limit = graph.node_limit();
  HitsScores scores{std::vector<double>(limit, 0.0), std::vector<double>(limit, 0.0)};
  uint32_t nodes = 0;
  for (uint32_t node = 0; node < limit; ++node) nodes += graph.IsNode(node) ? 1 : 0;
  if (nodes == 0) return scores;
  for (uint32_t node = 0; node < limit; ++node) {
    if (graph.IsNode(node)) scores.hub[node] = scores.authority[node] = 1.0 / nodes;
  }
  // Ids that are not nodes have empty lists: their sums stay 0.
  for (uint64_t iteration = 0; iteration < iterations; ++iteration) {
    Gather(graph, Follow::kIn, scores.hub, &scores.authority);
    Gather(graph, Follow::kOut, scores.authority, &scores.hub);
    Normalize(&scores.authority);
    Normalize(&scores.hub);
  }
  return scores;
}

}  // namespace crawldb::graph
