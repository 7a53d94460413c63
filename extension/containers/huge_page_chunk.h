// HugePageChunk: 2 MiB of memory aligned to 2 MiB and advised MADV_HUGEPAGE, for TextArena's
// chunks (text_arena.h).
//
// Why: look-ups read URL texts at random places in arenas of hundreds of MB. In 4 KiB pages
// such reads mostly miss the TLB (dear in a VM, where a miss walks two page tables), and every
// new page costs a page fault; with transparent huge pages in `madvise` mode (Debian's default)
// an advised, aligned chunk is one TLB entry and one fault. Where the kernel has no huge pages
// the advice is ignored and the chunk is ordinary memory.
#pragma once

#include <cstddef>
#include <memory>

namespace crawldb {

inline constexpr size_t kHugePageChunkBytes = size_t{2} << 20;

struct HugePageChunkDeleter {
  void operator()(char* chunk) const;
};
using HugePageChunk = std::unique_ptr<char[], HugePageChunkDeleter>;

// A new chunk of kHugePageChunkBytes (zeroed). Throws std::bad_alloc when the system has no
// memory left, as operator new does.
HugePageChunk AllocateHugePageChunk();

}  // namespace crawldb
