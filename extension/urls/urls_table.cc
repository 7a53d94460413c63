#include "extension/urls/urls_table.h"

#include <algorithm>
#include <limits>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "extension/common/json.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/urls/fingerprint_index.h"
#include "extension/urls/url_functions.h"
#include "extension/urls/url_log_format.h"

namespace crawldb::urls {
namespace {

// Format of the shadow tables as a whole; url_base.h, url_part.h and url_log_format.h version
// their blobs. Version 1 had no parts and no deleted table: refused, with the way out.
constexpr int kFormatVersion = 2;

// Pending key bytes merged per commit, as a multiple of the key bytes the commit added.
constexpr size_t kMergeFactor = 2;
// Pending key bytes allowed per stored byte of base and parts. A merged key is re-encoded with
// its part's keys each time new ones join it: about 1 + merged ÷ pending times, 2.6 here.
constexpr size_t kPendingPerStored = 2;
// The <t>_parts row holding the parts' own model (url_store.h), when they have one.
constexpr int64_t kModelRow = -1;

// Most key bytes in one <t>_log row (a transaction adding more writes several rows).
constexpr size_t kLogRowBytes = 4 << 20;

constexpr ShadowTableSpec kShadowTables[] = {
    {"base", "(part INTEGER PRIMARY KEY, data BLOB NOT NULL)"},
    {"log",
     "(seq INTEGER PRIMARY KEY, first_id INTEGER NOT NULL, added BLOB NOT NULL, "
     "deleted BLOB NOT NULL)"},
    {"parts", "(part INTEGER PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)"},
    {"deleted", "(id INTEGER PRIMARY KEY)"},
};

const ShadowTableSet& Shadow() {
  static const ShadowTableSet set(kUrlsModule, kShadowTables, kFormatVersion, kFormatVersion);
  return set;
}

const OptionSpec kOptions[] = {
    {.name = "max_url_length",
     .kind = OptionKind::kInteger,
     .default_value = "8192",
     .min = 64,
     .max = 1 << 20},
    // Pending key bytes (URLs added since optimize, not yet merged into their part) below which
    // commits merge nothing; the store's stored bytes raise it (urls_table.h).
    {.name = "merge_bytes",
     .kind = OptionKind::kInteger,
     .default_value = "268435456",
     .min = 0,
     .max = int64_t{1} << 40},
};

// Columns, in declaration order.
enum Column { kColumnId, kColumnUrl, kColumnHost, kColumnFp, kColumnCommand };

// Statements on the shadow tables, by slot (MakeStatements holds the SQL).
enum Slot {
  kReadBase,
  kClearBase,
  kWriteBasePart,
  kReadLogSince,
  kAppendLog,
  kClearLog,
  kLogSize,
  kReadParts,
  kReadPartsSince,
  kWritePart,
  kClearParts,
  kReadDeleted,
  kWriteDeleted,
  kClearDeleted,
  kTrimLog,
};

// xBestIndex plans: idxNum = plan | bound flags (idxNum bits 8..12).
//
//   plan             constraints used (argv order)          rows        cost
//   kPlanScan        none: every id in order                N           10 + N
//   kPlanId          id = ? or rowid = ? (also from IN)     1           1
//   kPlanUrl         url = ?                                1           2
//   kPlanFp          fp = ?                                 1           2 (+ a one-time
//                                                                               index build)
//   kPlanHost        host = ?                               N / 100     3 + rows
//   kPlanUrlPattern  url LIKE ? / url GLOB ? (kGlob flag)   N / 50      4 + rows
//   kPlanUrlRange    url >= / > and < / <= (lower, upper)   N / 50      5 + rows
//   kPlanIdRange     id/rowid >, >=, <, <= (lower, upper)   N / 4       5 + rows (N / 16 with both)
// url ranges and patterns are not omitted: the cursor narrows the candidates to one host's keys
// when the bounds pin a host (see HostOfPrefix) and SQLite checks each row. The cheapest plan
// whose constraints are usable wins; ORDER BY id is consumed by kPlanScan, kPlanId and
// kPlanIdRange.
enum Plan {
  kPlanScan,
  kPlanId,
  kPlanUrl,
  kPlanFp,
  kPlanHost,
  kPlanUrlPattern,
  kPlanUrlRange,
  kPlanIdRange
};
constexpr int kPlanMask = 0xff;
constexpr int kHasLower = 1 << 8;
constexpr int kLowerStrict = 1 << 9;
constexpr int kHasUpper = 1 << 10;
constexpr int kUpperStrict = 1 << 11;
constexpr int kGlob = 1 << 12;

std::string_view TextOfValue(sqlite3_value* value) {
  const unsigned char* text = sqlite3_value_text(value);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(value))};
}

absl::string_view ToAbsl(std::string_view text) { return {text.data(), text.size()}; }

// The host pinned by url bounds: every URL text starting with `prefix` has this host when the
// prefix reads "http[s]://host" followed by '/', ':' or '?'. Lower-cased (stored hosts are).
std::optional<std::string> HostOfPrefix(std::string_view prefix) {
  std::string lower = absl::AsciiStrToLower(ToAbsl(prefix));
  size_t start;
  if (lower.rfind("http://", 0) == 0) {
    start = 7;
  } else if (lower.rfind("https://", 0) == 0) {
    start = 8;
  } else {
    return std::nullopt;
  }
  size_t end = lower.find_first_of("/:?", start);
  if (end == std::string::npos || end == start) return std::nullopt;
  return lower.substr(start, end - start);
}

