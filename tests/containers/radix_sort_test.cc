// RadixSortKeys sorts as std::sort does: arc-like keys (two ids below 2^20), full 64-bit keys,
// keys sharing every byte but one, duplicates, sizes around the small-input cut, keys that come
// sorted, or sorted by their minors only (which skips the minors' passes). RadixSortBy
// sorts items as std::stable_sort does by the same keys.
#include "extension/containers/radix_sort.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace crawldb {
namespace {

void ExpectSortsAsStdSort(std::vector<uint64_t> keys) {
  std::vector<uint64_t> expected = keys;
  std::sort(expected.begin(), expected.end());
  RadixSortKeys(&keys);
  EXPECT_EQ(keys, expected);
}

TEST(RadixSortKeys, SortsAsStdSort) {
  std::mt19937_64 random(5);
  for (size_t n : {0, 1, 2, 255, 256, 257, 1000, 100000}) {
    std::vector<uint64_t> arcs, wide, one_byte, repeated, minors_sorted;
    for (size_t i = 0; i < n; ++i) {
      arcs.push_back((random() % (1 << 20)) << 32 | random() % (1 << 20));
      wide.push_back(random());
      one_byte.push_back(0x1234'5678'0000'0000 | (random() % 256) << 8);
      repeated.push_back(random() % 7);
      // A crawl's links in log order: each to a new URL (rising minor, some repeated) from a
      // random earlier one.
      minors_sorted.push_back((random() % (i + 1)) << 32 | (i - i % 3));
    }
    std::vector<uint64_t> sorted = wide;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& keys : {arcs, wide, one_byte, repeated, minors_sorted, sorted}) {
      SCOPED_TRACE(n);
      ExpectSortsAsStdSort(keys);
    }
  }
}

TEST(RadixSortBy, SortsItemsStablyByTheirKey) {
  std::mt19937_64 random(7);
  for (size_t n : {0, 3, 255, 256, 5000}) {
    SCOPED_TRACE(n);
    // (key, original position): few distinct keys, varying in three bytes, so that stability
    // across several scatters shows.
    std::vector<std::pair<uint64_t, uint32_t>> items;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t key = random() % 50;
      items.emplace_back((key % 5) << 40 | (key / 5) << 16 | (key % 3) << 2,
                         static_cast<uint32_t>(i));
    }
    std::vector<std::pair<uint64_t, uint32_t>> expected = items;
    std::stable_sort(expected.begin(), expected.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    RadixSortBy(&items, [](const std::pair<uint64_t, uint32_t>& item) { return item.first; });
    EXPECT_EQ(items, expected);
  }
}

// Items that come sorted by their keys' low bytes sort as stably with those bytes' passes
// skipped.
TEST(RadixSortBy, ItemsSortedByTheLowBytesSkipTheirPasses) {
  std::mt19937_64 random(8);
  std::vector<std::pair<uint64_t, uint32_t>> items;
  for (uint32_t i = 0; i < 5000; ++i) {
    // Low four bytes rising (some repeated), high ones few and random.
    items.emplace_back((random() % 40) << 32 | (i / 4) << 3, i);
  }
  std::vector<std::pair<uint64_t, uint32_t>> expected = items;
  std::stable_sort(expected.begin(), expected.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  RadixSortBy(
      &items, [](const std::pair<uint64_t, uint32_t>& item) { return item.first; }, 4);
  EXPECT_EQ(items, expected);
}

// Sorting by one field after another, least significant first, sorts by all of them.
TEST(RadixSortBy, ChainedSortsOrderByEveryField) {
  std::mt19937_64 random(9);
  struct Item {
    uint32_t major;
    uint16_t middle;
    uint64_t minor;
    bool operator<(const Item& o) const {
      return std::tie(major, middle, minor) < std::tie(o.major, o.middle, o.minor);
    }
    bool operator==(const Item& o) const = default;
  };
  std::vector<Item> items;
  for (int i = 0; i < 3000; ++i) {
    items.push_back(
        {static_cast<uint32_t>(random() % 7), static_cast<uint16_t>(random() % 300), random()});
  }
  std::vector<Item> expected = items;
  std::sort(expected.begin(), expected.end());
  RadixSortBy(&items, [](const Item& item) { return item.minor; });
  RadixSortBy(&items, [](const Item& item) { return uint64_t{item.middle}; });
  RadixSortBy(&items, [](const Item& item) { return uint64_t{item.major}; });
  EXPECT_EQ(items, expected);
}

}  // namespace
}  // namespace crawldb
