// The URL block codec: a sorted run of URL keys (canonical keys,
// extension/identity/canonical_key.h, or any byte strings) front-coded, with every suffix
// entropy-coded by a shared UrlBlockModel (url_block_model.h). A store cuts its sorted keys into
// blocks of a fixed number of keys and keeps each block's first key, its head, in a UrlBlockIndex
// (url_block_index.h); the block holds the other keys, each as the length of the prefix it shares
// with a neighbour plus the rest of the key as tokens.
//
// Two directions. The first half of a block is coded forward from its head (each key against
// the key before it); the second half backward from the NEXT block's head (each key against the
// key after it, the last key against that head). Random access then decodes a quarter of the
// block on average instead of half, at the same size. The last block of a store has no next
// head: it is coded forward only.
//
// Byte format (bit fields most significant bit first, as codecs/bit_writer.h writes them):
//   block     := count·2 + backward:varint  [forward_bytes:varint if backward = 1]
//                forward  [backward_part if backward = 1]
//   count     := keys in the block, head included, ≥ 1; backward = 1 requires count ≥ 2
//   forward   := entry{f} zero bits up to a byte boundary, f = count − 1 if backward = 0, else
//                ⌊(count − 1) / 2⌋; entry i (i = 1..f) codes key i against key i − 1
//   backward_part := entry{count − 1 − f} zero bits up to a byte boundary; the j-th entry codes
//                key count − j against key count − j + 1, key count being the next block's head
//   forward_bytes := the size of `forward` in bytes
//   entry     := shared  token*  end-of-key
//   shared    := the shared-prefix length s with the neighbour, in the model's shared code when
//                s < 255; else codeword 255, then Elias γ(s − 254) (codecs/elias_gamma.h)
//   token     := a literal byte or a symbol, in the code of the cluster of the byte before it
//                (url_block_model.h); end-of-key likewise
//   key       := token* end-of-key  zero bits up to a byte boundary  (AppendEncodedUrlKey: one
//                key alone, as the index stores heads, starting in the start context)
// A key is its neighbour's first s bytes followed by its tokens' bytes. Invariants, checked
// while decoding: keys strictly increase, head < key 1 < … < key count − 1 < next head (the
// step between the halves is checked by Validate and the cursor; a block coded forward only
// never reads the next head, so its caller orders the heads: UrlBlockIndex); s is the whole
// common prefix
// (s ≤ |neighbour|; forward, the key has a byte at s, above the neighbour's byte there if it
// has one; backward, the neighbour has a byte at s, above the key's byte there if it has one);
// no key has more than kMaxUrlKeyBytes bytes; each part's bits end inside its last byte, padded
// with zeros.
//
// Reference: front coding, I. H. Witten, A. Moffat and T. C. Bell, "Managing Gigabytes",
// 2nd ed., §4.1; token codes, see url_block_model.h.
//
// Caller's obligations: store each block's exact size (the span given to the reader must end
// where the block ends; no padding is needed, nothing is read beyond it), its head, and pass
// the next block's head to the encoder and, when a key of the second half is read, to the
// reader; keep the model, heads and bytes alive as long as the reader and its cursors.
// Decoding is sequential from a head: about 5 ns per token (12 tokens per reddit key); with 32
// keys per block a random Get decodes 8 keys on average, a Find 16.
//
// Errors: keys a caller passes in are InvalidArgumentError; bytes that break the format are
// DataLossError "url_block: <what>". No input makes the decoder read out of bounds.
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

// Longest key the codec accepts, and decodes before calling the input corrupt: 1 MiB, the
// longest URL a `urls` table accepts (its max_url_length option), whose key is shorter.
inline constexpr size_t kMaxUrlKeyBytes = size_t{1} << 20;

// Encodes the block whose keys are `keys`, head first (the head itself is not in the output:
// the index stores it), the second half against `next_head`, the next block's head; nullopt
// for the store's last block. InvalidArgumentError unless keys is non-empty and strictly
// increasing, next_head is above the last key, and no key is longer than kMaxUrlKeyBytes.
absl::StatusOr<std::vector<uint8_t>> EncodeUrlBlock(const UrlBlockModel& model,
                                                    absl::Span<const absl::string_view> keys,
                                                    std::optional<absl::string_view> next_head);