// The literal prefix of a LIKE or GLOB pattern (before its first wildcard).
std::string_view LiteralPrefix(std::string_view pattern, bool glob) {
  size_t end = pattern.find_first_of(glob ? "*?[" : "%_");
  return pattern.substr(0, end);
}

std::string CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return std::string(a.substr(0, n));
}

}  // namespace

// Produces the rows of one xFilter: either an explicit list of ids, or the base ranks
// [rank, rank_end), then the ids in extra_ (a host's URLs since optimize), then the ids of the
// tail entries [tail, tail_end). Deleted ids are skipped.
class UrlsTable::Cursor : public VirtualCursor {
 public:
  explicit Cursor(UrlsTable* table) : table_(table) {}
  // Makes a closed cursor as good as new, keeping its buffers (UrlsTable::CloseCursor).
  void Reopen();

  absl::Status Filter(int idx_num, const char* idx_str, int argc, sqlite3_value** argv);
  absl::Status Next();
  bool Eof() const { return eof_; }
  absl::Status Column(sqlite3_context* context, int column);
  absl::StatusOr<sqlite3_int64> Rowid() { return id_; }

 private:
  const UrlStore& store() const { return table_->store_; }
  void Reset();
  void Everything();
  absl::Status FilterHost(std::string_view host);
  absl::Status FilterUrlBounds(int idx_num, int argc, sqlite3_value** argv);
  absl::StatusOr<std::string_view> Key();
  absl::StatusOr<std::string_view> UrlText();
  absl::StatusOr<const identity::NormalizedUrl*> Url();

  UrlsTable* table_;
  bool eof_ = true;
  int64_t id_ = 0;

  bool use_list_ = false;
  std::vector<int64_t> list_;
  size_t list_next_ = 0;
  size_t rank_ = 0, rank_end_ = 0;
  std::vector<int64_t> extra_;
  size_t extra_next_ = 0;
  size_t tail_ = 0, tail_end_ = 0;

  size_t cached_block_ = std::numeric_limits<size_t>::max();
  BlockKeys block_keys_;  // block cached_block_, decoded, for scans
  std::string key_;       // the current key when it was looked up alone
  std::string url_text_;  // the current row's URL text when url_text_valid_
  bool url_text_valid_ = false;
  std::optional<identity::NormalizedUrl> url_;  // the current row's URL, once asked for
  identity::NormalizedUrl lookup_url_;          // kPlanUrl's argument, normalised
  std::string lookup_key_;                      // and its key
};

void UrlsTable::Cursor::Reopen() {
  eof_ = true;
  cached_block_ = std::numeric_limits<size_t>::max();  // the store may have changed since
  url_text_valid_ = false;
  url_.reset();
}

void UrlsTable::Cursor::Reset() {
  use_list_ = false;
  list_.clear();
  list_next_ = 0;
  rank_ = rank_end_ = tail_ = tail_end_ = 0;
  extra_.clear();
  extra_next_ = 0;
  eof_ = false;
}

void UrlsTable::Cursor::Everything() {
  rank_end_ = store().base().size();
  tail_end_ = store().tail_size();
}

absl::Status UrlsTable::Cursor::FilterHost(std::string_view host) {
  std::string host_key =
      identity::CanonicalHostKey(std::string(absl::AsciiStrToLower(ToAbsl(host))));
  // Every URL of the host: [key "(", key ",") (canonical_key.h).
  std::string low = host_key + identity::kKeyMarkHttp;
  std::string high = host_key + identity::kHostKeySeparator;
  absl::StatusOr<size_t> begin = store().base().LowerBound(low);
  if (!begin.ok()) return table_->Corrupt(begin.status());
  absl::StatusOr<size_t> end = store().base().LowerBound(high);
  if (!end.ok()) return table_->Corrupt(end.status());
  rank_ = *begin;
  rank_end_ = *end;
  // The host's URLs since optimize: a range of its part, and its part's pending keys.
  const size_t part_number = UrlPartOf(low);
  const UrlPart& part = store().part(part_number);
  if (part.size() > 0) {
    absl::StatusOr<size_t> part_begin = part.keys().LowerBound(low);
    if (!part_begin.ok()) return table_->Corrupt(part_begin.status());
    absl::StatusOr<size_t> part_end = part.keys().LowerBound(high);
    if (!part_end.ok()) return table_->Corrupt(part_end.status());
    for (size_t r = *part_begin; r < *part_end; ++r) extra_.push_back(part.IdAt(r));
  }
  for (uint32_t index : store().tail().Pending(part_number)) {
    std::string_view key = store().tail().Key(index);
    if (key >= low && key < high) {
      extra_.push_back(static_cast<int64_t>(store().base().size() + index + 1));
    }
  }
  std::sort(extra_.begin(), extra_.end());
  return absl::OkStatus();
}

