// SkewedPartOf: the boundaries (exact, monotone, geometric shares), the part of every boundary
// hash, and what the skew is for: a SplitHashMap split by it does the same rehash work in every
// window of inserts, where one split into equal shares does it all in a cluster.
#include "extension/containers/skewed_parts.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "extension/containers/split_hash_map.h"

namespace crawldb {
namespace {

TEST(SkewedParts, BoundariesAreGeometricFromZeroToTheTop) {
  EXPECT_EQ(SkewedPartStart(0), 0u);
  // floor(2^32 · (√2 − 1)) = 1,779,033,703: part 512 starts at 2^(1/2) − 1 of the range.
  EXPECT_NEAR(SkewedPartStart(512), 1779033703.0, 1.0);
  // The last part ends at 2^32: its start is 2^32 · (2^(1023/1024) − 1).
  EXPECT_NEAR(SkewedPartStart(kSkewedParts - 1), 4294967296.0 * (std::exp2(1023.0 / 1024) - 1),
              2.0);
  const double ratio = std::exp2(1.0 / 1024);
  for (size_t part = 1; part + 1 < kSkewedParts; ++part) {
    const double width = static_cast<double>(SkewedPartStart(part + 1) - SkewedPartStart(part));
    const double before = static_cast<double>(SkewedPartStart(part) - SkewedPartStart(part - 1));
    ASSERT_NEAR(width / before, ratio, 1e-6) << part;
  }
  const double first = SkewedPartStart(1);
  const double last = 4294967296.0 - SkewedPartStart(kSkewedParts - 1);
  EXPECT_NEAR(last / first, 2.0, 0.01);
}

TEST(SkewedParts, EveryHashFallsInThePartWhoseRangeHoldsIt) {
  EXPECT_EQ(SkewedPartOf(0), 0u);
  EXPECT_EQ(SkewedPartOf(UINT32_MAX), kSkewedParts - 1);
  for (size_t part = 1; part < kSkewedParts; ++part) {
    const uint32_t start = SkewedPartStart(part);
    ASSERT_EQ(SkewedPartOf(start), part);
    ASSERT_EQ(SkewedPartOf(start - 1), part - 1);
  }
  std::mt19937 random(5);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t hash = random();
    const size_t part = SkewedPartOf(hash);
    ASSERT_LE(SkewedPartStart(part), hash);
    if (part + 1 < kSkewedParts) {
      ASSERT_LT(hash, SkewedPartStart(part + 1));
    }
  }
}

struct SkewedTop32 {
  size_t operator()(uint64_t key) const { return SkewedPartOf(static_cast<uint32_t>(key >> 32)); }
};
struct EqualTop10 {
  size_t operator()(uint64_t key) const { return static_cast<size_t>(key >> 54); }
};

// Entries moved by rehashes in each window of `window` inserts of random keys over
// [total / 2, total): one doubling of the map.
template <typename PartOf>
std::vector<double> RehashWorkPerWindow(size_t total, size_t window) {
  SplitHashMap<uint64_t, int, PartOf, kSkewedPartBits> map;
  std::mt19937_64 random(17);
  std::vector<double> work;
  for (size_t inserted = 0; inserted < total; ++inserted) {
    const uint64_t key = random();
    const auto& part = map.part(PartOf()(key));
    const size_t capacity = part.capacity();
    const size_t size = part.size();
    map[key] = 1;
    if (inserted < total / 2) continue;
    if ((inserted - total / 2) % window == 0) work.push_back(0);
    if (part.capacity() != capacity) work.back() += static_cast<double>(size);
  }
  return work;
}

double Mean(const std::vector<double>& values) {
  double sum = 0;
  for (double value : values) sum += value;
  return sum / static_cast<double>(values.size());
}

TEST(SkewedParts, SplitMapsRehashAboutAsMuchInEveryWindowOfInserts) {
  const std::vector<double> skewed = RehashWorkPerWindow<SkewedTop32>(500000, 25000);
  const std::vector<double> equal = RehashWorkPerWindow<EqualTop10>(500000, 25000);
  ASSERT_EQ(skewed.size(), 10u);
  // Equal shares: every part rehashes near 458,000 entries (7/8 of 511 each), none elsewhere.
  EXPECT_EQ(*std::min_element(equal.begin(), equal.end()), 0);
  EXPECT_GT(*std::max_element(equal.begin(), equal.end()), 3 * Mean(equal));
  // Skewed: each window moves about a tenth of the entries (a part crosses its limit when its
  // own random size does, so the windows differ by chance, not by a pattern).
  EXPECT_LT(*std::max_element(skewed.begin(), skewed.end()), 1.5 * Mean(skewed));
  EXPECT_GT(*std::min_element(skewed.begin(), skewed.end()), 0.5 * Mean(skewed));
}

}  // namespace
}  // namespace crawldb
