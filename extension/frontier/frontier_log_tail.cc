#include "extension/frontier/frontier_log_tail.h"

#include <algorithm>

namespace crawldb::frontier {

void LogTail::Add(absl::Span<const UrlChange> urls, absl::Span<const PartRange> ranges,
                  absl::Span<const HostChange> hosts, size_t row_bytes) {
  const auto base = static_cast<uint32_t>(urls_.size());
  urls_.insert(urls_.end(), urls.begin(), urls.end());
  for (const PartRange& range : ranges) {
    ranges_[range.part].push_back({range.part, base + range.begin, base + range.end});
  }
  for (const HostChange& host : hosts) hosts_.insert(host.id);
  CountRow(row_bytes);
}

void LogTail::AppendPart(uint32_t part, std::vector<UrlChange>* out) const {
  auto found = ranges_.find(part);
  if (found == ranges_.end()) return;
  for (const PartRange& range : found->second) {
    out->insert(out->end(), urls_.begin() + range.begin, urls_.begin() + range.end);
  }
}

std::vector<uint32_t> LogTail::Parts() const {
  std::vector<uint32_t> parts;
  parts.reserve(ranges_.size());
  for (const auto& [part, ranges] : ranges_) parts.push_back(part);
  std::sort(parts.begin(), parts.end());
  return parts;
}

void LogTail::Fold(int64_t seq) {
  *this = LogTail();
  FoldedAt(seq);
}

size_t LogTail::MemoryBytes() const {
  size_t bytes = urls_.capacity() * sizeof(UrlChange) + hosts_.size() * sizeof(uint32_t) * 2;
  for (const auto& [part, ranges] : ranges_) bytes += ranges.capacity() * sizeof(PartRange) + 16;
  return bytes;
}

}  // namespace crawldb::frontier
