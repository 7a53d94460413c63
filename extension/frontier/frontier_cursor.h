// The reading side of `frontier` (frontier_table.h): the plans xBestIndex chooses between and the
// cursor that produces their rows. Private to the table's sources.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/trampoline.h"
#include "extension/frontier/frontier_table.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {

// xBestIndex plans (idxNum); each uses one equality constraint, argv[0].
//
//   plan        constraint        rows      cost
//   kPlanScan   none              N         10 + N
//   kPlanFp     rowid = ?         1         1
//   kPlanUrl    url = ?           1         2
//   kPlanId     id = ?            1         3   (the id's text from `urls`, then its fingerprint)
//   kPlanHost   host = ?          N / 100   5 + rows   (the host's part, filtered)
//   kPlanState  state = ?         N / 4     5 + rows   (every part, filtered)
//   kPlanToken  lease_token = ?   10        2 + rows   (the token's <t>_leases rows, in lease
//                                                      order, kept while their lease holds)
// The constraint is omitted (the plan returns exactly the matching rows); no ORDER BY is consumed.
enum Plan { kPlanScan, kPlanFp, kPlanUrl, kPlanId, kPlanHost, kPlanState, kPlanToken };

// ---------------------------------------------------------------------------------------------
// Cursor: the rows' fingerprints are collected one part at a time (frontier_parts.h), so that
// a scan holds one part's list and the store's cache bounds what it reads; columns read the
// live record.

class FrontierTable::Cursor : public VirtualCursor {
 public:
  explicit Cursor(FrontierTable* table) : table_(table) {}

  absl::Status Filter(int idx_num, const char* idx_str, int argc, sqlite3_value** argv);
  absl::Status Next();
  bool Eof() const { return next_ >= fps_.size(); }
  absl::Status Column(sqlite3_context* context, int column);
  absl::StatusOr<sqlite3_int64> Rowid() { return identity::FingerprintToSql(fps_[next_]); }

 private:
  // Collects the matching rows of part `part_`, then of the parts after it while none match
  // (a scan) or stops (one part).
  absl::Status Collect();
  bool Matches(const UrlRecord& record) const;
  size_t PartOfRow() const { return parts_.empty() ? part_ : parts_[next_]; }

  FrontierTable* table_;
  size_t part_ = 0;
  bool scan_ = false;                 // every part in turn, else part_ only
  std::optional<uint32_t> host_;      // only this host's records
  std::optional<std::string> state_;  // only records of this SQL state
  std::vector<uint64_t> fps_;
  std::vector<size_t> parts_;         // kPlanToken: the part of each row (else all in part_)
  std::optional<std::string> token_;  // kPlanToken: the token looked up
  size_t next_ = 0;
};

}  // namespace crawldb::frontier
