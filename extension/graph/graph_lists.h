// GraphLists: a directed graph as the graph algorithms read it (pagerank.h, hits.h,
// strong_components.h, breadth_first.h) — by adjacency lists, one node at a time, never as a
// whole edge list, so that an algorithm holds O(nodes) of its own and the lists stay compressed
// wherever they live (links/link_graph_lists.h reads a links table's store; a benchmark reads an
// encoded graph directly).
//
// Nodes are ids below node_limit() for which IsNode() holds; both ends of every arc are nodes.
// An id that is not a node has empty lists. Lists are sorted, without duplicates.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"

namespace crawldb::graph {

// Which list of a node: the nodes it links to (kOut) or the nodes that link to it (kIn).
enum class Follow : uint8_t { kOut, kIn };

class GraphLists {
 public:
  virtual ~GraphLists() = default;

  // Every node is below this id.
  virtual uint32_t node_limit() const = 0;
  // Whether `node` (< node_limit()) is a node of the graph.
  virtual bool IsNode(uint32_t node) const = 0;
  // Replaces *list with the `follow` list of `node` (< node_limit()).
  virtual void List(Follow follow, uint32_t node, std::vector<uint32_t>* list) const = 0;
  // Calls visit(node, list) for every id below node_limit() in increasing order, with its
  // `follow` list (valid during the call). The default calls List for each id; a source with
  // a cheaper sequential scan overrides it.
  virtual void ForEachList(
      Follow follow,
      absl::FunctionRef<void(uint32_t node, absl::Span<const uint32_t> list)> visit) const;
};

}  // namespace crawldb::graph
