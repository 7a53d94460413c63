#include "extension/links/link_functions.h"

#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "codecs/bvgraph_files.h"
#include "extension/common/sql_function_table.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/identity/url_normalizer.h"
#include "extension/links/link_files.h"
#include "extension/links/links_table.h"
#include "extension/urls/url_ids.h"

namespace crawldb::links {
namespace {

constexpr char kOutlinksTableName[] = "outlinks";

// The crawldb_links table `name` of the main schema, connected and caught up; with
// `rewrites`, refused inside an explicit transaction.
absl::StatusOr<LinksTable*> Target(sqlite3_context* context, absl::string_view function,
                                   absl::string_view name = kOutlinksTableName,
                                   bool rewrites = true) {
  auto* connection = static_cast<Connection*>(FunctionStateOf(context));
  if (rewrites && !sqlite3_get_autocommit(connection->db())) {
    return UserError(function, "cannot run inside a transaction (it rewrites the link lists)",
                     "COMMIT first");
  }
  CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links, connection->ConnectAs<LinksTable>(name));
  if (links == nullptr) {
    return UserError(
        function, absl::StrCat("there is no crawldb_links table named '", name, "'"),
        absl::StrCat("create it with CREATE VIRTUAL TABLE ", name, " USING crawldb_links(urls)"));
  }
  CRAWLDB_RETURN_IF_ERROR(links->Current().status());
  return links;
}

// A text argument without NUL bytes (a path or a name); `what` names it in errors.
absl::StatusOr<std::string> TextArgument(sqlite3_value* value, absl::string_view function,
                                         absl::string_view what) {
  if (sqlite3_value_type(value) != SQLITE_TEXT) {
    return UserError(function, absl::StrCat("the ", what, " must be text"));
  }
  std::string text(reinterpret_cast<const char*>(sqlite3_value_text(value)),
                   static_cast<size_t>(sqlite3_value_bytes(value)));
  if (text.find('\0') != std::string::npos) {
    return UserError(function, absl::StrCat("the ", what, " holds a NUL byte"));
  }
  return text;
}

absl::StatusOr<std::string> PathArgument(sqlite3_value* value, absl::string_view function) {
  return TextArgument(value, function, "path");
}

// A file reader's error, prefixed with the function and the path.
absl::Status FileError(absl::string_view function, const std::string& path,
                       const absl::Status& status) {
  return UserError(function, absl::StrCat("'", path, "': ", status.message()));
}

// Runs the 'import' command of `links` with `arcs`: through xUpdate, so that the rewrite belongs
// to the statement's transaction.
absl::Status RunImport(sqlite3* db, LinksTable* links, std::vector<codecs::Arc>* arcs,
                       absl::string_view function) {
  std::string table = QuoteIdentifier(links->name());
  StatementCache statements(db, std::string(function),
                            {absl::StrCat("INSERT INTO ", QuoteIdentifier(links->schema()), ".",
                                          table, "(", table, ", arg) VALUES ('import', ?1)")});
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement import, statements.Use(0));
  int rc = sqlite3_bind_pointer(import.get(), 1, arcs, kArcsPointerType, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, function);
  return import.Run();
}

absl::Status ImportArcs(sqlite3_context* context, int, sqlite3_value** argv) {
  constexpr absl::string_view kFunction = "crawldb_import_arcs";
  CRAWLDB_ASSIGN_OR_RETURN(std::string path, PathArgument(argv[0], kFunction));
  CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links, Target(context, kFunction));
  absl::StatusOr<ArcsFile> file = ReadArcsFile(path);
  if (!file.ok()) return FileError(kFunction, path, file.status());
  const size_t read = file->arcs.size();
  CRAWLDB_RETURN_IF_ERROR(
      RunImport(sqlite3_context_db_handle(context), links, &file->arcs, kFunction));
  ResultText(context, absl::StrFormat("{\"lines\":%d,\"arcs_read\":%d,\"links\":%d,\"nodes\":%d}",
                                      file->lines, read, links->store().arc_count(),
                                      links->store().node_limit()));
  return absl::OkStatus();
}

