#include "extension/containers/huge_page_chunk.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace crawldb {

HugePageChunk AllocateHugePageChunk() {
  // Twice the size, so that an aligned chunk lies inside; the rest is unmapped at once.
  const size_t mapped = 2 * kHugePageChunkBytes;
  void* start = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (start == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t begin = reinterpret_cast<uintptr_t>(start);
  const uintptr_t aligned = (begin + kHugePageChunkBytes - 1) & ~(kHugePageChunkBytes - 1);
  if (aligned > begin) munmap(start, aligned - begin);
  const uintptr_t tail = aligned + kHugePageChunkBytes;
  if (begin + mapped > tail) munmap(reinterpret_cast<void*>(tail), begin + mapped - tail);
  char* chunk = reinterpret_cast<char*>(aligned);
  madvise(chunk, kHugePageChunkBytes, MADV_HUGEPAGE);  // advice: ignored where unsupported
  return HugePageChunk(chunk);
}

void HugePageChunkDeleter::operator()(char* chunk) const { munmap(chunk, kHugePageChunkBytes); }

}  // namespace crawldb
