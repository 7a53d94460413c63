#include "extension/frontier/frontier_table.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "extension/common/json.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/sql_values.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_clock.h"
#include "extension/frontier/frontier_cursor.h"
#include "extension/frontier/frontier_functions.h"
#include "extension/frontier/frontier_hosts_function.h"
#include "extension/frontier/frontier_slots.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/urls/url_ids.h"

namespace crawldb::frontier {
namespace {

// Layout of the shadow tables as a whole; frontier_changes.h versions each blob. Version 1 kept
// the whole state in one snapshot rewritten at once; versions 2 to 4 split it into parts by the
// URL's fingerprint, loaded all at once; version 5 splits it into parts by host, read on demand,
// with each host's summary in <t>_hosts; version 6 keeps the commits after the last fold in the
// log alone (the log tail), where version 5 folded every commit at once, so that version 5 is
// read as a log whose every row is folded; version 7 keeps the hosts in groups in the snapshot
// table instead of one <t>_hosts row each; version 8 adds <t>_leases (lease tokens), which a
// file of version 7 gets at its first lease with a token. Versions 1 and 2 are refused when the table is
// opened; versions 3 and 4 at its first statement (RefuseOldFormat), so that it can still be
// dropped.
constexpr int kOldestReadableFormat = 3;

constexpr char kLeasesDefinition[] =
    "(token TEXT NOT NULL, pos INTEGER NOT NULL, part INTEGER NOT NULL, "
    "fp INTEGER NOT NULL UNIQUE, lease_until REAL NOT NULL, PRIMARY KEY (token, pos)) "
    "WITHOUT ROWID";

constexpr ShadowTableSpec kShadowTables[] = {
    {"hosts",
     "(id INTEGER PRIMARY KEY, name TEXT NOT NULL, delay REAL NOT NULL, budget INTEGER NOT NULL, "
     "blocked_until REAL NOT NULL, next_allowed REAL NOT NULL, size INTEGER NOT NULL, "
     "queued INTEGER NOT NULL, best_depth INTEGER NOT NULL, best_priority INTEGER NOT NULL, "
     "best_fp INTEGER NOT NULL, timed INTEGER NOT NULL, first_due REAL NOT NULL)"},
    {"snapshot", "(part INTEGER PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)"},
    {"pending", "(row INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
    {"log", "(seq INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
    {"links", "(src INTEGER NOT NULL, dst INTEGER NOT NULL)"},
    {"leases", kLeasesDefinition},
};

const ShadowTableSet& Shadow() {
  static const ShadowTableSet set(kFrontierModule, kShadowTables, kFrontierFormat,
                                  kOldestReadableFormat);
  return set;
}

const PositionalSpec kPositional[] = {{"urls table", "urls"}};
const OptionSpec kOptions[] = {
    {.name = "lease",
     .kind = OptionKind::kInteger,
     .default_value = "300",
     .min = 1,
     .max = 31536000},
    {.name = "max_depth",
     .kind = OptionKind::kInteger,
     .default_value = "0",
     .min = 0,
     .max = 65535},
    {.name = "host_delay",
     .kind = OptionKind::kReal,
     .default_value = "1.0",
     .min = 0,
     .max = 86400},
    {.name = "host_budget",
     .kind = OptionKind::kInteger,
     .default_value = "0",
     .min = 0,
     .max = 1e12},
    {.name = "max_attempts",
     .kind = OptionKind::kInteger,
     .default_value = "3",
     .min = 1,
     .max = 255},
    {.name = "retry_base",
     .kind = OptionKind::kReal,
     .default_value = "60",
     .min = 0,
     .max = 86400},
    CacheMbOption(),    // frontier_table.h
    LogTailKbOption(),  // frontier_table.h
    // Where `now` comes from when a statement gives none (frontier_table.h).
    {.name = "clock",
     .kind = OptionKind::kText,
     .default_value = "system",
     .choices = {"system", "explicit"}},
};

}  // namespace

// ---------------------------------------------------------------------------------------------

FrontierTable::FrontierTable(sqlite3* db, Connection* connection, const VtabArgs& args,
                             std::string urls_name, FrontierPolicy policy, double lease_s,
                             std::optional<size_t> cache_mb, int stored_format)
    : ShadowBackedTable(db, connection, Shadow(), kFrontierModule, args),
      stored_format_(stored_format),
      urls_name_(std::move(urls_name)),
      lease_s_(lease_s),
      store_(policy, this) {
  InitCacheBound(cache_mb);
}

FrontierTable::~FrontierTable() = default;

std::vector<std::string> FrontierTable::StatementSql() const {
  std::string hosts = ShadowName("hosts");
  std::string snapshot = ShadowName("snapshot");
  std::string pending = ShadowName("pending");
  std::string log = ShadowName("log");
  std::string links = ShadowName("links");
  std::string leases = ShadowName("leases");
  std::vector<std::string> sql(kSlotCount);
  // Host groups: the snapshot rows below 0, group 0 (row −1) first.
  sql[kReadHostGroups] =
      absl::StrCat("SELECT part, seq, data FROM ", snapshot, " WHERE part < 0 ORDER BY part DESC");
  // The hosts each fold since changed: the pending rows below 0, the oldest (row −1) first.
  sql[kReadHostPending] =
      absl::StrCat("SELECT row, data FROM ", pending, " WHERE row < 0 ORDER BY row DESC");
  // Those rows' count and bytes, and the host groups' bytes (length() reads no blob content).
  sql[kHostPendingStats] = absl::StrCat(
      "SELECT count(*), coalesce(sum(length(data)), 0), (SELECT coalesce(sum(length(data)), 0) "
      "FROM ",
      snapshot, " WHERE part < 0) FROM ", pending, " WHERE row < 0");
  sql[kDeleteHostPending] = absl::StrCat("DELETE FROM ", pending, " WHERE row < 0");
  sql[kReadHostRows] = absl::StrCat(
      "SELECT id, name, delay, budget, blocked_until, next_allowed, size, queued, best_depth, "
      "best_priority, best_fp, timed, first_due FROM ",
      hosts, " ORDER BY id");
  sql[kEmptyHostRows] = absl::StrCat("DELETE FROM ", hosts);
  // A part's snapshot (kind 0) and its pending rows (kind 1), by seq, read in one statement so
  // that no commit comes in between.
  sql[kReadPart] = absl::StrCat("SELECT 0 AS kind, seq, data FROM ", snapshot,
                                " WHERE part = ?1 UNION ALL SELECT 1, row & ?4, data FROM ",
                                pending, " WHERE row BETWEEN ?2 AND ?3 ORDER BY 1, 2");
  sql[kNewestSeq] = absl::StrCat("SELECT coalesce(max(seq), 0) FROM ", log);
  sql[kWriteSnapshotPart] =
      absl::StrCat("INSERT OR REPLACE INTO ", snapshot, "(part, seq, data) VALUES (?1, ?2, ?3)");
  // A part's snapshot bytes, pending rows and pending bytes (length() reads no blob content).
  sql[kPartStats] = absl::StrCat("SELECT coalesce((SELECT length(data) FROM ", snapshot,
                                 " WHERE part = ?1), 0), count(*), coalesce(sum(length(data)), 0) "
                                 "FROM ",
                                 pending, " WHERE row BETWEEN ?2 AND ?3");
  sql[kAppendPending] = absl::StrCat("INSERT INTO ", pending, "(row, data) VALUES (?1, ?2)");
  sql[kDeletePending] = absl::StrCat("DELETE FROM ", pending, " WHERE row BETWEEN ?1 AND ?2");
  sql[kReadNewestLog] = absl::StrCat("SELECT seq, data FROM ", log, " ORDER BY seq DESC LIMIT 1");
  sql[kReadLogSince] = absl::StrCat("SELECT seq, data FROM ", log, " WHERE seq > ?1 ORDER BY seq");
  sql[kAppendLog] = absl::StrCat("INSERT INTO ", log, "(seq, data) VALUES (?1, ?2)");
  sql[kTrimLog] = absl::StrCat("DELETE FROM ", log, " WHERE seq <= ?1");
  sql[kLogBytes] = absl::StrCat("SELECT coalesce(sum(length(data)), 0) FROM ", log);
  sql[kSnapshotBytes] = absl::StrCat("SELECT coalesce(sum(length(data)), 0) FROM ", snapshot);
  sql[kPendingBytes] = absl::StrCat("SELECT coalesce(sum(length(data)), 0) FROM ", pending);
  sql[kStoredParts] =
      absl::StrCat("SELECT part FROM ", snapshot, " WHERE part >= 0 UNION SELECT row >> ",
                   kPendingSeqBits, " FROM ", pending, " WHERE row >= 0");
  sql[kAppendLink] = absl::StrCat("INSERT INTO ", links, "(src, dst) VALUES (?1, ?2)");
  sql[kLeasesExist] = absl::StrCat("SELECT count(*) FROM ", QuoteIdentifier(schema()),
                                   ".sqlite_master WHERE type = 'table' AND name = ?1");
  sql[kCreateLeases] = absl::StrCat("CREATE TABLE IF NOT EXISTS ", leases, kLeasesDefinition);
  sql[kReadLeasesOfToken] =
      absl::StrCat("SELECT part, fp, lease_until FROM ", leases, " WHERE token = ?1 ORDER BY pos");
  sql[kReadLeaseOfUrl] = absl::StrCat("SELECT token, lease_until FROM ", leases, " WHERE fp = ?1");
  sql[kDeleteExpiredLeases] = absl::StrCat("DELETE FROM ", leases, " WHERE lease_until <= ?1");
  sql[kDeleteLeasesOfToken] = absl::StrCat("DELETE FROM ", leases, " WHERE token = ?1");
  sql[kInsertLease] =
      absl::StrCat("INSERT OR REPLACE INTO ", leases,
                   "(token, pos, part, fp, lease_until) VALUES (?1, ?2, ?3, ?4, ?5)");
  sql[kInsertUrl] = absl::StrCat("INSERT OR IGNORE INTO ", QuoteIdentifier(schema()), ".",
                                 QuoteIdentifier(urls_name_), "(url) VALUES (?1)");
  const std::string config = ShadowName("config");
  sql[kReadUrlsLineage] = absl::StrCat("SELECT value FROM ", config, " WHERE key = 'urls_lineage'");
  sql[kWriteUrlsLineage] =
      absl::StrCat("INSERT OR REPLACE INTO ", config, "(key, value) VALUES ('urls_lineage', ?1)");
  return sql;
}

absl::StatusOr<std::unique_ptr<FrontierTable>> FrontierTable::Create(sqlite3* db, void* aux,
                                                                     const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options, VtabOptions::Parse(args, kPositional, kOptions));
  CRAWLDB_RETURN_IF_ERROR(Shadow().Create(db, args.schema, args.table, options.Canonical()));
  CRAWLDB_RETURN_IF_ERROR(Shadow().WriteConfig(db, args.schema, args.table, "generation", "1"));
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<FrontierTable> table, Connect(db, aux, args));
  CRAWLDB_RETURN_IF_ERROR(table->SaveFigures());
  return table;
}

absl::StatusOr<std::unique_ptr<FrontierTable>> FrontierTable::Connect(sqlite3* db, void* aux,
                                                                      const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options, VtabOptions::Parse(args, kPositional, kOptions));
  CRAWLDB_ASSIGN_OR_RETURN(ShadowTableSet::Stored stored,
                           Shadow().ReadStored(db, args.schema, args.table));
  std::string declaration = absl::StrCat(
      "CREATE TABLE x(id INTEGER, url TEXT, host TEXT, depth INTEGER, priority INTEGER, "
      "state TEXT, due, attempts INTEGER, status INTEGER, ",
      QuoteIdentifier(args.table),
      " HIDDEN, parent HIDDEN, n HIDDEN, seconds HIDDEN, now HIDDEN, delay HIDDEN, "
      "budget HIDDEN, until HIDDEN, link HIDDEN, request HIDDEN, lease_token HIDDEN)");
  int rc = sqlite3_declare_vtab(db, declaration.c_str());
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kFrontierModule);
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  FrontierPolicy policy;
  policy.host_delay_s = options.Real("host_delay");
  policy.host_budget = options.Integer("host_budget");
  policy.max_depth = options.Integer("max_depth");
  policy.max_attempts = options.Integer("max_attempts");
  policy.retry_base_s = options.Real("retry_base");
  auto table = std::unique_ptr<FrontierTable>(new FrontierTable(
      db, static_cast<Connection*>(aux), args, options.Text("urls table"), policy,
      static_cast<double>(options.Integer("lease")),
      options.Given("cache_mb")
          ? std::optional<size_t>(static_cast<size_t>(options.Integer("cache_mb")))
          : std::nullopt,
      stored.format_version));
  table->tail_bound_bytes_ = static_cast<size_t>(options.Integer("log_tail_kb")) << 10;
  table->explicit_clock_ = options.Text("clock") == "explicit";
  table->UseStored(stored);
  return table;
}

