// LinkGraphLists: a LinkStore read as a graph::GraphLists, for the graph functions
// (graph_functions.h). SQLite-free.
//
// It shows what `outlinks` and `inlinks` show: each list is the store's current list (base less
// tombstones merged with the delta, link_store.h), less the ids of deleted URLs. The nodes are
// the live URL ids and the ends of every arc shown — sql/recipes/pagerank.sql's N: the ids of
// `urls`, of outlinks.src and of inlinks.dst.
//
// The store and the bitmap must outlive this object and not change while it is read.
#pragma once

#include <cstdint>
#include <vector>

#include "extension/graph/graph_lists.h"
#include "extension/links/link_store.h"

namespace crawldb::links {

class LinkGraphLists : public graph::GraphLists {
 public:
  // `live_urls[id]`: whether id is a live URL of the graph's urls table, for ids 1 to its
  // max_id (entry 0 unused); empty when the graph has no urls table. An id from 1 to
  // live_urls.size() − 1 that is not live is a deleted URL: hidden with its arcs. Reads every
  // out-list once, to find the nodes.
  LinkGraphLists(const LinkStore* store, const std::vector<bool>* live_urls);

  uint32_t node_limit() const override { return node_limit_; }
  bool IsNode(uint32_t node) const override { return nodes_[node]; }
  void List(graph::Follow follow, uint32_t node, std::vector<uint32_t>* list) const override;
  void ForEachList(
      graph::Follow follow,
      absl::FunctionRef<void(uint32_t node, absl::Span<const uint32_t> list)> visit) const override;

 private:
  bool Deleted(uint32_t node) const {
    return node >= 1 && node < live_urls_->size() && !(*live_urls_)[node];
  }
  // Drops the deleted ids from *list.
  void DropDeleted(std::vector<uint32_t>* list) const;

  const LinkStore* store_;
  const std::vector<bool>* live_urls_;
  bool any_deleted_ = false;
  uint32_t node_limit_ = 0;
  std::vector<bool> nodes_;
};

}  // namespace crawldb::links
