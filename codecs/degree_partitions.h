// The three degree partitions of paper 001 §2.2 and the partition-first id assignment.
//
// A node is *high* degree if its indegree or its outdegree is above 254, *medium* if the larger
// of the two is in [24, 254], *low* otherwise (both at most 23). The paper assigns ids partition
// by partition (high, then medium, then low), lexicographically by URL inside each; its Link2
// then compresses the starts array per partition (§3.3, codecs/list_starts.h): 32-bit starts
// for the high partition, 16-bit list lengths for the medium one, 8-bit for the low one. 254 lets
// a degree fit in a byte; 24 because 23 gaps of ids below 2^32 take at most 23 · 11 = 253
// nybbles, so every low-degree list fits an 8-bit length.
//
// Here the order inside a partition is the input's (for LAW graphs, LAW's order), kept stable.
#pragma once

#include <cstdint>
#include <vector>

#include "codecs/adjacency_lists.h"

namespace crawldb::codecs {

inline constexpr uint64_t kHighDegreeAbove = 254;  // Degree > 254: high partition.
inline constexpr uint64_t kLowDegreeBelow = 24;    // Both degrees < 24: low partition.

// Node counts of the partitions of a graph numbered partition-first: ids [0, high) are high
// degree, [high, high + medium) medium, the rest low.
struct DegreePartitions {
  uint32_t high = 0;    // Nodes.
  uint32_t medium = 0;  // Nodes.
};

// The partition-first numbering of a graph given both directions (`outlinks` and its transpose
// `inlinks`, the same node count): new_id[v] for every node v, high-degree nodes first, then
// medium, then low, each partition in increasing order of the old ids. Sets *partitions to the
// sizes. Renumber both directions with it (AdjacencyLists::Renumber) before encoding them with
// the partitions.
std::vector<uint32_t> PartitionFirstOrder(AdjacencyListsView outlinks, AdjacencyListsView inlinks,
                                          DegreePartitions* partitions);

}  // namespace crawldb::codecs