bool FrontierTable::IsShadowName(absl::string_view suffix) { return Shadow().IsShadowName(suffix); }

absl::Status FrontierTable::RefuseOldFormat() const {
  return UserError(
      kFrontierModule,
      absl::StrCat("table '", name(), "' is in format ", stored_format_,
                   ", whose crawl state this build cannot read (it keeps it by host since format ",
                   kOldestStateFormat, ")"),
      absl::StrCat("finish the crawl with the crawldb build that wrote it, or drop the table and "
                   "queue its URLs again: DROP TABLE ",
                   QuoteIdentifier(name()), "; CREATE VIRTUAL TABLE ", QuoteIdentifier(name()),
                   " USING crawldb_frontier(", QuoteIdentifier(urls_name_),
                   "); SELECT count(crawl_add(url)) FROM ", QuoteIdentifier(urls_name_)));
}

absl::StatusOr<urls::UrlIds*> FrontierTable::UrlsOf() {
  if (connection() == nullptr) return UserError(kFrontierModule, "no connection registry");
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, connection()->ConnectAs<urls::UrlIds>(urls_name_));
  if (urls == nullptr) {
    return UserError(
        kFrontierModule, absl::StrCat("there is no crawldb_urls table named '", urls_name_, "'"),
        absl::StrCat("create it with CREATE VIRTUAL TABLE ", urls_name_, " USING crawldb_urls"));
  }
  CRAWLDB_RETURN_IF_ERROR(urls->CatchUpIds());
  return urls;
}