// crawldb_import_links' work, in its transaction: inserts the kept URLs of `file` into `urls`,
// imports its links into `links` and sets the function's result.
absl::Status ImportLinksFile(sqlite3_context* context, const LinksFile& file, int64_t threshold,
                             LinksTable* links, urls::UrlIds* urls) {
  constexpr absl::string_view kFunction = "crawldb_import_links";

  // Normalise every URL once; count, for each destination, the records that link to it.
  uint64_t invalid = 0;
  absl::flat_hash_map<std::string, std::optional<std::string>> normalized;
  auto normalize = [&](const std::string& raw) -> const std::optional<std::string>& {
    auto [at, inserted] = normalized.try_emplace(raw);
    if (inserted) {
      absl::StatusOr<identity::NormalizedUrl> url =
          identity::NormalizeUrl(raw, urls->normalize_options());
      if (url.ok()) at->second = url->text();
    }
    if (!at->second.has_value()) ++invalid;
    return at->second;
  };
  absl::flat_hash_map<std::string, int64_t> linked_by;
  absl::flat_hash_set<std::string> sources;
  for (const LinksRecord& record : file.records) {
    const std::optional<std::string>& source = normalize(record.source);
    if (!source.has_value()) continue;
    sources.insert(*source);
    absl::flat_hash_set<absl::string_view> seen;
    for (const std::string& raw : record.destinations) {
      const std::optional<std::string>& destination = normalize(raw);
      if (destination.has_value() && seen.insert(*destination).second) ++linked_by[*destination];
    }
  }
  auto kept = [&](const std::string& url) {
    if (sources.contains(url)) return true;
    auto found = linked_by.find(url);
    return found != linked_by.end() && found->second >= threshold;
  };

  // Insert the kept URLs into urls (through its xUpdate, so that a rollback undoes them).
  sqlite3* db = sqlite3_context_db_handle(context);
  std::string urls_table = QuoteIdentifier(links->urls_name());
  StatementCache statements(
      db, std::string(kFunction),
      {absl::StrCat("INSERT OR IGNORE INTO ", QuoteIdentifier(links->schema()), ".", urls_table,
                    "(url) VALUES (?1)")});
  absl::flat_hash_map<std::string, uint32_t> id_of;
  uint64_t dropped = 0;
  auto id = [&](const std::string& url) -> absl::StatusOr<std::optional<uint32_t>> {
    if (auto found = id_of.find(url); found != id_of.end()) return found->second;
    if (!kept(url)) return std::optional<uint32_t>();
    {
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, statements.Use(0));
      CRAWLDB_RETURN_IF_ERROR(insert.BindText(1, url));
      CRAWLDB_RETURN_IF_ERROR(insert.Run());
    }
    absl::StatusOr<identity::NormalizedUrl> parsed =
        identity::NormalizeUrl(url, urls->normalize_options());
    if (!parsed.ok()) return parsed.status();
    CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> stored, urls->IdOf(*parsed));
    if (!stored.has_value() || *stored > UINT32_MAX) {
      return absl::InternalError(absl::StrCat("crawldb_import_links: no id for ", url));
    }
    id_of.emplace(url, static_cast<uint32_t>(*stored));
    return static_cast<uint32_t>(*stored);
  };
  std::vector<codecs::Arc> arcs;
  uint64_t links_read = 0;
  for (const LinksRecord& record : file.records) {
    const std::optional<std::string>& source = normalized[record.source];
    if (!source.has_value()) continue;
    CRAWLDB_ASSIGN_OR_RETURN(std::optional<uint32_t> src, id(*source));
    for (const std::string& raw : record.destinations) {
      ++links_read;
      const std::optional<std::string>& destination = normalized[raw];
      if (!destination.has_value()) continue;
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<uint32_t> dst, id(*destination));
      if (!dst.has_value()) continue;
      if (*dst != *src) arcs.push_back({*src, *dst});  // self links dropped, as in paper 001
    }
  }
  for (const auto& [url, count] : linked_by) dropped += kept(url) ? 0 : 1;
  CRAWLDB_RETURN_IF_ERROR(RunImport(db, links, &arcs, kFunction));
  ResultText(context,
             absl::StrFormat("{\"lines\":%d,\"records\":%d,\"superseded\":%d,\"urls\":%d,"
                             "\"invalid_urls\":%d,\"dropped_urls\":%d,\"links_read\":%d,"
                             "\"links\":%d}",
                             file.lines, file.records.size(), file.superseded, id_of.size(),
                             invalid, dropped, links_read, links->store().arc_count()));
  return absl::OkStatus();
}

absl::Status ImportLinks(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kFunction = "crawldb_import_links";
  CRAWLDB_ASSIGN_OR_RETURN(std::string path, PathArgument(argv[0], kFunction));
  int64_t threshold = 1;
  if (argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER || sqlite3_value_int64(argv[1]) < 1) {
      return UserError(kFunction, "threshold must be an integer ≥ 1");
    }
    threshold = sqlite3_value_int64(argv[1]);
  }
  CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links, Target(context, kFunction));
  auto* connection = static_cast<Connection*>(FunctionStateOf(context));
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls,
                           connection->ConnectAs<urls::UrlIds>(links->urls_name()));
  if (urls == nullptr) {
    return UserError(kFunction, absl::StrCat("outlinks names the urls table '", links->urls_name(),
                                             "', which is not a crawldb_urls table"));
  }
  absl::StatusOr<LinksFile> file = ReadLinksFile(path);
  if (!file.ok()) return FileError(kFunction, path, file.status());
  // One transaction for the whole import. Outside a transaction (where it runs: it is refused
  // inside one) each statement below would commit on its own as soon as it ended, since the
  // calling SELECT only reads: one commit per URL, and a crash between two would keep some of
  // the file's URLs and none of its links.
  return InSavepoint(sqlite3_context_db_handle(context), "crawldb_import_links", kFunction,
                     [&] { return ImportLinksFile(context, *file, threshold, links, urls); });
}

