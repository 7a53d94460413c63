// LogTailRows: what a log tail (urls/url_log_tail.h, frontier/frontier_log_tail.h) counts of the
// commits it holds — their <t>_log rows and those rows' bytes, which the fold rule bounds — and
// the newest commit folded before them. The tails derive from it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace crawldb {

class LogTailRows {
 public:
  // The newest commit folded: the tail holds the commits after it.
  int64_t folded() const { return folded_; }
  size_t rows() const { return rows_; }
  // Bytes of the log rows the tail holds.
  size_t row_bytes() const { return row_bytes_; }
  bool empty() const { return rows_ == 0; }

 protected:
  // One more commit's log row, of `row_bytes` bytes.
  void CountRow(size_t row_bytes) {
    ++rows_;
    row_bytes_ += row_bytes;
  }
  // Commit `seq` folded every row counted.
  void FoldedAt(int64_t seq) {
    folded_ = seq;
    rows_ = 0;
    row_bytes_ = 0;
  }

 private:
  int64_t folded_ = 0;
  size_t rows_ = 0;
  size_t row_bytes_ = 0;
};

}  // namespace crawldb
