// DRUM (bench/baselines/drum.h) against an absl::flat_hash_set on random streams with repeats:
// every item must be answered once, exactly the first arrival of each key reported new, whatever
// the buffers and however often the buckets merge.
#include "bench/baselines/drum.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "absl/container/flat_hash_set.h"

namespace crawldb::bench {
namespace {

std::string TempDir() { return ::testing::TempDir(); }

std::unique_ptr<Drum> MustOpen(size_t ram_bytes, size_t buckets) {
  absl::StatusOr<std::unique_ptr<Drum>> drum = Drum::Open(TempDir(), ram_bytes, buckets);
  EXPECT_TRUE(drum.ok()) << drum.status();
  return drum.ok() ? std::move(*drum) : nullptr;
}

// Key number j spread over all 64 bits (the SplitMix64 finaliser), so that it can land in any
// bucket; 0 and UINT64_MAX, the ends of the first and the last bucket, are keys too.
uint64_t KeyOf(uint64_t j) {
  if (j < 2) return j == 0 ? 0 : UINT64_MAX;
  uint64_t z = j * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

struct Config {
  size_t ram_bytes;
  size_t buckets;
  uint64_t distinct_keys;  // keys drawn from KeyOf(0 .. distinct_keys - 1)
  size_t items;
  size_t max_batch;
};

void PrintTo(const Config& c, std::ostream* out) {
  *out << "R=" << c.ram_bytes << " k=" << c.buckets << " keys=" << c.distinct_keys
       << " items=" << c.items << " batch<=" << c.max_batch;
}

class DrumOracleTest : public ::testing::TestWithParam<Config> {};

// Random batches (some empty) of keys drawn with repeats, aux = position in the stream; a Flush
// now and then, after which everything so far must have been answered as the oracle says.
TEST_P(DrumOracleTest, ReportsExactlyTheFirstArrivalOfEachKey) {
  const Config config = GetParam();
  std::unique_ptr<Drum> drum = MustOpen(config.ram_bytes, config.buckets);
  ASSERT_NE(drum, nullptr);
  std::mt19937_64 random(config.items ^ config.buckets);
  absl::flat_hash_set<uint64_t> seen;
  std::vector<uint64_t> expected;  // positions of first arrivals, in stream order
  std::vector<uint64_t> reported;
  std::vector<DrumItem> batch;
  uint64_t position = 0;
  while (position < config.items) {
    batch.clear();
    const size_t size =
        std::min<size_t>(random() % (config.max_batch + 1), config.items - position);
    for (size_t i = 0; i < size; ++i, ++position) {
      const uint64_t key = KeyOf(random() % config.distinct_keys);
      batch.push_back({key, position});
      if (seen.insert(key).second) expected.push_back(position);
    }
    ASSERT_TRUE(drum->CheckUpdate(batch, &reported).ok());
    if (random() % 8 == 0 || position == config.items) {
      ASSERT_TRUE(drum->Flush(&reported).ok());
      std::vector<uint64_t> sorted = reported;
      std::sort(sorted.begin(), sorted.end());
      ASSERT_EQ(sorted, expected) << "after item " << position;
      ASSERT_EQ(drum->size(), seen.size());
    }
  }
  EXPECT_GT(drum->stats().merges, 0u);
}

INSTANTIATE_TEST_SUITE_P(
    Buffers, DrumOracleTest,
    ::testing::Values(
        // One key per array, five per bucket: a merge every few items.
        Config{
            .ram_bytes = 128, .buckets = 4, .distinct_keys = 300, .items = 5000, .max_batch = 20},
        // One bucket: the repository and the bucket cover every key.
        Config{.ram_bytes = 96, .buckets = 1, .distinct_keys = 50, .items = 3000, .max_batch = 7},
        // Arrays of 16 keys, buckets of 160: merges triggered by a full bucket, not only Flush.
        Config{.ram_bytes = 4096,
               .buckets = 8,
               .distinct_keys = 20000,
               .items = 100000,
               .max_batch = 3000},
        // Few distinct keys: nearly every item a repeat, within a batch and across batches.
        Config{.ram_bytes = 2048,
               .buckets = 16,
               .distinct_keys = 10,
               .items = 20000,
               .max_batch = 500}));

TEST(Drum, TinyBuffersMergeWithoutFlush) {
  std::unique_ptr<Drum> drum = MustOpen(/*ram_bytes=*/128, /*buckets=*/4);
  ASSERT_NE(drum, nullptr);
  EXPECT_EQ(drum->array_bytes(), 8u);    // M: one key
  EXPECT_EQ(drum->bucket_bytes(), 40u);  // r: 128 / 3 = 42 bytes, five whole arrays
  std::vector<DrumItem> items;
  for (uint64_t i = 0; i < 1000; ++i) items.push_back({KeyOf(i % 400), i});
  std::vector<uint64_t> unique;
  ASSERT_TRUE(drum->CheckUpdate(items, &unique).ok());
  EXPECT_GT(drum->stats().merges, 10u);
  EXPECT_GT(unique.size(), 0u);  // answered before any Flush
  ASSERT_TRUE(drum->Flush(&unique).ok());
  std::sort(unique.begin(), unique.end());
  std::vector<uint64_t> first(400);
  for (uint64_t i = 0; i < 400; ++i) first[i] = i;
  EXPECT_EQ(unique, first);
  EXPECT_EQ(drum->size(), 400u);
}

TEST(Drum, DuplicatesInOneBatchAndAcrossBatches) {
  std::unique_ptr<Drum> drum = MustOpen(/*ram_bytes=*/1 << 16, /*buckets=*/4);
  ASSERT_NE(drum, nullptr);
  std::vector<uint64_t> unique;
  const std::vector<DrumItem> first = {{5, 100}, {5, 101}, {7, 102}, {5, 103}, {UINT64_MAX, 104}};
  ASSERT_TRUE(drum->CheckUpdate(first, &unique).ok());
  EXPECT_TRUE(unique.empty());  // no bucket full yet: answered at Flush
  ASSERT_TRUE(drum->Flush(&unique).ok());
  std::sort(unique.begin(), unique.end());
  EXPECT_EQ(unique, (std::vector<uint64_t>{100, 102, 104}));
  unique.clear();
  const std::vector<DrumItem> second = {{7, 200}, {9, 201}, {9, 202}, {UINT64_MAX, 203}, {0, 204}};
  ASSERT_TRUE(drum->CheckUpdate(second, &unique).ok());
  ASSERT_TRUE(drum->Flush(&unique).ok());
  std::sort(unique.begin(), unique.end());
  EXPECT_EQ(unique, (std::vector<uint64_t>{201, 204}));
  EXPECT_EQ(drum->size(), 5u);
  EXPECT_EQ(drum->stats().merges, 2u);
}

TEST(Drum, EmptyBatchAndEmptyFlushChangeNothing) {
  std::unique_ptr<Drum> drum = MustOpen(/*ram_bytes=*/4096, /*buckets=*/2);
  ASSERT_NE(drum, nullptr);
  std::vector<uint64_t> unique;
  ASSERT_TRUE(drum->CheckUpdate({}, &unique).ok());
  ASSERT_TRUE(drum->Flush(&unique).ok());
  EXPECT_TRUE(unique.empty());
  EXPECT_EQ(drum->stats().merges, 0u);
  const std::vector<DrumItem> items = {{42, 1}};
  ASSERT_TRUE(drum->CheckUpdate(items, &unique).ok());
  ASSERT_TRUE(drum->Flush(&unique).ok());
  ASSERT_TRUE(drum->CheckUpdate({}, &unique).ok());
  ASSERT_TRUE(drum->Flush(&unique).ok());
  EXPECT_EQ(unique, (std::vector<uint64_t>{1}));
  EXPECT_EQ(drum->stats().merges, 1u);
  EXPECT_EQ(drum->size(), 1u);
}

TEST(Drum, FilesLiveInTheirFolderUntilTheDestructor) {
  std::unique_ptr<Drum> drum = MustOpen(/*ram_bytes=*/3072, /*buckets=*/2);
  ASSERT_NE(drum, nullptr);
  const std::filesystem::path folder = drum->folder();
  EXPECT_TRUE(std::filesystem::equivalent(folder.parent_path(), TempDir()));
  EXPECT_EQ(std::filesystem::file_size(folder / "bucket-1.keys"), drum->bucket_bytes());
  EXPECT_EQ(std::filesystem::file_size(folder / "bucket-1.aux"), drum->bucket_bytes());
  std::vector<uint64_t> unique;
  const std::vector<DrumItem> items = {{3, 0}, {1, 1}, {2, 2}, {3, 3}};
  ASSERT_TRUE(drum->CheckUpdate(items, &unique).ok());
  ASSERT_TRUE(drum->Flush(&unique).ok());
  EXPECT_EQ(std::filesystem::file_size(folder / "repository"), 3 * Drum::kKeyBytes);
  EXPECT_FALSE(std::filesystem::exists(folder / "repository.next"));
  drum.reset();
  EXPECT_FALSE(std::filesystem::exists(folder));
}

TEST(Drum, RefusesBuffersTooSmall) {
  absl::StatusOr<std::unique_ptr<Drum>> drum = Drum::Open(TempDir(), 100, 4);
  ASSERT_FALSE(drum.ok());
  EXPECT_EQ(drum.status().message(),
            "drum: 100 bytes of RAM cannot hold 4 buckets; give at least 32 bytes per bucket and "
            "one bucket");
  EXPECT_EQ(Drum::Open(TempDir(), 4096, 0).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Drum, ReportsAMissingDirectory) {
  absl::StatusOr<std::unique_ptr<Drum>> drum = Drum::Open("/nonexistent-drum-dir", 4096, 2);
  ASSERT_FALSE(drum.ok());
  EXPECT_EQ(drum.status().message(),
            "drum: cannot make the folder '/nonexistent-drum-dir/drum-XXXXXX': No such file or "
            "directory");
}

// An I/O error in a merge (here the repository file gone) is returned, and again by every later
// call, instead of answers from a half-merged repository.
TEST(Drum, AnIoErrorStopsEveryLaterCall) {
  std::unique_ptr<Drum> drum = MustOpen(/*ram_bytes=*/4096, /*buckets=*/2);
  ASSERT_NE(drum, nullptr);
  const std::string repository = drum->folder() + "/repository";
  std::filesystem::remove(repository);
  std::vector<uint64_t> unique;
  const std::vector<DrumItem> items = {{1, 0}};
  ASSERT_TRUE(drum->CheckUpdate(items, &unique).ok());
  const std::string message = "drum: cannot open '" + repository + "': No such file or directory";
  EXPECT_EQ(drum->Flush(&unique).message(), message);
  EXPECT_EQ(drum->CheckUpdate(items, &unique).message(), message);
  EXPECT_EQ(drum->Flush(&unique).message(), message);
  EXPECT_TRUE(unique.empty());
}

}  // namespace
}  // namespace crawldb::bench
