// UrlLogTail: the URLs that the `urls` commits after the last fold added, as one connection holds
// them (urls_table.h, "The log tail"). Each such commit's <t>_log row carries its keys by part
// (url_log_format.h); until a fold writes them into <t>_pending rows, a part read from its run
// and pending rows takes its keys from here. Bounded by the fold rule: log_tail_kb of log rows,
// kTailRows rows.
//
// Memory: per URL its key bytes, 4 bytes of end offset and 8 of id; about 80 bytes per part.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/containers/log_tail_rows.h"

namespace crawldb::urls {

class UrlLogTail : public LogTailRows {
 public:
  // The keys one part holds in the tail, in id order.
  struct PartKeys {
    std::vector<int64_t> ids;
    std::string bytes;
    std::vector<uint32_t> ends;  // key i is bytes[ends[i − 1], ends[i])
    std::vector<absl::string_view> Keys() const;
  };

  size_t urls() const { return urls_; }
  size_t key_bytes() const { return key_bytes_; }
  // The smallest id in the tail; 0 when it holds none.
  int64_t first_id() const { return first_id_; }

  // Adds one commit's URLs of part `part`: ids increasing, above every id the tail holds there.
  void AddPart(size_t part, absl::Span<const int64_t> ids,
               absl::Span<const absl::string_view> keys);
  // Counts one commit's log row (its parts added first), of `row_bytes` bytes.
  void AddRow(size_t row_bytes);
  // Part `part`'s keys, or null when the tail holds none there.
  const PartKeys* Part(size_t part) const;
  // The parts the tail holds keys of, in increasing order.
  std::vector<size_t> Parts() const;
  // Empties the tail: commit `seq` folded it.
  void Fold(int64_t seq);
  size_t MemoryBytes() const;

 private:
  size_t urls_ = 0;
  size_t key_bytes_ = 0;
  int64_t first_id_ = 0;
  absl::flat_hash_map<size_t, PartKeys> parts_;
};

}  // namespace crawldb::urls
