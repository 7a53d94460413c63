// Helpers shared by the adjacency codec tests: hand-made graphs, serialized bytes of a codec,
// and load errors as text.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "codecs/adjacency_codec.h"
#include "codecs/adjacency_lists.h"
#include "gtest/gtest.h"

namespace crawldb::codecs::testing {

// The graph of `lists`, which must be adjacency lists (the test fails otherwise).
inline AdjacencyLists Lists(const std::vector<std::vector<uint32_t>>& lists) {
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromLists(lists);
  EXPECT_TRUE(graph.ok()) << graph.status();
  return graph.ok() ? *std::move(graph) : AdjacencyLists();
}

// The bytes of `codec` for `graph`.
inline std::vector<uint8_t> Serialized(const std::string& codec, const AdjacencyLists& graph,
                                       const AdjacencyCodecOptions& options = {}) {
  absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded =
      EncodeAdjacency(codec, graph.view(), options);
  EXPECT_TRUE(encoded.ok()) << encoded.status();
  return encoded.ok() ? (*encoded)->Serialize() : std::vector<uint8_t>();
}

// "OK" when `bytes` load, else the DataLossError's message.
inline std::string LoadError(const std::vector<uint8_t>& bytes) {
  absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(bytes);
  if (loaded.ok()) return "OK";
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss) << loaded.status();
  return std::string(loaded.status().message());
}

}  // namespace crawldb::codecs::testing
