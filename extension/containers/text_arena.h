// TextArena: append-only bytes in fixed 2 MiB chunks, addressed by a 64-bit offset.
//
// A std::string that grows copies everything it holds each time it doubles — at a few hundred
// MB of URLs, a pause of a few hundred milliseconds in whichever insert crosses the line. Here
// an append never moves earlier bytes: a text that does not fit in the rest of the last chunk
// starts the next one (the rest stays unused). Offsets are chunk * kChunkBytes + position.
// Chunks are huge-page chunks (huge_page_chunk.h): random reads of texts then miss the TLB less.
//
// Obligations: a text is at most kChunkBytes long; View is given an offset Append returned and
// that text's length; Truncate is given an offset Append returned (or end()).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <vector>

#include "extension/containers/huge_page_chunk.h"

namespace crawldb {

class TextArena {
 public:
  static constexpr int kChunkBits = 21;
  static constexpr size_t kChunkBytes = size_t{1} << kChunkBits;
  static_assert(kChunkBytes == kHugePageChunkBytes);

  // Appends `text` and returns its offset.
  uint64_t Append(std::string_view text) {
    if (chunks_.empty() || kChunkBytes - used_ < text.size()) {
      chunks_.push_back(AllocateHugePageChunk());
      used_ = 0;
    }
    const uint64_t offset = end();
    if (!text.empty()) std::memcpy(chunks_.back().get() + used_, text.data(), text.size());
    used_ += text.size();
    return offset;
  }

  std::string_view View(uint64_t offset, size_t length) const {
    if (length == 0) return {};
    return {chunks_[offset >> kChunkBits].get() + (offset & (kChunkBytes - 1)), length};
  }

  // Whether [offset, offset + length) lies in one chunk, before end().
  bool Holds(uint64_t offset, size_t length) const {
    return offset + length <= end() && (offset & (kChunkBytes - 1)) + length <= kChunkBytes;
  }

  // The offset just past the last text.
  uint64_t end() const {
    return chunks_.empty() ? 0 : ((uint64_t{chunks_.size()} - 1) << kChunkBits) + used_;
  }

  // Forgets every text from `offset` on.
  void Truncate(uint64_t offset) {
    const size_t chunk = offset >> kChunkBits;
    if (chunk >= chunks_.size()) return;
    chunks_.resize(chunk + 1);
    used_ = offset & (kChunkBytes - 1);
  }

  size_t MemoryBytes() const { return chunks_.size() * kChunkBytes; }

 private:
  std::vector<HugePageChunk> chunks_;
  size_t used_ = 0;  // bytes used in the last chunk
};

}  // namespace crawldb