absl::Status UrlsTable::Cursor::FilterUrlBounds(int idx_num, int argc, sqlite3_value** argv) {
  std::optional<std::string> host;
  if ((idx_num & kPlanMask) == kPlanUrlPattern) {
    if (argc >= 1 && sqlite3_value_type(argv[0]) == SQLITE_TEXT) {
      host = HostOfPrefix(LiteralPrefix(TextOfValue(argv[0]), (idx_num & kGlob) != 0));
    }
  } else if ((idx_num & kHasLower) && (idx_num & kHasUpper) && argc >= 2) {
    host = HostOfPrefix(CommonPrefix(TextOfValue(argv[0]), TextOfValue(argv[1])));
  }
  if (!host.has_value()) {
    Everything();
    return absl::OkStatus();
  }
  return FilterHost(*host);
}

absl::Status UrlsTable::Cursor::Filter(int idx_num, const char*, int argc, sqlite3_value** argv) {
  Reset();
  switch (idx_num & kPlanMask) {
    case kPlanScan:
      Everything();
      break;
    case kPlanId:
      use_list_ = true;
      if (sqlite3_value_numeric_type(argv[0]) == SQLITE_INTEGER) {
        list_.push_back(sqlite3_value_int64(argv[0]));
      }
      break;
    case kPlanUrl: {
      use_list_ = true;
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      if (!identity::NormalizeUrlInto(TextOfValue(argv[0]), table_->normalize_options_,
                                      &lookup_url_)
               .ok()) {
        break;  // an invalid URL is stored nowhere
      }
      lookup_key_.clear();
      identity::AppendCanonicalKey(lookup_url_, &lookup_key_);
      absl::StatusOr<std::optional<int64_t>> id = store().Find(lookup_key_);
      if (!id.ok()) return table_->Corrupt(id.status());
      if (id->has_value()) list_.push_back(**id);
      break;
    }
    case kPlanFp: {
      use_list_ = true;
      if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER) break;
      absl::StatusOr<std::vector<int64_t>> ids = table_->fingerprints_->Find(
          store(), identity::FingerprintFromSql(sqlite3_value_int64(argv[0])));
      if (!ids.ok()) return table_->Corrupt(ids.status());
      list_ = std::move(*ids);
      break;
    }
    case kPlanHost:
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) {
        use_list_ = true;
        break;
      }
      CRAWLDB_RETURN_IF_ERROR(FilterHost(TextOfValue(argv[0])));
      break;
    case kPlanUrlPattern:
    case kPlanUrlRange:
      CRAWLDB_RETURN_IF_ERROR(FilterUrlBounds(idx_num, argc, argv));
      break;
    case kPlanIdRange: {
      int64_t low = 1;
      int64_t high = store().max_id();
      int arg = 0;
      if (idx_num & kHasLower) {
        sqlite3_value* value = argv[arg++];
        if (sqlite3_value_numeric_type(value) == SQLITE_NULL) high = 0;
        double bound = sqlite3_value_double(value);
        if (bound > static_cast<double>(high)) {
          high = 0;
        } else if (bound >= 1) {
          int64_t whole = static_cast<int64_t>(bound);
          bool strict = (idx_num & kLowerStrict) || static_cast<double>(whole) != bound;
          low = std::max<int64_t>(
              low, strict && static_cast<double>(whole) <= bound ? whole + 1 : whole);
        }
      }
      if (idx_num & kHasUpper) {
        sqlite3_value* value = argv[arg++];
        if (sqlite3_value_numeric_type(value) == SQLITE_NULL) high = 0;
        double bound = sqlite3_value_double(value);
        if (bound < 1) {
          high = 0;
        } else if (bound < static_cast<double>(high)) {
          int64_t whole = static_cast<int64_t>(bound);
          bool strict = (idx_num & kUpperStrict) && static_cast<double>(whole) == bound;
          high = std::min<int64_t>(high, strict ? whole - 1 : whole);
        }
      }
      // Ids low..high: base ranks first, then tail entries.
      int64_t base_size = static_cast<int64_t>(store().base().size());
      if (low <= high) {
        rank_ = static_cast<size_t>(std::min(low - 1, base_size));
        rank_end_ = static_cast<size_t>(std::min(high, base_size));
        tail_ = static_cast<size_t>(std::max<int64_t>(low - 1 - base_size, 0));
        tail_end_ = static_cast<size_t>(std::max<int64_t>(high - base_size, 0));
      }
      break;
    }
    default:
      return absl::InternalError(absl::StrCat(kUrlsModule, ": unknown plan ", idx_num));
  }
  return Next();
}

absl::Status UrlsTable::Cursor::Next() {
  url_text_valid_ = false;
  url_.reset();
  if (use_list_) {
    while (list_next_ < list_.size()) {
      id_ = list_[list_next_++];
      if (store().IsLive(id_)) return absl::OkStatus();
    }
    eof_ = true;
    return absl::OkStatus();
  }
  while (rank_ < rank_end_) {
    id_ = static_cast<int64_t>(++rank_);
    if (store().IsLive(id_)) return absl::OkStatus();
  }
  while (extra_next_ < extra_.size()) {
    id_ = extra_[extra_next_++];
    if (store().IsLive(id_)) return absl::OkStatus();
  }
  while (tail_ < tail_end_) {
    id_ = static_cast<int64_t>(store().base().size() + ++tail_);
    if (store().IsLive(id_)) return absl::OkStatus();
  }
  eof_ = true;
  return absl::OkStatus();
}