// Appends one key coded alone (the `key` rule above) to *out. InvalidArgumentError if the key
// is longer than kMaxUrlKeyBytes.
absl::Status AppendEncodedUrlKey(const UrlBlockModel& model, absl::string_view key,
                                 std::vector<uint8_t>* out);

// Decodes a key coded by AppendEncodedUrlKey, which must fill `bytes` exactly, into *key.
absl::Status DecodeUrlKey(const UrlBlockModel& model, absl::Span<const uint8_t> bytes,
                          std::string* key);

// Compares the key coded in `bytes` with `key` (byte order): negative, zero or positive as the
// coded key is smaller, equal or greater. Decodes only up to the first difference, so it does
// not check the rest of `bytes`.
absl::StatusOr<int> CompareUrlKey(const UrlBlockModel& model, absl::Span<const uint8_t> bytes,
                                  absl::string_view key);

// Landmarks: a key in the middle of each half of a block and where its entry ends, so that a
// reader can start there instead of at a head. A block's landmarks are found by decoding it
// whole once (UrlBlockReader::FindLandmarks); a reader given them (UseLandmarks) decodes at most
// about a quarter of a half: with 32 keys per block, Get 3.5 keys on average instead of 7.5, Find
// 3.5 instead of about 12, since the first key of the second half also tells which half holds
// the key. Index 0 means "no landmark" (halves of fewer than two keys have none).
struct UrlBlockLandmarks {
  size_t forward_index = 0;   // F = ⌈f / 2⌉ when f ≥ 2: key F of the forward part
  uint64_t forward_bits = 0;  // bit position, in the forward part, of entry F + 1
  absl::string_view forward_key;
  // With a backward part of b = count − 1 − f ≥ 2 keys: L = count − ⌈b / 2⌉.
  size_t backward_index = 0;
  uint64_t backward_bits = 0;  // bit position, in the backward part, of entry L − 1
  absl::string_view backward_key;
  absl::string_view first_backward_key;  // key f + 1, when backward_index ≠ 0
};

class UrlBlockReader {
 public:
  // Iterates over the keys of a block in order, head first:
  //   for (auto cursor = reader.NewCursor(); cursor.Next();) Use(cursor.key());
  //   if (!cursor.status().ok()) ...  // the block is corrupt
  // Entering the second half decodes it whole into the cursor (it is coded backward).
  class Cursor {
   public:
    // Decodes the next key. False after the last key (once the block's end is checked) or on
    // corruption (then status() is not OK); Next() then keeps returning false.
    bool Next();
    // The current key; valid after Next() returned true, until the next call.
    absl::string_view key() const { return key_; }
    // Index of the current key in the block.
    size_t index() const { return next_index_ - 1; }
    const absl::Status& status() const { return status_; }

   private:
    friend class UrlBlockReader;
    explicit Cursor(const UrlBlockReader& reader) : reader_(&reader) {}
    bool Fail(absl::Status status);
    bool DecodeSecondHalf();

    const UrlBlockReader* reader_;
    size_t next_index_ = 0;
    uint64_t bit_position_ = 0;  // Of the next forward entry, from the start of the part.
    std::string buffer_;         // The last forward key in [0, length_), scratch beyond.
    size_t length_ = 0;
    std::string second_half_;  // Keys f + 1 .. count − 1, ascending, concatenated.
    std::vector<size_t> second_half_ends_;
    absl::string_view key_;
    bool done_ = false;
    absl::Status status_;
  };

  // A reader over `block` (EncodeUrlBlock's output) whose head is `head` and whose next block
  // starts with `next_head` (nullopt if unknown or none: then only the first half can be read,
  // see forward_count()). DataLossError if the header is missing or does not fit the block.
  static absl::StatusOr<UrlBlockReader> Open(const UrlBlockModel& model, absl::string_view head,
                                             std::optional<absl::string_view> next_head,
                                             absl::Span<const uint8_t> block);

