// Graphs for the seeds of the link fuzz targets, generated (never read from ../shared/data).
#pragma once

#include <cstdint>
#include <vector>

#include "codecs/adjacency_lists.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {

// A web-like graph of n nodes: lists that copy much of a neighbour's, runs of consecutive ids,
// a few far links, some empty lists; a fixed pseudo-random choice.
inline codecs::AdjacencyLists WebLikeGraph(uint32_t n) {
  std::vector<codecs::Arc> arcs;
  uint64_t state = 88172645463325252ull;
  auto next = [&] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (uint32_t v = 0; v < n; ++v) {
    if (next() % 7 == 0) continue;
    const uint32_t base = static_cast<uint32_t>(next() % n);
    for (uint32_t k = 0; k < next() % 12; ++k) arcs.push_back({v, (base + k) % n});
    for (uint32_t k = 0; k < next() % 3; ++k)
      arcs.push_back({v, static_cast<uint32_t>(next() % n)});
  }
  absl::StatusOr<codecs::AdjacencyLists> graph = codecs::AdjacencyLists::FromArcs(n, arcs);
  FUZZ_CHECK(graph.ok());
  return *std::move(graph);
}

}  // namespace crawldb::fuzz
