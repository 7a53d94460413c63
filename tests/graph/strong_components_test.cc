#include "extension/graph/strong_components.h"

#include <gtest/gtest.h>

#include "tests/graph/vector_graph.h"

namespace crawldb::graph {
namespace {

// Component ids from the transitive closure: the smallest node that reaches v and that v
// reaches.
std::vector<uint32_t> ReferenceComponents(const VectorGraph& graph) {
  const uint32_t n = graph.node_limit();
  std::vector<std::vector<bool>> reaches(n, std::vector<bool>(n));
  for (uint32_t v = 0; v < n; ++v) reaches[v][v] = true;
  for (auto [src, dst] : graph.arcs()) reaches[src][dst] = true;
  for (uint32_t k = 0; k < n; ++k) {
    for (uint32_t i = 0; i < n; ++i) {
      if (!reaches[i][k]) continue;
      for (uint32_t j = 0; j < n; ++j) {
        if (reaches[k][j]) reaches[i][j] = true;
      }
    }
  }
  std::vector<uint32_t> component(n, kNotANode);
  for (uint32_t v = 0; v < n; ++v) {
    if (!graph.IsNode(v)) continue;
    for (uint32_t w = 0; w <= v; ++w) {
      if (reaches[v][w] && reaches[w][v]) {
        component[v] = w;
        break;
      }
    }
  }
  return component;
}

TEST(StrongComponents, ByHand) {
  // {0, 1, 2} a cycle, 2 → 3, {3, 4} a cycle, 5 alone, 6 not a node.
  VectorGraph graph(7, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 3}}, {5});
  std::vector<uint32_t> component = StrongComponents(graph);
  EXPECT_EQ(component, (std::vector<uint32_t>{0, 0, 0, 3, 3, 5, kNotANode}));
  ComponentCounts counts = CountComponents(component);
  EXPECT_EQ(counts.components, 3u);
  EXPECT_EQ(counts.largest, 3u);
}

TEST(StrongComponents, RandomGraphsMatchTheReference) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    const uint32_t limit = 1 + seed * 3;
    VectorGraph graph = RandomGraph(limit, seed * 4, seed);
    EXPECT_EQ(StrongComponents(graph), ReferenceComponents(graph)) << "seed " << seed;
  }
}

TEST(StrongComponents, ListsThatDoNotFitTheStackAreReadAgain) {
  // A complete graph: the search goes 0 → 1 → 2 → …, each list as long as the graph, so the
  // stack of lists (at most node_limit() ids) holds only the first; the rest are re-read.
  std::vector<TestArc> arcs;
  const uint32_t n = 50;
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t w = 0; w < n; ++w) arcs.emplace_back(v, w == v ? (w + 1) % n : w);
  }
  arcs.emplace_back(n, 0);  // n reaches the clique, not back
  VectorGraph graph(n + 1, arcs);
  std::vector<uint32_t> component = StrongComponents(graph);
  EXPECT_EQ(component, ReferenceComponents(graph));
  EXPECT_EQ(CountComponents(component).largest, n);
}

TEST(StrongComponents, ALongPathNeedsNoRecursion) {
  const uint32_t n = 200000;
  std::vector<TestArc> arcs;
  for (uint32_t v = 0; v + 1 < n; ++v) arcs.emplace_back(v, v + 1);
  arcs.emplace_back(n - 1, 0);
  std::vector<uint32_t> component = StrongComponents(VectorGraph(n, arcs));
  ComponentCounts counts = CountComponents(component);
  EXPECT_EQ(counts.components, 1u);
  EXPECT_EQ(counts.largest, n);
}

}  // namespace
}  // namespace crawldb::graph
