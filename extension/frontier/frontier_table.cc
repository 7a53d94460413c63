#include "extension/frontier/frontier_table.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "extension/common/json.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/shadow_tables.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_functions.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/urls/urls_table.h"

namespace crawldb::frontier {
namespace {

// Layout of the shadow tables as a whole; frontier_changes.h versions each blob. Version 1 kept
// the whole state in one snapshot rewritten at once; version 2 split the snapshot into parts by
// the fingerprint's top 10 bits (now SkewedPartOf, record_map.h). Both are refused.
constexpr int kFormatVersion = 3;
// Snapshot bytes a part write is counted as at least (an empty part still costs a row).
constexpr int64_t kMinPartCost = 256;

constexpr ShadowTableSpec kShadowTables[] = {
    {"hosts",
     "(id INTEGER PRIMARY KEY, name TEXT NOT NULL, delay REAL NOT NULL, budget INTEGER NOT NULL, "
     "blocked_until REAL NOT NULL, next_allowed REAL NOT NULL)"},
    {"snapshot", "(part INTEGER PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)"},
    {"log", "(seq INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
    {"links", "(src INTEGER NOT NULL, dst INTEGER NOT NULL)"},
};

const ShadowTableSet& Shadow() {
  static const ShadowTableSet set(kFrontierModule, kShadowTables, kFormatVersion, kFormatVersion);
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
};

enum Column {
  kColumnId,
  kColumnUrl,
  kColumnHost,
  kColumnDepth,
  kColumnPriority,
  kColumnState,
  kColumnDue,
  kColumnAttempts,
  kColumnStatus,
  kColumnCommand,  // hidden, named like the table
  kColumnParent,
  kColumnN,
  kColumnSeconds,
  kColumnNow,
  kColumnDelay,
  kColumnBudget,
  kColumnUntil,
  kColumnLink,
  kColumnCount,
};

enum Slot {
  kReadHosts,
  kWriteHost,
  kReadSnapshot,
  kWriteSnapshotPart,
  kReadPartSeq,
  kReadNextPart,
  kWriteNextPart,
  kReadLogSince,
  kAppendLog,
  kTrimLog,
  kLogBytes,
  kSnapshotBytes,
  kAppendLink,
  kInsertUrl,
  kSlotCount,
};

// xBestIndex plans (idxNum); each uses one equality constraint, argv[0].
//
//   plan        constraint        rows      cost
//   kPlanScan   none              N         10 + N
//   kPlanFp     rowid = ?         1         1
//   kPlanUrl    url = ?           1         2
//   kPlanId     id = ?            1         3   (the id's text from `urls`, then its fingerprint)
//   kPlanHost   host = ?          N / 100   5 + rows   (the host's member set)
//   kPlanState  state = ?         N / 4     5 + rows   ('queued': the host queues and the timer
//                                                     set; 'leased': the timer set; 'done' and
//                                                     'failed': every record, filtered)
// The constraint is omitted (the plan returns exactly the matching rows); no ORDER BY is consumed.
enum Plan { kPlanScan, kPlanFp, kPlanUrl, kPlanId, kPlanHost, kPlanState };

double ClockNow() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string_view TextOfValue(sqlite3_value* value) {
  const unsigned char* text = sqlite3_value_text(value);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(value))};
}

absl::string_view ToAbsl(std::string_view text) { return {text.data(), text.size()}; }

bool IsNumber(sqlite3_value* value) {
  int type = sqlite3_value_type(value);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

// A time or duration column of a command row: NULL gives `fallback`; a finite number otherwise.
absl::StatusOr<double> Seconds(sqlite3_value* value, double fallback, absl::string_view what) {
  if (sqlite3_value_type(value) == SQLITE_NULL) return fallback;
  if (!IsNumber(value) || !std::isfinite(sqlite3_value_double(value))) {
    return UserError(kFrontierModule, absl::StrCat(what, " must be a number of seconds"));
  }
  return sqlite3_value_double(value);
}

absl::StatusOr<int64_t> Integer(sqlite3_value* value, int64_t fallback, int64_t min, int64_t max,
                                absl::string_view what) {
  if (sqlite3_value_type(value) == SQLITE_NULL) return fallback;
  if (sqlite3_value_type(value) != SQLITE_INTEGER || sqlite3_value_int64(value) < min ||
      sqlite3_value_int64(value) > max) {
    return UserError(kFrontierModule,
                     absl::StrCat(what, " must be an integer from ", min, " to ", max));
  }
  return sqlite3_value_int64(value);
}

// A time as SQL shows it: an integer when it is one.
void ResultTime(sqlite3_context* context, double seconds) {
  if (seconds == std::floor(seconds) && std::fabs(seconds) < 9e15) {
    sqlite3_result_int64(context, static_cast<sqlite3_int64>(seconds));
  } else {
    sqlite3_result_double(context, seconds);
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Cursor: the fingerprints of the rows, collected by xFilter; columns read the live record.

class FrontierTable::Cursor : public VirtualCursor {
 public:
  explicit Cursor(FrontierTable* table) : table_(table) {}

  absl::Status Filter(int idx_num, const char* idx_str, int argc, sqlite3_value** argv);
  absl::Status Next() {
    ++next_;
    return absl::OkStatus();
  }
  bool Eof() const { return next_ >= fps_.size(); }
  absl::Status Column(sqlite3_context* context, int column);
  absl::StatusOr<sqlite3_int64> Rowid() { return identity::FingerprintToSql(fps_[next_]); }

 private:
  void State(std::string_view state);

  FrontierTable* table_;
  std::vector<uint64_t> fps_;
  size_t next_ = 0;
};

void FrontierTable::Cursor::State(std::string_view state) {
  const FrontierStore& store = table_->store_;
  auto timers_in = [&](UrlState wanted) {
    for (const auto& [due, fp] : store.timers()) {
      if (store.Find(fp)->state == wanted) fps_.push_back(fp);
    }
  };
  if (state == "queued") {
    for (uint32_t id = 0; id < store.host_count(); ++id) {
      for (const QueueKey& key : store.host(id).queue) fps_.push_back(key.fp);
    }
    timers_in(UrlState::kWaiting);
  } else if (state == "leased") {
    timers_in(UrlState::kLeased);
  } else if (state == "done" || state == "failed") {
    for (uint64_t fp : store.AllFingerprints()) {
      if (StateName(store.Find(fp)->state) == state) fps_.push_back(fp);
    }
  }
}

absl::Status FrontierTable::Cursor::Filter(int idx_num, const char*, int, sqlite3_value** argv) {
  fps_.clear();
  next_ = 0;
  const FrontierStore& store = table_->store_;
  switch (idx_num) {
    case kPlanScan:
      fps_ = store.AllFingerprints();
      break;
    case kPlanFp:
      if (sqlite3_value_numeric_type(argv[0]) == SQLITE_INTEGER) {
        uint64_t fp = identity::FingerprintFromSql(sqlite3_value_int64(argv[0]));
        if (store.Find(fp) != nullptr) fps_.push_back(fp);
      }
      break;
    case kPlanUrl: {
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(argv[0]));
      if (!url.ok()) break;
      uint64_t fp = identity::UrlFingerprint(url->text());
      if (store.Find(fp) != nullptr) fps_.push_back(fp);
      break;
    }
    case kPlanId: {
      if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER) break;
      CRAWLDB_ASSIGN_OR_RETURN(urls::UrlsTable * urls, table_->UrlsOf());
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> text,
                               urls->TextOf(sqlite3_value_int64(argv[0])));
      if (!text.has_value()) break;
      uint64_t fp = identity::UrlFingerprint(*text);
      if (store.Find(fp) != nullptr) fps_.push_back(fp);
      break;
    }
    case kPlanHost: {
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      std::optional<uint32_t> host = store.FindHost(TextOfValue(argv[0]));
      if (!host.has_value()) break;
      const auto& members = store.host(*host).members;
      fps_.assign(members.begin(), members.end());
      break;
    }
    case kPlanState:
      if (sqlite3_value_type(argv[0]) == SQLITE_TEXT) State(TextOfValue(argv[0]));
      break;
    default:
      return absl::InternalError(absl::StrCat("crawldb_frontier: unknown plan ", idx_num));
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::Cursor::Column(sqlite3_context* context, int column) {
  // An UPDATE reads the columns it does not change only to hand them back: skip them.
  if (column != kColumnPriority && sqlite3_vtab_nochange(context)) return absl::OkStatus();
  const FrontierStore& store = table_->store_;
  const UrlRecord* record = store.Find(fps_[next_]);
  if (record == nullptr) return absl::OkStatus();  // deleted since xFilter: NULLs
  switch (column) {
    case kColumnId: {
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> id, table_->IdOf(store.Text(*record)));
      if (id.has_value()) sqlite3_result_int64(context, *id);
      break;
    }
    case kColumnUrl:
      ResultText(context, store.Text(*record));
      break;
    case kColumnHost:
      ResultText(context, store.host(record->host).name);
      break;
    case kColumnDepth:
      sqlite3_result_int64(context, record->depth);
      break;
    case kColumnPriority:
      sqlite3_result_int64(context, record->priority);
      break;
    case kColumnState:
      ResultText(context, StateName(record->state));
      break;
    case kColumnDue:
      if (HasTimer(record->state)) ResultTime(context, record->due);
      break;
    case kColumnAttempts:
      sqlite3_result_int64(context, record->attempts);
      break;
    case kColumnStatus:
      if (record->status != kNoStatus) sqlite3_result_int64(context, record->status);
      break;
    default:
      break;  // hidden command columns read as NULL
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------

FrontierTable::FrontierTable(sqlite3* db, Connection* connection, const VtabArgs& args,
                             std::string urls_name, FrontierPolicy policy, double lease_s)
    : ShadowBackedTable(db, connection, Shadow(), kFrontierModule, args),
      urls_name_(std::move(urls_name)),
      lease_s_(lease_s),
      store_(policy) {}

FrontierTable::~FrontierTable() = default;

std::vector<std::string> FrontierTable::StatementSql() const {
  std::string hosts = ShadowName("hosts");
  std::string snapshot = ShadowName("snapshot");
  std::string log = ShadowName("log");
  std::string config = ShadowName("config");
  std::string links = ShadowName("links");
  std::vector<std::string> sql(kSlotCount);
  sql[kReadHosts] = absl::StrCat(
      "SELECT id, name, delay, budget, blocked_until, next_allowed FROM ", hosts, " ORDER BY id");
  sql[kWriteHost] = absl::StrCat(
      "INSERT OR REPLACE INTO ", hosts,
      "(id, name, delay, budget, blocked_until, next_allowed) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  sql[kReadSnapshot] = absl::StrCat("SELECT part, seq, data FROM ", snapshot, " ORDER BY part");
  sql[kWriteSnapshotPart] =
      absl::StrCat("INSERT OR REPLACE INTO ", snapshot, "(part, seq, data) VALUES (?1, ?2, ?3)");
  sql[kReadPartSeq] = absl::StrCat("SELECT seq FROM ", snapshot, " WHERE part = ?1");
  sql[kReadNextPart] = absl::StrCat("SELECT value FROM ", config, " WHERE key = 'next_part'");
  sql[kWriteNextPart] =
      absl::StrCat("INSERT OR REPLACE INTO ", config, "(key, value) VALUES ('next_part', ?1)");
  sql[kReadLogSince] = absl::StrCat("SELECT seq, data FROM ", log, " WHERE seq > ?1 ORDER BY seq");
  sql[kAppendLog] = absl::StrCat("INSERT INTO ", log, "(seq, data) VALUES (?1, ?2)");
  sql[kTrimLog] = absl::StrCat("DELETE FROM ", log, " WHERE seq <= ?1");
  sql[kLogBytes] = absl::StrCat("SELECT coalesce(sum(length(data)), 0) FROM ", log);
  sql[kSnapshotBytes] = absl::StrCat("SELECT coalesce(sum(length(data)), 0) FROM ", snapshot);
  sql[kAppendLink] = absl::StrCat("INSERT INTO ", links, "(src, dst) VALUES (?1, ?2)");
  sql[kInsertUrl] = absl::StrCat("INSERT OR IGNORE INTO ", QuoteIdentifier(schema()), ".",
                                 QuoteIdentifier(urls_name_), "(url) VALUES (?1)");
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
  CRAWLDB_RETURN_IF_ERROR(Shadow().CheckFormat(db, args.schema, args.table).status());
  std::string declaration = absl::StrCat(
      "CREATE TABLE x(id INTEGER, url TEXT, host TEXT, depth INTEGER, priority INTEGER, "
      "state TEXT, due, attempts INTEGER, status INTEGER, ",
      QuoteIdentifier(args.table),
      " HIDDEN, parent HIDDEN, n HIDDEN, seconds HIDDEN, now HIDDEN, delay HIDDEN, "
      "budget HIDDEN, until HIDDEN, link HIDDEN)");
  int rc = sqlite3_declare_vtab(db, declaration.c_str());
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kFrontierModule);
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  FrontierPolicy policy;
  policy.host_delay_s = options.Real("host_delay");
  policy.host_budget = options.Integer("host_budget");
  policy.max_depth = options.Integer("max_depth");
  policy.max_attempts = options.Integer("max_attempts");
  policy.retry_base_s = options.Real("retry_base");
  auto table = std::unique_ptr<FrontierTable>(
      new FrontierTable(db, static_cast<Connection*>(aux), args, options.Text("urls table"), policy,
                        static_cast<double>(options.Integer("lease"))));
  CRAWLDB_RETURN_IF_ERROR(table->ReadStoredFigures());
  return table;
}

bool FrontierTable::IsShadowName(absl::string_view suffix) { return Shadow().IsShadowName(suffix); }

absl::StatusOr<urls::UrlsTable*> FrontierTable::UrlsOf() {
  if (connection() == nullptr) return UserError(kFrontierModule, "no connection registry");
  CRAWLDB_ASSIGN_OR_RETURN(CrawldbTable * table, connection()->Connect(urls_name_));
  auto* urls = dynamic_cast<urls::UrlsTable*>(table);
  if (urls == nullptr) {
    return UserError(
        kFrontierModule, absl::StrCat("there is no crawldb_urls table named '", urls_name_, "'"),
        absl::StrCat("create it with CREATE VIRTUAL TABLE ", urls_name_, " USING crawldb_urls"));
  }
  CRAWLDB_RETURN_IF_ERROR(urls->CatchUp());
  return urls;
}

absl::StatusOr<std::optional<int64_t>> FrontierTable::IdOf(std::string_view normalised) {
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlsTable * urls, UrlsOf());
  absl::StatusOr<identity::NormalizedUrl> url =
      identity::NormalizedUrl::FromNormalizedText(std::string(normalised));
  if (!url.ok()) return Corrupt(absl::DataLossError(url.status().message()));
  return urls->IdOf(*url);
}

// ---------------------------------------------------------------------------------------------
// Planning (the plan table is at the top of this file).

absl::Status FrontierTable::BestIndex(sqlite3_index_info* info) {
  double n = std::max<double>(1, static_cast<double>(planning_figures().rows));
  int best_plan = kPlanScan, best_constraint = -1;
  double best_cost = 10 + n, best_rows = n;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& constraint = info->aConstraint[i];
    if (!constraint.usable || constraint.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    int plan;
    double cost, rows;
    switch (constraint.iColumn) {
      case -1:
        plan = kPlanFp;
        cost = 1;
        rows = 1;
        break;
      case kColumnUrl:
        plan = kPlanUrl;
        cost = 2;
        rows = 1;
        break;
      case kColumnId:
        plan = kPlanId;
        cost = 3;
        rows = 1;
        break;
      case kColumnHost:
        plan = kPlanHost;
        rows = n / 100 + 1;
        cost = 5 + rows;
        break;
      case kColumnState:
        plan = kPlanState;
        rows = n / 4 + 1;
        cost = 5 + rows;
        break;
      default:
        continue;
    }
    if (cost < best_cost) {
      best_plan = plan;
      best_constraint = i;
      best_cost = cost;
      best_rows = rows;
    }
  }
  if (best_constraint >= 0) {
    info->aConstraintUsage[best_constraint].argvIndex = 1;
    info->aConstraintUsage[best_constraint].omit = 1;
  }
  info->idxNum = best_plan;
  info->estimatedCost = best_cost;
  info->estimatedRows = static_cast<sqlite3_int64>(best_rows);
  if (best_plan == kPlanFp || best_plan == kPlanUrl || best_plan == kPlanId) {
    info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<FrontierTable::Cursor>> FrontierTable::Open() {
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  return std::make_unique<Cursor>(this);
}

// ---------------------------------------------------------------------------------------------
// Loading and catching up.

absl::Status FrontierTable::LoadAll() {
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
  store_ = FrontierStore(store_.policy());
  CRAWLDB_RETURN_IF_ERROR(LoadHosts());
  std::vector<int64_t> part_seq(kRecordParts, 0);  // a part never written holds nothing
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadSnapshot));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t part = select.ColumnInt64(0), seq = select.ColumnInt64(1);
      if (part < 0 || part >= static_cast<int64_t>(kRecordParts) || seq < 0) {
        return CorruptError(kFrontierModule,
                            absl::StrCat("table '", name(), "': snapshot part ", part,
                                         " at log row ", seq, " is out of range"));
      }
      absl::StatusOr<ChangeSet> records = DecodeChangeSet(select.ColumnBlob(2));
      if (!records.ok()) return Corrupt(records.status());
      for (const UrlChange& url : records->urls) {
        if (RecordPartOf(url.fp) != static_cast<size_t>(part)) {
          return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': snapshot part ",
                                                            part, " holds another part's URL"));
        }
      }
      if (!records->hosts.empty()) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': snapshot part ",
                                                          part, " holds hosts"));
      }
      if (absl::Status status = store_.Apply(*records); !status.ok()) return Corrupt(status);
      part_seq[static_cast<size_t>(part)] = seq;
    }
  }
  sync().Loaded(generation);
  // Every log row after the oldest part is replayed, each URL change only into the parts written
  // before it; host changes are older than <t>_hosts, which every commit keeps current.
  const int64_t oldest = *std::min_element(part_seq.begin(), part_seq.end());
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, oldest));
  int64_t expected = oldest + 1;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t seq = select.ColumnInt64(0);
    if (seq != expected++) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': log row ",
                                                        expected - 1, " is missing"));
    }
    absl::StatusOr<ChangeSet> changes = DecodeChangeSet(select.ColumnBlob(1));
    if (!changes.ok()) return Corrupt(changes.status());
    for (const HostChange& host : changes->hosts) {
      if (host.id >= store_.host_count() || store_.host(host.id).name != host.name) {
        return CorruptError(kFrontierModule,
                            absl::StrCat("table '", name(), "': log row ", seq, " names host ",
                                         host.id, " unlike the hosts table"));
      }
    }
    changes->hosts.clear();
    std::erase_if(changes->urls,
                  [&](const UrlChange& url) { return part_seq[RecordPartOf(url.fp)] >= seq; });
    if (absl::Status status = store_.Apply(*changes); !status.ok()) return Corrupt(status);
    sync().Replayed(seq);
  }
  // The parts may be newer than every log row left (a checkpoint emptied the log).
  const int64_t newest = *std::max_element(part_seq.begin(), part_seq.end());
  if (newest > sync().last_seq()) sync().Replayed(newest);
  store_.ClearUndo();
  return absl::OkStatus();
}

