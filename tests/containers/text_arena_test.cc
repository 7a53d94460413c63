// TextArena: texts round-trip across chunk ends, earlier texts never move, truncation forgets
// exactly the texts after the offset.
#include "extension/containers/text_arena.h"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace crawldb {
namespace {

TEST(TextArena, TextsRoundTripAcrossChunksAndNeverMove) {
  TextArena arena;
  std::mt19937 random(3);
  std::vector<std::string> texts;
  std::vector<uint64_t> offsets;
  std::vector<const char*> addresses;
  // About 5 chunks of short texts, with a few large ones that do not fit a chunk's rest.
  while (arena.end() < 5 * TextArena::kChunkBytes) {
    size_t length = random() % 100 == 0 ? 300000 + random() % 700000 : 1 + random() % 120;
    std::string text(length, '\0');
    for (char& c : text) c = static_cast<char>('a' + random() % 26);
    offsets.push_back(arena.Append(text));
    addresses.push_back(arena.View(offsets.back(), text.size()).data());
    texts.push_back(std::move(text));
  }
  ASSERT_EQ(arena.MemoryBytes() % TextArena::kChunkBytes, 0u);
  for (size_t i = 0; i < texts.size(); ++i) {
    ASSERT_EQ(arena.View(offsets[i], texts[i].size()), texts[i]) << i;
    ASSERT_EQ(arena.View(offsets[i], texts[i].size()).data(), addresses[i]) << i;
    ASSERT_TRUE(arena.Holds(offsets[i], texts[i].size())) << i;
    if (i > 0) {
      ASSERT_GT(offsets[i], offsets[i - 1]);
    }
  }
  EXPECT_FALSE(arena.Holds(arena.end(), 1));
  // A text of a whole chunk fits one exactly.
  std::string whole(TextArena::kChunkBytes, 'w');
  uint64_t at = arena.Append(whole);
  EXPECT_EQ(at % TextArena::kChunkBytes, 0u);
  EXPECT_EQ(arena.View(at, whole.size()), whole);
  EXPECT_EQ(arena.end(), at + whole.size());
}

TEST(TextArena, TruncateForgetsWhatFollowsTheOffset) {
  TextArena arena;
  std::vector<uint64_t> offsets;
  for (int i = 0; i < 200000; ++i)
    offsets.push_back(arena.Append("text number " + std::to_string(i)));
  ASSERT_GT(arena.end(), TextArena::kChunkBytes);  // more than one chunk
  arena.Truncate(offsets[20000]);                  // back into the first chunk
  EXPECT_EQ(arena.end(), offsets[20000]);
  EXPECT_EQ(arena.View(offsets[19999], 17), "text number 19999");
  // Appending again reuses the place.
  EXPECT_EQ(arena.Append("again"), offsets[20000]);
  EXPECT_EQ(arena.View(offsets[20000], 5), "again");
  arena.Truncate(arena.end());  // nothing follows: no change
  EXPECT_EQ(arena.View(offsets[20000], 5), "again");
  arena.Truncate(0);
  EXPECT_EQ(arena.end(), 0u);
  EXPECT_EQ(arena.View(arena.Append("first"), 5), "first");
}

}  // namespace
}  // namespace crawldb
