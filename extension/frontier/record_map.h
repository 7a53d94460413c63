// The frontier's URL records by fingerprint, split (split_hash_map.h) into kRecordParts maps by
// SkewedPartOf of the fingerprint's top 32 bits (skewed_parts.h: the parts' shares differ, so
// that they do not all rehash at once). A part is also the unit of the incremental snapshot
// (frontier_table.h): it is written out without visiting the others, so the mapping is part of
// the frontier's on-disk format.
#pragma once

#include <cstddef>
#include <cstdint>

#include "extension/containers/skewed_parts.h"
#include "extension/containers/split_hash_map.h"

namespace crawldb::frontier {

inline constexpr int kRecordPartBits = kSkewedPartBits;
inline constexpr size_t kRecordParts = kSkewedParts;

// The part of the records that holds fingerprint `fp`.
inline size_t RecordPartOf(uint64_t fp) { return SkewedPartOf(static_cast<uint32_t>(fp >> 32)); }

struct RecordPartOfFp {
  size_t operator()(uint64_t fp) const { return RecordPartOf(fp); }
};

template <typename Record>
using RecordMap = SplitHashMap<uint64_t, Record, RecordPartOfFp, kRecordPartBits>;

}  // namespace crawldb::frontier