absl::StatusOr<std::optional<std::string>> FrontierTable::UrlOf(const UrlRecord& record) {
  if (record.url_id == kNoUrlId) return std::optional<std::string>();
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, UrlsOf());
  return urls->TextOf(record.url_id);
}

absl::Status FrontierTable::UrlsOfIds(absl::Span<const int64_t> ids,
                                      std::vector<std::optional<std::string>>* urls) {
  urls->clear();
  if (ids.empty()) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * table, UrlsOf());
  for (int64_t id : ids) {
    if (id == kNoUrlId) {
      urls->emplace_back();
      continue;
    }
    CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> url, table->TextOf(id));
    urls->push_back(std::move(url));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<int64_t>> FrontierTable::IdOf(absl::string_view normalised) {
  absl::StatusOr<identity::NormalizedUrl> url =
      identity::NormalizedUrl::FromNormalizedText(std::string(normalised));
  if (!url.ok()) return Corrupt(absl::DataLossError(url.status().message()));
  return IdOf(*url);
}

absl::StatusOr<std::string> FrontierTable::UrlsRefusal(const identity::NormalizedUrl& url) {
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, UrlsOf());
  absl::StatusOr<identity::NormalizedUrl> again =
      identity::NormalizeUrl(url.text(), urls->normalize_options());
  if (!again.ok()) {
    return absl::StrCat("invalid URL for table '", urls_name_, "': ", again.status().message());
  }
  return absl::StrCat("table '", urls_name_, "' does not take ", url.text());
}

