// PendingKeys: keys read from the stored form are found by key and by id once the hash set is
// built at the first Find; the newest entry of a repeated key is the one found, whether it came
// before or after the set was built; Append and PopBack take out and put back the older entry.
#include "extension/urls/url_pending_keys.h"

#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace crawldb::urls {
namespace {

TEST(PendingKeys, StoredKeysAreFoundByScansThenIndexedAndTheNewestEntryWins) {
  PendingKeys keys;
  keys.AppendStored(10, "com,a)/x");
  keys.AppendStored(12, "com,a)/y");
  keys.AppendStored(15, "com,a)/x");  // deleted and added again: the newer entry counts
  EXPECT_EQ(keys.FindId(12), std::optional<size_t>(1));
  EXPECT_EQ(keys.FindId(11), std::nullopt);
  EXPECT_FALSE(keys.indexed());
  const size_t unindexed = keys.MemoryBytes();
  // The first kScannedFinds finds scan the keys, newest first; the next builds the hash set.
  EXPECT_EQ(keys.Find("com,a)/x"), std::optional<size_t>(2));
  EXPECT_EQ(keys.Find("com,a)/y"), std::optional<size_t>(1));
  EXPECT_EQ(keys.Find("com,a)/z"), std::nullopt);
  for (uint32_t find = 3; find < kScannedFinds; ++find)
    EXPECT_EQ(keys.Find("com,a)/w"), std::nullopt);
  EXPECT_FALSE(keys.indexed());
  EXPECT_EQ(keys.MemoryBytes(), unindexed);
  EXPECT_EQ(keys.Find("com,a)/x"), std::optional<size_t>(2));
  EXPECT_TRUE(keys.indexed());
  EXPECT_GT(keys.MemoryBytes(), unindexed);
  EXPECT_EQ(keys.Find("com,a)/y"), std::optional<size_t>(1));
  EXPECT_EQ(keys.Find("com,a)/z"), std::nullopt);
  // Stored keys appended after the set is built are indexed at once.
  keys.AppendStored(16, "com,a)/z");
  keys.AppendStored(17, "com,a)/y");
  EXPECT_EQ(keys.Find("com,a)/z"), std::optional<size_t>(3));
  EXPECT_EQ(keys.Find("com,a)/y"), std::optional<size_t>(4));
}

TEST(PendingKeys, AppendBuildsTheIndexAndPopBackPutsTheOlderEntryBack) {
  PendingKeys keys;
  keys.AppendStored(1, "com,b)/");
  keys.AppendStored(2, "com,b)/page");
  // The first Append meets the stored entry with its key and takes it out.
  const std::optional<size_t> replaced = keys.Append(3, "com,b)/page");
  EXPECT_EQ(replaced, std::optional<size_t>(1));
  EXPECT_EQ(keys.Find("com,b)/page"), std::optional<size_t>(2));
  keys.PopBack(replaced);  // a rollback
  EXPECT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys.Find("com,b)/page"), std::optional<size_t>(1));
  EXPECT_EQ(keys.Append(4, "com,b)/new"), std::nullopt);
  EXPECT_EQ(keys.key(2), "com,b)/new");
  EXPECT_EQ(keys.key_bytes(), std::string("com,b)/com,b)/pagecom,b)/new").size());
}

TEST(PendingKeys, AnEmptySetIndexedFirstIndexesWhatComesAfter) {
  PendingKeys keys;
  EXPECT_EQ(keys.Find("com,c)/"), std::nullopt);
  keys.AppendStored(4, "com,c)/");
  EXPECT_EQ(keys.Find("com,c)/"), std::optional<size_t>(0));
}

}  // namespace
}  // namespace crawldb::urls
