// The link tables: `outlinks` (module crawldb_links) holds the link graph; `inlinks` (module
// crawldb_inlinks) is a second view of the same graph, keyed the other way.
//
//   CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls [, codec=link3] [, cache_mb=N]);
//   CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);
//   columns: src INTEGER, dst INTEGER, pos INTEGER (0-based position of the row in the list
//   the table is keyed by: dst's place in src's list for outlinks, src's place in dst's list for
//   inlinks), and on outlinks the hidden command columns `outlinks` (named like the table) and
//   `arg`. In both tables `src` links to `dst`. rowid = src · 2^32 + dst.
//
// Ids are URL ids of the urls table named first (design.md §2), as unsigned 32-bit numbers.
// INSERT INTO outlinks(src, dst) requires both to be live URL ids; crawldb_import_arcs loads
// graphs whose ids are not URLs (link_functions.h). Duplicate and self links inserted through
// SQL are dropped silently (paper 001 §3.1). Edges of a deleted URL disappear from both tables
// at once, and from the stored lists at the next optimize. DELETE removes edges; UPDATE is
// refused. Commands: INSERT INTO outlinks(outlinks) VALUES ('optimize') folds the delta into the
// compressed lists; `urls` optimize renumbers the graph with it (RenumberIds).
//
// Shadow tables of outlinks (formats owned by link_graph_format.h): <t>_config (module,
// format_version, option.urls, option.codec, generation), <t>_graph (the compressed base, both
// directions), <t>_log (one row per committed transaction's changes). inlinks has none: it finds
// outlinks through the connection (extension/common/connection.h) at every statement.
//
// Loading reads part 0 of <t>_graph and the parts holding each graph's parameters and starts
// headers, and decodes no list: a statement reads the parts its lists lie in when it first needs
// them, and checks each list when it first decodes it (link_graph_format.h), so that a new
// connection's first look-up reads a few parts, not the graph; a statement that asks many lists'
// lengths (NOT EXISTS over outlinks) checks every list at once when those it checked hold an
// eighth of the arcs (codecs/reference_graph.h). A statement that meets a corrupt list fails
// with SQLITE_CORRUPT_VTAB, one that could not read a part with SQLite's error (StoreStatus; the
// part is read again by the next statement); crawldb_check() and optimize read and check every
// list. The parts held are bounded by cache_mb (MiB, both directions together; default: the
// connection's bound, crawldb_cache_mb(), 256): past it, those read longest ago are dropped and
// read again when needed (codecs/paged_bytes.h). The delta since the last optimize is held
// whole, compressed into sorted runs each time a buffer of 65,536 links fills (LinkStore: about
// 6 bytes per link, both directions).
//
// Transactions as in urls_table.h: changes live in the LinkStore and its undo log, reach
// <t>_log at xSync, are undone on rollback; other connections catch up at each statement
// (extension/common/table_sync.h). Optimize and import rewrite <t>_graph and are refused
// inside an explicit transaction.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_lists.h"
#include "extension/common/connection.h"
#include "extension/common/shadow_backed_table.h"
#include "extension/common/statement_cache.h"
#include "extension/common/trampoline.h"
#include "extension/common/vtab_args.h"
#include "extension/links/link_graph_format.h"
#include "extension/links/link_store.h"
#include "extension/links/link_target.h"

namespace crawldb::urls {
class UrlIds;
}

namespace crawldb::links {

inline constexpr const char kLinksModule[] = "crawldb_links";
inline constexpr const char kInlinksModule[] = "crawldb_inlinks";
// The pointer type of the `arg` column for the 'import' command (sqlite3_bind_pointer): a
// std::vector<codecs::Arc>*.
inline constexpr const char kArcsPointerType[] = "crawldb_arcs";

class LinkCursor;

class LinksTable : public ShadowBackedTable, public LinkTarget {
 public:
  using Cursor = LinkCursor;

  static absl::StatusOr<std::unique_ptr<LinksTable>> Create(sqlite3* db, void* aux,
                                                            const VtabArgs& args);
  static absl::StatusOr<std::unique_ptr<LinksTable>> Connect(sqlite3* db, void* aux,
                                                             const VtabArgs& args);
  static bool IsShadowName(absl::string_view suffix);

  absl::Status BestIndex(sqlite3_index_info* info);
  absl::StatusOr<std::unique_ptr<LinkCursor>> Open();
  absl::Status Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid);
  absl::Status Begin();
  absl::Status Sync();

  // CrawldbTable
  absl::StatusOr<std::string> StatsJson() override;
  absl::Status RenumberIds(absl::string_view urls_table,
                           absl::Span<const int64_t> old_to_new) override;

