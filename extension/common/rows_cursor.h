// RowsCursor<Row>: the cursor of a table-valued function whose xFilter computes all its rows at
// once (a lease, the hosts): they are held in rows(), read in order, rowid 1, 2, 3, …
// (trampoline.h's Next, Eof and Rowid). The derived cursor fills them in Filter (Restart first)
// and reads row() in Column.
#pragma once

#include <cstddef>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/trampoline.h"

namespace crawldb {

template <typename Row>
class RowsCursor : public VirtualCursor {
 public:
  absl::Status Next() {
    ++next_;
    return absl::OkStatus();
  }
  bool Eof() const { return next_ >= rows_.size(); }
  absl::StatusOr<sqlite3_int64> Rowid() { return static_cast<sqlite3_int64>(next_ + 1); }

 protected:
  // Empties the rows, for a new xFilter.
  void Restart() {
    rows_.clear();
    next_ = 0;
  }
  std::vector<Row>& rows() { return rows_; }
  const Row& row() const { return rows_[next_]; }
  size_t position() const { return next_; }

 private:
  std::vector<Row> rows_;
  size_t next_ = 0;
};

}  // namespace crawldb
