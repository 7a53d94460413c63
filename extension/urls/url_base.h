// The URLs as of the last optimize: their canonical keys (canonical_key.h) in sorted order, cut
// into blocks of exactly kKeysPerBlock keys (the last block may hold fewer), each block encoded
// on its own so that one lookup decodes one block. The key of rank r (0-based) is entry
// r % kKeysPerBlock of block r / kKeysPerBlock; after optimize the URL with rank r has id r + 1.
//
// Stored form (the rows of the shadow table <t>_base, part 0 first; this header owns it):
//   part 0   header := version:u8 (= kBaseFormatVersion) key_count:varint
//                      keys_per_block:varint blocks_per_part:varint
//   part p   group  := block_count:varint block_size:varint{block_count} block{block_count}
//            for p = 1.., each holding blocks_per_part blocks (the last part fewer); a block is
//            encoded as codecs/front_coded_block.h says.
// Parts group blocks so that a row is tens of KiB: SQLite fills the overflow pages of a large
// row completely, where one small row per page would leave much of each page empty.
// Every part is validated when loaded (counts and sizes against the header) and every block
// again when it is decoded (DataLossError, never an out-of-bounds read).
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
#include "codecs/front_coded_block.h"

namespace crawldb::urls {

inline constexpr uint8_t kBaseFormatVersion = 1;
inline constexpr size_t kKeysPerBlock = 64;
inline constexpr size_t kBlocksPerPart = 32;

// The keys of one decoded block, in one reusable buffer (no allocation per key).
class BlockKeys {
 public:
  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t i) const {
    size_t begin = i == 0 ? 0 : ends_[i - 1];
    return std::string_view(bytes_).substr(begin, ends_[i] - begin);
  }
  void Clear() {
    bytes_.clear();
    ends_.clear();
  }
  void Append(std::string_view key) {
    bytes_.append(key);
    ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  }

 private:
  std::string bytes_;
  std::vector<uint32_t> ends_;  // key i is bytes_[ends_[i − 1], ends_[i])
};

class UrlBase {
 public:
  UrlBase() : block_offsets_{0}, head_offsets_{0} {}

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
  // The keys of block `block`, in order, into *keys (cleared first).
  absl::Status DecodeBlock(size_t block, BlockKeys* keys) const;

  // Bytes of memory held (arenas and their offsets).
  size_t MemoryBytes() const;
  // Bytes of the stored parts.
  size_t StoredBytes() const;

 private:
  friend class UrlBaseBuilder;
  absl::StatusOr<codecs::FrontCodedBlockReader> Reader(size_t block) const;
  std::string_view Head(size_t block) const;
  // The block whose range may hold `key`: the last block whose head is ≤ key (0 if none).
  size_t BlockFor(std::string_view key) const;
  // Appends one encoded block whose first key is `head`.
  void AppendBlock(absl::Span<const uint8_t> block, std::string_view head);

  size_t count_ = 0;
  std::vector<uint8_t> blocks_;          // every block, back to back
  std::vector<uint64_t> block_offsets_;  // block b is blocks_[block_offsets_[b], [b + 1])
  std::string heads_;                    // the first key of every block, back to back
  std::vector<uint64_t> head_offsets_;
};

// Builds a UrlBase from keys given one at a time in strictly increasing order, without holding
// them: each full block is encoded as it completes.
class UrlBaseBuilder {
 public:
  // InvalidArgumentError unless `key` is greater than the previous one.
  absl::Status Add(std::string_view key);
  // The base; the builder is spent.
  UrlBase Finish();

 private:
  void FlushBlock();

  UrlBase base_;
  codecs::FrontCodedBlockBuilder block_;
  std::string head_;  // first key of the block being built
};

}  // namespace crawldb::urls
