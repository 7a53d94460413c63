#include "extension/urls/url_log_tail.h"

#include <algorithm>

#include "absl/strings/string_view.h"

namespace crawldb::urls {

std::vector<absl::string_view> UrlLogTail::PartKeys::Keys() const {
  std::vector<absl::string_view> keys;
  keys.reserve(ends.size());
  uint32_t begin = 0;
  for (uint32_t end : ends) {
    keys.push_back(absl::string_view(bytes).substr(begin, end - begin));
    begin = end;
  }
  return keys;
}

void UrlLogTail::AddPart(size_t part, absl::Span<const int64_t> ids,
                         absl::Span<const absl::string_view> keys) {
  if (ids.empty()) return;
  PartKeys& held = parts_[part];
  held.ids.insert(held.ids.end(), ids.begin(), ids.end());
  for (absl::string_view key : keys) {
    held.bytes.append(key.data(), key.size());
    held.ends.push_back(static_cast<uint32_t>(held.bytes.size()));
    key_bytes_ += key.size();
  }
  urls_ += ids.size();
  first_id_ = first_id_ == 0 ? ids.front() : std::min(first_id_, ids.front());
}

void UrlLogTail::AddRow(size_t row_bytes) { CountRow(row_bytes); }

const UrlLogTail::PartKeys* UrlLogTail::Part(size_t part) const {
  auto found = parts_.find(part);
  return found == parts_.end() ? nullptr : &found->second;
}

std::vector<size_t> UrlLogTail::Parts() const {
  std::vector<size_t> parts;
  parts.reserve(parts_.size());
  for (const auto& [part, keys] : parts_) parts.push_back(part);
  std::sort(parts.begin(), parts.end());
  return parts;
}

void UrlLogTail::Fold(int64_t seq) {
  *this = UrlLogTail();
  FoldedAt(seq);
}

size_t UrlLogTail::MemoryBytes() const {
  size_t bytes = sizeof(*this);
  for (const auto& [part, keys] : parts_) {
    bytes += sizeof(part) + sizeof(keys) + keys.ids.capacity() * sizeof(int64_t) +
             keys.bytes.capacity() + keys.ends.capacity() * sizeof(uint32_t);
  }
  return bytes;
}

}  // namespace crawldb::urls
