// The frontier's URL records by fingerprint, split into kRecordParts hash maps chosen by the
// fingerprint's top kRecordPartBits bits. A part is the unit of the incremental snapshot
// (frontier_table.h): it can be written out without visiting the others. And each map grows on
// its own, so that no single insert rehashes the whole frontier: the maps reach their growth
// points at slightly different sizes, spreading the rehash over many transactions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace crawldb::frontier {

inline constexpr int kRecordPartBits = 10;
inline constexpr size_t kRecordParts = size_t{1} << kRecordPartBits;

// The part of the records that holds fingerprint `fp`.
inline size_t RecordPartOf(uint64_t fp) { return static_cast<size_t>(fp >> (64 - kRecordPartBits)); }

template <typename Record>
class RecordMap {
 public:
  using Part = absl::flat_hash_map<uint64_t, Record>;

  RecordMap() : parts_(kRecordParts) {}

  size_t size() const { return size_; }
  const Part& part(size_t index) const { return parts_[index]; }

  const Record* Find(uint64_t fp) const {
    const Part& part = parts_[RecordPartOf(fp)];
    auto it = part.find(fp);
    return it == part.end() ? nullptr : &it->second;
  }
  Record* Find(uint64_t fp) {
    Part& part = parts_[RecordPartOf(fp)];
    auto it = part.find(fp);
    return it == part.end() ? nullptr : &it->second;
  }
  bool Contains(uint64_t fp) const { return parts_[RecordPartOf(fp)].contains(fp); }

  // Inserts the record of a new `fp`.
  void Insert(uint64_t fp, const Record& record) {
    if (parts_[RecordPartOf(fp)].emplace(fp, record).second) ++size_;
  }
  void Erase(uint64_t fp) { size_ -= parts_[RecordPartOf(fp)].erase(fp); }

  // Calls visit(fp, record) for every record, part by part.
  template <typename Visit>
  void ForEach(Visit visit) const {
    for (const Part& part : parts_) {
      for (const auto& [fp, record] : part) visit(fp, record);
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

}  // namespace crawldb::frontier