absl::StatusOr<std::string_view> UrlsTable::Cursor::Key() {
  size_t base_size = store().base().size();
  if (static_cast<size_t>(id_) > base_size) {
    const size_t index = static_cast<size_t>(id_) - base_size - 1;
    if (store().tail().IsPending(index)) return store().tail().Key(index);
    absl::StatusOr<std::optional<std::string>> key = store().KeyOf(id_);
    if (!key.ok()) return table_->Corrupt(key.status());
    key_ = key->value_or("");
    return std::string_view(key_);
  }
  size_t rank = static_cast<size_t>(id_ - 1);
  size_t block = rank / kKeysPerBlock;
  if (use_list_ && block != cached_block_) {
    // A look-up by id: decode just this key.
    absl::Status status = store().base().Get(rank, &key_);
    if (!status.ok()) return table_->Corrupt(status);
    return std::string_view(key_);
  }
  if (block != cached_block_) {
    cached_block_ = std::numeric_limits<size_t>::max();
    absl::Status status = store().base().DecodeBlock(block, &block_keys_);
    if (!status.ok()) return table_->Corrupt(status);
    cached_block_ = block;
  }
  return block_keys_[rank % kKeysPerBlock];
}

absl::StatusOr<std::string_view> UrlsTable::Cursor::UrlText() {
  if (!url_text_valid_) {
    CRAWLDB_ASSIGN_OR_RETURN(std::string_view key, Key());
    if (absl::Status status = identity::UrlTextFromCanonicalKey(key, &url_text_); !status.ok()) {
      return table_->Corrupt(absl::DataLossError(status.message()));
    }
    url_text_valid_ = true;
  }
  return std::string_view(url_text_);
}

absl::StatusOr<const identity::NormalizedUrl*> UrlsTable::Cursor::Url() {
  if (!url_.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(std::string_view text, UrlText());
    absl::StatusOr<identity::NormalizedUrl> url =
        identity::NormalizedUrl::FromNormalizedText(std::string(text));
    if (!url.ok()) return table_->Corrupt(absl::DataLossError(url.status().message()));
    url_ = std::move(*url);
  }
  return &*url_;
}

