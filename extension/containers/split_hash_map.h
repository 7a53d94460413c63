// SplitHashMap: a hash map split into 2^kPartBits absl::flat_hash_maps, the part of a key chosen
// by PartOf (a functor: key → part index).
//
// One flat_hash_map rehashes all its entries in the insert that crosses its load limit: at a
// few million entries, a pause of a few hundred milliseconds in one insert, mostly cache and
// page misses. Split, each part grows on its own and fits in the cache while it rehashes. With
// equal shares the parts still cross their limits at nearly the same total size; PartOf should
// give them skewed shares (skewed_parts.h) so that the work spreads evenly over the inserts.
// Look-ups pay one extra index. The parts are made at the first insert: an empty map allocates
// nothing (a table opened with no changes pays no page faults for 2^kPartBits empty parts).
#pragma once

#include <cstddef>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace crawldb {

template <typename Key, typename Value, typename PartOf, int kPartBits = 10>
class SplitHashMap {
 public:
  static constexpr size_t kParts = size_t{1} << kPartBits;
  using Part = absl::flat_hash_map<Key, Value>;

  size_t size() const { return size_; }
  const Part& part(size_t index) const {
    static const Part kNone;
    return parts_.empty() ? kNone : parts_[index];
  }

  const Value* Find(const Key& key) const {
    if (parts_.empty()) return nullptr;
    const Part& part = parts_[PartOf()(key)];
    auto it = part.find(key);
    return it == part.end() ? nullptr : &it->second;
  }
  Value* Find(const Key& key) {
    if (parts_.empty()) return nullptr;
    Part& part = parts_[PartOf()(key)];
    auto it = part.find(key);
    return it == part.end() ? nullptr : &it->second;
  }
  bool Contains(const Key& key) const {
    return !parts_.empty() && parts_[PartOf()(key)].contains(key);
  }

  // The value of `key`, value-initialised when it is new.
  Value& operator[](const Key& key) {
    if (parts_.empty()) parts_.resize(kParts);
    auto [it, inserted] = parts_[PartOf()(key)].try_emplace(key);
    if (inserted) ++size_;
    return it->second;
  }
  void Erase(const Key& key) {
    if (!parts_.empty()) size_ -= parts_[PartOf()(key)].erase(key);
  }
  void Clear() {
    std::vector<Part>().swap(parts_);
    size_ = 0;
  }

  // Calls visit(key, value) for every entry, part by part.
  template <typename Visit>
  void ForEach(Visit visit) const {
    for (const Part& part : parts_) {
      for (const auto& [key, value] : part) visit(key, value);
    }
  }
  // The same, with the values writable.
  template <typename Visit>
  void ForEach(Visit visit) {
    for (Part& part : parts_) {
      for (auto& [key, value] : part) visit(key, value);
    }
  }

  // Slots allocated over all parts.
  size_t capacity() const {
    size_t slots = 0;
    for (const Part& part : parts_) slots += part.capacity();
    return slots;
  }

 private:
  std::vector<Part> parts_;
  size_t size_ = 0;
};

}  // namespace crawldb
