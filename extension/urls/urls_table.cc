#include "extension/urls/urls_table.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <tuple>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "extension/common/json.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/sql_values.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/urls/fingerprint_index.h"
#include "extension/urls/url_functions.h"
#include "extension/urls/url_log_format.h"
#include "extension/urls/urls_cursor.h"
#include "extension/urls/urls_slots.h"

namespace crawldb::urls {
namespace {

// Format of the shadow tables as a whole; url_base.h, url_part.h, url_id_parts.h and
// url_log_format.h version their blobs. Versions 4 to 6 are read; version 3 right after an
// optimize (urls_table.h); versions 1 and 2 are refused. A commit that writes makes it 7.
constexpr int kFormatVersion = kLineageFormat;
constexpr int kOldestReadableFormat = 3;

constexpr ShadowTableSpec kShadowTables[] = {
    {"base", "(part INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
    {"log",
     "(seq INTEGER PRIMARY KEY, first_id INTEGER NOT NULL, added BLOB NOT NULL, "
     "deleted BLOB NOT NULL)"},
    {"parts", "(part INTEGER PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)"},
    {"deleted", "(id INTEGER PRIMARY KEY)"},
    {"pending",
     "(row INTEGER PRIMARY KEY, seq INTEGER NOT NULL, ids BLOB NOT NULL, keys BLOB NOT NULL)"},
    {"ids", "(chunk INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
};

const ShadowTableSet& Shadow() {
  static const ShadowTableSet set(kUrlsModule, kShadowTables, kFormatVersion,
                                  kOldestReadableFormat);
  return set;
}

const OptionSpec kOptions[] = {
    {.name = "max_url_length",
     .kind = OptionKind::kInteger,
     .default_value = "8192",
     .min = 64,
     .max = 1 << 20},
    // A part's pending key bytes below which commits do not merge it; its run's stored bytes
    // raise it (urls_table.h).
    {.name = "merge_bytes",
     .kind = OptionKind::kInteger,
     .default_value = "16384",
     .min = 0,
     .max = int64_t{1} << 40},
    CacheMbOption(),    // parts and id-map chunks (urls_table.h)
    LogTailKbOption(),  // urls_table.h
};

// A new table's lineage (urls_table.h): the schema cookie as the table is created, which no
// table created later in the file has, and no deletion yet.
absl::Status WriteLineage(sqlite3* db, const VtabArgs& args) {
  int64_t cookie = 0;
  {
    StatementCache once(db, kUrlsModule,
                        {absl::StrCat("PRAGMA ", QuoteIdentifier(args.schema), ".schema_version")});
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement pragma, once.Use(0));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, pragma.Step());
    if (!row) return absl::InternalError("crawldb_urls: PRAGMA schema_version gave no row");
    cookie = pragma.ColumnInt64(0);
  }
  CRAWLDB_RETURN_IF_ERROR(
      Shadow().WriteConfig(db, args.schema, args.table, "lineage", absl::StrCat(cookie)));
  return Shadow().WriteConfig(db, args.schema, args.table, "deletions", "0");
}

}  // namespace

const ShadowTableSpec* FindShadowSpec(absl::string_view suffix) {
  for (const ShadowTableSpec& spec : kShadowTables) {
    if (spec.suffix == suffix) return &spec;
  }
  return nullptr;
}

namespace {}  // namespace

// ---------------------------------------------------------------------------------------------

UrlsTable::UrlsTable(sqlite3* db, Connection* connection, const VtabArgs& args, int stored_format,
                     size_t max_url_length, size_t merge_bytes, size_t tail_bound_bytes,
                     std::optional<size_t> cache_mb)
    : ShadowBackedTable(db, connection, Shadow(), kUrlsModule, args),
      stored_format_(stored_format),
      merge_bytes_(merge_bytes),
      tail_bound_bytes_(tail_bound_bytes),
      store_(this),
      fingerprints_(std::make_unique<FingerprintIndex>()),
      read_snapshot_(db, args.schema, kUrlsModule) {
  normalize_options_.max_length = max_url_length;
  InitCacheBound(cache_mb);
}

UrlsTable::~UrlsTable() = default;

std::vector<std::string> UrlsTable::StatementSql() const {
  const std::string base = ShadowName("base");
  const std::string log = ShadowName("log");
  const std::string parts = ShadowName("parts");
  const std::string pending = ShadowName("pending");
  const std::string ids = ShadowName("ids");
  const std::string deleted = ShadowName("deleted");
  std::vector<std::string> sql(kSlotCount);
  sql[kCountBaseParts] = absl::StrCat("SELECT count(*) FROM ", base);
  sql[kClearBase] = absl::StrCat("DELETE FROM ", base);
  sql[kWriteBasePart] = absl::StrCat("INSERT INTO ", base, "(part, data) VALUES (?1, ?2)");
  sql[kReadLogSince] = absl::StrCat("SELECT seq, first_id, added, deleted FROM ", log,
                                    " WHERE seq > ?1 ORDER BY seq");
  sql[kReadLastLog] =
      absl::StrCat("SELECT seq, first_id, added FROM ", log, " ORDER BY seq DESC LIMIT 1");
  sql[kAppendLog] =
      absl::StrCat("INSERT INTO ", log, "(seq, first_id, added, deleted) VALUES (?1, ?2, ?3, ?4)");
  sql[kClearLog] = absl::StrCat("DELETE FROM ", log);
  sql[kLogSize] =
      absl::StrCat("SELECT count(*), coalesce(sum(length(added) + length(deleted)), 0) FROM ", log);
  sql[kTrimLog] = absl::StrCat("DELETE FROM ", log, " WHERE seq < ?1");
  sql[kReadRun] = absl::StrCat("SELECT seq, data FROM ", parts, " WHERE part = ?1");
  sql[kReadRunsSince] = absl::StrCat("SELECT part FROM ", parts, " WHERE seq > ?1");
  sql[kWritePart] =
      absl::StrCat("INSERT OR REPLACE INTO ", parts, "(part, seq, data) VALUES (?1, ?2, ?3)");
  sql[kClearParts] = absl::StrCat("DELETE FROM ", parts);
  // A part's rows: row = part × 2^40 + first id (url_log_format.h).
  sql[kReadPending] = absl::StrCat("SELECT row, ids, keys FROM ", pending,
                                   " WHERE row >= ?1 AND row < ?2 AND seq > ?3 ORDER BY row");
  sql[kWritePending] =
      absl::StrCat("INSERT INTO ", pending, "(row, seq, ids, keys) VALUES (?1, ?2, ?3, ?4)");
  sql[kTrimPending] =
      absl::StrCat("DELETE FROM ", pending, " WHERE row >= ?1 AND row < ?2 AND seq <= ?3");
  sql[kClearPending] = absl::StrCat("DELETE FROM ", pending);
  sql[kPendingSize] =
      absl::StrCat("SELECT count(*), coalesce(sum(length(ids) + length(keys)), 0) FROM ", pending);
  sql[kReadIdChunk] = absl::StrCat("SELECT data FROM ", ids, " WHERE chunk = ?1");
  sql[kWriteIdChunk] =
      absl::StrCat("INSERT OR REPLACE INTO ", ids, "(chunk, data) VALUES (?1, ?2)");
  sql[kClearIds] = absl::StrCat("DELETE FROM ", ids);
  sql[kReadDeleted] = absl::StrCat("SELECT id FROM ", deleted);
  sql[kWriteDeleted] = absl::StrCat("INSERT INTO ", deleted, "(id) VALUES (?1)");
  sql[kClearDeleted] = absl::StrCat("DELETE FROM ", deleted);
  sql[kAnyDeleted] = absl::StrCat("SELECT EXISTS (SELECT 1 FROM ", deleted, ")");
  const std::string config = ShadowName("config");
  sql[kReadLineage] = absl::StrCat("SELECT (SELECT value FROM ", config,
                                   " WHERE key = 'lineage') || '/' || (SELECT value FROM ", config,
                                   " WHERE key = 'deletions')");
  sql[kCountDeletion] = absl::StrCat(
      "UPDATE ", config, " SET value = CAST(value + 1 AS TEXT) WHERE key = 'deletions'");
  sql[kCountSinceOptimize] =
      absl::StrCat("SELECT (SELECT count(*) FROM ", log, ") + (SELECT count(*) FROM ", parts,
                   ") + (SELECT count(*) FROM ", deleted, ")");
  return sql;
}

absl::StatusOr<std::unique_ptr<UrlsTable>> UrlsTable::Create(sqlite3* db, void* aux,
                                                             const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options, VtabOptions::Parse(args, {}, kOptions));
  CRAWLDB_RETURN_IF_ERROR(Shadow().Create(db, args.schema, args.table, options.Canonical()));
  CRAWLDB_RETURN_IF_ERROR(Shadow().WriteConfig(db, args.schema, args.table, "generation", "1"));
  CRAWLDB_RETURN_IF_ERROR(WriteLineage(db, args));
  // An empty base: its header part, so that every table has one.
  std::vector<std::vector<uint8_t>> parts = UrlBase().Parts();
  StatementCache once(
      db, kUrlsModule,
      {absl::StrCat("INSERT INTO ", ShadowTableSet::QualifiedName(args.schema, args.table, "base"),
                    "(part, data) VALUES (0, ?1)")});
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, once.Use(0));
  CRAWLDB_RETURN_IF_ERROR(insert.BindBlob(1, parts[0]));
  CRAWLDB_RETURN_IF_ERROR(insert.Run());
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<UrlsTable> table, Connect(db, aux, args));
  CRAWLDB_RETURN_IF_ERROR(table->SaveFigures());
  return table;
}

