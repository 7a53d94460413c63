#include "extension/links/link_cursor.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "extension/urls/url_ids.h"

namespace crawldb::links {
namespace {

enum Plan { kPlanScan, kPlanKey, kPlanOther, kPlanArc, kPlanRowid, kPlanScanOther };
constexpr int kPlanMask = 0xff;
// With kPlanKey or kPlanOther: the statement uses no column but the looked-up one.
constexpr int kLookedUpColumnOnly = 0x100;
constexpr int kColumnSrc = LinkCursor::kColumnSrc;
constexpr int kColumnDst = LinkCursor::kColumnDst;
constexpr int kColumnPos = LinkCursor::kColumnPos;

// A sorted row costs about this many scanned rows (SQLite's sorter: a comparison per level of
// log2(rows), a row costing about 8 of them).
constexpr double kSortCostPerRow = 2;
// Scanning the transpose costs a little more than the primary lists (no codec scanner).
constexpr double kTransposedScanCostPerArc = 1.25;

int PrimaryColumn(Direction primary) {
  return primary == Direction::kOut ? kColumnSrc : kColumnDst;
}

// The node a constraint value names, if it names one.
std::optional<uint32_t> NodeOf(sqlite3_value* value) {
  switch (sqlite3_value_numeric_type(value)) {
    case SQLITE_INTEGER: {
      sqlite3_int64 id = sqlite3_value_int64(value);
      if (id < 0 || id > UINT32_MAX) return std::nullopt;
      return static_cast<uint32_t>(id);
    }
    case SQLITE_FLOAT: {
      double id = sqlite3_value_double(value);
      if (!(id >= 0 && id <= UINT32_MAX) || id != static_cast<double>(static_cast<uint32_t>(id))) {
        return std::nullopt;
      }
      return static_cast<uint32_t>(id);
    }
    default:
      return std::nullopt;
  }
}

}  // namespace

void PlanLinkQuery(Direction primary, double nodes, double arcs, sqlite3_index_info* info) {
  const int primary_column = PrimaryColumn(primary);
  const int other_column = primary_column == kColumnSrc ? kColumnDst : kColumnSrc;
  const double per_list = arcs / std::max(1.0, nodes) + 1;
  int src = -1, dst = -1, rowid = -1;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& constraint = info->aConstraint[i];
    if (!constraint.usable || constraint.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (constraint.iColumn == kColumnSrc) src = i;
    if (constraint.iColumn == kColumnDst) dst = i;
    if (constraint.iColumn == -1) rowid = i;
  }
  const int key = primary_column == kColumnSrc ? src : dst;
  const int other = primary_column == kColumnSrc ? dst : src;
  auto use = [&](int constraint, int argv_index) {
    info->aConstraintUsage[constraint].argvIndex = argv_index;
    info->aConstraintUsage[constraint].omit = 1;
  };
  // The query orders (or groups) by `column` first, ascending.
  auto orders_by = [&](int column) {
    return info->nOrderBy >= 1 && !info->aOrderBy[0].desc && info->aOrderBy[0].iColumn == column;
  };
  // SQLite charges no sort to a join driven by another virtual table's unordered scan, so a
  // look-up by the column the query orders by looks cheaper than it is: the rows it feeds are
  // sorted afterwards, while scanning this table in that order would feed the other table its
  // look-ups in id order (cheap: urls_cursor.h) and need no sort. The look-up's rows carry
  // the sort's cost here.
  const double sorted_rows = per_list * kSortCostPerRow;
  int plan;
  if (src >= 0 && dst >= 0) {
    plan = kPlanArc;
    use(src, 1);
    use(dst, 2);
    info->estimatedCost = 1;
    info->estimatedRows = 1;
    info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  } else if (rowid >= 0) {
    plan = kPlanRowid;
    use(rowid, 1);
    info->estimatedCost = 1;
    info->estimatedRows = 1;
    info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
  } else if (key >= 0) {
    plan = kPlanKey;
    use(key, 1);
    info->estimatedCost = 2 + per_list + (orders_by(primary_column) ? sorted_rows : 0);
    info->estimatedRows = static_cast<sqlite3_int64>(per_list);
  } else if (other >= 0) {
    plan = kPlanOther;
    use(other, 1);
    info->estimatedCost = 3 + per_list + (orders_by(other_column) ? sorted_rows : 0);
    info->estimatedRows = static_cast<sqlite3_int64>(per_list);
  } else if (orders_by(other_column)) {
    plan = kPlanScanOther;
    info->idxStr =
        const_cast<char*>(other_column == kColumnSrc ? "scan in src order" : "scan in dst order");
    info->estimatedCost = 10 + arcs * kTransposedScanCostPerArc;
    info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, arcs));
  } else {
    plan = kPlanScan;
    info->estimatedCost = 10 + arcs;
    info->estimatedRows = static_cast<sqlite3_int64>(std::max(1.0, arcs));
  }
  info->idxNum = plan;
  // A statement that uses no column of the look-up's rows but the one it looks up (EXISTS,
  // count(*) per node) needs their number, not their values.
  const int looked_up = plan == kPlanKey ? primary_column : other_column;
  if ((plan == kPlanKey || plan == kPlanOther) &&
      (info->colUsed & ~(sqlite3_uint64{1} << looked_up)) == 0) {
    info->idxNum |= kLookedUpColumnOnly;
  }
  // Rows come in primary order, each list in other-side order.
  auto term_is = [&](int i, int column) {
    return !info->aOrderBy[i].desc && info->aOrderBy[i].iColumn == column;
  };
  bool ordered = false;
  if (plan == kPlanScanOther) {
    ordered = info->nOrderBy == 1 || (info->nOrderBy == 2 && term_is(1, primary_column));
  } else if (plan != kPlanOther && info->nOrderBy == 1) {
    ordered = term_is(0, primary_column) || (plan != kPlanScan && term_is(0, other_column));
  } else if (plan != kPlanOther && info->nOrderBy == 2) {
    ordered = term_is(0, primary_column) && term_is(1, other_column);
  }
  if (ordered) info->orderByConsumed = 1;
}

