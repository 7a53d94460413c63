#include "extension/links/links_table.h"

#include <algorithm>
#include <optional>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "extension/common/json.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/status.h"
#include "extension/links/graph_functions.h"
#include "extension/links/link_cursor.h"
#include "extension/links/link_functions.h"
#include "extension/links/link_graph_format.h"
#include "extension/urls/url_ids.h"

namespace crawldb::links {
namespace {

// Format of the shadow tables as a whole; link_graph_format.h versions the blobs.
// Version 1 wrote its log rows uncompressed (link_graph_format.h): read, and made version 2 by
// its first commit.
constexpr int kFormatVersion = 2;
constexpr int kOldestReadableFormat = 1;

// Most changes in one <t>_log row (a larger transaction writes several rows).
constexpr size_t kLogRowChanges = size_t{1} << 20;

constexpr ShadowTableSpec kShadowTables[] = {
    {"graph", "(part INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
    {"log", "(seq INTEGER PRIMARY KEY, changes BLOB NOT NULL)"},
};

const ShadowTableSet& Shadow() {
  static const ShadowTableSet set(kLinksModule, kShadowTables, kFormatVersion,
                                  kOldestReadableFormat);
  return set;
}

const PositionalSpec kLinksPositional[] = {{.name = "urls", .default_value = "urls"}};
const OptionSpec kLinksOptions[] = {
    {.name = "codec",
     .kind = OptionKind::kText,
     .default_value = "link3",
     .choices = {"link1", "link2", "link3", "link3+huff", "bv"}},
    CacheMbOption(),  // the base's parts (links_table.h)
};
const PositionalSpec kInlinksPositional[] = {{.name = "outlinks", .default_value = "outlinks"}};

// Columns of outlinks, in declaration order (inlinks has the first three).
enum Column { kColumnSrc, kColumnDst, kColumnPos, kColumnCommand, kColumnArg };

enum Slot {
  kReadGraph,
  kLastGraphPart,
  kClearGraph,
  kWriteGraphPart,
  kReadLogSince,
  kAppendLog,
  kClearLog
};

absl::Status DeclareLinkTable(sqlite3* db, absl::string_view hidden_columns, const char* module) {
  std::string declaration =
      absl::StrCat("CREATE TABLE x(src INTEGER, dst INTEGER, pos INTEGER", hidden_columns, ")");
  int rc = sqlite3_declare_vtab(db, declaration.c_str());
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, module);
  return absl::OkStatus();
}

// The id an inserted src or dst names; ConstraintError otherwise.
absl::StatusOr<uint32_t> InsertedId(sqlite3_value* value, absl::string_view column) {
  if (sqlite3_value_numeric_type(value) == SQLITE_INTEGER) {
    sqlite3_int64 id = sqlite3_value_int64(value);
    if (id >= 0 && id <= UINT32_MAX) return static_cast<uint32_t>(id);
    return ConstraintError(kLinksModule, absl::StrCat(column, " ", id, " is out of range"),
                           "ids run from 0 to 4294967295");
  }
  const char* type = sqlite3_value_type(value) == SQLITE_NULL ? "NULL" : "not an integer";
  return ConstraintError(kLinksModule, absl::StrCat(column, " is ", type),
                         "give the URL ids of both ends, e.g. url_id('http://…')");
}

}  // namespace

LinksTable::LinksTable(sqlite3* db, Connection* connection, const VtabArgs& args,
                       std::string urls_name, std::string codec, std::optional<size_t> cache_mb)
    : ShadowBackedTable(db, connection, Shadow(), kLinksModule, args),
      urls_name_(std::move(urls_name)),
      codec_(std::move(codec)) {
  InitCacheBound(cache_mb);
}

std::vector<std::string> LinksTable::StatementSql() const {
  std::string graph = ShadowName("graph");
  std::string log = ShadowName("log");
  std::vector<std::string> sql(kClearLog + 1);
  sql[kReadGraph] = absl::StrCat("SELECT part, data FROM ", graph, " ORDER BY part");
  sql[kLastGraphPart] = absl::StrCat("SELECT max(part) FROM ", graph);
  sql[kClearGraph] = absl::StrCat("DELETE FROM ", graph);
  sql[kWriteGraphPart] = absl::StrCat("INSERT INTO ", graph, "(part, data) VALUES (?1, ?2)");
  sql[kReadLogSince] =
      absl::StrCat("SELECT seq, changes FROM ", log, " WHERE seq > ?1 ORDER BY seq");
  sql[kAppendLog] = absl::StrCat("INSERT INTO ", log, "(seq, changes) VALUES (?1, ?2)");
  sql[kClearLog] = absl::StrCat("DELETE FROM ", log);
  return sql;
}

absl::StatusOr<std::unique_ptr<LinksTable>> LinksTable::Create(sqlite3* db, void* aux,
                                                               const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options,
                           VtabOptions::Parse(args, kLinksPositional, kLinksOptions));
  CRAWLDB_RETURN_IF_ERROR(Shadow().Create(db, args.schema, args.table, options.Canonical()));
  CRAWLDB_RETURN_IF_ERROR(Shadow().WriteConfig(db, args.schema, args.table, "generation", "1"));
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<LinksTable> table, Connect(db, aux, args));
  // The empty graph in the table's codec, so that every table has a base.
  LinkStore empty;
  std::vector<std::vector<uint8_t>> parts =
      GraphParts(empty.base(Direction::kOut), empty.base(Direction::kIn));
  CRAWLDB_RETURN_IF_ERROR(table->WriteGraph(parts));
  CRAWLDB_RETURN_IF_ERROR(table->SaveFigures());
  return table;
}