absl::StatusOr<std::unique_ptr<UrlsTable>> UrlsTable::Connect(sqlite3* db, void* aux,
                                                              const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options, VtabOptions::Parse(args, {}, kOptions));
  CRAWLDB_ASSIGN_OR_RETURN(ShadowTableSet::Stored stored,
                           Shadow().ReadStored(db, args.schema, args.table));
  std::string declaration =
      absl::StrCat("CREATE TABLE x(id INTEGER, url TEXT, host TEXT, fp INTEGER, ",
                   QuoteIdentifier(args.table), " HIDDEN)");
  int rc = sqlite3_declare_vtab(db, declaration.c_str());
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kUrlsModule);
  // SQLITE_CONSTRAINT from xUpdate then follows the statement's conflict clause.
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  auto table = std::unique_ptr<UrlsTable>(
      new UrlsTable(db, static_cast<Connection*>(aux), args, stored.format_version,
                    static_cast<size_t>(options.Integer("max_url_length")),
                    static_cast<size_t>(options.Integer("merge_bytes")),
                    static_cast<size_t>(options.Integer("log_tail_kb")) << 10,
                    options.Given("cache_mb")
                        ? std::optional<size_t>(static_cast<size_t>(options.Integer("cache_mb")))
                        : std::nullopt));
  table->UseStored(stored);
  return table;
}

