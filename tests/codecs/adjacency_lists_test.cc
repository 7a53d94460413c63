// Uncompressed adjacency lists (codecs/adjacency_lists.h) and the degree partitions of paper 001
// §2.2 (codecs/degree_partitions.h).
#include "codecs/adjacency_lists.h"

#include <cstdint>
#include <vector>

#include "codecs/degree_partitions.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

std::vector<std::vector<uint32_t>> AllLists(const AdjacencyLists& graph) {
  std::vector<std::vector<uint32_t>> lists;
  for (uint32_t v = 0; v < graph.size(); ++v) {
    lists.emplace_back(graph.list(v).begin(), graph.list(v).end());
  }
  return lists;
}

TEST(AdjacencyLists, FromArcsSortsAndDropsDuplicatesOnly) {
  const std::vector<Arc> arcs = {{2, 1}, {0, 3}, {2, 2}, {0, 1}, {2, 1}, {0, 3}, {3, 0}};
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromArcs(5, arcs);
  ASSERT_TRUE(graph.ok()) << graph.status();
  EXPECT_EQ(graph->size(), 5u);
  EXPECT_EQ(graph->arc_count(), 5u);
  EXPECT_EQ(AllLists(*graph), (std::vector<std::vector<uint32_t>>{{1, 3}, {}, {1, 2}, {0}, {}}));
  EXPECT_TRUE(CheckAdjacencyLists(graph->view()).ok());
}

TEST(AdjacencyLists, FromArcsRefusesIdsOutOfRange) {
  EXPECT_EQ(AdjacencyLists::FromArcs(3, std::vector<Arc>{{0, 3}}).status().message(),
            "adjacency_lists: arc 0 -> 3 has an id not below 3");
}

TEST(AdjacencyLists, FromListsChecksTheLists) {
  EXPECT_EQ(AdjacencyLists::FromLists({{1, 1}, {}}).status().message(),
            "adjacency_lists: the list of node 0 is not strictly increasing");
  EXPECT_EQ(AdjacencyLists::FromLists({{}, {2}}).status().message(),
            "adjacency_lists: node 1 links to 2, not below 2");
  absl::StatusOr<AdjacencyLists> empty = AdjacencyLists::FromLists({});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
}

TEST(AdjacencyLists, CheckRefusesMalformedOffsets) {
  const std::vector<uint32_t> targets = {0, 1};
  const std::vector<uint64_t> not_zero = {1, 2};
  const std::vector<uint64_t> short_end = {0, 1};
  const std::vector<uint64_t> decreasing = {0, 2, 1, 2};
  EXPECT_EQ(CheckAdjacencyLists({not_zero, targets}).message(),
            "adjacency_lists: offsets[0] is not 0");
  EXPECT_EQ(CheckAdjacencyLists({short_end, targets}).message(),
            "adjacency_lists: offsets[n] = 1 but there are 2 targets");
  EXPECT_EQ(CheckAdjacencyLists({decreasing, targets}).message(),
            "adjacency_lists: offsets decrease at node 1");
  EXPECT_EQ(CheckAdjacencyLists({{}, targets}).message(),
            "adjacency_lists: targets without offsets");
  EXPECT_TRUE(CheckAdjacencyLists({}).ok());
}

TEST(AdjacencyLists, TransposeReversesEveryArc) {
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromLists({{1, 2}, {0, 1, 3}, {}, {0}});
  ASSERT_TRUE(graph.ok());
  const AdjacencyLists transpose = graph->Transpose();
  EXPECT_EQ(AllLists(transpose), (std::vector<std::vector<uint32_t>>{{1, 3}, {0, 1}, {0}, {1}}));
  EXPECT_EQ(AllLists(transpose.Transpose()), AllLists(*graph));
  EXPECT_EQ(AdjacencyLists().Transpose().size(), 0u);
}

TEST(AdjacencyLists, RenumberRenamesAndSorts) {
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromLists({{1, 2}, {0}, {0, 1, 2}});
  ASSERT_TRUE(graph.ok());
  // 0 → 2, 1 → 0, 2 → 1.
  const std::vector<uint32_t> new_id = {2, 0, 1};
  const AdjacencyLists renamed = graph->Renumber(new_id);
  EXPECT_EQ(AllLists(renamed), (std::vector<std::vector<uint32_t>>{{2}, {0, 1, 2}, {0, 1}}));
  EXPECT_TRUE(CheckAdjacencyLists(renamed.view()).ok());
}

TEST(DegreePartitions, ThresholdsAreThePapers) {
  // Node 0: outdegree 255 (high); node 1: indegree 255 (high, via inlinks); node 2: outdegree
  // 254 (medium); node 3: outdegree 24 (medium); node 4: outdegree 23 (low); others low.
  const uint32_t n = 600;
  std::vector<Arc> arcs;
  for (uint32_t k = 0; k < 255; ++k) arcs.push_back({0, 300 + k});
  for (uint32_t k = 0; k < 255; ++k) arcs.push_back({300 + k, 1});
  for (uint32_t k = 0; k < 254; ++k) arcs.push_back({2, 300 + k});
  for (uint32_t k = 0; k < 24; ++k) arcs.push_back({3, 300 + k});
  for (uint32_t k = 0; k < 23; ++k) arcs.push_back({4, 300 + k});
  absl::StatusOr<AdjacencyLists> out = AdjacencyLists::FromArcs(n, arcs);
  ASSERT_TRUE(out.ok());
  const AdjacencyLists in = out->Transpose();
  DegreePartitions partitions;
  const std::vector<uint32_t> new_id = PartitionFirstOrder(out->view(), in.view(), &partitions);
  // Nodes 300 and up have at most 4 inlinks and 1 outlink: low.
  EXPECT_EQ(partitions.high, 2u);
  EXPECT_EQ(partitions.medium, 2u);
  EXPECT_EQ(new_id[0], 0u);
  EXPECT_EQ(new_id[1], 1u);
  EXPECT_EQ(new_id[2], 2u);
  EXPECT_EQ(new_id[3], 3u);
  EXPECT_EQ(new_id[4], 4u);
  EXPECT_EQ(new_id[5], 5u);  // Input order kept inside the low partition.
  std::vector<bool> seen(n);
  for (uint32_t id : new_id) {
    ASSERT_LT(id, n);
    ASSERT_FALSE(seen[id]);
    seen[id] = true;
  }
}

TEST(DegreePartitions, OrderIsStableInsideEachPartition) {
  // Node 3 is high degree; it moves first, the others keep their order behind it.
  std::vector<Arc> arcs;
  for (uint32_t k = 0; k < 300; ++k) arcs.push_back({3, 10 + k});
  absl::StatusOr<AdjacencyLists> out = AdjacencyLists::FromArcs(400, arcs);
  ASSERT_TRUE(out.ok());
  DegreePartitions partitions;
  const std::vector<uint32_t> new_id =
      PartitionFirstOrder(out->view(), out->Transpose().view(), &partitions);
  EXPECT_EQ(partitions.high, 1u);
  EXPECT_EQ(partitions.medium, 0u);
  EXPECT_EQ(new_id[3], 0u);
  EXPECT_EQ(new_id[0], 1u);
  EXPECT_EQ(new_id[2], 3u);
  EXPECT_EQ(new_id[4], 4u);
}

}  // namespace
}  // namespace crawldb::codecs
