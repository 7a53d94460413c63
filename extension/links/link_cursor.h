// The cursor and the query plans shared by `outlinks` and `inlinks` (links_table.h). A table is
// keyed by one side of the arc, its `primary` column: src for outlinks, dst for inlinks.
//
// xBestIndex plans (idxNum; argv in the order given):
//   plan          constraints used                         rows            cost
//   kPlanScan     none: every list in primary order        A (arcs)        10 + A
//   kPlanKey      primary = ? (IN too: one xFilter each)   A / N + 1       2 + rows
//   kPlanOther    other side = ?, from the transpose       A / N + 1       3 + rows
//   kPlanArc      src = ? and dst = ?                      1               1 (a run of probes
//                 sharing one end decodes that end's list once)
//   kPlanRowid    rowid = ?                                1               1
//   kPlanScanOther  none: every list of the transpose, in    A               10 + 1.25 A
//                 other-side order; offered only for ORDER BY other side
// N is the node count. The constraints a plan uses are omitted (the cursor applies them
// exactly); kPlanScan, kPlanKey and kPlanArc consume ORDER BY primary, and kPlanKey also
// ORDER BY primary, other; kPlanScanOther consumes ORDER BY other [, primary]. When a
// statement uses no column of a look-up's rows but the looked-up one (EXISTS, count(*)), the
// cursor counts the list instead of decoding it (idxNum flag 0x100), unless the table holds
// removed base arcs or deleted URLs; a column asked for anyway decodes it. A look-up whose
// column the query orders by also carries the cost of sorting its rows (see PlanLinkQuery).
// EXPLAIN QUERY PLAN shows kPlanScanOther as "INDEX 5:scan in src order" (or dst). A value that
// is not an integer id (NULL, text, a fraction, outside 0..2^32−1) matches nothing.
//
// Rows of a deleted URL (either side) are skipped; `pos` counts only the rows shown.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "extension/common/trampoline.h"
#include "extension/links/link_store.h"

namespace crawldb::urls {
class UrlIds;
}

namespace crawldb::links {

// Fills the plan for a table keyed by `primary` whose store holds `arcs` arcs over `nodes` nodes.
void PlanLinkQuery(Direction primary, double nodes, double arcs, sqlite3_index_info* info);

class LinkCursor : public VirtualCursor {
 public:
  // The columns of both tables, in declaration order.
  enum Column { kColumnSrc, kColumnDst, kColumnPos };

  // The store's status() as the owning table reports it (its corruption policy).
  using StoreStatus = std::function<absl::Status()>;

  // `store` and `urls` (nullptr when the graph's urls table is not connected) must outlive the
  // cursor; both are caught up by the caller. A list the store finds corrupt ends the
  // statement with `store_status`'s error (LinkStore::status()).
  LinkCursor(const LinkStore* store, const urls::UrlIds* urls, Direction primary,
             StoreStatus store_status);

  absl::Status Filter(int idx_num, const char* idx_str, int argc, sqlite3_value** argv);
  absl::Status Next();
  bool Eof() const { return eof_; }
  absl::Status Column(sqlite3_context* context, int column);
  // The per-row fast paths (trampoline.h), inline for the scan's sake: the next row of the
  // current list; src, dst, and pos where the plan has it at hand.
  bool TryNextFast() noexcept {
    if (row_end_ - entry_ <= 1) return false;
    ++entry_;
    return true;
  }
  bool TryColumnFast(sqlite3_context* context, int column) noexcept {
    sqlite3_int64 value;
    if (pending_rows_ != 0 && column != node_column_) return false;
    if (column == entry_column_) {
      value = *entry_;
    } else if (column == node_column_) {
      value = node_;
    } else if (column == kColumnPos &&
               (mode_ == Mode::kKey || (mode_ == Mode::kScan && scan_direction_ == primary_))) {
      value = entry_ - row_begin_;
    } else {
      return false;
    }
    sqlite3_result_int64(context, value);
    return true;
  }
  absl::StatusOr<sqlite3_int64> Rowid();

 private:
  Direction other() const { return primary_ == Direction::kOut ? Direction::kIn : Direction::kOut; }
  bool Deleted(uint32_t node) const;
  // OK unless a list this cursor read was corrupt: then store_status_'s error.
  absl::Status Checked() const {
    return store_->status().ok() ? absl::OkStatus() : store_status_();
  }
  // Filter, before Checked().
  absl::Status Seek(int idx_num, int argc, sqlite3_value** argv);
  // The list of `node` in `direction`, less deleted URLs.
  void VisibleList(Direction direction, uint32_t node, std::vector<uint32_t>* list) const;
  // Makes `list` the current list, its first entry the row.
  void SetRow(absl::Span<const uint32_t> list);
  // Sets which column node_ and the list's entries are: node_ is src (the entries dst) or dst.
  void SetNodeColumn(int column);
  // Moves to the next scanned node with a non-empty list; eof after the last.
  void NextScanNode();
  // Whether the store holds the arc (both ends live), for kPlanArc and kPlanRowid.
  bool ArcPresent(uint32_t src, uint32_t dst);
  // Decodes the list a look-up counted (pending_rows_ > 0) and moves to its current row.
  void DecodePending();
  // The current row's ends.
  uint32_t src() const { return node_column_ == kColumnSrc ? node_ : *entry_; }
  uint32_t dst() const { return node_column_ == kColumnDst ? node_ : *entry_; }

  enum class Mode { kScan, kKey, kOther, kSingle };

  const LinkStore* store_;
  const urls::UrlIds* urls_;
  Direction primary_;
  StoreStatus store_status_;
  Mode mode_ = Mode::kScan;
  Direction scan_direction_ = Direction::kOut;  // kScan: the lists scanned, primary_'s or the
                                                // transpose's
  bool eof_ = true;
  uint32_t node_ = 0;              // the primary node (kScan, kKey, kSingle) or the other (kOther)
  int node_column_ = kColumnSrc;   // the column node_ is
  int entry_column_ = kColumnDst;  // the column the list's entries are
  std::vector<uint32_t> list_;     // the current list, when the cursor decoded it
  // kKey and kOther: the direction of node_'s list. When the plan needs only the rows' number
  // (kLookedUpColumnOnly) the list stays undecoded: list_rows_ rows, pending_rows_ of them left
  // (0 once decoded).
  Direction list_direction_ = Direction::kOut;
  size_t list_rows_ = 0;
  size_t pending_rows_ = 0;
  // The current list (list_'s or the scanner's) and the row's entry in it; all null or equal
  // when there is no list.
  const uint32_t* row_begin_ = nullptr;
  const uint32_t* row_end_ = nullptr;
  const uint32_t* entry_ = nullptr;
  std::unique_ptr<codecs::ListScanner> scanner_;  // kScan over an unchanged base
  uint32_t scan_limit_ = 0;
  mutable std::vector<uint32_t> scratch_;
  // ArcPresent's last probe, and the list it keeps: src's out-list or dst's in-list, decoded
  // at store version probe_version_.
  enum class Probed { kNone, kSrc, kDst };
  struct Arc {
    uint32_t src = UINT32_MAX;
    uint32_t dst = UINT32_MAX;
  };
  Arc last_probe_;
  Probed probed_ = Probed::kNone;
  uint32_t probed_node_ = 0;
  std::vector<uint32_t> probed_list_;
  uint64_t probe_version_ = 0;
};

}  // namespace crawldb::links
