#include "extension/graph/graph_lists.h"

namespace crawldb::graph {

void GraphLists::ForEachList(
    Follow follow,
    absl::FunctionRef<void(uint32_t node, absl::Span<const uint32_t> list)> visit) const {
  std::vector<uint32_t> list;
  for (uint32_t node = 0, limit = node_limit(); node < limit; ++node) {
    List(follow, node, &list);
    visit(node, list);
  }
}

}  // namespace crawldb::graph