absl::StatusOr<std::optional<int64_t>> FrontierTable::IdOf(const identity::NormalizedUrl& url) {
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, UrlsOf());
  return urls->IdOf(url);
}

absl::StatusOr<bool> FrontierTable::UrlsVouchNew(const identity::NormalizedUrl& url) {
  CRAWLDB_ASSIGN_OR_RETURN(bool holds, UrlsLineageHolds());
  if (!holds) return false;
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> id, IdOf(url));
  return !id.has_value();
}

absl::StatusOr<bool> FrontierTable::UrlsLineageHolds() {
  if (urls_vouching_failed_) return false;
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, UrlsOf());
  const uint64_t epoch = urls->lineage_epoch();
  if (lineage_holds_.has_value() && lineage_holds_->first == epoch) return lineage_holds_->second;
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> lineage, urls->Lineage());
  bool holds = false;
  if (lineage.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement paired, Use(kReadUrlsLineage));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, paired.Step());
    holds = row && !paired.ColumnIsNull(0) && paired.ColumnText(0) == *lineage;
  }
  // Kept while `urls` sees no change: the frontier's own record of the lineage changes only
  // while it holds nothing, to what `urls` has then.
  lineage_holds_.emplace(epoch, holds);
  return holds;
}

absl::Status FrontierTable::PairWithUrls() {
  lineage_holds_.reset();
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, UrlsOf());
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> lineage, urls->Lineage());
  if (!lineage.has_value()) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement pair, Use(kWriteUrlsLineage));
  CRAWLDB_RETURN_IF_ERROR(pair.BindText(1, *lineage));
  return pair.Run();
}