absl::StatusOr<std::unique_ptr<LinksTable>> LinksTable::Connect(sqlite3* db, void* aux,
                                                                const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options,
                           VtabOptions::Parse(args, kLinksPositional, kLinksOptions));
  CRAWLDB_ASSIGN_OR_RETURN(ShadowTableSet::Stored stored,
                           Shadow().ReadStored(db, args.schema, args.table));
  CRAWLDB_RETURN_IF_ERROR(DeclareLinkTable(
      db, absl::StrCat(", ", QuoteIdentifier(args.table), " HIDDEN, arg HIDDEN"), kLinksModule));
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  auto table = std::unique_ptr<LinksTable>(new LinksTable(
      db, static_cast<Connection*>(aux), args, options.Text("urls"), options.Text("codec"),
      options.Given("cache_mb")
          ? std::optional<size_t>(static_cast<size_t>(options.Integer("cache_mb")))
          : std::nullopt));
  table->UseStored(stored);
  return table;
}

bool LinksTable::IsShadowName(absl::string_view suffix) { return Shadow().IsShadowName(suffix); }

urls::UrlIds* LinksTable::Urls() const {
  if (connection() == nullptr) return nullptr;
  if (urls_version_ != connection()->registry_version()) {
    urls_ = connection()->FindAs<urls::UrlIds>(schema(), urls_name_);
    urls_version_ = connection()->registry_version();
  }
  return urls_;
}

absl::StatusOr<urls::UrlIds*> LinksTable::ConnectUrls(UrlsNeed need) {
  urls::UrlIds* urls = Urls();
  if (urls == nullptr && connection() != nullptr && schema() == "main") {
    CRAWLDB_ASSIGN_OR_RETURN(urls, connection()->ConnectAs<urls::UrlIds>(urls_name_));
  }
  if (urls != nullptr) {
    CRAWLDB_RETURN_IF_ERROR(need == UrlsNeed::kIds
                                ? urls->CatchUpIds()
                                : urls->CatchUpDeletions(sync().caught_up_version()));
  }
  return urls;
}

absl::StatusOr<std::vector<bool>> LinksTable::LiveUrls() {
  std::vector<bool> live;
  CRAWLDB_ASSIGN_OR_RETURN(const urls::UrlIds* urls, ConnectUrls(UrlsNeed::kIds));
  if (urls != nullptr) {
    live.resize(static_cast<size_t>(std::min<int64_t>(urls->max_id(), UINT32_MAX)) + 1);
    for (size_t id = 1; id < live.size(); ++id) live[id] = urls->IsLive(static_cast<int64_t>(id));
  }
  return live;
}

// ---------------------------------------------------------------------------------------------
// Reading.

absl::Status LinksTable::BestIndex(sqlite3_index_info* info) {
  PlanFigures figures = planning_figures();
  PlanLinkQuery(Direction::kOut, static_cast<double>(figures.keys),
                static_cast<double>(figures.rows), info);
  return absl::OkStatus();
}

