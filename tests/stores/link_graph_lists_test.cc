// LinkGraphLists: a LinkStore's lists as the graph algorithms read them — base, delta and
// tombstones merged, deleted URLs hidden — against a plain set of the arcs shown.
#include "extension/links/link_graph_lists.h"

#include <map>
#include <random>
#include <set>

#include <gtest/gtest.h>

namespace crawldb::links {
namespace {

using ArcSet = std::set<std::pair<uint32_t, uint32_t>>;

// Checks List, ForEachList and IsNode in both directions against `arcs` (what the tables show)
// and `urls` (live URL ids, nodes with or without arcs).
void ExpectShows(const LinkGraphLists& lists, const ArcSet& arcs, const std::set<uint32_t>& urls,
                 uint32_t limit) {
  ASSERT_EQ(lists.node_limit(), limit);
  std::map<uint32_t, std::vector<uint32_t>> out, in;
  std::set<uint32_t> nodes = urls;
  for (auto [src, dst] : arcs) {
    out[src].push_back(dst);
    in[dst].push_back(src);
    nodes.insert(src);
    nodes.insert(dst);
  }
  for (auto& [node, list] : in) std::sort(list.begin(), list.end());
  std::vector<uint32_t> list;
  for (graph::Follow follow : {graph::Follow::kOut, graph::Follow::kIn}) {
    const auto& expected = follow == graph::Follow::kOut ? out : in;
    uint32_t next = 0;
    lists.ForEachList(follow, [&](uint32_t node, absl::Span<const uint32_t> scanned) {
      EXPECT_EQ(node, next++);
      auto found = expected.find(node);
      EXPECT_EQ(std::vector<uint32_t>(scanned.begin(), scanned.end()),
                found == expected.end() ? std::vector<uint32_t>() : found->second)
          << "node " << node;
    });
    EXPECT_EQ(next, limit);
    for (uint32_t node = 0; node < limit; ++node) {
      lists.List(follow, node, &list);
      auto found = expected.find(node);
      EXPECT_EQ(list, found == expected.end() ? std::vector<uint32_t>() : found->second)
          << "node " << node;
    }
  }
  for (uint32_t node = 0; node < limit; ++node) {
    EXPECT_EQ(lists.IsNode(node), nodes.contains(node)) << "node " << node;
  }
}

TEST(LinkGraphLists, ShowsWhatTheTablesShow) {
  const uint32_t nodes = 400;
  std::mt19937 random(14);
  std::uniform_int_distribution<uint32_t> id(0, nodes - 1);
  ArcSet arcs;
  while (arcs.size() < 3000) arcs.insert({id(random), id(random)});
  std::vector<codecs::Arc> base;
  for (auto [src, dst] : arcs) base.push_back({src, dst});
  codecs::AdjacencyLists adjacency = codecs::AdjacencyLists::FromArcs(nodes, base).value();
  LinkStore store;
  store.Reset(codecs::EncodeAdjacency("link3", adjacency.view()).value(),
              codecs::EncodeAdjacency("link3", adjacency.Transpose().view()).value());

  // No urls table: the ends of the arcs are the nodes; the base is scanned as it is.
  const std::vector<bool> no_urls;
  ExpectShows(LinkGraphLists(&store, &no_urls), arcs, {}, nodes);

  // URLs 1 to 499 (past the graph's ids), 10 and 20 deleted: hidden with their arcs.
  std::vector<bool> live(500, true);
  live[0] = false;
  live[10] = live[20] = false;
  std::set<uint32_t> urls;
  for (uint32_t url = 1; url < live.size(); ++url) {
    if (live[url]) urls.insert(url);
  }
  ArcSet shown;
  for (auto [src, dst] : arcs) {
    if (src != 10 && src != 20 && dst != 10 && dst != 20) shown.insert({src, dst});
  }
  ExpectShows(LinkGraphLists(&store, &live), shown, urls, 500);

  // A delta and tombstones: the lists are merged by the store, one node at a time.
  for (int i = 0; i < 200; ++i) {
    const uint32_t src = id(random), dst = id(random);
    if (arcs.erase({src, dst}) > 0) {
      ASSERT_TRUE(store.Remove(src, dst));
    } else {
      ASSERT_TRUE(store.Add(src, dst));
      arcs.insert({src, dst});
    }
  }
  ASSERT_TRUE(store.Add(450, 3));  // past the base
  arcs.insert({450, 3});
  ExpectShows(LinkGraphLists(&store, &no_urls), arcs, {}, 451);
  shown.clear();
  for (auto [src, dst] : arcs) {
    if (src != 10 && src != 20 && dst != 10 && dst != 20) shown.insert({src, dst});
  }
  ExpectShows(LinkGraphLists(&store, &live), shown, urls, 500);
}

}  // namespace
}  // namespace crawldb::links
