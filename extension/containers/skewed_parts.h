// SkewedPartOf: splits uniform 32-bit hashes into kSkewedParts = 1,024 parts of unequal shares,
// part i getting a share proportional to 2^(i / 1024): the last part is twice the first.
//
// Why skewed. A structure split into hash tables by a uniform hash (split_hash_map.h) grows every
// table at nearly the same total size, since each crosses its load limit at the same share of it:
// all 1,024 tables rehash within a few percent of volume, once per doubling, and the inserts
// there pay for rehashing every entry (issue 4's flat-delay target). With shares spread
// geometrically over one doubling, part i crosses its limits at total sizes proportional to
// 2^(k - i/1024): one part grows per factor 2^(1/1024) of volume, so the rehash work per insert is
// the same at every volume, and the tables' mean load is the one a single table has on average.
//
// The part boundaries are computed in integer arithmetic, so every build maps a hash to the same
// part.
#pragma once

#include <cstddef>
#include <cstdint>

namespace crawldb {

inline constexpr int kSkewedPartBits = 10;
inline constexpr size_t kSkewedParts = size_t{1} << kSkewedPartBits;

// The part of `hash`, in [0, kSkewedParts).
size_t SkewedPartOf(uint32_t hash);

// The smallest hash of part `part` (0 for part 0), part < kSkewedParts: floor(2^32 · (2^(part /
// 1024) − 1)) to within one unit.
uint32_t SkewedPartStart(size_t part);

}  // namespace crawldb
