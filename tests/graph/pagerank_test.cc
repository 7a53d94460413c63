#include "extension/graph/pagerank.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/graph/vector_graph.h"

namespace crawldb::graph {
namespace {

// The recipe's definition over an arc list, straight from sql/recipes/pagerank.sql.
std::vector<double> ReferencePageRank(const VectorGraph& graph, double d, int iterations) {
  const uint32_t limit = graph.node_limit();
  double n = 0;
  for (uint32_t v = 0; v < limit; ++v) n += graph.IsNode(v) ? 1 : 0;
  std::vector<double> outdegree(limit, 0);
  for (auto [src, dst] : graph.arcs()) outdegree[src] += 1;
  std::vector<double> rank(limit, 0);
  for (uint32_t v = 0; v < limit; ++v) rank[v] = graph.IsNode(v) ? 1 / n : 0;
  for (int i = 0; i < iterations; ++i) {
    double dangling = 0;
    for (uint32_t v = 0; v < limit; ++v) {
      if (graph.IsNode(v) && outdegree[v] == 0) dangling += rank[v];
    }
    std::vector<double> next(limit, 0);
    for (uint32_t v = 0; v < limit; ++v) {
      if (graph.IsNode(v)) next[v] = (1 - d) / n + d * dangling / n;
    }
    for (auto [src, dst] : graph.arcs()) next[dst] += d * rank[src] / outdegree[src];
    rank = next;
  }
  return rank;
}

TEST(PageRank, OneIterationByHand) {
  // 0 → 1, 0 → 2, 1 → 2; 2 is dangling. rank_0 = 1/3; base = 0.15/3 + 0.85 · (1/3) / 3 = 13/90.
  VectorGraph graph(3, {{0, 1}, {0, 2}, {1, 2}});
  std::vector<double> rank = PageRank(graph, {.damping = 0.85, .iterations = 1});
  ASSERT_EQ(rank.size(), 3u);
  EXPECT_NEAR(rank[0], 13.0 / 90, 1e-15);
  EXPECT_NEAR(rank[1], 13.0 / 90 + 0.85 / 6, 1e-15);
  EXPECT_NEAR(rank[2], 13.0 / 90 + 0.85 / 2, 1e-15);
}

TEST(PageRank, IdsThatAreNotNodesGetNothingAndDoNotCount) {
  // Ids 1 and 3 are not nodes; 4 is a node without links (a URL nobody links to): N = 3.
  VectorGraph graph(5, {{0, 2}}, {4});
  std::vector<double> rank = PageRank(graph, {.iterations = 0});
  EXPECT_EQ(rank, (std::vector<double>{1.0 / 3, 0, 1.0 / 3, 0, 1.0 / 3}));
  rank = PageRank(graph, {.iterations = 5});
  EXPECT_EQ(rank[1], 0);
  EXPECT_EQ(rank[3], 0);
  EXPECT_NEAR(std::accumulate(rank.begin(), rank.end(), 0.0), 1, 1e-15);
}

TEST(PageRank, EmptyGraph) {
  EXPECT_TRUE(PageRank(VectorGraph(0, {}), {}).empty());
  EXPECT_EQ(PageRank(VectorGraph(2, {}), {}), (std::vector<double>{0, 0}));
}

TEST(PageRank, RandomGraphsMatchTheReference) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const uint32_t limit = 1 + seed * 13;
    VectorGraph graph = RandomGraph(limit, seed * 40, seed);
    const double damping = 0.5 + seed / 50.0;
    std::vector<double> rank =
        PageRank(graph, {.damping = damping, .iterations = static_cast<uint64_t>(seed)});
    std::vector<double> expected = ReferencePageRank(graph, damping, static_cast<int>(seed));
    ASSERT_EQ(rank.size(), expected.size());
    for (uint32_t v = 0; v < limit; ++v) {
      EXPECT_NEAR(rank[v], expected[v], 1e-14) << "seed " << seed << " node " << v;
    }
    EXPECT_NEAR(std::accumulate(rank.begin(), rank.end(), 0.0), 1, 1e-12) << seed;
  }
}

}  // namespace
}  // namespace crawldb::graph