absl::Status UrlsTable::Cursor::Column(sqlite3_context* context, int column) {
  switch (column) {
    case kColumnId:
      sqlite3_result_int64(context, id_);
      return absl::OkStatus();
    case kColumnCommand:
      sqlite3_result_null(context);
      return absl::OkStatus();
    case kColumnUrl: {
      CRAWLDB_ASSIGN_OR_RETURN(std::string_view text, UrlText());
      sqlite3_result_text64(context, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
      return absl::OkStatus();
    }
    default:
      break;
  }
  CRAWLDB_ASSIGN_OR_RETURN(const identity::NormalizedUrl* url, Url());
  std::string_view text = column == kColumnUrl    ? std::string_view(url->text())
                          : column == kColumnHost ? url->host()
                                                  : std::string_view();
  if (column == kColumnFp) {
    sqlite3_result_int64(context,
                         identity::FingerprintToSql(identity::UrlFingerprint(url->text())));
  } else {
    sqlite3_result_text64(context, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------

UrlsTable::UrlsTable(sqlite3* db, Connection* connection, const VtabArgs& args,
                     size_t max_url_length, size_t merge_bytes)
    : ShadowBackedTable(db, connection, Shadow(), kUrlsModule, args),
      merge_bytes_(merge_bytes),
      part_seqs_(kUrlParts, 0),
      fingerprints_(std::make_unique<FingerprintIndex>()) {
  normalize_options_.max_length = max_url_length;
}

UrlsTable::~UrlsTable() = default;

std::vector<std::string> UrlsTable::StatementSql() const {
  std::string base = ShadowName("base");
  std::string log = ShadowName("log");
  std::string parts = ShadowName("parts");
  std::string deleted = ShadowName("deleted");
  std::vector<std::string> sql(kTrimLog + 1);
  sql[kReadBase] = absl::StrCat("SELECT part, data FROM ", base, " ORDER BY part");
  sql[kClearBase] = absl::StrCat("DELETE FROM ", base);
  sql[kWriteBasePart] = absl::StrCat("INSERT INTO ", base, "(part, data) VALUES (?1, ?2)");
  sql[kReadLogSince] = absl::StrCat("SELECT seq, first_id, added, deleted FROM ", log,
                                    " WHERE seq > ?1 ORDER BY seq");
  sql[kAppendLog] =
      absl::StrCat("INSERT INTO ", log, "(seq, first_id, added, deleted) VALUES (?1, ?2, ?3, ?4)");
  sql[kClearLog] = absl::StrCat("DELETE FROM ", log);
  sql[kLogSize] =
      absl::StrCat("SELECT count(*), coalesce(sum(length(added) + length(deleted)), 0) FROM ", log);
  sql[kReadParts] = absl::StrCat("SELECT part, seq, data FROM ", parts, " ORDER BY part");
  sql[kReadPartsSince] =
      absl::StrCat("SELECT part, seq, data FROM ", parts, " WHERE seq > ?1 ORDER BY part");
  sql[kWritePart] =
      absl::StrCat("INSERT OR REPLACE INTO ", parts, "(part, seq, data) VALUES (?1, ?2, ?3)");
  sql[kClearParts] = absl::StrCat("DELETE FROM ", parts);
  sql[kReadDeleted] = absl::StrCat("SELECT id FROM ", deleted);
  sql[kWriteDeleted] = absl::StrCat("INSERT INTO ", deleted, "(id) VALUES (?1)");
  sql[kClearDeleted] = absl::StrCat("DELETE FROM ", deleted);
  sql[kTrimLog] = absl::StrCat("DELETE FROM ", log, " WHERE seq < ?1");
  return sql;
}

absl::StatusOr<std::unique_ptr<UrlsTable>> UrlsTable::Create(sqlite3* db, void* aux,
                                                             const VtabArgs& args) {
  CRAWLDB_ASSIGN_OR_RETURN(VtabOptions options, VtabOptions::Parse(args, {}, kOptions));
  CRAWLDB_RETURN_IF_ERROR(Shadow().Create(db, args.schema, args.table, options.Canonical()));
  CRAWLDB_RETURN_IF_ERROR(Shadow().WriteConfig(db, args.schema, args.table, "generation", "1"));
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
  CRAWLDB_RETURN_IF_ERROR(Shadow().CheckFormat(db, args.schema, args.table).status());
  std::string declaration =
      absl::StrCat("CREATE TABLE x(id INTEGER, url TEXT, host TEXT, fp INTEGER, ",
                   QuoteIdentifier(args.table), " HIDDEN)");
  int rc = sqlite3_declare_vtab(db, declaration.c_str());
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kUrlsModule);
  // SQLITE_CONSTRAINT from xUpdate then follows the statement's conflict clause.
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  auto table = std::unique_ptr<UrlsTable>(
      new UrlsTable(db, static_cast<Connection*>(aux), args,
                    static_cast<size_t>(options.Integer("max_url_length")),
                    static_cast<size_t>(options.Integer("merge_bytes"))));
  CRAWLDB_RETURN_IF_ERROR(table->ReadStoredFigures());
  return table;
}

bool UrlsTable::IsShadowName(absl::string_view suffix) { return Shadow().IsShadowName(suffix); }

// ---------------------------------------------------------------------------------------------
// Planning (the plan table is at the top of this file).

absl::Status UrlsTable::BestIndex(sqlite3_index_info* info) {
  double rows = std::max<double>(1, static_cast<double>(planning_figures().rows));
  struct Candidate {
    int idx_num = kPlanScan;
    std::vector<int> constraints;  // in argv order
    bool omit = true;
    double cost;
    double rows;
  };
  Candidate best{kPlanScan, {}, true, 10 + rows, rows};
  auto consider = [&](Candidate candidate) {
    if (candidate.cost < best.cost) best = std::move(candidate);
  };
  int id_lower = -1, id_upper = -1, url_lower = -1, url_upper = -1;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& constraint = info->aConstraint[i];
    if (!constraint.usable) continue;
    int column = constraint.iColumn;
    bool is_id = column == kColumnId || column == -1;
    switch (constraint.op) {
      case SQLITE_INDEX_CONSTRAINT_EQ:
        if (is_id) consider({kPlanId, {i}, true, 1, 1});
        if (column == kColumnUrl) consider({kPlanUrl, {i}, true, 2, 1});
        if (column == kColumnFp) consider({kPlanFp, {i}, true, 2, 1});
        if (column == kColumnHost) {
          consider({kPlanHost, {i}, true, rows / 100 + 4, rows / 100 + 1});
        }
        break;
      case SQLITE_INDEX_CONSTRAINT_GT:
      case SQLITE_INDEX_CONSTRAINT_GE:
        if (is_id) id_lower = i;
        if (column == kColumnUrl) url_lower = i;
        break;
      case SQLITE_INDEX_CONSTRAINT_LT:
      case SQLITE_INDEX_CONSTRAINT_LE:
        if (is_id) id_upper = i;
        if (column == kColumnUrl) url_upper = i;
        break;
      case SQLITE_INDEX_CONSTRAINT_LIKE:
      case SQLITE_INDEX_CONSTRAINT_GLOB:
        if (column == kColumnUrl) {
          int flags = constraint.op == SQLITE_INDEX_CONSTRAINT_GLOB ? kGlob : 0;
          consider({kPlanUrlPattern | flags, {i}, false, rows / 50 + 5, rows / 50 + 1});
        }
        break;
      default:
        break;
    }
  }
  auto range = [&](int plan, int lower, int upper, bool omit, double fraction) {
    if (lower < 0 && upper < 0) return;
    Candidate candidate{plan, {}, omit, 0, 0};
    if (lower >= 0) {
      candidate.idx_num |= kHasLower;
      if (info->aConstraint[lower].op == SQLITE_INDEX_CONSTRAINT_GT)
        candidate.idx_num |= kLowerStrict;
      candidate.constraints.push_back(lower);
    }
    if (upper >= 0) {
      candidate.idx_num |= kHasUpper;
      if (info->aConstraint[upper].op == SQLITE_INDEX_CONSTRAINT_LT)
        candidate.idx_num |= kUpperStrict;
      candidate.constraints.push_back(upper);
    }
    double share = lower >= 0 && upper >= 0 ? fraction * fraction : fraction;
    candidate.rows = rows * share + 1;
    candidate.cost = candidate.rows + 5;
    consider(std::move(candidate));
  };
  range(kPlanIdRange, id_lower, id_upper, true, 0.25);
  if (url_lower >= 0 && url_upper >= 0) range(kPlanUrlRange, url_lower, url_upper, false, 0.14);

  int argv_index = 1;
  for (int constraint : best.constraints) {
    info->aConstraintUsage[constraint].argvIndex = argv_index++;
    info->aConstraintUsage[constraint].omit = best.omit;
  }
  info->idxNum = best.idx_num;
  info->estimatedCost = best.cost;
  info->estimatedRows = static_cast<sqlite3_int64>(best.rows);
  int plan = best.idx_num & kPlanMask;
  if (plan == kPlanId || plan == kPlanUrl) info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
      (info->aOrderBy[0].iColumn == kColumnId || info->aOrderBy[0].iColumn == -1) &&
      (plan == kPlanScan || plan == kPlanId || plan == kPlanIdRange)) {
    info->orderByConsumed = 1;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<UrlsTable::Cursor>> UrlsTable::Open() {
  // A cursor is opened once per statement run; its xFilter calls (one per outer row of a join)
  // all see the state caught up with here.
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  if (spare_cursor_ != nullptr) {
    spare_cursor_->Reopen();
    return std::move(spare_cursor_);
  }
  return std::make_unique<Cursor>(this);
}

void UrlsTable::CloseCursor(std::unique_ptr<Cursor> cursor) noexcept {
  if (spare_cursor_ == nullptr) spare_cursor_ = std::move(cursor);
}

// ---------------------------------------------------------------------------------------------
// Loading and catching up.

absl::Status UrlsTable::LoadAll() {
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> parts,
                           ReadParts(kReadBase, "base part"));
  std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
  absl::StatusOr<UrlBase> base = UrlBase::Load(spans);
  if (!base.ok() && base.status().code() == absl::StatusCode::kFailedPrecondition) {
    return UserError(kUrlsModule, absl::StrCat("table '", name(), "': ", base.status().message()));
  }
  if (!base.ok()) return Corrupt(base.status());
  store_.Reset(std::move(*base));
  part_seqs_.assign(kUrlParts, 0);
  fingerprints_->Invalidate();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadParts));
    CRAWLDB_RETURN_IF_ERROR(InstallParts(select));
  }
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadDeleted));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t id = select.ColumnInt64(0);
      if (id < 1) return Corrupt(absl::DataLossError(absl::StrCat("deleted id ", id)));
      store_.GrowTo(id);
      store_.LoadDeleted(id);
    }
  }
  sync().Loaded(generation);
  // The log rows still held: the adds their parts do not hold yet. Deletions are all in
  // <t>_deleted already: the log's must agree.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, 0));
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t seq = select.ColumnInt64(0);
    const int64_t first_id = select.ColumnInt64(1);
    absl::StatusOr<std::vector<std::string_view>> added = DecodeLogKeys(select.ColumnBlob(2));
    if (!added.ok()) return Corrupt(added.status());
    for (size_t i = 0; i < added->size(); ++i) {
      const int64_t id = first_id + static_cast<int64_t>(i);
      if (part_seqs_[UrlPartOf((*added)[i])] >= seq) {
        store_.GrowTo(id);  // merged into its part, or deleted since
        continue;
      }
      if (absl::Status status = store_.LoadPending((*added)[i], id); !status.ok()) {
        return Corrupt(status);
      }
    }
    absl::StatusOr<std::vector<int64_t>> deleted = DecodeLogIds(select.ColumnBlob(3));
    if (!deleted.ok()) return Corrupt(deleted.status());
    for (int64_t id : *deleted) {
      if (store_.IsLive(id) || id > store_.max_id()) {
        return Corrupt(absl::DataLossError(
            absl::StrCat("log row ", seq, " deletes id ", id, ", which the deleted table lacks")));
      }
    }
    sync().Replayed(seq);
  }
  store_.ClearUndo();
  return absl::OkStatus();
}

