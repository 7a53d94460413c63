// Front-coded string blocks: a sorted run of byte strings, each stored as the length of the
// prefix it shares with the previous string plus the rest.
//
// Byte format (every integer an unsigned LEB128 varint, codecs/varint.h; no padding, no
// version byte: the owner of the block records the format):
//   block  := count [first entry{count − 1}]     first and entries present iff count ≥ 1
//   first  := length bytes[length]                string 0, whole
//   entry  := shared suffix_length bytes[suffix_length]
// String i ≥ 1 is string(i − 1)[0, shared) followed by the suffix bytes. The block ends right
// after the last entry.
//
// Example: "ab", "abc", "b" → 03 | 02 'a' 'b' | 02 01 'c' | 00 01 'b' (10 bytes).
//
// Invariants (the builder guarantees them, the reader checks them): strings are in strictly
// increasing byte order (unsigned bytes, a proper prefix before its extensions), so no
// duplicates; `shared` is the whole common prefix of the two strings, hence shared ≤
// |string(i − 1)|, suffix_length ≥ 1 and, when shared < |string(i − 1)|, the first suffix byte
// is greater than byte `shared` of string(i − 1); every length lies within the block; count is
// at most the block's size in bytes; nothing follows the last entry.
//
// Strings are arbitrary bytes (NUL included), handled as absl::string_view with their length.
// Reference: I. H. Witten, A. Moffat and T. C. Bell, "Managing Gigabytes", 2nd ed., Morgan
// Kaufmann 1999, §4.1 (front coding).
//
// Caller's obligations: the block size is the caller's to bound and store (the reader needs the
// exact span); the span outlives the reader and its cursors. Lookups decode from the start of
// the block, so cost is linear in the block's length: keep blocks small (a few KiB).
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

namespace crawldb::codecs {

// Builds one block from strings given in strictly increasing byte order.
class FrontCodedBlockBuilder {
 public:
  FrontCodedBlockBuilder() = default;

  // Appends `key`. InvalidArgumentError, leaving the block unchanged, unless key is greater than
  // the previous key.
  absl::Status Add(absl::string_view key);

  // Strings added since construction or the last Finish().
  size_t count() const { return count_; }

  // Bytes Finish() would return now.
  size_t encoded_size() const;

  // Returns the block; the builder is then empty.
  std::vector<uint8_t> Finish();

 private:
  size_t count_ = 0;
  std::string last_;           // The previous key.
  std::vector<uint8_t> body_;  // The block after its count.
};

// Decodes one block, checking the invariants above as it goes. Corruption found on the way is
// reported as absl::DataLossError with a message "front_coded_block: <what is wrong>".
class FrontCodedBlockReader {
 public:
  // Iterates over the strings of a block, in order:
  //   for (auto cursor = reader.NewCursor(); cursor.Next();) Use(cursor.key());
  //   if (!cursor.status().ok()) ...  // the block is corrupt
  class Cursor {
   public:
    // Decodes the next string. False at the end of the block or on corruption (then status()
    // is not OK and Next() keeps returning false).
    bool Next();

    // The current string; valid after Next() returned true, until the next call to Next().
    absl::string_view key() const { return key_; }

    // Index of the current string, in [0, count).
    size_t index() const { return next_index_ - 1; }

    const absl::Status& status() const { return status_; }

   private:
    friend class FrontCodedBlockReader;
    Cursor(const uint8_t* begin, const uint8_t* end, size_t count)
        : position_(begin), end_(end), count_(count) {}
    bool Corrupt(absl::string_view what);

    const uint8_t* position_;  // Next entry; nullptr after corruption.
    const uint8_t* end_;
    size_t count_;
    size_t next_index_ = 0;  // Strings decoded so far.
    std::string key_;
    absl::Status status_;
  };

  // Reads the block's count; DataLossError if it is truncated or larger than the block.
  static absl::StatusOr<FrontCodedBlockReader> Open(absl::Span<const uint8_t> block);

  // Number of strings.
  size_t size() const { return count_; }

  Cursor NewCursor() const { return Cursor(entries_, end_, count_); }

  // String i. OutOfRangeError if i ≥ size(); DataLossError on corruption up to string i.
  absl::StatusOr<std::string> Get(size_t i) const;

  // Index of `key`, or nullopt if the block does not hold it.
  absl::StatusOr<std::optional<size_t>> Find(absl::string_view key) const;

  // Index of the first string ≥ `key`, or size() if every string is smaller.
  absl::StatusOr<size_t> LowerBound(absl::string_view key) const;

  // Decodes the whole block: OK iff it satisfies every invariant.
  absl::Status Validate() const;

 private:
  FrontCodedBlockReader(const uint8_t* entries, const uint8_t* end, size_t count)
      : entries_(entries), end_(end), count_(count) {}

  const uint8_t* entries_;  // The first string's length.
  const uint8_t* end_;
  size_t count_;
};

}  // namespace crawldb::codecs
