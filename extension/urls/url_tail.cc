#include "extension/urls/url_tail.h"

#include <xxhash.h>

namespace crawldb::urls {

UrlTail::UrlTail() : offsets_{0}, index_(0, KeyHash{this}, KeyEq{this}) {}

size_t UrlTail::KeyHash::operator()(std::string_view key) const {
  return XXH3_64bits(key.data(), key.size());
}

std::optional<size_t> UrlTail::Find(std::string_view key) const {
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  return *it;
}

size_t UrlTail::Append(std::string_view key) {
  arena_.append(key);
  offsets_.push_back(static_cast<uint32_t>(arena_.size()));
  uint32_t index = static_cast<uint32_t>(size() - 1);
  index_.insert(index);
  return index;
}

void UrlTail::Unindex(size_t index) { index_.erase(static_cast<uint32_t>(index)); }

void UrlTail::Reindex(size_t index) { index_.insert(static_cast<uint32_t>(index)); }

void UrlTail::Truncate(size_t new_size) {
  for (size_t i = new_size; i < size(); ++i) {
    // Erase by index, not by key: an older entry with the same key may be the indexed one.
    auto it = index_.find(Key(i));
    if (it != index_.end() && *it == i) index_.erase(it);
  }
  arena_.resize(offsets_[new_size]);
  offsets_.resize(new_size + 1);
}

size_t UrlTail::MemoryBytes() const {
  return arena_.capacity() + offsets_.capacity() * sizeof(uint32_t) +
         index_.capacity() * (sizeof(uint32_t) + 1);
}

}  // namespace crawldb::urls