bool UrlsTable::IsShadowName(absl::string_view suffix) { return Shadow().IsShadowName(suffix); }

// ---------------------------------------------------------------------------------------------
// Writes.

absl::Status UrlsTable::Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (argc == 1) {  // DELETE
    // Counted in the same transaction, once (a rollback takes both back, and a rollback to a
    // savepoint makes the next delete count again): a frontier paired with this table stops
    // trusting it (Lineage).
    if (!delete_counted_) {
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement count, Use(kCountDeletion));
      CRAWLDB_RETURN_IF_ERROR(count.Run());
      delete_counted_ = true;
      lineage_epoch_ = NextLineageEpoch();
    }
    store_.Delete(sqlite3_value_int64(argv[0]));
    return absl::OkStatus();
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    return UserError(kUrlsModule, "UPDATE is not supported: a URL's text is its identity",
                     "DELETE the row and INSERT the new URL");
  }
  sqlite3_value* command = argv[2 + kColumnCommand];
  if (sqlite3_value_type(command) != SQLITE_NULL) {
    return RunCommand(TextOfValue(command));
  }
  if (sqlite3_value_type(argv[1]) != SQLITE_NULL ||
      sqlite3_value_type(argv[2 + kColumnId]) != SQLITE_NULL) {
    return UserError(kUrlsModule, "id is assigned by crawldb", "insert only the url column");
  }
  if (sqlite3_value_type(argv[2 + kColumnHost]) != SQLITE_NULL ||
      sqlite3_value_type(argv[2 + kColumnFp]) != SQLITE_NULL) {
    return UserError(kUrlsModule, "host and fp are computed from the url",
                     "insert only the url column");
  }
  return Insert(argv[2 + kColumnUrl], rowid);
}

