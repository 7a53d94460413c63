// UrlPart: one of the url store's merged partitions — the URLs of a set of hosts added since the
// last optimize, sorted and coded like the base, each with the id it was given on arrival.
//
// Paper 003's idea (VEUNIQ): URLs are partitioned by host (a hash of the host key picks one of
// kUrlParts partitions), and a partition is rewritten as a whole, merging its sorted batch of
// new URLs into its sorted keys in one sequential pass; the partitions are rewritten in turn, a
// few per commit (url_store.h says when). The keys are the same canonical keys as the base's,
// in UrlBase blocks coded with a model shared by every part (the base's, or one trained for the
// parts: url_store.h), so a part costs about what the base costs per URL, plus its ids.
//
// Stored form (one row of <t>_parts; this header owns it):
//   data := version:u8 (= kPartFormatVersion) through_id:varint count:varint id_bits:u8
//           ids[count] filter keys
//   through_id  the part holds every URL of its hosts with an id ≤ through_id that was live when
//               the part was written; later ids are not in it: they are in the part's
//               <t>_pending rows of later commits (url_log_format.h), which hold no id ≤
//               through_id (a store refuses a row that does, and reads those rows only for a
//               look-up that needs them)
//   ids         the id of each key in key order, as (id − 1) in id_bits bits each, LSB first,
//               padded to a byte; id_bits ≤ 40
//   filter    := word:u64le{FilterWords(count)}: a blocked Bloom filter of the keys, so that a
//               look-up of a URL the part does not hold (every new URL a crawler adds) seldom
//               decodes a block: XXH3-64 of the key picks a word by its top 32 bits and sets
//               4 bits of it, 6 bits each from the low ones (extension/containers/
//               blocked_bloom.h); about 10 bits per key
//   keys      := part_count:varint ( length:varint bytes[length] ){part_count}: UrlBase's
//               KeyParts (url_base.h) of the count keys
// A part read keeps its row and reads ids, filter and blocks where they lie in it (no copy);
// memory: the row, plus what UrlBase holds of the groups read (their block offsets and heads).
// Load validates the header, every id's range, and the framing of filter and key parts; the keys'
// header and group head index as UrlBase::Open does (framing; heads decode when used), and a
// group of blocks when a look-up, a scan or crawldb_check() first needs it (so a look-up decodes
// the heads of one group, not every group's) — DataLossError "url part: …" / "url base: …"
// (UrlStore names the part). That no id repeats the store checks as it looks
// ids up (id→URL: a scan finds the id it looks for twice, the sort every repeat); keys are
// checked as they decode.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/url_block_model.h"
#include "extension/urls/url_base.h"

namespace crawldb::urls {

inline constexpr uint8_t kPartFormatVersion = 1;
inline constexpr int kUrlPartBits = 10;
inline constexpr size_t kUrlParts = size_t{1} << kUrlPartBits;

// The part that holds `key`: a hash of its host key (everything before the scheme mark), so
// every URL of one host is in one part.
size_t UrlPartOf(absl::string_view key);

class UrlPart {
 public:
  UrlPart() = default;

  // Builds a part from keys in strictly increasing order and their ids, coded with `model`.
  static absl::StatusOr<UrlPart> Build(absl::Span<const absl::string_view> keys,
                                       absl::Span<const int64_t> ids, int64_t through_id,
                                       std::shared_ptr<const codecs::UrlBlockModel> model);
  // Every id must also lie in [first_id, last_id] (a store's ids after its base).
  static absl::StatusOr<UrlPart> Load(absl::Span<const uint8_t> data,
                                      std::shared_ptr<const codecs::UrlBlockModel> model,
                                      int64_t first_id = 1, int64_t last_id = INT64_MAX);
  // Load of a row the part keeps: its ids, filter and blocks are read where they lie in it.
  static absl::StatusOr<UrlPart> LoadStored(std::vector<uint8_t> data,
                                            std::shared_ptr<const codecs::UrlBlockModel> model,
                                            int64_t first_id = 1, int64_t last_id = INT64_MAX);
  std::vector<uint8_t> Serialize() const;

  size_t size() const { return keys_.size(); }
  int64_t through_id() const { return through_id_; }
  const UrlBase& keys() const { return keys_; }
  int64_t IdAt(size_t rank) const {
    const size_t bit = rank * static_cast<size_t>(id_bits_);
    uint64_t word;
    std::memcpy(&word, ids_ + bit / 8, sizeof(word));
    // id_bits_ ≤ 40 and the shift < 8: the 64 bits read hold the whole value.
    const uint64_t value = (word >> (bit % 8)) & ((uint64_t{1} << id_bits_) - 1);
    return static_cast<int64_t>(value) + 1;
  }

  // The rank holding `key`, or nullopt.
  absl::StatusOr<std::optional<size_t>> Find(absl::string_view key) const {
    if (!MayHold(key)) return std::optional<size_t>();
    return keys_.Find(key);
  }
  // False when the part surely does not hold `key` (the filter).
  bool MayHold(absl::string_view key) const;
  absl::Status Get(size_t rank, std::string* key) const { return keys_.Get(rank, key); }

  size_t MemoryBytes() const;
  size_t StoredBytes() const;

 private:
  // The stored row (Serialize's bytes), which ids_, filter_ and the groups of keys_ lie in; null
  // for the empty part. A part read for one look-up decodes the heads of one group of blocks.
  std::shared_ptr<const std::vector<uint8_t>> data_;
  UrlBase keys_;
  // id − 1 of each rank, id_bits_ bits each, LSB first, in data_. The filter's words (at least
  // one) follow, so that IdAt may read 8 bytes at any rank.
  const uint8_t* ids_ = nullptr;
  int id_bits_ = 0;
  absl::Span<const uint8_t> filter_;  // its words, little-endian, in data_ (empty part: none)
  int64_t through_id_ = 0;
};

}  // namespace crawldb::urls
