// The frontier's URL records by fingerprint, split (split_hash_map.h) into kRecordParts maps by
// the fingerprint's top kRecordPartBits bits. A part is also the unit of the incremental
// snapshot (frontier_table.h): it is written out without visiting the others.
#pragma once

#include <cstddef>
#include <cstdint>

#include "extension/common/split_hash_map.h"

namespace crawldb::frontier {

inline constexpr int kRecordPartBits = 10;
inline constexpr size_t kRecordParts = size_t{1} << kRecordPartBits;

// The part of the records that holds fingerprint `fp`.
inline size_t RecordPartOf(uint64_t fp) { return static_cast<size_t>(fp >> (64 - kRecordPartBits)); }

struct RecordPartOfFp {
  size_t operator()(uint64_t fp) const { return RecordPartOf(fp); }
};

template <typename Record>
using RecordMap = SplitHashMap<uint64_t, Record, RecordPartOfFp, kRecordPartBits>;

}  // namespace crawldb::frontier
