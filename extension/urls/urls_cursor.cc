#include "extension/urls/urls_cursor.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/common/sql_values.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/urls/fingerprint_index.h"

namespace crawldb::urls {
namespace {

// Look-ups by id that follow one another (id, id + 1, …) before the cursor decodes the next
// ones' whole block instead of one key at a time: two in a row are common in a sorted link list
// and cost less key by key; longer runs are a scan in id order.
constexpr int kLookupsBeforeBlock = 3;

// The host pinned by url bounds: every URL text starting with `prefix` has this host when the
// prefix reads "http[s]://host" followed by '/', ':' or '?'. Lower-cased (stored hosts are).
std::optional<std::string> HostOfPrefix(absl::string_view prefix) {
  std::string lower = absl::AsciiStrToLower(prefix);
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
absl::string_view LiteralPrefix(absl::string_view pattern, bool glob) {
  size_t end = pattern.find_first_of(glob ? "*?[" : "%_");
  return pattern.substr(0, end);
}

std::string CommonPrefix(absl::string_view a, absl::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  return std::string(a.substr(0, n));
}

// Where the path of a URL text starting with `prefix` begins, and the mark of its keys, when
// the prefix reads "http[s]://host/" (a default port: keys are host-key mark path, canonical_key.h)
// with `host` the host HostOfPrefix found; nullopt otherwise (an explicit port, or a prefix that
// ends within the host or its port).
struct PathStart {
  size_t offset;
  char mark;
};
std::optional<PathStart> PathStartOf(absl::string_view prefix, absl::string_view host) {
  const bool https = prefix.size() > 4 && (prefix[4] == 's' || prefix[4] == 'S');
  const size_t host_end = (https ? 8 : 7) + host.size();
  if (prefix.size() <= host_end || prefix[host_end] != '/') return std::nullopt;
  return PathStart{host_end + 1, https ? identity::kKeyMarkHttps : identity::kKeyMarkHttp};
}

}  // namespace

void UrlsTable::Cursor::Reopen() {
  eof_ = true;
  // The store may have changed since the cursor last ran.
  cached_block_ = last_lookup_rank_ = std::numeric_limits<size_t>::max();
  consecutive_lookups_ = 0;
  text_id_ = 0;
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

absl::Status UrlsTable::Cursor::FilterHost(absl::string_view host) {
  std::string host_key = identity::CanonicalHostKey(std::string(absl::AsciiStrToLower(host)));
  // Every URL of the host: [key "(", key ",") (canonical_key.h).
  return FilterKeys(host_key + identity::kKeyMarkHttp, host_key + identity::kHostKeySeparator);
}

absl::Status UrlsTable::Cursor::FilterKeys(const std::string& low, const std::string& high) {
  absl::StatusOr<size_t> begin = store().base().LowerBound(low);
  if (!begin.ok()) return table_->Corrupt(begin.status());
  absl::StatusOr<size_t> end = store().base().LowerBound(high);
  if (!end.ok()) return table_->Corrupt(end.status());
  rank_ = *begin;
  rank_end_ = *end;
  // The host's URLs since optimize: a range of its part's run, and its part's pending keys.
  if (absl::Status status = store().IdsInRange(UrlPartOf(low), low, high, &extra_); !status.ok()) {
    return table_->Corrupt(status);
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
  if ((idx_num & kPlanMask) == kPlanUrlRange) {
    // Both bounds in one host and scheme with its default port: within it, key order is text
    // order, so the keys from the lower bound's to the upper bound's hold every URL between
    // them (SQLite checks the bounds' strictness on each row).
    const absl::string_view lower = TextOfValue(argv[0]), upper = TextOfValue(argv[1]);
    std::optional<PathStart> path = PathStartOf(CommonPrefix(lower, upper), *host);
    if (path.has_value()) {
      std::string host_key = identity::CanonicalHostKey(*host) + path->mark;
      std::string low = host_key + std::string(lower.substr(path->offset));
      // Past every key that starts with the upper bound's: keys are printable ASCII.
      std::string high = host_key + std::string(upper.substr(path->offset)) + '\x7f';
      return FilterKeys(low, high);
    }
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

absl::StatusOr<absl::string_view> UrlsTable::Cursor::Key() {
  size_t base_size = store().base().size();
  if (static_cast<size_t>(id_) > base_size) {
    absl::StatusOr<std::optional<std::string>> key = store().KeyOf(id_);
    if (!key.ok()) return table_->Corrupt(key.status());
    key_ = key->value_or("");
    return absl::string_view(key_);
  }
  size_t rank = static_cast<size_t>(id_ - 1);
  size_t block = rank / kKeysPerBlock;
  if (use_list_) {
    consecutive_lookups_ = rank == last_lookup_rank_ + 1 ? consecutive_lookups_ + 1 : 0;
    last_lookup_rank_ = rank;
  }
  if (use_list_ && block != cached_block_ && consecutive_lookups_ < kLookupsBeforeBlock) {
    // A look-up by id: decode just this key, unless ids keep coming one after another.
    absl::Status status = store().base().Get(rank, &key_);
    if (!status.ok()) return table_->Corrupt(status);
    return absl::string_view(key_);
  }
  if (block != cached_block_) {
    cached_block_ = std::numeric_limits<size_t>::max();
    absl::Status status = store().base().DecodeBlock(block, &block_keys_);
    if (!status.ok()) return table_->Corrupt(status);
    cached_block_ = block;
  }
  return block_keys_[rank % kKeysPerBlock];
}

absl::StatusOr<absl::string_view> UrlsTable::Cursor::UrlText() {
  if (text_id_ != id_ || text_rewinds_ != store().tail_rewinds()) {
    text_id_ = 0;
    CRAWLDB_ASSIGN_OR_RETURN(absl::string_view key, Key());
    if (absl::Status status = identity::UrlTextFromCanonicalKey(key, &url_text_); !status.ok()) {
      return table_->Corrupt(absl::DataLossError(status.message()));
    }
    text_id_ = id_;
    text_rewinds_ = store().tail_rewinds();
  }
  return absl::string_view(url_text_);
}

absl::Status UrlsTable::Cursor::Column(sqlite3_context* context, int column) {
  if (column == kColumnId) {
    sqlite3_result_int64(context, id_);
    return absl::OkStatus();
  }
  if (column == kColumnCommand) {
    sqlite3_result_null(context);
    return absl::OkStatus();
  }
  CRAWLDB_ASSIGN_OR_RETURN(absl::string_view text, UrlText());
  if (column == kColumnFp) {
    sqlite3_result_int64(context, identity::FingerprintToSql(identity::UrlFingerprint(text)));
    return absl::OkStatus();
  }
  if (column == kColumnHost) {
    text = identity::UrlHost(text);
    if (text.empty()) {
      return table_->Corrupt(absl::DataLossError(absl::StrCat("urls: id ", id_, " has no host")));
    }
  }
  sqlite3_result_text64(context, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Planning (the plan table is in urls_cursor.h).

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
  // all see the state caught up with here, and read the parts of that one commit until it
  // closes (ReadSnapshot).
  CRAWLDB_RETURN_IF_ERROR(read_snapshot_.Hold());
  if (absl::Status status = CatchUp(); !status.ok()) {
    read_snapshot_.Release();
    return status;
  }
  if (spare_cursor_ != nullptr) {
    spare_cursor_->Reopen();
    return std::move(spare_cursor_);
  }
  return std::make_unique<Cursor>(this);
}

void UrlsTable::CloseCursor(std::unique_ptr<Cursor> cursor) noexcept {
  read_snapshot_.Release();
  if (spare_cursor_ == nullptr) spare_cursor_ = std::move(cursor);
}

}  // namespace crawldb::urls