// ---------------------------------------------------------------------------------------------
// The clock and lease tokens.

absl::Status FrontierTable::MissingNow(absl::string_view who, absl::string_view fix) const {
  return UserError(who,
                   absl::StrCat("now is required: table '", name(),
                                "' has clock=explicit, which never reads the system clock"),
                   fix);
}

absl::StatusOr<bool> FrontierTable::LeasesExist() {
  if (leases_exist_) return true;
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kLeasesExist));
  CRAWLDB_RETURN_IF_ERROR(select.BindText(1, absl::StrCat(name(), "_leases")));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  leases_exist_ = row && select.ColumnInt64(0) > 0;
  return leases_exist_;
}

absl::Status FrontierTable::LeasedUnder(absl::string_view token,
                                        std::vector<std::pair<size_t, uint64_t>>* leased) {
  leased->clear();
  CRAWLDB_ASSIGN_OR_RETURN(bool exist, LeasesExist());
  if (!exist) return absl::OkStatus();
  std::vector<std::tuple<size_t, uint64_t, double>> rows;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLeasesOfToken));
    CRAWLDB_RETURN_IF_ERROR(select.BindText(1, token));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t part = select.ColumnInt64(0);
      if (part < 0 || part >= static_cast<int64_t>(kFrontierParts)) {
        return Corrupt(absl::DataLossError(absl::StrCat("lease token row names part ", part)));
      }
      rows.emplace_back(static_cast<size_t>(part),
                        identity::FingerprintFromSql(select.ColumnInt64(1)),
                        select.ColumnDouble(2));
    }
  }
  for (const auto& [part, fp, lease_until] : rows) {
    CRAWLDB_ASSIGN_OR_RETURN(const UrlRecord* record, store_.Find(part, fp));
    if (record != nullptr && record->state == UrlState::kLeased && record->due == lease_until) {
      leased->emplace_back(part, fp);
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> FrontierTable::TokenOf(uint64_t fp,
                                                                  const UrlRecord& record) {
  if (record.state != UrlState::kLeased) return std::nullopt;
  CRAWLDB_ASSIGN_OR_RETURN(bool exist, LeasesExist());
  if (!exist) return std::nullopt;
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLeaseOfUrl));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, identity::FingerprintToSql(fp)));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  if (!row || select.ColumnDouble(1) != record.due) return std::nullopt;
  return std::string(select.ColumnText(0));
}

// ---------------------------------------------------------------------------------------------
// Statistics and checks.

absl::StatusOr<int64_t> FrontierTable::SumOf(int slot) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(slot));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  return row ? select.ColumnInt64(0) : 0;
}

absl::StatusOr<std::string> FrontierTable::StatsJson() {
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  CRAWLDB_ASSIGN_OR_RETURN(int64_t log_bytes, SumOf(kLogBytes));
  CRAWLDB_ASSIGN_OR_RETURN(int64_t snapshot_bytes, SumOf(kSnapshotBytes));
  CRAWLDB_ASSIGN_OR_RETURN(int64_t pending_bytes, SumOf(kPendingBytes));
  auto count = [&](UrlState state) { return store_.state_count(state); };
  // Under clock=explicit no read looks at the clock either: the figure needs a time.
  const std::string hosts_waiting =
      explicit_clock_ ? "null" : absl::StrCat(store_.HostsWaiting(ClockNow()));
  return absl::StrFormat(
      "{\"table\":%s,\"module\":\"%s\",\"urls\":%d,\"queued\":%d,\"retry_waiting\":%d,"
      "\"leased\":%d,\"done\":%d,\"recrawl_scheduled\":%d,\"failed\":%d,\"hosts\":%d,"
      "\"hosts_waiting\":%s,\"log_bytes\":%d,\"snapshot_bytes\":%d,\"pending_bytes\":%d,"
      "\"parts_held\":%d,\"parts_read\":%d,\"memory_bytes\":%d}",
      JsonString(name()), kFrontierModule, store_.size(),
      count(UrlState::kQueued) + count(UrlState::kWaiting), count(UrlState::kWaiting),
      count(UrlState::kLeased), count(UrlState::kDone) + count(UrlState::kRecrawl),
      count(UrlState::kRecrawl), count(UrlState::kFailed), store_.host_count(), hosts_waiting,
      log_bytes, snapshot_bytes, pending_bytes, store_.held_parts(), store_.parts_read(),
      store_.MemoryBytes() + tail_.MemoryBytes());
}