  // For inlinks and the functions: the store after catching up with other connections.
  absl::StatusOr<const LinkStore*> Current();
  // The store's status() under the corruption policy (ShadowBackedTable::Corrupt): a statement
  // that met a corrupt base list fails instead of acting on it as if it were empty.
  absl::Status StoreStatus() const;
  // LinkStore::Arcs() under the corruption policy.
  absl::StatusOr<std::vector<codecs::Arc>> AllArcs() const;
  // The store as last caught up, for plan estimates.
  const LinkStore& store() const { return store_; }
  // The urls table this graph's ids belong to, when connected; for the deleted-URL filter.
  urls::UrlIds* Urls() const;
  // The same, connected first if need be, and caught up as far as `need` says (UrlIds: reading
  // lists needs only the deleted ids, inserting and LiveUrls every id); nullptr when there is
  // no such table.
  enum class UrlsNeed { kDeletions, kIds };
  absl::StatusOr<urls::UrlIds*> ConnectUrls(UrlsNeed need);
  // Whether each id is a live URL of that urls table — ids 1 to its max_id (at most 2^32 − 1),
  // entry 0 unused — or empty when there is no such table: what LinkGraphLists needs.
  absl::StatusOr<std::vector<bool>> LiveUrls();
  const std::string& urls_name() const override { return urls_name_; }

 private:
  LinksTable(sqlite3* db, Connection* connection, const VtabArgs& args, std::string urls_name,
             std::string codec, std::optional<size_t> cache_mb);
  std::vector<std::string> StatementSql() const override;
  absl::Status CheckStore(std::vector<std::string>* found) override;
  void SetCacheBytes(uint64_t bytes) override { store_.SetBaseBudget(bytes); }
  // LoggedTable
  absl::Status LoadAll() override;
  // The base of <t>_graph, paged when its format allows (link_graph_format.h); a damaged one
  // under the corruption policy.
  absl::StatusOr<LoadedGraph> LoadGraph();
  // Reads <t>_graph's part `part` into *into(size) (ReadBlob); PartProblem when there is none.
  absl::Status ReadGraphPart(size_t part, const BlobDestination& into);
  absl::Status ReplayLogSince(int64_t seq) override;
  size_t UndoMark() const override { return store_.UndoMark(); }
  void UndoTo(size_t mark) override { store_.UndoTo(mark); }
  void ClearUndo() override { store_.ClearUndo(); }
  PlanFigures StoreFigures() const override {
    return {static_cast<int64_t>(store_.arc_count()), static_cast<int64_t>(store_.node_limit())};
  }
  absl::Status Insert(sqlite3_value* src, sqlite3_value* dst, sqlite3_int64* rowid);
  absl::Status RunCommand(sqlite3_value* command, sqlite3_value* arg);
  // Rewrites the base as the graph of `arcs` (any order, duplicates allowed) and empties the
  // log: optimize, import and renumbering end here.
  absl::Status Rewrite(std::vector<codecs::Arc> arcs);
  // Inserts the rows of <t>_graph (emptied before).
  absl::Status WriteGraph(const std::vector<std::vector<uint8_t>>& parts);

  std::string urls_name_;
  // Urls()'s answer while the connection's registry_version() stays at urls_version_: a
  // cursor is opened per outer row of a correlated subquery, and each open asks.
  mutable urls::UrlIds* urls_ = nullptr;
  mutable uint64_t urls_version_ = UINT64_MAX;
  std::string codec_;
  LinkStore store_;
  std::string log_scratch_;  // a <t>_log row's changes, decompressed
};

// inlinks: no state of its own.
class InlinksTable : public VirtualTable {
 public:
  using Cursor = LinkCursor;

  static absl::StatusOr<std::unique_ptr<InlinksTable>> Create(sqlite3* db, void* aux,
                                                              const VtabArgs& args);
  static absl::StatusOr<std::unique_ptr<InlinksTable>> Connect(sqlite3* db, void* aux,
                                                               const VtabArgs& args);
  absl::Status BestIndex(sqlite3_index_info* info);
  absl::StatusOr<std::unique_ptr<LinkCursor>> Open();

 private:
  InlinksTable(Connection* connection, const VtabArgs& args, std::string outlinks,
               PlanFigures outlinks_figures)
      : connection_(connection),
        schema_(args.schema),
        name_(args.table),
        outlinks_(std::move(outlinks)),
        outlinks_figures_(outlinks_figures) {}
  absl::StatusOr<LinksTable*> Outlinks() const;

  Connection* connection_;
  std::string schema_;
  std::string name_;
  std::string outlinks_;
  // The outlinks table found while the connection's registry_version() stays at
  // outlinks_version_ (as LinksTable::Urls(): a cursor opens per outer row of a subquery).
  mutable LinksTable* found_outlinks_ = nullptr;
  mutable uint64_t outlinks_version_ = UINT64_MAX;
  // The figures outlinks stored, read at connect: plans use them until outlinks is connected.
  PlanFigures outlinks_figures_;
};

absl::Status RegisterLinks(sqlite3* db, Connection* connection);

}  // namespace crawldb::links
