#include "codecs/zeroed_array.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

// Bytes of this process in memory (/proc/self/statm's resident pages).
size_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

TEST(ZeroedArray, StartsAtZeroAndKeepsWhatIsWritten) {
  {  // Memory given back dirty, which the array may be handed again.
    std::vector<uint32_t> dirty(10'000, 0xFFFFFFFF);
  }
  ZeroedArray<uint32_t> array(10'000);
  EXPECT_EQ(array.size(), 10'000u);
  EXPECT_FALSE(array.empty());
  EXPECT_EQ(array.MemoryBytes(), 40'000u);
  for (size_t i = 0; i < array.size(); ++i) ASSERT_EQ(array[i], 0u) << i;
  array[9'999] = 7;
  array[0] = 3;
  ZeroedArray<uint32_t> moved = std::move(array);
  EXPECT_EQ(moved[0], 3u);
  EXPECT_EQ(moved[1], 0u);
  EXPECT_EQ(moved[9'999], 7u);
  EXPECT_TRUE(array.empty());  // NOLINT(bugprone-use-after-move): what a move leaves
  EXPECT_EQ(array.size(), 0u);
  EXPECT_TRUE(ZeroedArray<uint64_t>().empty());
  EXPECT_TRUE(ZeroedArray<uint64_t>(0).empty());
}

// What it is for: a large array of which one entry is written costs about a page, not its size.
TEST(ZeroedArray, MapsOnlyThePagesWritten) {
  constexpr size_t kEntries = size_t{32} << 20;  // 256 MiB of uint64_t
  const size_t before = ResidentBytes();
  ZeroedArray<uint64_t> array(kEntries);
  array[kEntries / 2] = 1;
  const size_t grown = ResidentBytes() - before;
  // Far below the 256 MiB that writing every page would map (a sanitizer's shadow of the
  // block may take an eighth of it).
  EXPECT_LT(grown, size_t{64} << 20) << grown;
  EXPECT_EQ(array[kEntries / 2], 1u);
}

// Prefaulted: mapped whole at once (resident before any write; under AddressSanitizer it comes
// from calloc), zero, kept as written, and moved like the others.
TEST(ZeroedArray, PrefaultedIsResidentAndZero) {
  constexpr size_t kEntries = size_t{4} << 20;             // 16 MiB of uint32_t
  [[maybe_unused]] const size_t before = ResidentBytes();  // unread under AddressSanitizer
  ZeroedArray<uint32_t> array = ZeroedArray<uint32_t>::Prefaulted(kEntries);
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_GE(ResidentBytes() - before, kEntries * sizeof(uint32_t) * 3 / 4);
#endif
  EXPECT_EQ(array.size(), kEntries);
  for (size_t i = 0; i < kEntries; i += 1021) ASSERT_EQ(array[i], 0u) << i;
  array[kEntries - 1] = 9;
  ZeroedArray<uint32_t> moved = std::move(array);
  EXPECT_EQ(moved[kEntries - 1], 9u);
  EXPECT_TRUE(array.empty());  // NOLINT(bugprone-use-after-move): what a move leaves
  // Small ones come from calloc, zero all the same; a mapped array and a calloc'd one assigned
  // to each other free what they held.
  ZeroedArray<uint32_t> small = ZeroedArray<uint32_t>::Prefaulted(100);
  EXPECT_EQ(small.size(), 100u);
  for (size_t i = 0; i < small.size(); ++i) ASSERT_EQ(small[i], 0u) << i;
  small[99] = 4;
  moved = std::move(small);
  EXPECT_EQ(moved.size(), 100u);
  EXPECT_EQ(moved[99], 4u);
  small = ZeroedArray<uint32_t>::Prefaulted(kEntries);
  EXPECT_EQ(small[kEntries - 1], 0u);
  small = ZeroedArray<uint32_t>(10);
  EXPECT_EQ(small.size(), 10u);
}

}  // namespace
}  // namespace crawldb::codecs
