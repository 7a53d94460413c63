#include "codecs/degree_partitions.h"

#include <algorithm>

namespace crawldb::codecs {

std::vector<uint32_t> PartitionFirstOrder(AdjacencyListsView outlinks, AdjacencyListsView inlinks,
                                          DegreePartitions* partitions) {
  const uint32_t n = outlinks.size();
  // 0 high, 1 medium, 2 low.
  std::vector<uint8_t> partition(n);
  uint32_t counts[3] = {0, 0, 0};
  for (uint32_t v = 0; v < n; ++v) {
    const uint64_t degree = std::max(outlinks.list(v).size(), inlinks.list(v).size());
    partition[v] = degree > kHighDegreeAbove ? 0 : degree >= kLowDegreeBelow ? 1 : 2;
    ++counts[partition[v]];
  }
  uint32_t next[3] = {0, counts[0], counts[0] + counts[1]};
  std::vector<uint32_t> new_id(n);
  for (uint32_t v = 0; v < n; ++v) new_id[v] = next[partition[v]]++;
  partitions->high = counts[0];
  partitions->medium = counts[1];
  return new_id;
}

}  // namespace crawldb::codecs