absl::Status UrlsTable::InstallParts(ScopedStatement& select) {
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t part = select.ColumnInt64(0);
    const int64_t seq = select.ColumnInt64(1);
    absl::Span<const uint8_t> data = select.ColumnBlob(2);
    if (part == kModelRow) {
      absl::StatusOr<codecs::UrlBlockModel> model = codecs::UrlBlockModel::Load(data);
      if (!model.ok()) {
        return Corrupt(
            absl::DataLossError(absl::StrCat("the parts' model: ", model.status().message())));
      }
      store_.SetPartsModel(std::make_shared<const codecs::UrlBlockModel>(std::move(*model)));
      continue;
    }
    if (part < 0 || part >= static_cast<int64_t>(kUrlParts)) {
      return Corrupt(absl::DataLossError(absl::StrCat("part ", part, " is out of range")));
    }
    if (store_.PartsModel() == nullptr) {
      return Corrupt(absl::DataLossError(absl::StrCat("part ", part, " has no model to read")));
    }
    absl::StatusOr<UrlPart> loaded = UrlPart::Load(data, store_.PartsModel());
    if (!loaded.ok()) return Corrupt(loaded.status());
    if (absl::Status status = store_.InstallPart(static_cast<size_t>(part), *std::move(loaded));
        !status.ok()) {
      return Corrupt(status);
    }
    part_seqs_[static_cast<size_t>(part)] = seq;
  }
  return absl::OkStatus();
}