LinkCursor::LinkCursor(const LinkStore* store, const urls::UrlIds* urls, Direction primary,
                       StoreStatus store_status)
    : store_(store),
      urls_(urls != nullptr && urls->HasDeletedIds() ? urls : nullptr),
      primary_(primary),
      store_status_(std::move(store_status)) {}

bool LinkCursor::Deleted(uint32_t node) const {
  if (urls_ == nullptr) return false;
  return urls_->IsDeleted(node);
}

void LinkCursor::VisibleList(Direction direction, uint32_t node,
                             std::vector<uint32_t>* list) const {
  if (Deleted(node)) {
    list->clear();
    return;
  }
  store_->List(direction, node, list);
  if (urls_ != nullptr) {
    list->erase(std::remove_if(list->begin(), list->end(), [&](uint32_t n) { return Deleted(n); }),
                list->end());
  }
}

void LinkCursor::SetRow(absl::Span<const uint32_t> list) {
  row_begin_ = list.data();
  row_end_ = list.data() + list.size();
  entry_ = row_begin_;
}

void LinkCursor::SetNodeColumn(int column) {
  node_column_ = column;
  entry_column_ = column == kColumnSrc ? kColumnDst : kColumnSrc;
}

absl::Status LinkCursor::Filter(int idx_num, const char*, int argc, sqlite3_value** argv) {
  CRAWLDB_RETURN_IF_ERROR(Seek(idx_num, argc, argv));
  return Checked();
}

absl::Status LinkCursor::Seek(int idx_num, int argc, sqlite3_value** argv) {
  eof_ = true;
  list_.clear();
  SetRow({});
  scanner_ = nullptr;
  const int primary_column = PrimaryColumn(primary_);
  pending_rows_ = 0;
  std::optional<uint32_t> first = argc >= 1 ? NodeOf(argv[0]) : std::nullopt;
  switch (idx_num & kPlanMask) {
    case kPlanScan:
    case kPlanScanOther:
      mode_ = Mode::kScan;
      scan_direction_ = idx_num == kPlanScan ? primary_ : other();
      SetNodeColumn(scan_direction_ == Direction::kOut ? kColumnSrc : kColumnDst);
      scan_limit_ = store_->node_limit();
      // With no change since the last optimize, the codec's own scan (which reuses the lists it
      // decoded instead of following references again) gives every list.
      scanner_ = store_->delta_arcs() == 0 && store_->tombstones() == 0 && urls_ == nullptr
                     ? store_->base(scan_direction_).Scan()
                     : nullptr;
      node_ = UINT32_MAX;  // NextScanNode moves to node 0 first
      NextScanNode();
      return absl::OkStatus();
    case kPlanKey:
    case kPlanOther: {
      const bool key = (idx_num & kPlanMask) == kPlanKey;
      mode_ = key ? Mode::kKey : Mode::kOther;
      list_direction_ = key ? primary_ : other();
      SetNodeColumn(list_direction_ == Direction::kOut ? kColumnSrc : kColumnDst);
      if (!first.has_value()) return absl::OkStatus();
      node_ = *first;
      if ((idx_num & kLookedUpColumnOnly) && urls_ == nullptr) {
        if (std::optional<uint32_t> degree = store_->Degree(list_direction_, node_)) {
          pending_rows_ = list_rows_ = *degree;
          eof_ = pending_rows_ == 0;
          return absl::OkStatus();
        }
      }
      VisibleList(list_direction_, node_, &list_);
      SetRow(list_);
      break;
    }
    case kPlanArc:
    case kPlanRowid: {
      mode_ = Mode::kSingle;
      SetNodeColumn(primary_column);
      std::optional<uint32_t> src, dst;
      if (idx_num == kPlanArc) {
        src = first;
        dst = argc >= 2 ? NodeOf(argv[1]) : std::nullopt;
      } else if (sqlite3_value_numeric_type(argv[0]) == SQLITE_INTEGER) {
        auto key = static_cast<uint64_t>(sqlite3_value_int64(argv[0]));
        src = static_cast<uint32_t>(key >> 32);
        dst = static_cast<uint32_t>(key);
      }
      if (!src.has_value() || !dst.has_value() || Deleted(*src) || Deleted(*dst) ||
          !ArcPresent(*src, *dst)) {
        return absl::OkStatus();
      }
      node_ = primary_ == Direction::kOut ? *src : *dst;
      list_.push_back(primary_ == Direction::kOut ? *dst : *src);
      SetRow(list_);
      break;
    }
    default:
      return absl::InternalError(absl::StrCat("links: unknown plan ", idx_num));
  }
  eof_ = row_begin_ == row_end_;
  return absl::OkStatus();
}

