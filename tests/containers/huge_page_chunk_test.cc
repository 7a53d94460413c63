// HugePageChunk: aligned to 2 MiB, zeroed, every byte writable, unmapped when freed (ASan's leak
// check does not see mmap, so the test reads the process's mappings instead).
#include "extension/containers/huge_page_chunk.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace crawldb {
namespace {

// Whether any mapping of this process covers `address`.
bool IsMapped(uintptr_t address) {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);) {
    const size_t dash = line.find('-');
    const uintptr_t begin = std::stoull(line.substr(0, dash), nullptr, 16);
    const uintptr_t end = std::stoull(line.substr(dash + 1), nullptr, 16);
    if (begin <= address && address < end) return true;
  }
  return false;
}

TEST(HugePageChunk, IsAlignedZeroedWritableAndUnmappedWhenFreed) {
  std::vector<uintptr_t> addresses;
  {
    std::vector<HugePageChunk> chunks;
    for (int i = 0; i < 8; ++i) chunks.push_back(AllocateHugePageChunk());
    for (size_t i = 0; i < chunks.size(); ++i) {
      char* chunk = chunks[i].get();
      addresses.push_back(reinterpret_cast<uintptr_t>(chunk));
      ASSERT_TRUE(IsMapped(addresses.back()));
      ASSERT_EQ(reinterpret_cast<uintptr_t>(chunk) % kHugePageChunkBytes, 0u);
      for (size_t at = 0; at < kHugePageChunkBytes; at += 4096) ASSERT_EQ(chunk[at], 0) << at;
      ASSERT_EQ(chunk[kHugePageChunkBytes - 1], 0);
      for (size_t at = 0; at < kHugePageChunkBytes; ++at) chunk[at] = static_cast<char>(at + i);
    }
    for (size_t i = 0; i < chunks.size(); ++i) {
      for (size_t at = 0; at < kHugePageChunkBytes; at += 997) {
        ASSERT_EQ(chunks[i][at], static_cast<char>(at + i)) << i << " " << at;
      }
    }
  }
  for (uintptr_t address : addresses) {
    EXPECT_FALSE(IsMapped(address));
    EXPECT_FALSE(IsMapped(address + kHugePageChunkBytes - 1));
  }
}

}  // namespace
}  // namespace crawldb
