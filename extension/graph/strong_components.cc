#include "extension/graph/strong_components.h"

#include <algorithm>

namespace crawldb::graph {

std::vector<uint32_t> StrongComponents(const GraphLists& graph) {
  constexpr uint32_t kUnvisited = UINT32_MAX;
  const uint32_t limit = graph.node_limit();
  std::vector<uint32_t> index(limit, kUnvisited);
  std::vector<uint32_t> low(limit);
  std::vector<bool> on_stack(limit);
  std::vector<uint32_t> component(limit, kNotANode);
  std::vector<uint32_t> component_stack;
  struct Frame {
    uint32_t node;
    uint32_t next;   // The position in the node's list of the next node to follow.
    uint64_t begin;  // The list is lists[begin, begin + size) when stored.
    uint32_t size;
    bool stored;
  };
  std::vector<Frame> frames;
  std::vector<uint32_t> lists;  // The stored lists of the frames, at most `limit` ids.
  std::vector<uint32_t> list;
  // A frame whose list is not stored reads it into `reread`, which holds the list of the node
  // `reread_node` until another frame needs it.
  std::vector<uint32_t> reread;
  uint32_t reread_node = kUnvisited;
  uint32_t counter = 0;
  const auto visit = [&](uint32_t v) {
    index[v] = low[v] = counter++;
    component_stack.push_back(v);
    on_stack[v] = true;
    graph.List(Follow::kOut, v, &list);
    const bool fits = lists.size() + list.size() <= limit;
    frames.push_back({v, 0, lists.size(), static_cast<uint32_t>(list.size()), fits});
    if (fits) lists.insert(lists.end(), list.begin(), list.end());
  };
  for (uint32_t root = 0; root < limit; ++root) {
    if (index[root] != kUnvisited || !graph.IsNode(root)) continue;
    visit(root);
    while (!frames.empty()) {
      Frame& frame = frames.back();
      if (frame.next < frame.size) {
        uint32_t w;
        if (frame.stored) {
          w = lists[frame.begin + frame.next];
        } else {
          if (reread_node != frame.node) {
            graph.List(Follow::kOut, frame.node, &reread);
            reread_node = frame.node;
          }
          w = reread[frame.next];
        }
        ++frame.next;
        if (index[w] == kUnvisited) {
          visit(w);  // Invalidates `frame`.
        } else if (on_stack[w]) {
          low[frame.node] = std::min(low[frame.node], index[w]);
        }
        continue;
      }
      const uint32_t v = frame.node;
      if (frame.stored) lists.resize(frame.begin);
      frames.pop_back();
      if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[v]);
      if (low[v] != index[v]) continue;
      // v's component is the top of the stack down to v; its id is the smallest of them.
      auto first = std::find(component_stack.rbegin(), component_stack.rend(), v).base() - 1;
      const uint32_t id = *std::min_element(first, component_stack.end());
      for (auto member = first; member != component_stack.end(); ++member) {
        on_stack[*member] = false;
        component[*member] = id;
      }
      component_stack.erase(first, component_stack.end());
    }
  }
  return component;
}

ComponentCounts CountComponents(absl::Span<const uint32_t> component) {
  std::vector<uint32_t> size(component.size(), 0);
  ComponentCounts counts;
  for (uint32_t id : component) {
    if (id == kNotANode) continue;
    if (size[id]++ == 0) ++counts.components;
    counts.largest = std::max<uint64_t>(counts.largest, size[id]);
  }
  return counts;
}

}  // namespace crawldb::graph