absl::StatusOr<const LinkStore*> LinksTable::Current() {
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  // A part the last statement could not read is read again when needed.
  store_.ClearReadFailures();
  CRAWLDB_RETURN_IF_ERROR(ConnectUrls(UrlsNeed::kDeletions).status());
  return &store_;
}

absl::StatusOr<std::unique_ptr<LinkCursor>> LinksTable::Open() {
  CRAWLDB_ASSIGN_OR_RETURN(const LinkStore* store, Current());
  return std::make_unique<LinkCursor>(store, Urls(), Direction::kOut,
                                      [this] { return StoreStatus(); });
}

absl::Status LinksTable::LoadAll() {
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
  CRAWLDB_ASSIGN_OR_RETURN(LoadedGraph graph, LoadGraph());
  store_.Reset(std::move(graph.out), std::move(graph.in));
  sync().Loaded(generation);
  return ReplayLogSince(0);
}

absl::StatusOr<LoadedGraph> LinksTable::LoadGraph() {
  std::vector<uint8_t> part0;
  if (absl::Status read = ReadGraphPart(0, IntoVector(&part0)); !read.ok()) return Corrupt(read);
  absl::StatusOr<GraphHeader> header = ReadGraphHeader(part0);
  if (!header.ok()) return Corrupt(header.status());
  if (!header->arc_count.has_value()) {
    // Version 1: every list is checked at load, so every part is read.
    CRAWLDB_ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> parts,
                             ReadParts(kReadGraph, "graph part"));
    std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
    absl::StatusOr<LoadedGraph> graph = LoadGraphParts(spans);
    if (!graph.ok()) return Corrupt(graph.status());
    return graph;
  }
  absl::StatusOr<LoadedGraph> graph = LoadPagedGraph(*header, [this](size_t part,
                                                                     absl::Span<uint8_t> into) {
    return ReadGraphPart(part, [part, into](size_t size) -> absl::StatusOr<absl::Span<uint8_t>> {
      if (size != into.size()) return PartProblem(part, size, into.size());
      return into;
    });
  });
  if (!graph.ok()) return Corrupt(graph.status());
  return graph;
}

absl::Status LinksTable::ReadGraphPart(size_t part, const BlobDestination& into) {
  absl::Status read = ReadBlob("graph", "data", static_cast<int64_t>(part), into);
  if (absl::IsNotFound(read)) return PartProblem(part, std::nullopt, 0);
  return read;
}

absl::Status LinksTable::ReplayLogSince(int64_t seq) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    absl::StatusOr<std::vector<LinkChange>> changes =
        DecodeLogChanges(select.ColumnBlob(1), &log_scratch_);
    if (!changes.ok()) return Corrupt(changes.status());
    if (absl::Status status = store_.ReplayInBatches(*changes); !status.ok()) {
      return Corrupt(status);
    }
    sync().Replayed(select.ColumnInt64(0));
  }
  if (absl::Status status = store_.EndReplay(); !status.ok()) return Corrupt(status);
  store_.ClearUndo();  // replayed changes are committed ones
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status LinksTable::Begin() {
  CRAWLDB_RETURN_IF_ERROR(LoggedTable::Begin());
  // Inserts check their ids against urls: with the write lock held, no other connection can
  // change it before this transaction ends.
  return ConnectUrls(UrlsNeed::kIds).status();
}

absl::Status LinksTable::Sync() {
  CRAWLDB_RETURN_IF_ERROR(RefuseCommitAfterAllocationFailure());
  absl::Span<const LinkChange> changes = store_.ChangesSince(sync().synced_mark());
  if (changes.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  LastInsertRowidGuard keep_last_rowid(db());
  while (!changes.empty()) {
    size_t count = std::min(changes.size(), kLogRowChanges);
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, sync().NextSeq()));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(2, EncodeLogChanges(changes.subspan(0, count))));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
    changes.remove_prefix(count);
  }
  sync().Synced(store_.UndoMark());
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Writes.

