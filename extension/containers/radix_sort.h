// RadixSortBy: sorts items by a 64-bit key, least significant byte first: one pass counts all
// eight bytes, then one stable scatter per byte that varies (node ids below 2^24 leave two of
// the eight alike in every key), from byte `sorted_bytes` on when the caller knows the items
// come sorted by their keys' lower bytes. About twice std::sort's speed on a million random arcs
// among a million nodes. Inputs below kRadixSortSmall go to std::stable_sort. RadixSortKeys
// sorts the keys themselves (a link store's arc keys, major · 2^32 + minor), returning at once
// when they are sorted already; its small inputs go to std::sort, stability being moot for bare
// keys.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace crawldb {

inline constexpr size_t kRadixSortSmall = 256;

// `key(item)` gives an item's uint64_t key; items with equal keys keep their order. Items that
// come sorted by their keys' low `sorted_bytes` bytes skip those passes (the sort is stable).
template <typename T, typename Key>
void RadixSortBy(std::vector<T>* items, Key key, int sorted_bytes = 0) {
  if (items->size() < kRadixSortSmall) {
    std::stable_sort(items->begin(), items->end(),
                     [&](const T& a, const T& b) { return key(a) < key(b); });
    return;
  }
  // counts[b][v]: items whose key's byte b is v, all eight counted in one pass.
  std::vector<std::array<size_t, 256>> counts(8, std::array<size_t, 256>{});
  for (const T& item : *items) {
    const uint64_t k = key(item);
    for (int b = 0; b < 8; ++b) ++counts[b][(k >> (8 * b)) & 0xFF];
  }
  std::vector<T> scratch(items->size());
  for (int b = sorted_bytes; b < 8; ++b) {
    std::array<size_t, 256>& count = counts[b];
    if (*std::max_element(count.begin(), count.end()) == items->size()) continue;  // shared byte
    size_t start = 0;
    for (size_t& c : count) start += std::exchange(c, start);
    for (const T& item : *items) scratch[count[(key(item) >> (8 * b)) & 0xFF]++] = item;
    items->swap(scratch);
  }
}

inline void RadixSortKeys(std::vector<uint64_t>* keys) {
  // Sorted already, or by the minors (a crawl's links to new URLs, in log order): one read
  // saves six passes, or the minors' three.
  bool sorted = true, minors_sorted = true;
  for (size_t i = 1; i < keys->size() && (sorted || minors_sorted); ++i) {
    sorted = sorted && (*keys)[i - 1] <= (*keys)[i];
    minors_sorted =
        minors_sorted && static_cast<uint32_t>((*keys)[i - 1]) <= static_cast<uint32_t>((*keys)[i]);
  }
  if (sorted) return;
  if (keys->size() < kRadixSortSmall) {
    std::sort(keys->begin(), keys->end());
    return;
  }
  RadixSortBy(
      keys, [](uint64_t key) { return key; }, minors_sorted ? 4 : 0);
}

}  // namespace crawldb