absl::Status FrontierTable::RetryStale(const std::function<absl::Status()>& read) {
  for (int attempt = 1;; ++attempt) {
    absl::Status status = read();
    if (!IsStale(status)) return status;
    if (attempt == kStaleAttempts) return Busy();
    CRAWLDB_RETURN_IF_ERROR(CatchUp());
  }
}

absl::Status FrontierTable::CheckStore(std::vector<std::string>* found) {
  const size_t before = found->size();
  return RetryStale([&] {
    found->resize(before);  // what a stale try found
    return TryCheckStore(found);
  });
}

absl::Status FrontierTable::TryCheckStore(std::vector<std::string>* found) {
  CRAWLDB_RETURN_IF_ERROR(store_.Check(found));
  // Rows of a part that holds no host cannot be reached.
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kStoredParts));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t part = select.ColumnInt64(0);
      if (part < 0 || part >= static_cast<int64_t>(kFrontierParts) ||
          !store_.has_hosts(static_cast<size_t>(part))) {
        found->push_back(absl::StrCat("rows are stored for part ", part, ", which has no host"));
      }
    }
  }
  // Each record's id names its URL in `urls` (or none: a URL deleted there), of its host.
  std::vector<uint64_t> fps;
  std::vector<int64_t> ids;
  std::vector<uint32_t> hosts;
  std::vector<std::optional<std::string>> urls;
  for (size_t part = 0; part < kFrontierParts; ++part) {
    if (!store_.has_hosts(part)) continue;
    fps.clear();
    ids.clear();
    hosts.clear();
    CRAWLDB_RETURN_IF_ERROR(store_.ForEachInPart(part, [&](uint64_t fp, const UrlRecord& record) {
      fps.push_back(fp);
      ids.push_back(record.url_id);
      hosts.push_back(record.host);
    }));
    CRAWLDB_RETURN_IF_ERROR(UrlsOfIds(ids, &urls));
    for (size_t i = 0; i < fps.size(); ++i) {
      if (!urls[i].has_value()) continue;
      const int64_t sql_fp = identity::FingerprintToSql(fps[i]);
      if (identity::UrlFingerprint(*urls[i]) != fps[i]) {
        found->push_back(
            absl::StrCat("URL ", sql_fp, " names id ", ids[i], " which holds another URL"));
      } else if (identity::UrlHost(*urls[i]) != store_.host(hosts[i]).name) {
        found->push_back(absl::StrCat("URL ", sql_fp, " is not of its host"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::RenumberIds(absl::string_view urls_table,
                                        absl::Span<const int64_t> old_to_new) {
  if (!absl::EqualsIgnoreCase(urls_table, urls_name_)) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  // The parts are renumbered in memory as they are written: this connection reads everything
  // again at its next statement whatever happens, as it may take no part in the statement's
  // transaction (the urls optimize is what runs) and would not see a rollback.
  sync().RequireReload();
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  CRAWLDB_RETURN_IF_ERROR(Checkpoint(old_to_new));
  // Other connections read everything again too.
  return sync().BumpGeneration();
}

absl::Status RegisterFrontier(sqlite3* db, Connection* connection) {
  int rc = sqlite3_create_module_v2(db, kFrontierModule, VtabModule<FrontierTable>::Get(),
                                    connection, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kFrontierModule);
  CRAWLDB_RETURN_IF_ERROR(RegisterFrontierFunctions(db, connection));
  return RegisterHostsFunction(db, connection);
}

}  // namespace crawldb::frontier