  // Keys in the block, head included.
  size_t size() const { return count_; }
  // Keys 0..forward_count() are read from the head; the others need the next head.
  size_t forward_count() const { return forward_count_; }

  // Key i into *key (its previous content is lost; its capacity is reused). OutOfRangeError if
  // i ≥ size(); FailedPreconditionError if key i needs the next head and none was given;
  // DataLossError on corruption met on the way. Reads only the head for i ≤ forward_count()
  // and only the next head above: a caller that decodes heads on demand needs just one (and
  // may pass "" for the other).
  //
  // Cost: i decoded keys, or size() − i from the next head.
  absl::Status Get(size_t i, std::string* key) const;

  // Index of the first key ≥ `key`, size() if every key is smaller. *scratch is working space.
  absl::StatusOr<size_t> LowerBound(absl::string_view key, std::string* scratch) const;

  // Index of `key`, nullopt if the block does not hold it. *scratch is working space.
  absl::StatusOr<std::optional<size_t>> Find(absl::string_view key, std::string* scratch) const;

  Cursor NewCursor() const { return Cursor(*this); }

  // Decodes the whole block (checking it as Validate does) and returns its landmarks; their keys
  // are copied into *keys, which the returned views point into (until *keys changes).
  absl::StatusOr<UrlBlockLandmarks> FindLandmarks(std::string* keys) const;
  // Makes Get, LowerBound and Find start from `landmarks` (this block's FindLandmarks result,
  // which the caller keeps alive as long as the reader), or from the heads again (nullptr).
  void UseLandmarks(const UrlBlockLandmarks* landmarks) { landmarks_ = landmarks; }

  // Decodes the whole block: OK iff it satisfies every invariant above.
  absl::Status Validate() const;

 private:
  UrlBlockReader(const UrlBlockModel& model, absl::string_view head,
                 std::optional<absl::string_view> next_head, absl::Span<const uint8_t> forward,
                 absl::Span<const uint8_t> backward, size_t count, size_t forward_count)
      : model_(&model),
        head_(head),
        next_head_(next_head),
        forward_(forward),
        backward_(backward),
        count_(count),
        forward_count_(forward_count) {}

  // LowerBound, also telling whether the key found equals `key`. Starts with the half that
  // LikelyInSecondHalf picks, so a Find usually decodes a quarter of the block.
  absl::StatusOr<size_t> Search(absl::string_view key, std::string* scratch, bool* equal) const;
  // Search with landmarks.
  absl::StatusOr<size_t> SearchFromLandmarks(absl::string_view key, std::string* scratch,
                                             bool* equal) const;
  // Decodes forward entries start + 1 .. last from key `start` (`start_key`, whose entry ends
  // at bit `bits`): the first index whose key is ≥ `key`, or last + 1 (*equal false).
  absl::StatusOr<size_t> ScanForward(absl::string_view start_key, size_t start, uint64_t bits,
                                     size_t last, absl::string_view key, std::string* scratch,
                                     bool* equal) const;
  // Decodes backward entries start − 1 down to lowest from key `start` (`start_key`; count and
  // the next head for the top): one above the highest index whose key is < `key`, or lowest
  // (start when nothing is decoded); *equal tells whether the key at the returned index
  // equals `key`.
  absl::StatusOr<size_t> ScanBackward(absl::string_view start_key, size_t start, uint64_t bits,
                                      size_t lowest, absl::string_view key, std::string* scratch,
                                      bool* equal) const;
  bool LikelyInSecondHalf(absl::string_view key) const;
  absl::Status NeedNextHead(size_t i) const;

  const UrlBlockModel* model_;
  absl::string_view head_;
  std::optional<absl::string_view> next_head_;
  absl::Span<const uint8_t> forward_;   // The forward part, padding included.
  absl::Span<const uint8_t> backward_;  // The backward part; empty without one.
  size_t count_;
  size_t forward_count_;  // f: keys 1..f are in the forward part.
  const UrlBlockLandmarks* landmarks_ = nullptr;
};

}  // namespace crawldb::codecs