bool LinkCursor::ArcPresent(uint32_t src, uint32_t dst) {
  if (probe_version_ != store_->version()) {
    probe_version_ = store_->version();
    probed_ = Probed::kNone;
  }
  // A join probing this table from a scan of another keeps one end for a run of probes (the
  // scanned list's node): once two probes in a row share an end, that end's whole list is
  // decoded and kept for the probes that follow (the caller checks that both ends are live).
  if (probed_ == Probed::kNone || (probed_ == Probed::kSrc && probed_node_ != src) ||
      (probed_ == Probed::kDst && probed_node_ != dst)) {
    probed_ = Probed::kNone;
    if (src == last_probe_.src) {
      probed_ = Probed::kSrc;
      probed_node_ = src;
      store_->List(Direction::kOut, src, &probed_list_);
    } else if (dst == last_probe_.dst) {
      probed_ = Probed::kDst;
      probed_node_ = dst;
      store_->List(Direction::kIn, dst, &probed_list_);
    }
  }
  last_probe_ = {src, dst};
  if (probed_ == Probed::kNone) return store_->Contains(src, dst);
  return std::binary_search(probed_list_.begin(), probed_list_.end(),
                            probed_ == Probed::kSrc ? dst : src);
}

void LinkCursor::NextScanNode() {
  absl::Span<const uint32_t> list;
  do {
    if (++node_ >= scan_limit_ || (scanner_ != nullptr && !scanner_->Next(&list))) {
      SetRow({});
      eof_ = true;
      return;
    }
    if (scanner_ == nullptr) {
      VisibleList(scan_direction_, node_, &list_);
      list = list_;
    }
  } while (list.empty());
  SetRow(list);
  eof_ = false;
}

void LinkCursor::DecodePending() {
  const size_t row = list_rows_ - pending_rows_;
  pending_rows_ = 0;
  VisibleList(list_direction_, node_, &list_);
  SetRow(list_);
  entry_ = row_begin_ + std::min(row, list_.size());
  eof_ = entry_ == row_end_;
}

absl::Status LinkCursor::Next() {
  if (pending_rows_ != 0) {
    eof_ = --pending_rows_ == 0;
  } else if (row_end_ - entry_ > 1) {
    ++entry_;
  } else if (mode_ == Mode::kScan) {
    NextScanNode();
    return Checked();
  } else {
    eof_ = true;
  }
  return absl::OkStatus();
}

absl::Status LinkCursor::Column(sqlite3_context* context, int column) {
  if (pending_rows_ != 0) {
    DecodePending();  // a column the plan did not expect
    CRAWLDB_RETURN_IF_ERROR(Checked());
  }
  if (TryColumnFast(context, column)) return absl::OkStatus();
  if (column == kColumnPos) {
    // The row's place in its primary node's list, which this plan did not decode.
    const uint32_t key = primary_ == Direction::kOut ? src() : dst();
    const uint32_t value = primary_ == Direction::kOut ? dst() : src();
    VisibleList(primary_, key, &scratch_);
    auto at = std::lower_bound(scratch_.begin(), scratch_.end(), value);
    CRAWLDB_RETURN_IF_ERROR(Checked());
    sqlite3_result_int64(context, at - scratch_.begin());
  } else {
    sqlite3_result_null(context);  // the hidden command columns
  }
  return absl::OkStatus();
}

absl::StatusOr<sqlite3_int64> LinkCursor::Rowid() {
  if (pending_rows_ != 0) {
    DecodePending();
    CRAWLDB_RETURN_IF_ERROR(Checked());
  }
  return static_cast<sqlite3_int64>(uint64_t{src()} << 32 | dst());
}

}  // namespace crawldb::links
