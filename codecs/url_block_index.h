// UrlBlockIndex: the heads (first keys) of a store's URL blocks (url_block_codec.h), each coded
// alone with the store's UrlBlockModel, searchable by binary search. With blocks of a fixed
// number of keys K, key i of the store is key i % K of block i / K; FindBlock tells which block
// may hold a given key. A block's head lives only here: the block itself holds the other keys.
//
// Byte format (Serialize; integers are varints, codecs/varint.h):
//   index   := count  length{count}  coded_head{count}
//   length  := bytes of the coded head, ≥ 1
//   coded_head := a key coded by AppendEncodedUrlKey (url_block_codec.h)
// Heads strictly increase. Load() checks the framing; heads are decoded when used (a corrupt
// head is a DataLossError then), and Validate() decodes them all.
//
// Memory: the coded heads (about 30 bytes each on the reddit keys) plus 4 bytes of offset per
// block. A search decodes about log2(blocks) heads, each only up to its first difference from
// the key looked for.
//
// Caller's obligations: the model outlives the index and is the one the heads were coded with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/url_block_model.h"

namespace crawldb::codecs {

class UrlBlockIndex {
 public:
  explicit UrlBlockIndex(const UrlBlockModel& model) : model_(&model) {}

  // Parses a serialized index (framing only, see above). DataLossError "url_block_index: …".
  static absl::StatusOr<UrlBlockIndex> Load(const UrlBlockModel& model,
                                            absl::Span<const uint8_t> bytes);

  std::vector<uint8_t> Serialize() const;

  // Appends the head of the next block. InvalidArgumentError unless it is greater than the
  // last head (or longer than kMaxUrlKeyBytes); DataLossError if the last head is corrupt.
  absl::Status Append(absl::string_view head);

  // Blocks indexed.
  size_t size() const { return ends_.size(); }

  // The head of `block` (< size()) into *head.
  absl::Status Head(size_t block, std::string* head) const;

  // The coded bytes of the head of `block` (< size()).
  absl::Span<const uint8_t> CodedHead(size_t block) const {
    const uint32_t begin = block == 0 ? 0 : ends_[block - 1];
    return absl::MakeConstSpan(bytes_.data() + begin, ends_[block] - begin);
  }

  // The last block whose head is ≤ key: the only block that can hold `key`, and the one where a
  // lower-bound search for it starts. nullopt if key is below the first head or the index is
  // empty.
  absl::StatusOr<std::optional<size_t>> FindBlock(absl::string_view key) const;

  // Decodes every head and checks that they strictly increase.
  absl::Status Validate() const;

  // The index of heads 0, stride, 2 × stride, … of this one, copied as coded (a stride of 0
  // counts as 1).
  UrlBlockIndex EveryNth(size_t stride) const;

  // Bytes held: coded heads and offsets.
  size_t byte_size() const { return bytes_.size() + ends_.size() * sizeof(uint32_t); }

 private:
  const UrlBlockModel* model_;
  std::vector<uint8_t> bytes_;  // The coded heads, one after the other.
  std::vector<uint32_t> ends_;  // ends_[b]: offset in bytes_ just past head b.
};

}  // namespace crawldb::codecs
