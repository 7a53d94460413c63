#include "extension/urls/url_tail.h"

#include <xxhash.h>

namespace crawldb::urls {

UrlTail::UrlTail() : index_(0, SlotHash{}, SlotEq{this}) {}

uint32_t UrlTail::KeyHash32(std::string_view key) {
  return static_cast<uint32_t>(XXH3_64bits(key.data(), key.size()) >> 32);
}

std::optional<size_t> UrlTail::Find(std::string_view key) const {
  auto it = index_.find(key);
  if (it == index_.end()) return std::nullopt;
  return it->index;
}

size_t UrlTail::Append(std::string_view key) {
  entries_.push_back({arena_.Append(key), key.size()});
  const size_t index = size() - 1;
  index_.insert(SlotOf(index));
  return index;
}

void UrlTail::Unindex(size_t index) { index_.erase(SlotOf(index)); }

void UrlTail::Reindex(size_t index) { index_.insert(SlotOf(index)); }

void UrlTail::Truncate(size_t new_size) {
  for (size_t i = new_size; i < size(); ++i) {
    // Erase by index, not by key: an older entry with the same key may be the indexed one.
    index_.erase(SlotOf(i));
  }
  if (new_size < size()) arena_.Truncate(entries_[new_size].offset);
  entries_.resize(new_size);
}

size_t UrlTail::MemoryBytes() const {
  return arena_.MemoryBytes() + entries_.capacity() * sizeof(Entry) +
         index_.capacity() * (sizeof(Slot) + 1);
}

}  // namespace crawldb::urls