absl::Status LinksTable::Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (argc == 1) {  // DELETE, by rowid = src · 2^32 + dst
    auto key = static_cast<uint64_t>(sqlite3_value_int64(argv[0]));
    store_.Remove(static_cast<uint32_t>(key >> 32), static_cast<uint32_t>(key));
    return StoreStatus();
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    return UserError(kLinksModule, "UPDATE is not supported",
                     "DELETE the link and INSERT the new one");
  }
  if (sqlite3_value_type(argv[2 + kColumnCommand]) != SQLITE_NULL) {
    return RunCommand(argv[2 + kColumnCommand], argv[2 + kColumnArg]);
  }
  if (sqlite3_value_type(argv[1]) != SQLITE_NULL ||
      sqlite3_value_type(argv[2 + kColumnPos]) != SQLITE_NULL ||
      sqlite3_value_type(argv[2 + kColumnArg]) != SQLITE_NULL) {
    return UserError(kLinksModule, "only src and dst can be inserted",
                     "pos and rowid follow from the ids");
  }
  return Insert(argv[2 + kColumnSrc], argv[2 + kColumnDst], rowid);
}

absl::Status LinksTable::Insert(sqlite3_value* src_value, sqlite3_value* dst_value,
                                sqlite3_int64* rowid) {
  CRAWLDB_ASSIGN_OR_RETURN(uint32_t src, InsertedId(src_value, "src"));
  CRAWLDB_ASSIGN_OR_RETURN(uint32_t dst, InsertedId(dst_value, "dst"));
  urls::UrlIds* urls = Urls();
  if (urls == nullptr) {
    return UserError(
        kLinksModule,
        absl::StrCat("the urls table '", urls_name_, "' of ", name(), " does not exist"),
        "create it, or load graphs without URLs with crawldb_import_arcs()");
  }
  for (uint32_t id : {src, dst}) {
    if (!urls->IsLive(id)) {
      return ConstraintError(kLinksModule, absl::StrCat("no URL has id ", id, " in ", urls_name_),
                             "insert the URL first");
    }
  }
  *rowid = static_cast<sqlite3_int64>(uint64_t{src} << 32 | dst);
  if (src != dst) store_.Add(src, dst);  // self links are dropped, as in paper 001 §3.1
  return StoreStatus();
}

absl::Status LinksTable::RunCommand(sqlite3_value* command, sqlite3_value* arg) {
  const char* text = reinterpret_cast<const char*>(sqlite3_value_text(command));
  absl::string_view name = text == nullptr ? "" : text;
  if (name == "optimize") {
    if (!sqlite3_get_autocommit(db())) {
      return UserError(kLinksModule, "optimize and import cannot run inside a transaction",
                       "COMMIT first");
    }
    CRAWLDB_ASSIGN_OR_RETURN(std::vector<codecs::Arc> all, AllArcs());
    return Rewrite(std::move(all));
  }
  if (name == "import") {
    auto* arcs =
        static_cast<std::vector<codecs::Arc>*>(sqlite3_value_pointer(arg, kArcsPointerType));
    if (arcs == nullptr) {
      return UserError(kLinksModule,
                       "'import' is run by crawldb_import_arcs and crawldb_import_links",
                       "call one of those functions");
    }
    // The import functions refuse to run inside a user's transaction, then open their own so
    // that the URLs crawldb_import_links inserts commit with the links (link_functions.cc).
    CRAWLDB_ASSIGN_OR_RETURN(std::vector<codecs::Arc> all, AllArcs());
    all.insert(all.end(), arcs->begin(), arcs->end());
    return Rewrite(std::move(all));
  }
  return UserError(kLinksModule, absl::StrCat("unknown command '", name, "'"),
                   "the command is 'optimize'");
}

absl::Status LinksTable::StoreStatus() const {
  // A part that could not be read is the reader's error (an I/O error, say), kept until the
  // next statement; corruption is reported under the table's policy.
  absl::Status status = store_.status();
  return status.ok() ? status : Corrupt(status);
}

absl::StatusOr<std::vector<codecs::Arc>> LinksTable::AllArcs() const {
  absl::StatusOr<std::vector<codecs::Arc>> arcs = store_.Arcs();
  if (!arcs.ok()) return Corrupt(arcs.status());
  return arcs;
}