absl::Status UrlsTable::Insert(sqlite3_value* value, sqlite3_int64* rowid) {
  int type = sqlite3_value_type(value);
  if (type != SQLITE_TEXT) {
    return ConstraintError(kUrlsModule, type == SQLITE_NULL
                                            ? "url is NULL"
                                            : "url must be text, got a number or blob");
  }
  absl::StatusOr<identity::NormalizedUrl> url =
      identity::NormalizeUrl(TextOfValue(value), normalize_options_);
  if (!url.ok()) {
    return ConstraintError(kUrlsModule, absl::StrCat("invalid URL: ", url.status().message()));
  }
  std::string key = identity::CanonicalKey(*url);
  absl::StatusOr<std::optional<int64_t>> existing = store_.Find(key);
  if (!existing.ok()) return Corrupt(existing.status());
  if (existing->has_value()) {
    if (sqlite3_vtab_on_conflict(db()) == SQLITE_REPLACE) {
      *rowid = **existing;  // nothing to replace: the URL is its identity
      return absl::OkStatus();
    }
    return ConstraintError(
        kUrlsModule, absl::StrCat("URL already stored: ", url->text(), " (id ", **existing, ")"),
        "use INSERT OR IGNORE to skip known URLs");
  }
  absl::StatusOr<int64_t> id = store_.Add(key);
  if (!id.ok()) return Corrupt(id.status());
  *rowid = *id;
  return absl::OkStatus();
}

absl::Status UrlsTable::RunCommand(absl::string_view command) {
  if (command == "optimize") return Optimize();
  return UserError(kUrlsModule, absl::StrCat("unknown command '", command, "'"),
                   "the command is 'optimize'");
}

absl::Status UrlsTable::Optimize() {
  if (!sqlite3_get_autocommit(db())) {
    return UserError(kUrlsModule, "optimize cannot run inside a transaction",
                     "COMMIT first, then optimize");
  }
  // Whatever happens next, the shadow tables are the truth; a failure rolls them back and the
  // store is reloaded from them.
  sync().RequireReload();
  std::vector<int64_t> old_to_new;
  absl::StatusOr<UrlBase> rebuilt = store_.Rebuild(&old_to_new);
  if (!rebuilt.ok()) return Corrupt(rebuilt.status());
  UrlBase base = std::move(*rebuilt);
  // The tables that hold this table's ids (outlinks) renumber theirs in the same statement.
  if (connection() != nullptr) {
    CRAWLDB_ASSIGN_OR_RETURN(std::vector<CrawldbTable*> tables, connection()->ConnectAll());
    for (CrawldbTable* table : tables) {
      if (table != this && absl::EqualsIgnoreCase(table->schema(), schema())) {
        CRAWLDB_RETURN_IF_ERROR(table->RenumberIds(name(), old_to_new));
      }
    }
  }
  LastInsertRowidGuard keep_last_rowid(db());
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement clear, Use(kClearBase));
    CRAWLDB_RETURN_IF_ERROR(clear.Run());
  }
  {
    std::vector<std::vector<uint8_t>> parts = base.Parts();
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kWriteBasePart));
    for (size_t part = 0; part < parts.size(); ++part) {
      CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, static_cast<int64_t>(part)));
      CRAWLDB_RETURN_IF_ERROR(insert.BindBlob(2, parts[part]));
      CRAWLDB_RETURN_IF_ERROR(insert.Run());
      sqlite3_reset(insert.get());
    }
  }
  if (stored_format_ < kPartsFormat) CRAWLDB_RETURN_IF_ERROR(CreatePartsTables());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  for (Slot clear : {kClearLog, kClearParts, kClearDeleted, kClearPending, kClearIds}) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement statement, Use(clear));
    CRAWLDB_RETURN_IF_ERROR(statement.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(sync().BumpGeneration());
  store_.Reset(std::move(base));
  tail_.Fold(0);
  fingerprints_->Invalidate();
  // The log is empty: every connection restarts it from 1 after reloading.
  sync().Loaded(sync().generation());
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  // If this statement still fails after here, xRollback must reload: mark it.
  sync().ReloadOnRollback();
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Look-ups for functions, statistics, checks.

absl::StatusOr<std::optional<int64_t>> UrlsTable::IdOf(const identity::NormalizedUrl& url) {
  absl::StatusOr<std::optional<int64_t>> id = store_.Find(identity::CanonicalKey(url));
  if (!id.ok()) return Corrupt(id.status());
  return id;
}

uint64_t UrlsTable::NextLineageEpoch() {
  static std::atomic<uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

absl::StatusOr<std::optional<std::string>> UrlsTable::Lineage() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLineage));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  if (!row || select.ColumnIsNull(0)) return std::optional<std::string>();
  return std::optional<std::string>(select.ColumnText(0));
}

