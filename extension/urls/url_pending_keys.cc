#include "extension/urls/url_pending_keys.h"

#include <xxhash.h>

#include <algorithm>

#include "absl/strings/string_view.h"

namespace crawldb::urls {

PendingKeys::PendingKeys() : index_(0, SlotHash{}, SlotEq{this}) {}

uint32_t PendingKeys::KeyHash32(absl::string_view key) {
  return static_cast<uint32_t>(XXH3_64bits(key.data(), key.size()) >> 32);
}

void PendingKeys::BuildIndex() const {
  if (indexed_) return;
  index_.reserve(size());
  for (size_t i = 0; i < size(); ++i) Index(i, KeyHash32(key(i)));
  indexed_ = true;
}

std::optional<size_t> PendingKeys::Index(size_t index, uint32_t hash) const {
  std::optional<size_t> replaced;
  if (auto it = index_.find(Probe{key(index), hash}); it != index_.end()) {
    replaced = it->index;
    index_.erase(it);
  }
  index_.insert(Slot{static_cast<uint32_t>(index), hash});
  return replaced;
}

std::optional<size_t> PendingKeys::Find(absl::string_view key) const {
  if (!indexed_ && scanned_finds_ < kScannedFinds) {
    ++scanned_finds_;
    for (size_t i = size(); i-- > 0;) {
      if (this->key(i) == key) return i;
    }
    return std::nullopt;
  }
  BuildIndex();
  auto it = index_.find(Probe{key, KeyHash32(key)});
  if (it == index_.end()) return std::nullopt;
  return it->index;
}

std::optional<size_t> PendingKeys::FindId(int64_t id) const {
  auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id) return std::nullopt;
  return static_cast<size_t>(it - ids_.begin());
}

void PendingKeys::Push(int64_t id, absl::string_view key) {
  bytes_.append(key.data(), key.size());
  ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  ids_.push_back(id);
}

std::optional<size_t> PendingKeys::Append(int64_t id, absl::string_view key) {
  BuildIndex();
  Push(id, key);
  return Index(size() - 1, KeyHash32(key));
}

void PendingKeys::AppendStored(int64_t id, absl::string_view key) {
  Push(id, key);
  if (indexed_) Index(size() - 1, KeyHash32(key));
}

void PendingKeys::Reserve(size_t entries, size_t key_bytes) {
  bytes_.reserve(key_bytes);
  ends_.reserve(entries);
  ids_.reserve(entries);
  if (indexed_) index_.reserve(entries);
}

void PendingKeys::PopBack(std::optional<size_t> reindex) {
  // Erase by index, not by key: an older entry with the same key may be the indexed one.
  if (indexed_) index_.erase(SlotOf(size() - 1));
  ids_.pop_back();
  ends_.pop_back();
  bytes_.resize(ends_.empty() ? 0 : ends_.back());
  if (indexed_ && reindex.has_value()) index_.insert(SlotOf(*reindex));
}

size_t PendingKeys::MemoryBytes() const {
  return sizeof(*this) + bytes_.capacity() + ends_.capacity() * sizeof(uint32_t) +
         ids_.capacity() * sizeof(int64_t) + index_.capacity() * (sizeof(Slot) + 1);
}

}  // namespace crawldb::urls