absl::Status LinksTable::Rewrite(std::vector<codecs::Arc> arcs) {
  // Whatever happens next, the shadow tables are the truth; a failure rolls them back and the
  // store is reloaded from them.
  sync().RequireReload();
  uint32_t node_count = 0;
  for (const codecs::Arc& arc : arcs) node_count = std::max({node_count, arc.src + 1, arc.dst + 1});
  CRAWLDB_ASSIGN_OR_RETURN(codecs::AdjacencyLists out_lists,
                           codecs::AdjacencyLists::FromArcs(node_count, arcs));
  arcs = {};
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<codecs::EncodedGraph> out,
                           codecs::EncodeAdjacency(codec_, out_lists.view()));
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<codecs::EncodedGraph> in,
                           codecs::EncodeAdjacency(codec_, out_lists.Transpose().view()));
  LastInsertRowidGuard keep_last_rowid(db());
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement clear, Use(kClearGraph));
    CRAWLDB_RETURN_IF_ERROR(clear.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(WriteGraph(GraphParts(*out, *in)));
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement clear, Use(kClearLog));
    CRAWLDB_RETURN_IF_ERROR(clear.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(sync().BumpGeneration());
  store_.Reset(std::move(out), std::move(in));
  sync().Loaded(sync().generation());
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  // If this statement still fails after here, xRollback must reload: mark it.
  sync().ReloadOnRollback();
  return absl::OkStatus();
}

absl::Status LinksTable::WriteGraph(const std::vector<std::vector<uint8_t>>& parts) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kWriteGraphPart));
  for (size_t part = 0; part < parts.size(); ++part) {
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, static_cast<int64_t>(part)));
    CRAWLDB_RETURN_IF_ERROR(insert.BindBlob(2, parts[part]));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
    sqlite3_reset(insert.get());
  }
  return absl::OkStatus();
}

absl::Status LinksTable::RenumberIds(absl::string_view urls_table,
                                     absl::Span<const int64_t> old_to_new) {
  if (!absl::EqualsIgnoreCase(urls_table, urls_name_)) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<codecs::Arc> arcs, AllArcs());
  auto renumber = [&](uint32_t id) -> std::optional<uint32_t> {
    if (id == 0 || id >= old_to_new.size()) return id;  // not a URL id
    int64_t renumbered = old_to_new[id];
    if (renumbered <= 0 || renumbered > UINT32_MAX) return std::nullopt;
    return static_cast<uint32_t>(renumbered);
  };
  size_t kept = 0;
  for (const codecs::Arc& arc : arcs) {
    std::optional<uint32_t> src = renumber(arc.src), dst = renumber(arc.dst);
    if (src.has_value() && dst.has_value()) arcs[kept++] = {*src, *dst};
  }
  arcs.resize(kept);
  CRAWLDB_RETURN_IF_ERROR(Rewrite(std::move(arcs)));
  // This table may take no part in the statement's transaction (the urls optimize is what
  // runs): reload at the next statement rather than trust a rollback to tell.
  sync().RequireReload();
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Statistics and checks.

namespace {

std::string DirectionJson(const codecs::EncodedGraph& graph, uint64_t arcs) {
  codecs::AdjacencySizeBits bits = graph.SizeBits();
  auto per_link = [&](uint64_t b) { return arcs == 0 ? 0.0 : static_cast<double>(b) / arcs; };
  return absl::StrFormat(
      "{\"bytes\":%d,\"bits_per_link\":%.3f,\"starts_bits_per_link\":%.3f,"
      "\"refs_bits_per_link\":%.3f,\"deletes_bits_per_link\":%.3f,\"adds_bits_per_link\":%.3f,"
      "\"tables_bits_per_link\":%.3f,\"header_bits\":%d}",
      bits.Total() / 8, per_link(bits.Total()), per_link(bits.starts), per_link(bits.refs),
      per_link(bits.deletes), per_link(bits.adds), per_link(bits.tables), bits.header);
}

}  // namespace

absl::StatusOr<std::string> LinksTable::StatsJson() {
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  const codecs::EncodedGraph& out = store_.base(Direction::kOut);
  return absl::StrFormat(
      "{\"table\":%s,\"module\":\"%s\",\"urls_table\":%s,\"codec\":%s,\"links\":%d,"
      "\"nodes\":%d,\"base_links\":%d,\"delta_links\":%d,\"delta_runs\":%d,"
      "\"deleted_base_links\":%d,"
      "\"outlinks\":%s,\"inlinks\":%s,\"memory_bytes\":%d}",
      JsonString(name()), kLinksModule, JsonString(urls_name_), JsonString(codec_),
      store_.arc_count(), store_.node_limit(), out.arc_count(), store_.delta_arcs(),
      store_.delta_runs(), store_.tombstones(), DirectionJson(out, out.arc_count()),
      DirectionJson(store_.base(Direction::kIn), out.arc_count()), store_.MemoryBytes());
}

