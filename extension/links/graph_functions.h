// The graph algorithms of extension/graph/ as table-valued functions over a crawldb_links table
// of the main schema (eponymous-only virtual tables whose hidden columns are the arguments):
//
//   pagerank(links_table [, damping [, iterations]])         → id, rank
//   hits(links_table [, iterations])                         → id, hub, authority
//   scc(links_table)                                         → id, component
//   bfs(links_table, source_id [, max_depth [, direction]])  → id, depth
//
// Each reads the graph `outlinks` and `inlinks` show at that moment (the compressed lists merged
// with the changes since optimize, this transaction's too, less deleted URLs) through
// LinkGraphLists, computes every row at xFilter and keeps O(nodes) of its own, never the arcs.
// The nodes are sql/recipes/pagerank.sql's: every live URL of the table's urls table and every
// end of a link. `id` joins with urls.id.
//
//   pagerank  graph/pagerank.h, the recipe's formula: damping in (0, 1), default 0.85;
//             iterations ≥ 0, default 30. One row per node, in id order; the ranks sum to 1.
//   hits      graph/hits.h: iterations ≥ 0, default 30. One row per node, in id order; hubs and
//             authorities each sum to 1.
//   scc       graph/strong_components.h: one row per node, in id order; component is the
//             smallest id of the node's strongly connected component.
//   bfs       graph/breadth_first.h: the nodes within max_depth links (≥ 0; NULL or absent: no
//             limit) of source_id, following links forward ('out', the default), backward
//             ('in') or both ways ('both'), in the order the search reaches them, the source
//             first with depth 0. A source_id that is not a node gives no rows.
// NULL for an optional argument means its default. A wrong argument is an SQL error naming the
// function, the argument and what it must be, e.g. "pagerank: argument 2 (damping) must be a
// number between 0 and 1 (both excluded), got 1.5".
//
// xBestIndex: the hidden columns are the arguments, planned by PlanArguments
// (common/function_arguments.h: equality constraints, idxNum bit i when argument i is given, argv
// in argument order, SQLITE_CONSTRAINT for an unusable one). Cost 10^7 and 10^5 rows whatever
// the arguments, so that in a join the function runs once, on the outer side
// (tests/python/test_graph_functions.py pins the plan of a join with urls).
#pragma once

#include "absl/status/status.h"
#include "extension/common/connection.h"
#include "extension/common/sqlite_api.h"

namespace crawldb::links {

absl::Status RegisterGraphFunctions(sqlite3* db, Connection* connection);

}  // namespace crawldb::links
