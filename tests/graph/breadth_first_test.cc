#include "extension/graph/breadth_first.h"

#include <gtest/gtest.h>

#include "tests/graph/vector_graph.h"

namespace crawldb::graph {
namespace {

constexpr uint32_t kFar = UINT32_MAX;

// Depths by relaxing every arc until nothing changes (kFar: not reached).
std::vector<uint32_t> ReferenceDepths(const VectorGraph& graph, uint32_t source, Along along,
                                      uint32_t max_depth) {
  std::vector<uint32_t> depth(graph.node_limit(), kFar);
  if (!graph.IsNode(source)) return depth;
  depth[source] = 0;
  for (bool changed = true; changed;) {
    changed = false;
    const auto relax = [&](uint32_t from, uint32_t to) {
      if (depth[from] != kFar && depth[from] < max_depth && depth[from] + 1 < depth[to]) {
        depth[to] = depth[from] + 1;
        changed = true;
      }
    };
    for (auto [src, dst] : graph.arcs()) {
      if (along != Along::kIn) relax(src, dst);
      if (along != Along::kOut) relax(dst, src);
    }
  }
  return depth;
}

std::vector<uint32_t> Depths(const std::vector<Reached>& reached, uint32_t limit) {
  std::vector<uint32_t> depth(limit, kFar);
  for (const Reached& r : reached) {
    EXPECT_EQ(depth[r.node], kFar) << "node " << r.node << " reached twice";
    depth[r.node] = r.depth;
  }
  return depth;
}

TEST(BreadthFirst, ByHand) {
  // 0 → 1 → 2 → 3, 0 → 2, 4 → 0; 5 is a node without links, 6 is not a node.
  VectorGraph graph(7, {{0, 1}, {1, 2}, {2, 3}, {0, 2}, {4, 0}}, {5});
  std::vector<Reached> out = BreadthFirst(graph, 0, Along::kOut);
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(out[0].node, 0u);
  EXPECT_EQ(out[0].depth, 0u);
  EXPECT_EQ(Depths(out, 7), (std::vector<uint32_t>{0, 1, 1, 2, kFar, kFar, kFar}));
  EXPECT_EQ(Depths(BreadthFirst(graph, 0, Along::kOut, 1), 7),
            (std::vector<uint32_t>{0, 1, 1, kFar, kFar, kFar, kFar}));
  EXPECT_EQ(Depths(BreadthFirst(graph, 3, Along::kIn), 7),
            (std::vector<uint32_t>{2, 2, 1, 0, 3, kFar, kFar}));
  EXPECT_EQ(Depths(BreadthFirst(graph, 1, Along::kBoth), 7),
            (std::vector<uint32_t>{1, 0, 1, 2, 2, kFar, kFar}));
  EXPECT_EQ(Depths(BreadthFirst(graph, 0, Along::kOut, 0), 7),
            (std::vector<uint32_t>{0, kFar, kFar, kFar, kFar, kFar, kFar}));
  ASSERT_EQ(BreadthFirst(graph, 5, Along::kBoth).size(), 1u);
  EXPECT_TRUE(BreadthFirst(graph, 6, Along::kOut).empty());
  EXPECT_TRUE(BreadthFirst(graph, 7, Along::kOut).empty());
}

TEST(BreadthFirst, RandomGraphsMatchTheReference) {
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    const uint32_t limit = 1 + seed * 5;
    VectorGraph graph = RandomGraph(limit, seed * 6, seed);
    for (Along along : {Along::kOut, Along::kIn, Along::kBoth}) {
      for (uint32_t max_depth : {0u, 2u, kFar}) {
        const uint32_t source = seed % limit;
        std::vector<Reached> reached = BreadthFirst(graph, source, along, max_depth);
        EXPECT_EQ(Depths(reached, limit), ReferenceDepths(graph, source, along, max_depth))
            << "seed " << seed << " max_depth " << max_depth;
        for (size_t i = 1; i < reached.size(); ++i) {
          EXPECT_LE(reached[i - 1].depth, reached[i].depth) << "seed " << seed;
        }
      }
    }
  }
}

}  // namespace
}  // namespace crawldb::graph