absl::Status FrontierTable::LoadHosts() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHosts));
  ChangeSet hosts;
  std::vector<std::string> names;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    sqlite3_stmt* statement = select.get();
    auto is = [&](int column, int type) { return sqlite3_column_type(statement, column) == type; };
    const int64_t id = select.ColumnInt64(0);
    HostSettings settings;
    settings.delay_s = select.ColumnDouble(2);
    settings.budget = select.ColumnInt64(3);
    settings.blocked_until = select.ColumnDouble(4);
    settings.next_allowed = select.ColumnDouble(5);
    absl::string_view host_name = select.ColumnText(1);
    if (id != static_cast<int64_t>(names.size())) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host row ",
                                                        names.size(), " is missing"));
    }
    if (!is(1, SQLITE_TEXT) || host_name.empty() || host_name.size() > kMaxHostBytes ||
        !is(2, SQLITE_FLOAT) || !is(3, SQLITE_INTEGER) || !is(4, SQLITE_FLOAT) ||
        !is(5, SQLITE_FLOAT) || !std::isfinite(settings.delay_s) ||
        !std::isfinite(settings.blocked_until) || !std::isfinite(settings.next_allowed)) {
      return CorruptError(kFrontierModule,
                          absl::StrCat("table '", name(), "': host row ", id, " is not valid"));
    }
    names.emplace_back(host_name);
    hosts.hosts.push_back({static_cast<uint32_t>(id), {}, settings});
  }
  for (size_t i = 0; i < names.size(); ++i) hosts.hosts[i].name = names[i];
  if (absl::Status status = store_.Apply(hosts); !status.ok()) return Corrupt(status);
  return absl::OkStatus();
}

