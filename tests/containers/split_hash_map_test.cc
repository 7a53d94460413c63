// SplitHashMap against std::map under a random mix of inserts, updates and erases, with keys
// that crowd into few parts and keys spread over all of them.
#include "extension/containers/split_hash_map.h"

#include <map>
#include <random>

#include <gtest/gtest.h>

namespace crawldb {
namespace {

struct LowBits {  // a poor part function: the map must stay correct with it
  size_t operator()(uint64_t key) const { return key & 3; }
};
struct Mixed {
  size_t operator()(uint64_t key) const { return (key * 0x9E3779B97F4A7C15u) >> 58; }
};

template <typename PartOf>
void ExpectSameAsStdMap() {
  SplitHashMap<uint64_t, int, PartOf, 6> split;
  std::map<uint64_t, int> oracle;
  std::mt19937_64 random(11);
  for (int step = 0; step < 200000; ++step) {
    uint64_t key = random() % 5000;
    switch (random() % 4) {
      case 0:
      case 1:
        split[key] = step;
        oracle[key] = step;
        break;
      case 2:
        split.Erase(key);
        oracle.erase(key);
        break;
      default: {
        const int* found = split.Find(key);
        auto it = oracle.find(key);
        ASSERT_EQ(found != nullptr, it != oracle.end()) << key;
        if (found != nullptr) {
          ASSERT_EQ(*found, it->second) << key;
        }
        ASSERT_EQ(split.Contains(key), it != oracle.end());
      }
    }
    ASSERT_EQ(split.size(), oracle.size());
  }
  std::map<uint64_t, int> visited;
  split.ForEach([&](uint64_t key, int value) { EXPECT_TRUE(visited.emplace(key, value).second); });
  EXPECT_EQ(visited, oracle);
  size_t in_parts = 0;
  for (size_t part = 0; part < split.kParts; ++part) {
    for (const auto& [key, value] : split.part(part)) EXPECT_EQ(PartOf()(key), part);
    in_parts += split.part(part).size();
  }
  EXPECT_EQ(in_parts, oracle.size());
  EXPECT_GE(split.capacity(), oracle.size());
  split.Clear();
  EXPECT_EQ(split.size(), 0u);
  EXPECT_EQ(split.Find(oracle.begin()->first), nullptr);
}

TEST(SplitHashMap, AgreesWithStdMapWithCrowdedParts) { ExpectSameAsStdMap<LowBits>(); }
TEST(SplitHashMap, AgreesWithStdMapWithSpreadParts) { ExpectSameAsStdMap<Mixed>(); }

// The parts are made at the first insert: before it, and again after Clear, every call answers
// as an empty map does.
TEST(SplitHashMap, AnswersEmptyBeforeItsFirstInsertAndAfterClear) {
  SplitHashMap<uint64_t, int, Mixed, 6> split;
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(split.Find(7), nullptr);
    EXPECT_FALSE(split.Contains(7));
    split.Erase(7);
    EXPECT_EQ(split.size(), 0u);
    EXPECT_EQ(split.capacity(), 0u);
    EXPECT_TRUE(split.part(Mixed()(7)).empty());
    int visits = 0;
    split.ForEach([&visits](uint64_t, int) { ++visits; });
    EXPECT_EQ(visits, 0);
    split[7] = 3;
    ASSERT_NE(split.Find(7), nullptr);
    EXPECT_EQ(*split.Find(7), 3);
    EXPECT_EQ(split.part(Mixed()(7)).size(), 1u);
    split.Clear();
  }
}

}  // namespace
}  // namespace crawldb
