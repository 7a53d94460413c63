// IdPartMap: which part (url_part.h) holds each URL added since optimize, by id — the way from an
// id to its key that does not load every part. A URL's part is a hash of its host, fixed when
// the URL is added, so the map only grows (optimize empties it).
//
// Stored form (rows of the shadow table <t>_ids; this header owns it): chunk c covers the
// kIdsPerChunk ids first_id + c × kIdsPerChunk, …, where first_id is the first id after the base;
//   data := version:u8 (= kIdPartsFormatVersion) count:varint packed
//           packed (codecs/packed_bytes.h) holds part:u16le{count}; count ≤ kIdsPerChunk, and
//           below it only in the last chunk
// A commit writes the chunks its new ids reach (the last one again as it fills).
//
// In memory: the chunks a look-up or an add needed, decoded (2 bytes per id); those holding ids
// not yet written (dirty) are kept until Written(), the others evicted least recently used
// beyond the bound given. Without a loader (a store used alone) nothing is ever evicted.
// Not thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/packed_bytes.h"

namespace crawldb::urls {

inline constexpr uint8_t kIdPartsFormatVersion = 1;
inline constexpr size_t kIdsPerChunk = 4096;

// `zstd`, when given, is used and kept for the next call (codecs/packed_bytes.h).
std::vector<uint8_t> EncodeIdChunk(absl::Span<const uint16_t> parts,
                                   codecs::ZstdContexts* zstd = nullptr);
// DataLossError "url ids: …" for anything malformed or a part out of range.
absl::StatusOr<std::vector<uint16_t>> DecodeIdChunk(absl::Span<const uint8_t> blob,
                                                    codecs::ZstdContexts* zstd = nullptr);

class IdPartMap {
 public:
  // Chunk `chunk` as stored; nullopt when it is not.
  using Loader = std::function<absl::StatusOr<std::optional<std::vector<uint16_t>>>(int64_t)>;

  // Empties the map; ids from first_id on are mapped.
  void Reset(int64_t first_id, Loader loader = nullptr);
  void set_max_chunks(size_t max_chunks) { max_chunks_ = max_chunks; }

  // The part of `id` (first_id <= id <= the last id mapped). DataLossError when the stored map
  // lacks it.
  absl::StatusOr<size_t> PartOf(int64_t id);
  // Maps the next id (`id` = the last id mapped + 1, or one past a stored chunk's end).
  absl::Status Append(int64_t id, size_t part);
  // Forgets every id above `last_id` held in memory (a rollback; they were never written).
  void Truncate(int64_t last_id);
  // Drops the chunks holding ids from `id` on that are not dirty (others wrote them).
  void Forget(int64_t id);

  // The chunks holding ids not yet written: (chunk, its parts).
  std::vector<std::pair<int64_t, absl::Span<const uint16_t>>> Dirty() const;
  // They are written: they may be evicted now.
  void Written();

  size_t MemoryBytes() const;

 private:
  struct Chunk {
    std::vector<uint16_t> parts;
    uint64_t used = 0;  // tick of the last use
    bool dirty = false;
  };
  int64_t ChunkOf(int64_t id) const {
    return (id - first_id_) / static_cast<int64_t>(kIdsPerChunk);
  }
  absl::StatusOr<Chunk*> Get(int64_t chunk);
  void Evict();

  int64_t first_id_ = 1;
  Loader loader_;
  size_t max_chunks_ = 256;
  uint64_t tick_ = 0;
  absl::flat_hash_map<int64_t, Chunk> chunks_;
};

}  // namespace crawldb::urls