absl::Status FrontierTable::ReplayLogSince(int64_t seq) {
  bool trimmed = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t next = select.ColumnInt64(0);
      if (next != sync().last_seq() + 1) {
        trimmed = true;
        break;
      }
      absl::StatusOr<ChangeSet> changes = DecodeChangeSet(select.ColumnBlob(1));
      if (!changes.ok()) return Corrupt(changes.status());
      if (absl::Status status = store_.Apply(*changes); !status.ok()) return Corrupt(status);
      sync().Replayed(next);
    }
  }
  // Another connection trimmed log rows this one never read: only the snapshot holds them now.
  if (trimmed) return LoadAll();
  store_.ClearUndo();
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status FrontierTable::Sync() {
  ChangeSet changes = store_.ChangesSince(sync().synced_mark());
  if (changes.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  EncodeChangeSet(changes, &blob_);
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().NextSeq();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(WriteHosts(changes));
  sync().Synced(store_.UndoMark());
  snapshot_debt_ += static_cast<int64_t>(blob_.size());
  absl::Status status = WriteSomeParts(seq);
  return status;
}

absl::Status FrontierTable::WriteHosts(const ChangeSet& changes) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteHost));
  for (const HostChange& host : changes.hosts) {
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, host.id));
    CRAWLDB_RETURN_IF_ERROR(write.BindText(2, ToAbsl(host.name)));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(3, host.settings.delay_s));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(4, host.settings.budget));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(5, host.settings.blocked_until));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(6, host.settings.next_allowed));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
    sqlite3_reset(write.get());
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> FrontierTable::WritePart(size_t part, int64_t seq) {
  store_.PartSnapshot(part, &part_changes_);
  EncodeChangeSet(part_changes_, &blob_);
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteSnapshotPart));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, static_cast<int64_t>(part)));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlobView(3, BytesOf(blob_)));
  CRAWLDB_RETURN_IF_ERROR(write.Run());
  return static_cast<int64_t>(blob_.size());
}