absl::Status LinksTable::CheckStore(std::vector<std::string>* found) {
  // A part that could not be read (an I/O error) fails the check instead of being a finding.
  if (absl::Status base = store_.CheckBase();
      !base.ok() && base.code() != absl::StatusCode::kDataLoss) {
    return base;
  }
  store_.Check(found);
  // Loading reads only the parts the header counts (LoadPagedGraph): here, none more is stored.
  std::optional<GraphHeader> header;
  std::vector<uint8_t> part0;
  const absl::Status read = ReadGraphPart(0, IntoVector(&part0));
  if (!read.ok() && read.code() != absl::StatusCode::kDataLoss) return read;
  if (read.ok()) {
    absl::StatusOr<GraphHeader> parsed = ReadGraphHeader(part0);
    if (parsed.ok()) header = *parsed;  // A damaged header is the store's finding already.
  }
  if (header.has_value() && header->arc_count.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement last, Use(kLastGraphPart));
    CRAWLDB_RETURN_IF_ERROR(last.Step().status());
    if (absl::Status count = CheckPartCount(*header, last.ColumnInt64(0)); !count.ok()) {
      found->emplace_back(count.message());
    }
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// inlinks.

absl::StatusOr<std::unique_ptr<InlinksTable>> InlinksTable::Create(sqlite3* db, void* aux,
                                                                   const VtabArgs& args) {
  return Connect(db, aux, args);
}

absl::StatusOr<std::unique_ptr<InlinksTable>> InlinksTable::Connect(sqlite3* db, void* aux,
                                                                    const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options, VtabOptions::Parse(args, kInlinksPositional, {}));
  CRAWLDB_RETURN_IF_ERROR(DeclareLinkTable(db, "", kInlinksModule));
  // No outlinks table yet (it may be created after this one): plan with the defaults.
  absl::StatusOr<PlanFigures> figures =
      ReadPlanFigures(db, kLinksModule, args.schema, options.Text("outlinks"));
  return std::unique_ptr<InlinksTable>(new InlinksTable(static_cast<Connection*>(aux), args,
                                                        options.Text("outlinks"),
                                                        figures.value_or(PlanFigures{})));
}

absl::StatusOr<LinksTable*> InlinksTable::Outlinks() const {
  LinksTable* links = nullptr;
  if (connection_ != nullptr) {
    if (outlinks_version_ != connection_->registry_version()) {
      found_outlinks_ = connection_->FindAs<LinksTable>(schema_, outlinks_);
      outlinks_version_ = connection_->registry_version();
    }
    links = found_outlinks_;
    if (links == nullptr) {
      CRAWLDB_ASSIGN_OR_RETURN(links, connection_->ConnectAs<LinksTable>(outlinks_));
    }
  }
  if (links == nullptr) {
    return UserError(
        kInlinksModule,
        absl::StrCat("table '", name_, "' reads '", outlinks_,
                     "', which is not a crawldb_links table"),
        absl::StrCat("create it: CREATE VIRTUAL TABLE ", outlinks_, " USING crawldb_links(urls)"));
  }
  return links;
}

absl::Status InlinksTable::BestIndex(sqlite3_index_info* info) {
  // A connected outlinks table knows its figures; connecting one here would mean preparing SQL.
  PlanFigures figures = outlinks_figures_;
  if (connection_ != nullptr) {
    if (auto* links = connection_->FindAs<LinksTable>(schema_, outlinks_)) {
      figures = links->planning_figures();
    }
  }
  PlanLinkQuery(Direction::kIn, static_cast<double>(figures.keys),
                static_cast<double>(figures.rows), info);
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<LinkCursor>> InlinksTable::Open() {
  CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links, Outlinks());
  CRAWLDB_ASSIGN_OR_RETURN(const LinkStore* store, links->Current());
  return std::make_unique<LinkCursor>(store, links->Urls(), Direction::kIn,
                                      [links] { return links->StoreStatus(); });
}

absl::Status RegisterLinks(sqlite3* db, Connection* connection) {
  int rc = sqlite3_create_module_v2(db, kLinksModule, VtabModule<LinksTable>::Get(), connection,
                                    nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kLinksModule);
  rc = sqlite3_create_module_v2(db, kInlinksModule, VtabModule<InlinksTable>::Get(), connection,
                                nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kInlinksModule);
  CRAWLDB_RETURN_IF_ERROR(RegisterLinkFunctions(db, connection));
  return RegisterGraphFunctions(db, connection);
}

}  // namespace crawldb::links