absl::Status UrlsTable::ReplayLogSince(int64_t seq) {
  bool gap = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    for (int64_t expected = seq + 1; !gap; ++expected) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      // Rows this connection has not seen were trimmed: their URLs are in parts now.
      gap = select.ColumnInt64(0) != expected;
      if (gap) break;
      int64_t first_id = select.ColumnInt64(1);
      absl::StatusOr<std::vector<std::string_view>> added = DecodeLogKeys(select.ColumnBlob(2));
      if (!added.ok()) return Corrupt(added.status());
      for (size_t i = 0; i < added->size(); ++i) {
        absl::Status status = store_.ReplayAdd((*added)[i], first_id + static_cast<int64_t>(i));
        if (!status.ok()) return Corrupt(status);
      }
      absl::StatusOr<std::vector<int64_t>> deleted = DecodeLogIds(select.ColumnBlob(3));
      if (!deleted.ok()) return Corrupt(deleted.status());
      for (int64_t id : *deleted) {
        if (absl::Status status = store_.ReplayDelete(id); !status.ok()) return Corrupt(status);
      }
      sync().Replayed(select.ColumnInt64(0));
    }
  }
  if (gap) return LoadAll();
  store_.ClearUndo();  // replayed changes are committed ones
  // The parts the committing connections rewrote.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement parts, Use(kReadPartsSince));
  CRAWLDB_RETURN_IF_ERROR(parts.BindInt64(1, seq));
  return InstallParts(parts);
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status UrlsTable::Sync() {
  UrlStore::Pending pending = store_.PendingSince(sync().synced_mark());
  if (pending.added_keys.empty() && pending.deleted_ids.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  // A large transaction is split into rows of at most kLogRowBytes of keys, well under
  // SQLITE_LIMIT_LENGTH; the deleted ids go in the first row.
  const size_t row_bytes = std::min<size_t>(
      kLogRowBytes, static_cast<size_t>(sqlite3_limit(db(), SQLITE_LIMIT_LENGTH, -1)) / 2);
  // The log rows must not change the user's last_insert_rowid().
  LastInsertRowidGuard keep_last_rowid(db());
  absl::Span<const std::string_view> keys(pending.added_keys);
  absl::Span<const int64_t> deleted(pending.deleted_ids);
  int64_t first_id = pending.first_added_id;
  size_t added_bytes = 0;
  int64_t seq = 0;
  do {
    size_t count = 0;
    for (size_t bytes = 0; count < keys.size() && (count == 0 || bytes < row_bytes); ++count) {
      bytes += keys[count].size() + 2;
      added_bytes += keys[count].size();
    }
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    seq = sync().NextSeq();
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(2, first_id));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(3, EncodeLogKeys(keys.subspan(0, count))));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(4, EncodeLogIds(deleted)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
    keys.remove_prefix(count);
    first_id += static_cast<int64_t>(count);
    deleted = {};
  } while (!keys.empty());
  for (int64_t id : pending.deleted_ids) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kWriteDeleted));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, id));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
  }
  sync().Synced(store_.UndoMark());
  CRAWLDB_RETURN_IF_ERROR(MergeParts(added_bytes, seq));
  return absl::OkStatus();
}

absl::Status UrlsTable::MergeParts(size_t added_bytes, int64_t seq) {
  const UrlTail& tail = store_.tail();
  const size_t stored = store_.base().StoredBytes() + store_.PartsStoredBytes();
  size_t threshold = merge_bytes_ == 0 ? 0 : std::max(merge_bytes_, kPendingPerStored * stored);
  // The first merge trains the parts' model: on a full sample, unless merge_bytes says sooner.
  if (store_.PartsModel() == nullptr) {
    threshold = std::max(threshold, std::min(merge_bytes_, kPartsSampleBytes));
  }
  if (tail.pending_bytes() <= threshold) return absl::OkStatus();
  // A commit merges about kMergeFactor times what it added, but no more than that times what
  // was waiting before it: a bulk load in one transaction leaves its keys to later commits
  // (or to optimize) instead of paying a rebuild at its own commit.
  const size_t backlog = tail.pending_bytes() - std::min(tail.pending_bytes(), added_bytes);
  const size_t budget = kMergeFactor * std::min(added_bytes, backlog);
  if (budget == 0) return absl::OkStatus();
  bool model_stored = store_.PartsModel() != nullptr;  // or needs no row
  size_t merged = 0;
  for (size_t visited = 0; visited < kUrlParts && merged < budget; ++visited) {
    const size_t part = next_merge_part_;
    next_merge_part_ = (next_merge_part_ + 1) % kUrlParts;
    if (tail.Pending(part).empty()) continue;
    for (uint32_t index : tail.Pending(part)) merged += tail.Key(index).size();
    // From here on the store holds what no undo log can take back: a rollback reloads.
    sync().ReloadOnRollback();
    merged_in_transaction_ = true;
    if (absl::Status status = store_.MergePart(part); !status.ok()) return Corrupt(status);
    if (!model_stored) {  // the merge just trained the parts' own model
      CRAWLDB_RETURN_IF_ERROR(WritePartRow(kModelRow, seq, store_.own_parts_model()->Serialize()));
      model_stored = true;
    }
    CRAWLDB_RETURN_IF_ERROR(
        WritePartRow(static_cast<int64_t>(part), seq, store_.part(part).Serialize()));
    part_seqs_[part] = seq;
  }
  // Log rows every part holds are no longer needed; the newest stays, so that a connection
  // that has not read it finds a gap in the seqs and reloads.
  int64_t needed = seq;
  for (size_t part = 0; part < kUrlParts; ++part) {
    if (!tail.Pending(part).empty()) needed = std::min(needed, part_seqs_[part] + 1);
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, needed));
  return trim.Run();
}