absl::Status FrontierTable::WriteSomeParts(int64_t seq) {
  if (snapshot_debt_ <= 0) return absl::OkStatus();
  size_t next = 0;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadNextPart));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (row) next = static_cast<size_t>(select.ColumnInt64(0)) % kRecordParts;
  }
  size_t written = 0;
  while (snapshot_debt_ > 0 && written < kRecordParts) {
    CRAWLDB_ASSIGN_OR_RETURN(int64_t bytes, WritePart(next, seq));
    snapshot_debt_ -= std::max(bytes, kMinPartCost);
    next = (next + 1) % kRecordParts;
    ++written;
  }
  if (written == kRecordParts) return FinishFullCheckpoint();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteNextPart));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, static_cast<int64_t>(next)));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
  }
  // The part written longest ago is the next one; the log rows it holds are no longer needed,
  // but this transaction's own row stays, so that other connections see that rows went missing.
  int64_t oldest = 0;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadPartSeq));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, static_cast<int64_t>(next)));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (row) oldest = select.ColumnInt64(0);
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, std::min(oldest, seq - 1)));
  return trim.Run();
}

absl::Status FrontierTable::Checkpoint() {
  // Whatever happens next, the shadow tables are the truth: a failure rolls them back and the
  // store is reloaded from them.
  sync().ReloadOnRollback();
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().last_seq();
  absl::Status status;
  for (size_t part = 0; part < kRecordParts && status.ok(); ++part) {
    status = WritePart(part, seq).status();
  }
  if (status.ok()) status = FinishFullCheckpoint();
  return status;
}

