#include "extension/links/link_graph_lists.h"

#include <algorithm>
#include <memory>

namespace crawldb::links {
namespace {

Direction DirectionOf(graph::Follow follow) {
  return follow == graph::Follow::kOut ? Direction::kOut : Direction::kIn;
}

}  // namespace

LinkGraphLists::LinkGraphLists(const LinkStore* store, const std::vector<bool>* live_urls)
    : store_(store), live_urls_(live_urls) {
  for (size_t id = 1; id < live_urls->size() && !any_deleted_; ++id)
    any_deleted_ = !(*live_urls)[id];
  node_limit_ = std::max<uint32_t>(
      store->node_limit(), static_cast<uint32_t>(std::min<size_t>(live_urls->size(), UINT32_MAX)));
  nodes_.assign(node_limit_, false);
  for (size_t id = 1; id < std::min<size_t>(live_urls->size(), node_limit_); ++id) {
    nodes_[id] = (*live_urls)[id];
  }
  ForEachList(graph::Follow::kOut, [&](uint32_t node, absl::Span<const uint32_t> list) {
    if (list.empty()) return;
    nodes_[node] = true;
    for (uint32_t dst : list) nodes_[dst] = true;
  });
}

void LinkGraphLists::DropDeleted(std::vector<uint32_t>* list) const {
  list->erase(std::remove_if(list->begin(), list->end(), [&](uint32_t n) { return Deleted(n); }),
              list->end());
}

void LinkGraphLists::List(graph::Follow follow, uint32_t node, std::vector<uint32_t>* list) const {
  if (node >= store_->node_limit() || (any_deleted_ && Deleted(node))) {
    list->clear();
    return;
  }
  store_->List(DirectionOf(follow), node, list);
  if (any_deleted_) DropDeleted(list);
}

void LinkGraphLists::ForEachList(
    graph::Follow follow,
    absl::FunctionRef<void(uint32_t node, absl::Span<const uint32_t> list)> visit) const {
  if (store_->delta_arcs() != 0 || store_->tombstones() != 0) {
    GraphLists::ForEachList(follow, visit);
    return;
  }
  // An unchanged base: the codec's own scan, which reuses the lists it decoded (link_cursor.h).
  const codecs::EncodedGraph& base = store_->base(DirectionOf(follow));
  std::unique_ptr<codecs::ListScanner> scanner = base.Scan();
  absl::Span<const uint32_t> scanned;
  std::vector<uint32_t> kept;
  uint32_t node = 0;
  for (; node < base.size() && scanner->Next(&scanned); ++node) {
    if (!any_deleted_) {
      visit(node, scanned);
    } else if (Deleted(node)) {
      visit(node, {});
    } else {
      kept.assign(scanned.begin(), scanned.end());
      DropDeleted(&kept);
      visit(node, kept);
    }
  }
  for (; node < node_limit_; ++node) visit(node, {});
}

}  // namespace crawldb::links
