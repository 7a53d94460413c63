#include "extension/graph/breadth_first.h"

namespace crawldb::graph {

std::vector<Reached> BreadthFirst(const GraphLists& graph, uint32_t source, Along along,
                                  uint32_t max_depth) {
  std::vector<Reached> reached;
  if (source >= graph.node_limit() || !graph.IsNode(source)) return reached;
  std::vector<bool> seen(graph.node_limit());
  seen[source] = true;
  reached.push_back({source, 0});
  std::vector<uint32_t> list;
  const auto follow = [&](Follow direction, const Reached& from) {
    graph.List(direction, from.node, &list);
    for (uint32_t next : list) {
      if (seen[next]) continue;
      seen[next] = true;
      reached.push_back({next, from.depth + 1});
    }
  };
  // `reached` is the queue: the nodes before `head` are done.
  for (size_t head = 0; head < reached.size(); ++head) {
    const Reached from = reached[head];
    if (from.depth >= max_depth) break;  // every node after it is as deep
    if (along != Along::kIn) follow(Follow::kOut, from);
    if (along != Along::kOut) follow(Follow::kIn, from);
  }
  return reached;
}

}  // namespace crawldb::graph
