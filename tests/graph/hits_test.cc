#include "extension/graph/hits.h"

#include <gtest/gtest.h>

#include <numeric>

#include "tests/graph/vector_graph.h"

namespace crawldb::graph {
namespace {

void ReferenceNormalize(std::vector<double>* scores) {
  double sum = std::accumulate(scores->begin(), scores->end(), 0.0);
  if (sum != 0) {
    for (double& score : *scores) score /= sum;
  }
}

// hits.h's definition over an arc list.
HitsScores ReferenceHits(const VectorGraph& graph, int iterations) {
  const uint32_t limit = graph.node_limit();
  double n = 0;
  for (uint32_t v = 0; v < limit; ++v) n += graph.IsNode(v) ? 1 : 0;
  HitsScores scores{std::vector<double>(limit, 0), std::vector<double>(limit, 0)};
  for (uint32_t v = 0; v < limit; ++v) {
    if (graph.IsNode(v)) scores.hub[v] = scores.authority[v] = 1 / n;
  }
  for (int i = 0; i < iterations; ++i) {
    std::fill(scores.authority.begin(), scores.authority.end(), 0);
    for (auto [src, dst] : graph.arcs()) scores.authority[dst] += scores.hub[src];
    std::fill(scores.hub.begin(), scores.hub.end(), 0);
    for (auto [src, dst] : graph.arcs()) scores.hub[src] += scores.authority[dst];
    ReferenceNormalize(&scores.authority);
    ReferenceNormalize(&scores.hub);
  }
  return scores;
}

TEST(Hits, OneIterationByHand) {
  // 0 → 2, 1 → 2, 1 → 3. Authorities from hubs of 1/4: 2 gets 1/2, 3 gets 1/4 → 2/3, 1/3.
  // Hubs from those: 0 gets 2/3, 1 gets 1 → 0.4, 0.6.
  VectorGraph graph(4, {{0, 2}, {1, 2}, {1, 3}});
  HitsScores scores = Hits(graph, 1);
  EXPECT_NEAR(scores.authority[0], 0, 1e-15);
  EXPECT_NEAR(scores.authority[2], 2.0 / 3, 1e-15);
  EXPECT_NEAR(scores.authority[3], 1.0 / 3, 1e-15);
  EXPECT_NEAR(scores.hub[0], 0.4, 1e-15);
  EXPECT_NEAR(scores.hub[1], 0.6, 1e-15);
  EXPECT_NEAR(scores.hub[2], 0, 1e-15);
}

TEST(Hits, WithoutArcsTheScoresAreZeroAfterAnIteration) {
  VectorGraph graph(3, {}, {0, 2});
  HitsScores start = Hits(graph, 0);
  EXPECT_EQ(start.hub, (std::vector<double>{0.5, 0, 0.5}));
  EXPECT_EQ(start.authority, start.hub);
  HitsScores after = Hits(graph, 1);
  EXPECT_EQ(after.hub, (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(after.authority, after.hub);
}

TEST(Hits, RandomGraphsMatchTheReference) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const uint32_t limit = 1 + seed * 11;
    VectorGraph graph = RandomGraph(limit, seed * 30, seed);
    HitsScores scores = Hits(graph, seed);
    HitsScores expected = ReferenceHits(graph, static_cast<int>(seed));
    for (uint32_t v = 0; v < limit; ++v) {
      EXPECT_NEAR(scores.hub[v], expected.hub[v], 1e-14) << "seed " << seed << " node " << v;
      EXPECT_NEAR(scores.authority[v], expected.authority[v], 1e-14)
          << "seed " << seed << " node " << v;
    }
  }
}

}  // namespace
}  // namespace crawldb::graph