absl::Status ImportBvGraph(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kFunction = "crawldb_import_bvgraph";
  CRAWLDB_ASSIGN_OR_RETURN(std::string basename, TextArgument(argv[0], kFunction, "basename"));
  std::string table = kOutlinksTableName;
  if (argc > 1) {
    CRAWLDB_ASSIGN_OR_RETURN(table, TextArgument(argv[1], kFunction, "table name"));
  }
  CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links, Target(context, kFunction, table));
  absl::StatusOr<codecs::AdjacencyLists> graph = codecs::ReadBvGraphFiles(basename);
  if (!graph.ok()) return FileError(kFunction, basename, graph.status());
  std::vector<codecs::Arc> arcs;
  arcs.reserve(graph->arc_count());
  for (uint32_t v = 0; v < graph->size(); ++v) {
    for (uint32_t w : graph->list(v)) arcs.push_back({v, w});
  }
  CRAWLDB_RETURN_IF_ERROR(RunImport(sqlite3_context_db_handle(context), links, &arcs, kFunction));
  ResultText(context, absl::StrFormat("{\"nodes_read\":%d,\"arcs_read\":%d,\"links\":%d,"
                                      "\"nodes\":%d}",
                                      graph->size(), arcs.size(), links->store().arc_count(),
                                      links->store().node_limit()));
  return absl::OkStatus();
}

absl::Status ExportBvGraph(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kFunction = "crawldb_export_bvgraph";
  CRAWLDB_ASSIGN_OR_RETURN(std::string table, TextArgument(argv[0], kFunction, "table name"));
  CRAWLDB_ASSIGN_OR_RETURN(std::string basename, TextArgument(argv[1], kFunction, "basename"));
  bool inlinks = false;
  if (argc > 2) {
    CRAWLDB_ASSIGN_OR_RETURN(std::string direction, TextArgument(argv[2], kFunction, "direction"));
    if (direction != "out" && direction != "in") {
      return UserError(kFunction,
                       absl::StrCat("the direction is '", direction, "'; expected 'out' or 'in'"));
    }
    inlinks = direction == "in";
  }
  CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links,
                           Target(context, kFunction, table, /*rewrites=*/false));
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<codecs::Arc> arcs, links->AllArcs());
  absl::StatusOr<codecs::AdjacencyLists> graph =
      codecs::AdjacencyLists::FromArcs(links->store().node_limit(), arcs);
  if (!graph.ok()) return graph.status();
  if (inlinks) *graph = graph->Transpose();
  absl::StatusOr<codecs::BvGraphFiles> files = codecs::WriteBvGraph(graph->view(), {});
  if (!files.ok()) return files.status();
  if (absl::Status status = codecs::WriteBvGraphFiles(*files, basename); !status.ok()) {
    return FileError(kFunction, basename, status);
  }
  ResultText(context, absl::StrFormat("{\"nodes\":%d,\"arcs\":%d,\"graph_bytes\":%d,"
                                      "\"offsets_bytes\":%d}",
                                      graph->size(), graph->arc_count(), files->graph.size(),
                                      files->offsets.size()));
  return absl::OkStatus();
}

}  // namespace

constexpr SqlFunctionSpec kLinkFunctions[] = {
    {"crawldb_import_arcs", 1, 1, kWritingFunction, &ImportArcs},
    {"crawldb_import_links", 1, 1, kWritingFunction, &ImportLinks},
    {"crawldb_import_links", 2, 2, kWritingFunction, &ImportLinks},
    {"crawldb_import_bvgraph", 1, 1, kWritingFunction, &ImportBvGraph},
    {"crawldb_import_bvgraph", 2, 2, kWritingFunction, &ImportBvGraph},
    {"crawldb_export_bvgraph", 2, 2, kWritingFunction, &ExportBvGraph},
    {"crawldb_export_bvgraph", 3, 3, kWritingFunction, &ExportBvGraph},
};

absl::Status RegisterLinkFunctions(sqlite3* db, Connection* connection) {
  return RegisterSqlFunctions(db, kLinkFunctions, connection);
}

}  // namespace crawldb::links
