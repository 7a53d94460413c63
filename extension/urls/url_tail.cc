#include "extension/urls/url_tail.h"

#include <xxhash.h>

#include "extension/urls/url_part.h"

namespace crawldb::urls {

UrlTail::UrlTail() : pending_(kUrlParts) {
  index_.reserve(kSkewedParts);
  for (size_t part = 0; part < kSkewedParts; ++part) {
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
  entries_.push_back({kAbsent, 0});
  const size_t index = size() - 1;
  SetPending(index, key);
  return index;
}

void UrlTail::Grow(size_t size) {
  if (size > entries_.size()) entries_.resize(size, Entry{kAbsent, 0});
}

void UrlTail::SetPending(size_t index, std::string_view key) {
  entries_[index] = {arena_.Append(key), key.size()};
  pending_[UrlPartOf(key)].push_back(static_cast<uint32_t>(index));
  ++pending_count_;
  pending_bytes_ += key.size();
  Reindex(index);
}

void UrlTail::Unindex(size_t index) {
  const Slot slot = SlotOf(index);
  PartOf(slot.hash).erase(slot);
}

void UrlTail::Reindex(size_t index) {
  const Slot slot = SlotOf(index);
  PartOf(slot.hash).insert(slot);
}

void UrlTail::Forget(size_t index) {
  // Erase by index, not by key: an older entry with the same key may be the indexed one.
  Unindex(index);
  const size_t length = entries_[index].length;
  --pending_count_;
  pending_bytes_ -= length;
  dead_bytes_ += length;
  entries_[index] = {kAbsent, 0};
}

void UrlTail::Truncate(size_t new_size) {
  if (new_size >= size()) return;
  // The entries dropped were appended since the last compaction, after every other key.
  const uint64_t arena_end = entries_[new_size].offset;
  size_t dropped_bytes = 0;
  for (size_t i = size(); i-- > new_size;) {
    std::vector<uint32_t>& pending = pending_[UrlPartOf(Key(i))];
    // The newest entries of each part are at the back of its list.
    if (!pending.empty() && pending.back() == i) pending.pop_back();
    dropped_bytes += entries_[i].length;
    Forget(i);
  }
  // Their bytes go with the arena's end instead of being counted unused.
  dead_bytes_ -= dropped_bytes;
  arena_.Truncate(arena_end);
  entries_.resize(new_size);
}

void UrlTail::Compact() {
  TextArena arena;
  for (std::vector<uint32_t>& pending : pending_) {
    for (uint32_t index : pending) {
      Entry& entry = entries_[index];
      entry.offset = arena.Append(arena_.View(entry.offset, entry.length));
    }
  }
  arena_ = std::move(arena);
  dead_bytes_ = 0;
}

size_t UrlTail::MemoryBytes() const {
  size_t bytes = arena_.MemoryBytes() + entries_.capacity() * sizeof(Entry);
  for (const Index& part : index_) bytes += part.capacity() * (sizeof(Slot) + 1);
  for (const std::vector<uint32_t>& pending : pending_) bytes += pending.capacity() * 4;
  return bytes;
}

}  // namespace crawldb::urls