absl::StatusOr<std::optional<std::string>> UrlsTable::TextOf(int64_t id) {
  absl::StatusOr<std::optional<std::string>> key = store_.KeyOf(id);
  if (!key.ok()) return Corrupt(key.status());
  if (!key->has_value()) return std::optional<std::string>();
  absl::StatusOr<identity::NormalizedUrl> url = identity::UrlFromCanonicalKey(**key);
  if (!url.ok()) return Corrupt(absl::DataLossError(url.status().message()));
  return std::optional<std::string>(url->text());
}

absl::StatusOr<std::string> UrlsTable::StatsJson() {
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  const UrlBase& base = store_.base();
  const size_t live = store_.live_count();
  const size_t held_parts = store_.held_parts();
  const size_t memory = store_.MemoryBytes();
  // The stored sizes count every group of blocks: read those not read yet.
  if (absl::Status status = base.ReadAll(); !status.ok()) return Corrupt(status);
  const size_t stored = base.StoredBytes();
  // The parts' figures: every part is read (through the cache).
  size_t merged = 0, pending_urls = 0, pending_key_bytes = 0, parts_bytes = 0;
  for (size_t number = 0; number < kUrlParts; ++number) {
    CRAWLDB_ASSIGN_OR_RETURN(std::shared_ptr<LoadedPart> part, HeldPart(number));
    merged += part->run->size();
    pending_urls += part->pending.size();
    pending_key_bytes += part->pending.key_bytes();
    parts_bytes += part->run->size() > 0 ? part->run->StoredBytes() : 0;
  }
  const size_t parts_model_bytes =
      store_.parts_have_own_model() ? store_.own_parts_model()->Serialize().size() : 0;
  int64_t log_rows = 0, log_bytes = 0, pending_rows = 0, pending_bytes = 0;
  for (auto [slot, rows, bytes] : {std::tuple(kLogSize, &log_rows, &log_bytes),
                                   std::tuple(kPendingSize, &pending_rows, &pending_bytes)}) {
    if (slot == kPendingSize && stored_format_ < kPartsFormat) continue;
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement size, Use(slot));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, size.Step());
    if (row) {
      *rows = size.ColumnInt64(0);
      *bytes = size.ColumnInt64(1);
    }
  }
  // base_bytes: every stored part; base_model_bytes, base_head_bytes and base_block_bytes: the
  // model, the heads (both levels, url_base.h) and the blocks among them. tail_urls: ids given
  // since optimize, of which merged_urls are in runs (parts_bytes stored, parts_model_bytes of it
  // the parts' own model) and pending_urls wait in <t>_pending (pending_key_bytes of keys;
  // pending_rows rows of pending_bytes). memory_bytes: what the store held before these figures
  // were gathered (held_parts of the parts); fp_index_bytes: memory of the fp → id index (0 until
  // an fp look-up builds it). log_bytes: the blobs of <t>_log; log_tail_rows of its rows, after
  // the last fold, carry log_tail_urls of the pending URLs (log_tail_bytes of those rows, held in
  // log_tail_memory_bytes).
  return absl::StrFormat(
      "{\"table\":%s,\"module\":\"%s\",\"urls\":%d,\"max_id\":%d,\"base_urls\":%d,"
      "\"base_blocks\":%d,\"base_bytes\":%d,\"base_model_bytes\":%d,\"base_head_bytes\":%d,"
      "\"base_block_bytes\":%d,\"tail_urls\":%d,\"merged_urls\":%d,\"parts_bytes\":%d,"
      "\"parts_model_bytes\":%d,\"pending_urls\":%d,\"pending_key_bytes\":%d,"
      "\"pending_rows\":%d,\"pending_bytes\":%d,\"deleted\":%d,\"log_rows\":%d,"
      "\"log_bytes\":%d,\"log_tail_rows\":%d,\"log_tail_urls\":%d,\"log_tail_bytes\":%d,"
      "\"log_tail_memory_bytes\":%d,\"memory_bytes\":%d,\"held_parts\":%d,\"fp_index_bytes\":%d,"
      "\"base_bytes_per_url\":%.3f}",
      JsonString(name()), kUrlsModule, live, store_.max_id(), base.size(), base.block_count(),
      stored, base.ModelBytes(), base.HeadIndexBytes(), base.BlockBytes(), store_.tail_size(),
      merged, parts_bytes + parts_model_bytes, parts_model_bytes, pending_urls, pending_key_bytes,
      pending_rows, pending_bytes, store_.deleted_count(), log_rows, log_bytes, tail_.rows(),
      tail_.urls(), tail_.row_bytes(), tail_.MemoryBytes(), memory, held_parts,
      fingerprints_->MemoryBytes(),
      base.size() == 0 ? 0.0 : static_cast<double>(stored) / base.size());
}

