// VectorGraph: a graph::GraphLists held as plain sorted vectors, for the algorithms' tests; and
// random graphs to compare them with the straightforward references the tests define.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "extension/graph/graph_lists.h"

namespace crawldb::graph {

using TestArc = std::pair<uint32_t, uint32_t>;

class VectorGraph : public GraphLists {
 public:
  // Ids below `limit`; the nodes are the ends of `arcs` (duplicates merged) and `extra_nodes`.
  VectorGraph(uint32_t limit, std::vector<TestArc> arcs,
              const std::vector<uint32_t>& extra_nodes = {})
      : out_(limit), in_(limit), nodes_(limit) {
    std::sort(arcs.begin(), arcs.end());
    arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
    for (auto [src, dst] : arcs) {
      out_[src].push_back(dst);
      in_[dst].push_back(src);
      nodes_[src] = nodes_[dst] = true;
    }
    for (auto& list : in_) std::sort(list.begin(), list.end());
    for (uint32_t node : extra_nodes) nodes_[node] = true;
    arcs_ = std::move(arcs);
  }

  uint32_t node_limit() const override { return static_cast<uint32_t>(out_.size()); }
  bool IsNode(uint32_t node) const override { return nodes_[node]; }
  void List(Follow follow, uint32_t node, std::vector<uint32_t>* list) const override {
    *list = follow == Follow::kOut ? out_[node] : in_[node];
  }
  // The arcs, sorted, without duplicates.
  const std::vector<TestArc>& arcs() const { return arcs_; }

 private:
  std::vector<std::vector<uint32_t>> out_;
  std::vector<std::vector<uint32_t>> in_;
  std::vector<bool> nodes_;
  std::vector<TestArc> arcs_;
};

// `arcs` arcs drawn uniformly among ids below `limit` (self loops included), every third id of
// the rest an extra node.
inline VectorGraph RandomGraph(uint32_t limit, size_t arcs, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<uint32_t> id(0, limit - 1);
  std::vector<TestArc> drawn;
  for (size_t i = 0; i < arcs; ++i) drawn.emplace_back(id(random), id(random));
  std::vector<uint32_t> extra;
  for (uint32_t node = 0; node < limit; node += 3) extra.push_back(node);
  return VectorGraph(limit, std::move(drawn), extra);
}

}  // namespace crawldb::graph