absl::Status UrlsTable::WritePartRow(int64_t part, int64_t seq, const std::vector<uint8_t>& data) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWritePart));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, part));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlob(3, data));
  return write.Run();
}

// ---------------------------------------------------------------------------------------------
// Writes.

absl::Status UrlsTable::Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (argc == 1) {  // DELETE
    store_.Delete(sqlite3_value_int64(argv[0]));
    return absl::OkStatus();
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    return UserError(kUrlsModule, "UPDATE is not supported: a URL's text is its identity",
                     "DELETE the row and INSERT the new URL");
  }
  sqlite3_value* command = argv[2 + kColumnCommand];
  if (sqlite3_value_type(command) != SQLITE_NULL) {
    return RunCommand(ToAbsl(TextOfValue(command)));
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
  *rowid = store_.Add(key);
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
  for (Slot clear : {kClearLog, kClearParts, kClearDeleted}) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement statement, Use(clear));
    CRAWLDB_RETURN_IF_ERROR(statement.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(sync().BumpGeneration());
  store_.Reset(std::move(base));
  part_seqs_.assign(kUrlParts, 0);
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
  size_t live = store_.live_count();
  size_t stored = base.StoredBytes();
  const size_t parts_bytes = store_.PartsStoredBytes();
  const size_t parts_model_bytes =
      store_.parts_have_own_model() ? store_.own_parts_model()->Serialize().size() : 0;
  int64_t log_rows = 0, log_bytes = 0;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement size, Use(kLogSize));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, size.Step());
    if (row) {
      log_rows = size.ColumnInt64(0);
      log_bytes = size.ColumnInt64(1);
    }
  }
  // base_bytes: every stored part; base_model_bytes, base_head_bytes and base_block_bytes: the
  // model, the head index and the blocks among them. tail_urls: ids given since optimize, of
  // which merged_urls are in parts (parts_bytes stored, parts_model_bytes of it the parts' own
  // model) and pending_urls wait in the log (pending_key_bytes). fp_index_bytes: memory of the
  // fp → id index (0 until an fp look-up builds it). log_bytes: the blobs of <t>_log.
  return absl::StrFormat(
      "{\"table\":%s,\"module\":\"%s\",\"urls\":%d,\"max_id\":%d,\"base_urls\":%d,"
      "\"base_blocks\":%d,\"base_bytes\":%d,\"base_model_bytes\":%d,\"base_head_bytes\":%d,"
      "\"base_block_bytes\":%d,\"tail_urls\":%d,\"merged_urls\":%d,\"parts_bytes\":%d,"
      "\"parts_model_bytes\":%d,\"pending_urls\":%d,\"pending_key_bytes\":%d,\"deleted\":%d,"
      "\"log_rows\":%d,\"log_bytes\":%d,\"memory_bytes\":%d,\"fp_index_bytes\":%d,"
      "\"base_bytes_per_url\":%.3f}",
      JsonString(name()), kUrlsModule, live, store_.max_id(), base.size(), base.block_count(),
      stored, base.ModelBytes(), base.HeadIndexBytes(), base.BlockBytes(), store_.tail_size(),
      store_.merged_count(), parts_bytes + parts_model_bytes, parts_model_bytes,
      store_.tail().pending_count(), store_.tail().pending_bytes(), store_.deleted_count(),
      log_rows, log_bytes, store_.MemoryBytes(), fingerprints_->MemoryBytes(),
      base.size() == 0 ? 0.0 : static_cast<double>(stored) / base.size());
}

absl::Status UrlsTable::Check(std::vector<std::string>* problems) {
  absl::Status caught_up = CatchUp();
  if (!caught_up.ok()) {
    problems->push_back(absl::StrCat(name(), ": ", caught_up.message()));
    return absl::OkStatus();
  }
  auto problem = [&](const std::string& what) {
    problems->push_back(absl::StrCat(name(), ": ", what));
  };
  // Every base key decodes, is a valid canonical key, and keys increase strictly.
  std::string previous;
  BlockKeys keys;
  for (size_t block = 0; block < store_.base().block_count(); ++block) {
    if (absl::Status status = store_.base().DecodeBlock(block, &keys); !status.ok()) {
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
      previous = keys[i];
    }
  }
  // Every part's keys decode, increase, belong to it, and have ids given since optimize.
  for (size_t number = 0; number < kUrlParts; ++number) {
    const UrlPart& part = store_.part(number);
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
        last = keys[i];
      }
    }
  }
  // Every live id maps to a key that maps back to it.
  for (int64_t id = 1; id <= store_.max_id(); ++id) {
    if (!store_.IsLive(id)) continue;
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