absl::Status FrontierTable::FinishFullCheckpoint() {
  // Every part now holds every change: the log is emptied and the generation bumped, so that
  // other connections reload instead of waiting for rows that are gone.
  sync().ReloadOnRollback();
  const int64_t seq = sync().last_seq();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
    CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(trim.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(sync().BumpGeneration());
  sync().Loaded(sync().generation());
  sync().Replayed(seq);
  sync().Synced(store_.UndoMark());
  snapshot_debt_ = 0;
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Writes.

absl::Status FrontierTable::Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (argc == 1) {  // DELETE
    store_.Delete(identity::FingerprintFromSql(sqlite3_value_int64(argv[0])));
    return absl::OkStatus();
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) return UpdateRow(argc, argv);
  sqlite3_value** columns = argv + 2;
  *rowid = 0;
  if (sqlite3_value_type(columns[kColumnCommand]) != SQLITE_NULL) {
    return RunCommand(ToAbsl(TextOfValue(columns[kColumnCommand])), columns);
  }
  return InsertRow(columns, rowid);
}

absl::Status FrontierTable::InsertRow(sqlite3_value** columns, sqlite3_int64* rowid) {
  for (int column : {kColumnId, kColumnHost, kColumnDepth, kColumnState, kColumnDue,
                     kColumnAttempts, kColumnStatus}) {
    if (sqlite3_value_type(columns[column]) != SQLITE_NULL) {
      return UserError(kFrontierModule, "INSERT takes url and priority only",
                       "the other columns are the crawl's state");
    }
  }
  for (int column = kColumnParent; column < kColumnCount; ++column) {
    if (sqlite3_value_type(columns[column]) != SQLITE_NULL) {
      return UserError(kFrontierModule, "INSERT takes url and priority only",
                       "SELECT crawl_add(url, parent_url, priority) adds a URL found on a page");
    }
  }
  sqlite3_value* text = columns[kColumnUrl];
  if (sqlite3_value_type(text) != SQLITE_TEXT) {
    return ConstraintError(kFrontierModule, "url must be text");
  }
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(text));
  if (!url.ok()) {
    return ConstraintError(kFrontierModule, absl::StrCat("invalid URL: ", url.status().message()));
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t priority,
                           Integer(columns[kColumnPriority], 0, INT32_MIN, INT32_MAX, "priority"));
  const uint64_t fp = identity::UrlFingerprint(url->text());
  *rowid = identity::FingerprintToSql(fp);
  AddPlan plan = PlanAdd(*url, nullptr);
  if (plan.known) {
    // OR REPLACE keeps the URL's crawl state and takes the new priority.
    if (sqlite3_vtab_on_conflict(db()) == SQLITE_REPLACE) {
      store_.SetPriority(fp, static_cast<int32_t>(priority));
      return absl::OkStatus();
    }
    return ConstraintError(kFrontierModule,
                           absl::StrCat("'", ToAbsl(url->text()), "' is already in the frontier"),
                           "use INSERT OR IGNORE to skip known URLs");
  }
  if (plan.refusal.has_value()) return ConstraintError(kFrontierModule, *plan.refusal);
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kInsertUrl));
    CRAWLDB_RETURN_IF_ERROR(insert.BindText(1, ToAbsl(url->text())));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
  }
  if (store_.Add(fp, url->text(), url->host(), plan.depth, static_cast<int32_t>(priority)) !=
      FrontierStore::AddResult::kAdded) {
    return absl::InternalError("crawldb_frontier: INSERT disagrees with its plan");
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::UpdateRow(int argc, sqlite3_value** argv) {
  if (argc != 2 + kColumnCount) return absl::InternalError("crawldb_frontier: bad UPDATE");
  if (sqlite3_value_int64(argv[0]) != sqlite3_value_int64(argv[1])) {
    return UserError(kFrontierModule, "the rowid is the URL's fingerprint and cannot change");
  }
  for (int column = 0; column < kColumnCount; ++column) {
    if (column == kColumnPriority) continue;
    if (!sqlite3_value_nochange(argv[2 + column])) {
      return UserError(kFrontierModule, "only priority can be updated",
                       "DELETE a URL to drop it; crawl_confirm and crawl_lease change its state");
    }
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t priority,
                           Integer(argv[2 + kColumnPriority], 0, INT32_MIN, INT32_MAX, "priority"));
  store_.SetPriority(identity::FingerprintFromSql(sqlite3_value_int64(argv[0])),
                     static_cast<int32_t>(priority));
  return absl::OkStatus();
}

absl::Status FrontierTable::RunCommand(absl::string_view command, sqlite3_value** columns) {
  if (command == "add") return CommandAdd(columns);
  if (command == "lease") return CommandLease(columns);
  if (command == "confirm") return CommandConfirm(columns);
  if (command == "host") return CommandHost(columns);
  if (command == "optimize") {
    if (!sqlite3_get_autocommit(db())) {
      return UserError(kFrontierModule, "optimize cannot run inside a transaction",
                       "COMMIT first, then optimize");
    }
    return Checkpoint();
  }
  return UserError(kFrontierModule, absl::StrCat("unknown command '", command, "'"),
                   "the commands are add, lease, confirm, host and optimize");
}

FrontierTable::AddPlan FrontierTable::PlanAdd(const identity::NormalizedUrl& url,
                                              const identity::NormalizedUrl* parent) const {
  AddPlan plan;
  uint64_t fp = identity::UrlFingerprint(url.text());
  if (store_.Find(fp) != nullptr) {
    plan.known = true;
    return plan;
  }
  std::optional<uint32_t> host = store_.FindHost(url.host());
  if (parent != nullptr) {
    // The parent's record carries its host (the normalised parent's host), whose registrable
    // domain the store keeps; libpsl runs only for a host the frontier has never seen.
    const UrlRecord* from = store_.Find(identity::UrlFingerprint(parent->text()));
    if (from != nullptr &&
        store_.DomainOf(from->host) ==
            (host.has_value() ? store_.DomainOf(*host) : identity::RegistrableDomain(url.host()))) {
      plan.depth = from->depth + 1u;
    }
  }
  const FrontierPolicy& policy = store_.policy();
  if (policy.max_depth > 0 && plan.depth > policy.max_depth) {
    plan.refusal = absl::StrCat("depth limit: depth ", plan.depth, " is past max_depth ",
                                policy.max_depth, ": ", url.text());
    return plan;
  }
  if (host.has_value()) {
    int64_t budget = store_.BudgetOf(store_.host(*host));
    size_t members = store_.host(*host).members.size();
    if (budget > 0 && members >= static_cast<size_t>(budget)) {
      plan.refusal = absl::StrCat("host budget: host ", ToAbsl(url.host()), " already holds ",
                                  members, " URLs: ", url.text());
    }
  }
  return plan;
}

absl::Status FrontierTable::CommandAdd(sqlite3_value** columns) {
  last_add_ = AddOutcome();
  sqlite3_value* text = columns[kColumnUrl];
  if (sqlite3_value_type(text) != SQLITE_TEXT) {
    return UserError(kFrontierModule, "add: url must be text");
  }
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(text));
  if (!url.ok()) {
    last_add_.refusal = absl::StrCat("invalid URL: ", url.status().message());
    return absl::OkStatus();
  }
  std::optional<identity::NormalizedUrl> parent;
  sqlite3_value* parent_text = columns[kColumnParent];
  if (sqlite3_value_type(parent_text) != SQLITE_NULL) {
    if (sqlite3_value_type(parent_text) != SQLITE_TEXT) {
      return UserError(kFrontierModule, "add: parent must be text");
    }
    absl::StatusOr<identity::NormalizedUrl> normalised =
        identity::NormalizeUrl(TextOfValue(parent_text));
    if (!normalised.ok()) {
      last_add_.refusal = absl::StrCat("invalid parent URL: ", normalised.status().message());
      return absl::OkStatus();
    }
    parent = std::move(*normalised);
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t priority, Integer(columns[kColumnPriority], 0, INT32_MIN,
                                                     INT32_MAX, "add: priority"));
  AddPlan plan = PlanAdd(*url, parent.has_value() ? &*parent : nullptr);
  if (plan.refusal.has_value()) {
    last_add_.refusal = std::move(*plan.refusal);
    return absl::OkStatus();
  }
  uint64_t fp = identity::UrlFingerprint(url->text());
  const bool caller_records_link = sqlite3_value_type(columns[kColumnLink]) == SQLITE_INTEGER &&
                                   sqlite3_value_int64(columns[kColumnLink]) == 0;
  if (parent.has_value() && !caller_records_link) {
    CRAWLDB_RETURN_IF_ERROR(AppendLink(identity::UrlFingerprint(parent->text()), fp));
  }
  if (plan.known) {
    last_add_.result = 0;
    return absl::OkStatus();
  }
  FrontierStore::AddResult added =
      store_.Add(fp, url->text(), url->host(), plan.depth, static_cast<int32_t>(priority));
  if (added != FrontierStore::AddResult::kAdded) {
    return absl::InternalError("crawldb_frontier: add disagrees with its plan");
  }
  last_add_.result = 1;
  return absl::OkStatus();
}

