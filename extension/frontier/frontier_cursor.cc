#include "extension/frontier/frontier_cursor.h"

#include <algorithm>
#include <cmath>

#include "extension/common/sql_values.h"
#include "extension/frontier/frontier_slots.h"
#include "extension/urls/url_ids.h"

namespace crawldb::frontier {
namespace {

// A time as SQL shows it: an integer when it is one.
void ResultTime(sqlite3_context* context, double seconds) {
  if (seconds == std::floor(seconds) && std::fabs(seconds) < 9e15) {
    sqlite3_result_int64(context, static_cast<sqlite3_int64>(seconds));
  } else {
    sqlite3_result_double(context, seconds);
  }
}

}  // namespace

bool FrontierTable::Cursor::Matches(const UrlRecord& record) const {
  if (host_.has_value() && record.host != *host_) return false;
  return !state_.has_value() || StateName(record.state) == *state_;
}

absl::Status FrontierTable::Cursor::Collect() {
  FrontierStore& store = table_->store_;
  fps_.clear();
  next_ = 0;
  for (; part_ < kFrontierParts; ++part_) {
    if (store.has_hosts(part_)) {
      CRAWLDB_RETURN_IF_ERROR(store.ForEachInPart(part_, [&](uint64_t fp, const UrlRecord& record) {
        if (Matches(record)) fps_.push_back(fp);
      }));
    }
    if (!fps_.empty() || !scan_) break;
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::Cursor::Next() {
  if (++next_ < fps_.size() || !scan_ || part_ >= kFrontierParts) return absl::OkStatus();
  ++part_;
  return Collect();
}

absl::Status FrontierTable::Cursor::Filter(int idx_num, const char*, int, sqlite3_value** argv) {
  fps_.clear();
  next_ = 0;
  part_ = 0;
  scan_ = false;
  host_.reset();
  state_.reset();
  parts_.clear();
  token_.reset();
  FrontierStore& store = table_->store_;
  // A plan of one URL: its part, then its record.
  auto one = [&](size_t part, uint64_t fp, std::optional<int64_t> url_id) -> absl::Status {
    CRAWLDB_ASSIGN_OR_RETURN(const UrlRecord* record, store.Find(part, fp));
    if (record != nullptr && (!url_id.has_value() || record->url_id == *url_id)) {
      part_ = part;
      fps_.push_back(fp);
    }
    return absl::OkStatus();
  };
  switch (idx_num) {
    case kPlanScan:
      scan_ = true;
      return Collect();
    case kPlanFp: {
      if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER) break;
      const uint64_t fp = identity::FingerprintFromSql(sqlite3_value_int64(argv[0]));
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<size_t> part, store.Locate(fp));
      if (part.has_value()) return one(*part, fp, std::nullopt);
      break;
    }
    case kPlanUrl: {
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(argv[0]));
      if (!url.ok()) break;
      return one(FrontierPartOf(url->host()), identity::UrlFingerprint(url->text()), std::nullopt);
    }
    case kPlanId: {
      if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER) break;
      CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, table_->UrlsOf());
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> text,
                               urls->TextOf(sqlite3_value_int64(argv[0])));
      if (!text.has_value()) break;
      return one(FrontierPartOf(identity::UrlHost(*text)), identity::UrlFingerprint(*text),
                 sqlite3_value_int64(argv[0]));
    }
    case kPlanHost: {
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      host_ = store.FindHost(TextOfValue(argv[0]));
      if (!host_.has_value()) break;
      part_ = store.host(*host_).part;
      CRAWLDB_RETURN_IF_ERROR(Collect());
      std::sort(fps_.begin(), fps_.end());
      break;
    }
    case kPlanState:
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      state_ = std::string(TextOfValue(argv[0]));
      scan_ = true;
      return Collect();
    case kPlanToken: {
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      token_ = std::string(TextOfValue(argv[0]));
      std::vector<std::pair<size_t, uint64_t>> leased;
      CRAWLDB_RETURN_IF_ERROR(table_->LeasedUnder(*token_, &leased));
      for (const auto& [part, fp] : leased) {
        parts_.push_back(part);
        fps_.push_back(fp);
      }
      break;
    }
    default:
      return absl::InternalError(absl::StrCat("crawldb_frontier: unknown plan ", idx_num));
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::Cursor::Column(sqlite3_context* context, int column) {
  // An UPDATE reads the columns it does not change only to hand them back: skip them.
  if (column != kColumnPriority && sqlite3_vtab_nochange(context)) return absl::OkStatus();
  FrontierStore& store = table_->store_;
  CRAWLDB_ASSIGN_OR_RETURN(const UrlRecord* record, store.Find(PartOfRow(), fps_[next_]));
  if (record == nullptr) return absl::OkStatus();  // deleted since xFilter: NULLs
  switch (column) {
    case kColumnId: {
      if (record->url_id == kNoUrlId) break;
      CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, table_->UrlsOf());
      if (urls->IsLive(record->url_id)) sqlite3_result_int64(context, record->url_id);
      break;
    }
    case kColumnUrl: {
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> url, table_->UrlOf(*record));
      if (url.has_value()) ResultText(context, *url);
      break;
    }
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
    case kColumnLeaseToken: {
      if (token_.has_value()) {
        ResultText(context, *token_);
        break;
      }
      const uint64_t fp = fps_[next_];
      const UrlRecord copy = *record;  // TokenOf runs a statement; the record may move
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<std::string> token, table_->TokenOf(fp, copy));
      if (token.has_value()) ResultText(context, *token);
      break;
    }
    default:
      break;  // hidden command columns read as NULL
  }
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Planning (the plan table is in frontier_cursor.h).

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
      case kColumnLeaseToken:
        plan = kPlanToken;
        rows = 10;
        cost = 2 + rows;
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

}  // namespace crawldb::frontier
