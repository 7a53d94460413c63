// SlotHashMap against std::map under a random mix of inserts, updates and erases; its entries
// stay in place, its iteration follows slot order, and it takes the bytes its header states.
#include "extension/containers/slot_hash_map.h"

#include <map>
#include <random>

#include <gtest/gtest.h>

namespace crawldb {
namespace {

TEST(SlotHashMap, AgreesWithStdMap) {
  SlotHashMap<int> map;
  std::map<uint64_t, int> oracle;
  std::mt19937_64 random(11);
  for (int step = 0; step < 200000; ++step) {
    // Keys that share their low 32 bits, and keys spread over all 64.
    const uint64_t key = step % 2 ? random() % 3000 : (random() % 3000) << 32;
    switch (random() % 5) {
      case 0:
        map[key] = step;
        oracle[key] = step;
        break;
      case 1:
        ASSERT_EQ(map.Insert(key, step), oracle.emplace(key, step).second) << key;
        break;
      case 2:
        ASSERT_EQ(map.Erase(key), oracle.erase(key)) << key;
        break;
      default: {
        const int* found = map.Find(key);
        auto it = oracle.find(key);
        ASSERT_EQ(found != nullptr, it != oracle.end()) << key;
        if (found != nullptr) {
          ASSERT_EQ(*found, it->second) << key;
        }
        ASSERT_EQ(map.Contains(key), it != oracle.end());
      }
    }
    ASSERT_EQ(map.size(), oracle.size());
  }
  std::map<uint64_t, int> visited;
  map.ForEach([&](uint64_t key, int value) { EXPECT_TRUE(visited.emplace(key, value).second); });
  EXPECT_EQ(visited, oracle);
  // Moved, it keeps every entry.
  SlotHashMap<int> moved = std::move(map);
  for (const auto& [key, value] : oracle) ASSERT_EQ(*moved.Find(key), value) << key;
}

TEST(SlotHashMap, EntriesStayInPlaceAndFreedSlotsAreReused) {
  SlotHashMap<int> map;
  map[7] = 1;
  const int* seven = map.Find(7);
  for (uint64_t key = 100; key < 10000; ++key) map.Insert(key, 0);
  EXPECT_EQ(map.Find(7), seven);
  EXPECT_EQ(*seven, 1);
  std::vector<uint64_t> order;
  map.ForEach([&](uint64_t key, int) { order.push_back(key); });
  ASSERT_EQ(order.size(), 9901u);
  EXPECT_EQ(order[0], 7u);  // insertion order
  EXPECT_EQ(order[1], 100u);
  EXPECT_EQ(order.back(), 9999u);
  map.Erase(100);
  map.Erase(7);
  map.Insert(5, 2);  // takes the slot 7 had, the last freed
  const size_t bytes = map.MemoryBytes();
  map.Insert(6, 3);  // and 100's
  EXPECT_EQ(map.MemoryBytes(), bytes);
  order.clear();
  map.ForEach([&](uint64_t key, int) { order.push_back(key); });
  EXPECT_EQ(order[0], 5u);
  EXPECT_EQ(order[1], 6u);
  EXPECT_EQ(order[2], 101u);
}

TEST(SlotHashMap, ReserveAllocatesOnceAndEntriesCostTheirSizeAndAbout10Bytes) {
  struct Record {  // the frontier's record size
    char bytes[40];
  };
  SlotHashMap<Record> map;
  map.Reserve(100000);
  const size_t reserved = map.MemoryBytes();
  std::mt19937_64 random(3);
  for (int i = 0; i < 100000; ++i) map.Insert(random(), Record{});
  EXPECT_EQ(map.MemoryBytes(), reserved);
  // Grown one insert at a time, the table's load and the chunks vary; 48 bytes of entry and
  // 5 to 10 of table per entry.
  SlotHashMap<Record> grown;
  for (int i = 0; i < 300000; ++i) grown.Insert(random(), Record{});
  const double per_entry = static_cast<double>(grown.MemoryBytes()) / grown.size();
  EXPECT_GT(per_entry, 48 + 5);
  EXPECT_LT(per_entry, 48 + 11);
}

}  // namespace
}  // namespace crawldb
