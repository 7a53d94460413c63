#include "extension/urls/url_tail.h"

#include <xxhash.h>

namespace crawldb::urls {

UrlTail::UrlTail() {
  index_.reserve(size_t{1} << kIndexPartBits);
  for (size_t part = 0; part < (size_t{1} << kIndexPartBits); ++part) {
    index_.emplace_back(0, SlotHash{}, SlotEq{this});
  }
}

uint32_t UrlTail::KeyHash32(std::string_view key) {
  return static_cast<uint32_t>(XXH3_64bits(key.data(), key.size()) >> 32);
}

std::optional<size_t> UrlTail::Find(std::string_view key) const {
  const Probe probe{key, KeyHash32(key)};
  const Index& part = PartOf(probe.hash);
  auto it = part.find(probe);
  if (it == part.end()) return std::nullopt;
  return it->index;
}

size_t UrlTail::Append(std::string_view key) {
  entries_.push_back({arena_.Append(key), key.size()});
  const size_t index = size() - 1;
  Reindex(index);
  return index;
}

void UrlTail::Unindex(size_t index) {
  const Slot slot = SlotOf(index);
  PartOf(slot.hash).erase(slot);
}

void UrlTail::Reindex(size_t index) {
  const Slot slot = SlotOf(index);
  PartOf(slot.hash).insert(slot);
}

void UrlTail::Truncate(size_t new_size) {
  for (size_t i = new_size; i < size(); ++i) {
    // Erase by index, not by key: an older entry with the same key may be the indexed one.
    Unindex(i);
  }
  if (new_size < size()) arena_.Truncate(entries_[new_size].offset);
  entries_.resize(new_size);
}

size_t UrlTail::MemoryBytes() const {
  size_t bytes = arena_.MemoryBytes() + entries_.capacity() * sizeof(Entry);
  for (const Index& part : index_) bytes += part.capacity() * (sizeof(Slot) + 1);
  return bytes;
}

}  // namespace crawldb::urls
