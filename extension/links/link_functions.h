// The link tables' SQL functions (design.md §4). All read or write files, so all are
// SQLITE_DIRECTONLY; the imports rewrite the compressed lists, so they are refused inside an
// explicit transaction (like optimize). They load into the crawldb_links table named `outlinks`
// of the main schema unless told another.
//
//   crawldb_import_arcs(path)
//     Loads an arcs file (link_files.h) straight into compressed form, merged with the graph
//     already there. Ids are taken as they are — 0-based files are fine, and the ids need not be
//     URLs — and the graph is kept exactly: self links included, only exact duplicates dropped,
//     so that figures compare with other tools' on the same graph.
//     Returns JSON {"lines":…, "arcs_read":…, "links":…, "nodes":…} (links and nodes: the table's
//     totals afterwards).
//
//   crawldb_import_links(path [, threshold])
//     Loads a links file (paper 001 §2.1; link_files.h): the newest record of each source wins;
//     every source URL is kept, a URL that only appears as a destination is kept when at least
//     `threshold` (default 1) records link to it. URLs are normalised and inserted into the
//     table's urls table (insert-if-unique); invalid URLs are skipped and counted; duplicate and
//     self links are dropped, as in the paper.
//     Returns JSON {"lines":…, "records":…, "superseded":…, "urls":…, "invalid_urls":…,
//     "dropped_urls":…, "links_read":…, "links":…}.
//
//   crawldb_import_bvgraph(basename [, table])
//     Loads a graph in WebGraph's BVGraph format (LAW's files; codecs/bvgraph_files.h):
//     basename.properties and .graph, and basename.offsets when present, checked against the
//     lists, into the crawldb_links table `table` (default outlinks), merged with the graph there
//     and kept exactly, as crawldb_import_arcs. Returns JSON {"nodes_read":…, "arcs_read":…,
//     "links":…, "nodes":…} (links and nodes: the table's totals afterwards).
//
//   crawldb_export_bvgraph(table, basename [, direction])
//     Writes the current graph of the crawldb_links table `table` — its lists ('out', the
//     default) or their transpose ('in') — as basename.properties, .graph and .offsets in
//     WebGraph's BVGraph format with LAW's usual parameters (window 7, maximum reference count 3,
//     minimum interval length 4, ζ_3), replacing those files. Node ids are the table's ids; the
//     graph has node_limit nodes. Runs inside a transaction too (it reads the current lists).
//     Returns JSON {"nodes":…, "arcs":…, "graph_bytes":…, "offsets_bytes":…}.
#pragma once

#include "absl/status/status.h"
#include "extension/common/connection.h"

namespace crawldb::links {

absl::Status RegisterLinkFunctions(sqlite3* db, Connection* connection);

}  // namespace crawldb::links
