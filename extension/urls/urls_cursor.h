// The reading side of `urls` (urls_table.h): its columns, the plans xBestIndex chooses between
// and the cursor that produces their rows. Private to the table's sources.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/trampoline.h"
#include "extension/identity/url_normalizer.h"
#include "extension/urls/url_store.h"
#include "extension/urls/urls_table.h"

namespace crawldb::urls {

// Columns, in declaration order.
enum Column { kColumnId, kColumnUrl, kColumnHost, kColumnFp, kColumnCommand };

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
// when the bounds pin a host (see HostOfPrefix), and a range to the keys between its bounds
// when both are in one host with its default port (key order is text order there); SQLite
// checks each row. The cheapest plan
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
  UrlStore& store() { return table_->store_; }
  void Reset();
  void Everything();
  absl::Status FilterHost(absl::string_view host);
  // The ids whose keys are in [low, high), both within one host's keys.
  absl::Status FilterKeys(const std::string& low, const std::string& high);
  absl::Status FilterUrlBounds(int idx_num, int argc, sqlite3_value** argv);
  absl::StatusOr<absl::string_view> Key();
  absl::StatusOr<absl::string_view> UrlText();

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

  // An id names one URL for the cursor's whole life (its statement reads one commit) unless a
  // rollback removes it (UrlStore::tail_rewinds), so what was decoded for one id stays good for
  // later rows with that id: a join that looks up the same id for each of its links decodes it
  // once, and look-ups of consecutive ids decode each block once.
  size_t cached_block_ = std::numeric_limits<size_t>::max();
  BlockKeys block_keys_;                                          // block cached_block_, decoded
  size_t last_lookup_rank_ = std::numeric_limits<size_t>::max();  // the last key looked up
  int consecutive_lookups_ = 0;  // how many look-ups before it were of the rank before theirs
  std::string key_;              // the current key when it was looked up alone
  int64_t text_id_ = 0;          // the id whose URL text url_text_ holds (0: none)
  uint64_t text_rewinds_ = 0;    // store().tail_rewinds() when url_text_ was decoded
  std::string url_text_;
  identity::NormalizedUrl lookup_url_;  // kPlanUrl's argument, normalised
  std::string lookup_key_;              // and its key
};

}  // namespace crawldb::urls
