// A blocked Bloom filter's addressing: a key's 64-bit hash picks one 64-bit word of the filter
// and 4 bits in it (6 bits of the hash each, from the low ones), so that a look-up touches one
// cache line. About 3% false positives at 8 keys per word, under 1% at 6. Used by the `urls`
// parts' stored filters (urls/url_part.h, whose format fixes these bits) and the link store's
// delta runs (links/delta_runs.h).
#pragma once

#include <cstddef>
#include <cstdint>

namespace crawldb {

// The word of a filter of `words` words (at least 1) that holds `hash`.
inline size_t BloomWord(uint64_t hash, size_t words) {
  return static_cast<size_t>(((hash >> 32) * words) >> 32);
}

// The bits `hash` sets in its word.
inline uint64_t BloomBits(uint64_t hash) {
  uint64_t bits = 0;
  for (int probe = 0; probe < 4; ++probe) bits |= uint64_t{1} << ((hash >> (6 * probe)) & 63);
  return bits;
}

}  // namespace crawldb