absl::Status FrontierTable::AppendLink(uint64_t parent_fp, uint64_t fp) {
  LastInsertRowidGuard keep_last_rowid(db());
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLink));
  CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, identity::FingerprintToSql(parent_fp)));
  CRAWLDB_RETURN_IF_ERROR(append.BindInt64(2, identity::FingerprintToSql(fp)));
  CRAWLDB_RETURN_IF_ERROR(append.Run());
  return absl::OkStatus();
}

absl::Status FrontierTable::CommandLease(sqlite3_value** columns) {
  last_lease_.clear();
  CRAWLDB_ASSIGN_OR_RETURN(int64_t n, Integer(columns[kColumnN], -1, 1, kMaxLease, "lease: n"));
  if (n < 0) return UserError(kFrontierModule, "lease: n is required");
  CRAWLDB_ASSIGN_OR_RETURN(double lease_s,
                           Seconds(columns[kColumnSeconds], lease_s_, "lease: seconds"));
  if (lease_s <= 0) return UserError(kFrontierModule, "lease: seconds must be positive");
  CRAWLDB_ASSIGN_OR_RETURN(double now, Seconds(columns[kColumnNow], ClockNow(), "lease: now"));
  for (const FrontierStore::Leased& leased : store_.Lease(static_cast<size_t>(n), lease_s, now)) {
    last_lease_.push_back({leased.fp, std::string(store_.Text(*store_.Find(leased.fp))),
                           leased.depth, leased.lease_until});
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::CommandConfirm(sqlite3_value** columns) {
  last_confirm_ = 0;
  if (sqlite3_value_type(columns[kColumnUrl]) != SQLITE_TEXT) {
    return UserError(kFrontierModule, "confirm: url must be text");
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t status, Integer(columns[kColumnStatus], 200, INT32_MIN + 1,
                                                   INT32_MAX, "confirm: status"));
  CRAWLDB_ASSIGN_OR_RETURN(double recrawl_s,
                           Seconds(columns[kColumnSeconds], 0, "confirm: seconds"));
  CRAWLDB_ASSIGN_OR_RETURN(double now, Seconds(columns[kColumnNow], ClockNow(), "confirm: now"));
  absl::StatusOr<identity::NormalizedUrl> url =
      identity::NormalizeUrl(TextOfValue(columns[kColumnUrl]));
  if (!url.ok()) {
    store_.Expire(now);  // as for any other confirm
    return absl::OkStatus();
  }
  FrontierStore::ConfirmResult result = store_.Confirm(
      identity::UrlFingerprint(url->text()), static_cast<int32_t>(status), recrawl_s, now);
  last_confirm_ = result == FrontierStore::ConfirmResult::kNotLeased ? 0 : 1;
  return absl::OkStatus();
}

absl::Status FrontierTable::CommandHost(sqlite3_value** columns) {
  if (sqlite3_value_type(columns[kColumnHost]) != SQLITE_TEXT) {
    return UserError(kFrontierModule, "host: host must be text");
  }
  // The host as URLs carry it: normalised through a URL.
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(
      absl::StrCat("http://", ToAbsl(TextOfValue(columns[kColumnHost])), "/"));
  if (!url.ok() || url->path() != "/" || url->port() != 0) {
    return UserError(
        kFrontierModule,
        absl::StrCat("host: '", ToAbsl(TextOfValue(columns[kColumnHost])), "' is not a host name"));
  }
  CRAWLDB_ASSIGN_OR_RETURN(double delay, Seconds(columns[kColumnDelay], -1, "host: delay"));
  std::optional<int64_t> budget;
  if (sqlite3_value_type(columns[kColumnBudget]) != SQLITE_NULL) {
    CRAWLDB_ASSIGN_OR_RETURN(
        budget, Integer(columns[kColumnBudget], 0, -1, int64_t{1} << 40, "host: budget"));
  }
  std::optional<double> until;
  if (sqlite3_value_type(columns[kColumnUntil]) != SQLITE_NULL) {
    CRAWLDB_ASSIGN_OR_RETURN(until, Seconds(columns[kColumnUntil], 0, "host: until"));
  }
  store_.SetHost(url->host(), delay, budget, until);
  return absl::OkStatus();
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
  auto count = [&](UrlState state) { return store_.state_count(state); };
  return absl::StrFormat(
      "{\"table\":%s,\"module\":\"%s\",\"urls\":%d,\"queued\":%d,\"retry_waiting\":%d,"
      "\"leased\":%d,\"done\":%d,\"recrawl_scheduled\":%d,\"failed\":%d,\"hosts\":%d,"
      "\"hosts_waiting\":%d,\"log_bytes\":%d,\"snapshot_bytes\":%d,\"memory_bytes\":%d}",
      JsonString(name()), kFrontierModule, store_.size(),
      count(UrlState::kQueued) + count(UrlState::kWaiting), count(UrlState::kWaiting),
      count(UrlState::kLeased), count(UrlState::kDone) + count(UrlState::kRecrawl),
      count(UrlState::kRecrawl), count(UrlState::kFailed), store_.host_count(),
      store_.HostsWaiting(ClockNow()), log_bytes, snapshot_bytes, store_.MemoryBytes());
}

absl::Status FrontierTable::Check(std::vector<std::string>* problems) {
  absl::Status caught_up = CatchUp();
  if (!caught_up.ok()) {
    problems->push_back(absl::StrCat(name(), ": ", caught_up.message()));
    return absl::OkStatus();
  }
  std::vector<std::string> found;
  store_.Check(&found);
  for (const std::string& problem : found) problems->push_back(absl::StrCat(name(), ": ", problem));
  return absl::OkStatus();
}

absl::Status RegisterFrontier(sqlite3* db, Connection* connection) {
  int rc = sqlite3_create_module_v2(db, kFrontierModule, VtabModule<FrontierTable>::Get(),
                                    connection, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kFrontierModule);
  return RegisterFrontierFunctions(db, connection);
}

}  // namespace crawldb::frontier