absl::Status UrlsTable::CheckStore(std::vector<std::string>* found) {
  auto problem = [&](const std::string& what) { found->push_back(what); };
  // Every log row decodes, and what it deleted is in <t>_deleted.
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, 0));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t seq = select.ColumnInt64(0);
      if (absl::StatusOr<LogAdds> added =
              DecodeLogAdds(select.ColumnBlob(2), select.ColumnInt64(1), &log_keys_, &zstd_);
          !added.ok()) {
        problem(absl::StrCat("log row ", seq, ": ", added.status().message()));
      }
      absl::StatusOr<std::vector<int64_t>> deleted = DecodeLogIds(select.ColumnBlob(3));
      if (!deleted.ok()) {
        problem(absl::StrCat("log row ", seq, ": ", deleted.status().message()));
        continue;
      }
      for (int64_t id : *deleted) {
        if (store_.IsLive(id) || id > store_.max_id()) {
          problem(
              absl::StrCat("log row ", seq, " deletes id ", id, ", which the deleted table lacks"));
        }
      }
    }
  }
  // Every base row is one of its parts, every head decodes and the heads increase, every group
  // of blocks reads (each reported once), every base key decodes, is a valid canonical key, and
  // keys increase strictly.
  const UrlBase& base = store_.base();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement count, Use(kCountBaseParts));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, count.Step());
    const int64_t rows = row ? count.ColumnInt64(0) : 0;
    if (rows != static_cast<int64_t>(base.StoredPartCount())) {
      problem(
          absl::StrCat("the base has ", rows, " parts, its header says ", base.StoredPartCount()));
    }
  }
  const absl::Status heads = base.DecodeAllHeads();
  if (!heads.ok()) problem(std::string(heads.message()));
  std::string previous;
  BlockKeys keys;
  // Groups that do not read: their ids are reported once here rather than once each below.
  std::vector<bool> unread_groups(base.block_count() / kBlocksPerPart + 1, false);
  for (size_t block = 0; block < base.block_count(); ++block) {
    if (absl::Status status = base.ReadGroupOf(block); !status.ok()) {
      problem(std::string(status.message()));
      unread_groups[block / kBlocksPerPart] = true;
      block = (block / kBlocksPerPart + 1) * kBlocksPerPart - 1;  // the next group
      continue;
    }
    if (!heads.ok()) continue;  // the blocks cannot be read without their heads
    if (absl::Status status = base.DecodeBlock(block, &keys); !status.ok()) {
      problem(absl::StrCat("base block ", block, ": ", status.message()));
      continue;
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!previous.empty() && keys[i] <= previous) {
        problem(absl::StrCat("base block ", block, " is out of order"));
      }
      if (!identity::UrlFromCanonicalKey(keys[i]).ok()) {
        problem(absl::StrCat("base block ", block, " holds an invalid key"));
      }
      previous = std::string(keys[i]);
    }
  }
  // Every part's keys decode, increase, belong to it, and have ids given since optimize.
  for (size_t number = 0; number < kUrlParts; ++number) {
    absl::StatusOr<std::shared_ptr<LoadedPart>> held = store_.Part(number);
    if (!held.ok()) {
      problem(absl::StrCat("part ", number, ": ", held.status().message()));
      continue;
    }
    const UrlPart& part = *(*held)->run;
    std::string last;
    for (size_t block = 0; block < part.keys().block_count(); ++block) {
      if (absl::Status status = part.keys().DecodeBlock(block, &keys); !status.ok()) {
        problem(absl::StrCat("part ", number, " block ", block, ": ", status.message()));
        break;
      }
      for (size_t i = 0; i < keys.size(); ++i) {
        const int64_t id = part.IdAt(block * kKeysPerBlock + i);
        if ((block > 0 || i > 0) && keys[i] <= last) {
          problem(absl::StrCat("part ", number, " is out of order"));
        }
        if (UrlPartOf(keys[i]) != number || !identity::UrlFromCanonicalKey(keys[i]).ok()) {
          problem(absl::StrCat("part ", number, " holds a key that is not its own"));
        }
        if (id <= static_cast<int64_t>(store_.base().size()) || id > store_.max_id()) {
          problem(absl::StrCat("part ", number, " holds id ", id, ", out of range"));
        }
        last = std::string(keys[i]);
      }
    }
  }
  // The stored id map ends at the last id committed: a lost log row (the tail's URLs with it)
  // shows.
  if (const int64_t given = store_.max_id() - static_cast<int64_t>(store_.base().size());
      given > 0 && stored_format_ >= kPartsFormat && store_.UndoMark() == 0) {
    const auto per_chunk = static_cast<int64_t>(kIdsPerChunk);
    const int64_t chunks = (given + per_chunk - 1) / per_chunk;
    absl::StatusOr<std::optional<std::vector<uint16_t>>> last = ReadIdChunk(chunks - 1);
    absl::StatusOr<std::optional<std::vector<uint16_t>>> beyond = ReadIdChunk(chunks);
    const int64_t expected = given - (chunks - 1) * per_chunk;
    if (!last.ok() || !beyond.ok() || !last->has_value() || beyond->has_value() ||
        static_cast<int64_t>((*last)->size()) != expected) {
      problem(absl::StrCat("the id map does not end at id ", store_.max_id()));
    }
  }
  // Every live id maps to a key that maps back to it.
  for (int64_t id = 1; id <= store_.max_id(); ++id) {
    if (!store_.IsLive(id)) continue;
    if (static_cast<size_t>(id) <= base.size() &&
        (!heads.ok() || unread_groups[(id - 1) / (kKeysPerBlock * kBlocksPerPart)])) {
      continue;
    }
    absl::StatusOr<std::optional<std::string>> key = store_.KeyOf(id);
    if (!key.ok() || !key->has_value()) {
      problem(absl::StrCat("id ", id, " has no URL"));
      continue;
    }
    absl::StatusOr<std::optional<int64_t>> back = store_.Find(**key);
    if (!back.ok() || !back->has_value() || **back != id) {
      problem(absl::StrCat("id ", id, " does not map back to itself"));
    }
  }
  return absl::OkStatus();
}

}  // namespace crawldb::urls

namespace crawldb::urls {

absl::Status RegisterUrls(sqlite3* db, Connection* connection) {
  int rc =
      sqlite3_create_module_v2(db, kUrlsModule, VtabModule<UrlsTable>::Get(), connection, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kUrlsModule);
  return RegisterUrlFunctions(db, connection);
}

}  // namespace crawldb::urls
