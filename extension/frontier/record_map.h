// The frontier's URL records by fingerprint, split into kRecordParts maps by SkewedPartOf of the
// fingerprint's top 32 bits (skewed_parts.h: the parts' shares differ, so that they do not all
// rehash at once, as in split_hash_map.h). Each part is a SlotHashMap (slot_hash_map.h): about
// 58 bytes per 40-byte record, where a flat_hash_map takes about 97. A part is also the unit of
// the incremental snapshot (frontier_table.h): it is written out without visiting the others,
// so the mapping is part of the frontier's on-disk format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "extension/containers/skewed_parts.h"
#include "extension/containers/slot_hash_map.h"

namespace crawldb::frontier {

inline constexpr int kRecordPartBits = kSkewedPartBits;
inline constexpr size_t kRecordParts = kSkewedParts;

// The part of the records that holds fingerprint `fp`.
inline size_t RecordPartOf(uint64_t fp) { return SkewedPartOf(static_cast<uint32_t>(fp >> 32)); }

template <typename Record>
class RecordMap {
 public:
  using Part = SlotHashMap<Record>;

  RecordMap() : parts_(kRecordParts) {}

  size_t size() const { return size_; }
  const Part& part(size_t index) const { return parts_[index]; }

  const Record* Find(uint64_t fp) const { return parts_[RecordPartOf(fp)].Find(fp); }
  Record* Find(uint64_t fp) { return parts_[RecordPartOf(fp)].Find(fp); }
  bool Contains(uint64_t fp) const { return parts_[RecordPartOf(fp)].Contains(fp); }
  // Adds `fp` with `record` unless it is there; true when it was added.
  bool Insert(uint64_t fp, const Record& record) {
    const bool inserted = parts_[RecordPartOf(fp)].Insert(fp, record);
    if (inserted) ++size_;
    return inserted;
  }
  void Erase(uint64_t fp) { size_ -= parts_[RecordPartOf(fp)].Erase(fp); }
  // Makes room in part `index` for `count` records in all, so that filling it does not rehash.
  void Reserve(size_t index, size_t count) { parts_[index].Reserve(count); }

  // Calls visit(fp, record) for every record, part by part.
  template <typename Visit>
  void ForEach(Visit visit) const {
    for (const Part& part : parts_) part.ForEach(visit);
  }
  template <typename Visit>
  void ForEach(Visit visit) {
    for (Part& part : parts_) part.ForEach(visit);
  }

  size_t MemoryBytes() const {
    size_t bytes = parts_.capacity() * sizeof(Part);
    for (const Part& part : parts_) bytes += part.MemoryBytes();
    return bytes;
  }

 private:
  std::vector<Part> parts_;
  size_t size_ = 0;
};

}  // namespace crawldb::frontier
