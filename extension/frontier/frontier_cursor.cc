#include "extension/frontier/frontier_cursor.h"

#include <algorithm>
#include <cmath>

#include "extension/common/sql_values.h"
#include "extension/frontier/frontier_slots.h"
#include "extension/urls/urls_table.h"

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
      const UrlRecord* record = store.Find(fp);
      if (record != nullptr && record->url_id == sqlite3_value_int64(argv[0])) fps_.push_back(fp);
      break;
    }
    case kPlanHost: {
      if (sqlite3_value_type(argv[0]) != SQLITE_TEXT) break;
      std::optional<uint32_t> host = store.FindHost(TextOfValue(argv[0]));
      if (!host.has_value()) break;
      fps_ = store.HostFingerprints(*host);
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
      if (record->url_id == kNoUrlId) break;
      CRAWLDB_ASSIGN_OR_RETURN(urls::UrlsTable * urls, table_->UrlsOf());
      if (urls->store().IsLive(record->url_id)) sqlite3_result_int64(context, record->url_id);
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
