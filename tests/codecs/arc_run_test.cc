// ArcRun: compressed sorted runs of arc keys, against a plain sorted vector.
#include "codecs/arc_run.h"

#include <algorithm>
#include <random>
#include <set>

#include <gtest/gtest.h>

namespace crawldb::codecs {
namespace {

ArcRun RunOf(const std::vector<uint64_t>& keys) {
  ArcRun::Builder builder;
  for (uint64_t key : keys) builder.Append(key);
  return std::move(builder).Finish();
}

void ExpectRunHolds(const ArcRun& run, const std::vector<uint64_t>& keys) {
  ASSERT_EQ(run.size(), keys.size());
  std::vector<uint64_t> read;
  ArcRun::Reader reader(run);
  for (uint64_t key = 0; reader.Next(&key);) read.push_back(key);
  EXPECT_EQ(read, keys);
  std::set<uint32_t> majors;
  for (uint64_t key : keys) {
    EXPECT_TRUE(run.Contains(key)) << key;
    if (key > 0) {
      EXPECT_EQ(run.Contains(key - 1), std::binary_search(keys.begin(), keys.end(), key - 1));
    }
    majors.insert(ArcMajor(key));
    majors.insert(ArcMajor(key) + 1);
  }
  for (uint32_t major : majors) {
    std::vector<uint32_t> minors, expected;
    run.AppendMinors(major, &minors);
    for (uint64_t key : keys) {
      if (ArcMajor(key) == major) expected.push_back(ArcMinor(key));
    }
    EXPECT_EQ(minors, expected) << "major " << major;
    EXPECT_EQ(run.CountMinors(major), expected.size()) << "major " << major;
  }
}

TEST(ArcRun, RoundTripsBoundaries) {
  // Lists longer than a block, minors 0 and 2^32 − 1, major jumps up and down the minor range.
  std::vector<uint64_t> keys;
  for (uint32_t minor = 0; minor < 150; ++minor) keys.push_back(ArcKey(0, minor));
  keys.push_back(ArcKey(0, UINT32_MAX));
  keys.push_back(ArcKey(1, 0));
  keys.push_back(ArcKey(1, UINT32_MAX));
  keys.push_back(ArcKey(2, 5));
  keys.push_back(ArcKey(1000000, 3));
  keys.push_back(ArcKey(UINT32_MAX, 0));
  keys.push_back(ArcKey(UINT32_MAX, UINT32_MAX));
  ExpectRunHolds(RunOf(keys), keys);
  ExpectRunHolds(RunOf({}), {});
  ArcRun empty = RunOf({});
  EXPECT_FALSE(empty.Contains(0));
  // A run moved from is empty, not a run with no blocks and a size.
  ArcRun moved = RunOf(keys);
  ArcRun taken = std::move(moved);
  ExpectRunHolds(taken, keys);
  ExpectRunHolds(moved, {});  // NOLINT(bugprone-use-after-move): what is pinned
}

TEST(ArcRun, RandomRunsAgreeWithASortedVector) {
  std::mt19937_64 random(11);
  for (uint32_t majors : {3u, 100u, 5000u}) {
    const uint32_t minors = majors * 4 + 2000;
    std::set<uint64_t> set;
    while (set.size() < 3000) {
      set.insert(ArcKey(static_cast<uint32_t>(random() % majors),
                        static_cast<uint32_t>(random() % minors)));
    }
    std::vector<uint64_t> keys(set.begin(), set.end());
    ArcRun run = RunOf(keys);
    ExpectRunHolds(run, keys);
    // Look-ups out of key order too (the cached block must not answer for another).
    for (int probe = 0; probe < 2000; ++probe) {
      uint64_t key = ArcKey(static_cast<uint32_t>(random() % majors),
                            static_cast<uint32_t>(random() % minors));
      EXPECT_EQ(run.Contains(key), set.count(key) == 1);
    }
  }
}

TEST(ArcRun, CrawlOrderArcsTakeAboutTwoBytes) {
  // A parent links a run of new URLs; each new URL's in-list is its parent: both directions of
  // such a crawl, as the link store freezes them.
  std::mt19937 random(5);
  std::vector<uint64_t> out, in;
  uint32_t next = 1000;
  for (uint32_t parent = 0; parent < 20000; ++parent) {
    for (uint32_t child = 0, children = random() % 20; child < children; ++child, ++next) {
      out.push_back(ArcKey(parent, next));
      in.push_back(ArcKey(next, parent));
    }
  }
  std::sort(in.begin(), in.end());
  for (const auto* keys : {&out, &in}) {
    ArcRun run = RunOf(*keys);
    const double bytes_per_arc = static_cast<double>(run.MemoryBytes()) / keys->size();
    EXPECT_LT(bytes_per_arc, 3.0);
    EXPECT_GT(bytes_per_arc, 1.0);
  }
}

}  // namespace
}  // namespace crawldb::codecs
