// The URLs as of the last optimize: their canonical keys (canonical_key.h) in sorted order, cut
// into blocks of exactly kKeysPerBlock keys (the last block may hold fewer), each block encoded
// on its own so that one lookup decodes one block. The key of rank r (0-based) is entry
// r % kKeysPerBlock of block r / kKeysPerBlock; after optimize the URL with rank r has id r + 1.
//
// Stored form (what the shadow table urls_base holds, one row per part; the header owns it):
//   part 0   header := version:u8 (= kBaseFormatVersion) key_count:varint keys_per_block:varint
//   part b   block b−1, as codecs/front_coded_block.h encodes it, for b = 1..ceil(count/K)
// Every part is validated when loaded (counts against the header) and every block again when it
// is decoded (DataLossError, never an out-of-bounds read).
//
// Memory: the blocks' bytes in one arena, plus the first key of every block in another (the
// index that binary search runs over).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb::urls {

inline constexpr uint8_t kBaseFormatVersion = 1;
inline constexpr size_t kKeysPerBlock = 64;

class UrlBase {
 public:
  UrlBase() : block_offsets_{0}, head_offsets_{0} {}

  // Builds from keys in strictly increasing order (InvalidArgumentError otherwise).
  static absl::StatusOr<UrlBase> Build(absl::Span<const std::string_view> sorted_keys);

  // Rebuilds from the stored parts (part 0 first); DataLossError when they do not fit together.
  static absl::StatusOr<UrlBase> Load(absl::Span<const absl::Span<const uint8_t>> parts);

  // The stored parts, part 0 first.
  std::vector<std::vector<uint8_t>> Parts() const;

  size_t size() const { return count_; }
  size_t block_count() const { return block_offsets_.size() - 1; }

  // Rank of `key`, or nullopt.
  absl::StatusOr<std::optional<size_t>> Find(std::string_view key) const;
  // Rank of the first key ≥ `key` (size() if none).
  absl::StatusOr<size_t> LowerBound(std::string_view key) const;
  // The key of `rank` (< size()), decoded into *key.
  absl::Status Get(size_t rank, std::string* key) const;
  // The keys of block `block`, in order, appended to *keys (for scans).
  absl::Status DecodeBlock(size_t block, std::vector<std::string>* keys) const;

  // Bytes of memory held (arenas and their offsets).
  size_t MemoryBytes() const;
  // Bytes of the stored parts.
  size_t StoredBytes() const;

 private:
  absl::Span<const uint8_t> Block(size_t block) const;
  std::string_view Head(size_t block) const;
  // The block whose range may hold `key`: the last block whose head is ≤ key (0 if none).
  size_t BlockFor(std::string_view key) const;

  size_t count_ = 0;
  std::vector<uint8_t> blocks_;          // every block, back to back
  std::vector<uint64_t> block_offsets_;  // block b is blocks_[block_offsets_[b], [b + 1])
  std::string heads_;                    // the first key of every block, back to back
  std::vector<uint64_t> head_offsets_;
};

}  // namespace crawldb::urls
