// Nybble code: the variable-length code of the Link2 adjacency lists. Reference: K. H. Randall,
// R. Stata, R. Wickremesinghe and J. L. Wiener, "The Link Database: Fast Access to Graphs of
// the Web", Compaq SRC Research Report 175, 2001 (also DCC 2002), §3.2 (seeds/001).
//
// Definition. A value is a string of 4-bit nybbles. The low-order bit of each nybble is the stop
// bit: 1 on the last nybble of the string, 0 on the others. The three high bits of each nybble
// carry data; the string's data groups are combined little-endian, the first nybble holding
// the least significant 3 bits. A value that may be negative is first mapped to sign/magnitude
// with the sign in the least significant data bit: N = 2·|v| + (v < 0 ? 1 : 0), then N is coded
// as above. Nybble 2k of a stream is the low half of byte k, nybble 2k + 1 its high half.
//
// The paper's examples, a byte written most significant bit first:
//   28            → 0111 1000 (0x78): low nybble 1000 = data 100 (4), stop 0, more follows;
//                   high nybble 0111 = data 011 (3), stop 1, last. 4 + 3·8 = 28.
//   28 as signed  → 1111 0000 (0xF0): N = 2·28 + 0 = 56; low nybble 0000 = data 000, stop 0;
//                   high nybble 1111 = data 111 (7), stop 1. 0 + 7·8 = 56, sign bit 0, |v| 28.
//   −6            → 0011 1010 (0x3A): N = 2·6 + 1 = 13; low nybble 1010 = data 101 (5), stop 0;
//                   high nybble 0011 = data 001 (1), stop 1. 5 + 1·8 = 13, sign 1, |v| 6.
// So the stop bit is 1 on the last nybble, which the paper leaves implicit.
//
// First codewords, nybbles in stream order, each written as data·stop:
//   unsigned 0 → 0001   1 → 0011   7 → 1111   8 → 0000 0011   63 → 1110 1111
//            64 → 0000 0000 0011   (n nybbles hold values below 8^n)
//   signed   0 → 0001   1 → 0101   −1 → 0111   2 → 1001   −2 → 1011   3 → 1101   −3 → 1111
//            4 → 0000 0011   −4 → 0010 0011
//
// Range: every uint64_t, 1 to 22 nybbles (NybbleLength); every int64_t, INT64_MIN included,
// 1 to 22 nybbles (SignedNybbleLength). N is a 65-bit number for INT64_MIN (2^64 + 1); it is
// written as the nybbles of that 65-bit number, nothing special on the wire.
//
// Decoding is strict on size: a string of more than 22 nybbles, or one whose value does not fit
// in uint64_t (int64_t for the signed reader), is an error. Non-minimal strings (extra high
// zero groups) and negative zero are accepted; negative zero reads as 0.
//
// Caller's obligations: the count of values (or the nybble length of a list) is the caller's to
// store; the reader's span outlives it. Lists need not end on a byte boundary: the unused high
// half of a last byte is zero, and a reader may be bounded to a nybble count.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/types/span.h"

namespace crawldb::codecs {

// The longest string, in nybbles (ceil(64 / 3); ceil(65 / 3) for the signed form).
inline constexpr int kMaxNybbleLength = 22;

namespace internal {

inline constexpr uint64_t kStopBits = 0x1111111111111111;

// Spreads the low 48 bits of `value`, 3 at a time, into the data bits (bits 1 to 3) of 16
// nybbles; stop bits are left zero. The inverse of GatherNybbleData.
inline uint64_t SpreadNybbleData(uint64_t value) {
  uint64_t x = value & 0xFFFFFFFFFFFF;
  x = (x & 0x0000000000FFFFFF) | ((x & 0x0000FFFFFF000000) << 8);
  x = (x & 0x00000FFF00000FFF) | ((x & 0x00FFF00000FFF000) << 4);
  x = (x & 0x003F003F003F003F) | ((x & 0x0FC00FC00FC00FC0) << 2);
  x = (x & 0x0707070707070707) | ((x & 0x3838383838383838) << 1);
  return x << 1;
}

// Packs the data bits (bits 1 to 3) of the 16 nybbles of `word` into a 48-bit value, nybble 0
// least significant.
inline uint64_t GatherNybbleData(uint64_t word) {
  uint64_t x = (word >> 1) & 0x7777777777777777;
  x = (x & 0x0707070707070707) | ((x >> 1) & 0x3838383838383838);
  x = (x & 0x003F003F003F003F) | ((x >> 2) & 0x0FC00FC00FC00FC0);
  x = (x & 0x00000FFF00000FFF) | ((x >> 4) & 0x00FFF00000FFF000);
  x = (x & 0x0000000000FFFFFF) | ((x >> 8) & 0x0000FFFFFF000000);
  return x;
}

// N = 2·|value| + sign, for every value but INT64_MIN.
inline uint64_t SignMagnitude(int64_t value) {
  const uint64_t sign = value < 0 ? 1 : 0;
  const uint64_t magnitude = sign ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  return (magnitude << 1) | sign;
}

// The inverse of SignMagnitude, for every N < 2^64.
inline int64_t FromSignMagnitude(uint64_t n) {
  const uint64_t magnitude = n >> 1;
  return static_cast<int64_t>((n & 1) ? 0 - magnitude : magnitude);
}

}  // namespace internal

// Nybbles the code of `value` takes, in [1, 22].
inline int NybbleLength(uint64_t value) { return (std::bit_width(value | 1) + 2) / 3; }

// Nybbles the signed code of `value` takes, in [1, 22].
inline int SignedNybbleLength(int64_t value) {
  if (value == INT64_MIN) return kMaxNybbleLength;
  return NybbleLength(internal::SignMagnitude(value));
}

// Appends nybble codes to an owned byte vector.
class NybbleWriter {
 public:
  NybbleWriter() = default;

  // Appends the code of `value` (NybbleLength(value) nybbles).
  void WriteNybble(uint64_t value) {
    const int length = NybbleLength(value);
    if (length <= 16) [[likely]] {
      AppendNybbles(internal::SpreadNybbleData(value) | (uint64_t{1} << (4 * length - 4)), length);
      return;
    }
    WriteLong(value, length);
  }

  // Appends the sign/magnitude code of `value` (SignedNybbleLength(value) nybbles).
  void WriteSignedNybble(int64_t value) {
    if (value == INT64_MIN) [[unlikely]] {
      WriteInt64Min();
      return;
    }
    WriteNybble(internal::SignMagnitude(value));
  }

  // Nybbles written since construction or the last Finish().
  size_t nybble_length() const { return nybble_length_; }

  // The bytes so far, ceil(nybble_length() / 2) of them; an unused high half is zero. The span
  // is invalidated by the next write.
  absl::Span<const uint8_t> bytes() const {
    return absl::MakeConstSpan(bytes_.data(), (nybble_length_ + 1) / 2);
  }

  // Returns the bytes (as bytes()); the writer is then empty.
  std::vector<uint8_t> Finish();

 private:
  // Appends `count` nybbles (count in [1, 16]), nybble i of the string in bits 4i..4i+3 of
  // `nybbles`; bits above 4·count are zero.
  void AppendNybbles(uint64_t nybbles, int count) {
    const size_t byte = nybble_length_ >> 1;
    if (byte + 9 > bytes_.size()) [[unlikely]] {
      Grow();
    }
    // Branch-free for either half: OR the word into place over the zeros past the end (and a
    // pending low half), then put the 16th nybble of an odd start into the ninth byte.
    const int shift = 4 * static_cast<int>(nybble_length_ & 1);
    uint64_t word;
    std::memcpy(&word, bytes_.data() + byte, 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    word |= nybbles << shift;
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    std::memcpy(bytes_.data() + byte, &word, 8);
    bytes_[byte + 8] = static_cast<uint8_t>((nybbles >> 1) >> (63 - shift));
    nybble_length_ += count;
  }

  void Grow();
  void WriteLong(uint64_t value, int length);  // length in [17, 22].
  void WriteInt64Min();

  std::vector<uint8_t> bytes_;  // The first ceil(nybble_length_ / 2) bytes are the output; at
                                // least 9 bytes after them, all zero, are room for AppendNybbles.
  size_t nybble_length_ = 0;
};

// Reads nybble codes from a byte span, nybble 2k being the low half of byte k.
//
// Errors: truncated input, a string longer than 22 nybbles, a value out of range, or Seek past
// the end set a sticky error flag, move the position to the end and return 0; ok() stays false
// (Seek does not clear it). No call reads outside the span or past the nybble bound.
class NybbleReader {
 public:
  explicit NybbleReader(absl::Span<const uint8_t> bytes) : NybbleReader(bytes, bytes.size() * 2) {}

  // Reads only the first `nybble_count` nybbles (clamped to 2 · bytes.size()).
  NybbleReader(absl::Span<const uint8_t> bytes, size_t nybble_count)
      : data_(bytes.data()), size_(bytes.size()), end_(std::min(nybble_count, bytes.size() * 2)) {}

  // Reads one unsigned code.
  uint64_t ReadNybble() {
    uint64_t value;
    if (ReadShort(&value)) [[likely]] {
      return value;
    }
    return ReadLongUnsigned();
  }

  // Reads one sign/magnitude code.
  int64_t ReadSignedNybble() {
    uint64_t n;
    if (ReadShort(&n)) [[likely]] {
      return internal::FromSignMagnitude(n);
    }
    return ReadLongSigned();
  }

  // Moves to nybble `nybble`; past the end is an error.
  void Seek(size_t nybble) {
    if (nybble > end_) {
      Fail();
      return;
    }
    position_ = nybble;
  }

  size_t position() const { return position_; }  // In nybbles.
  size_t nybbles_left() const { return end_ - position_; }
  bool ok() const { return ok_; }

 private:
  // The fast path: decodes a code of at most 16 nybbles lying within 8 in-bounds bytes. Returns
  // false, consuming nothing, when it cannot decide (near the end, or a longer string).
  bool ReadShort(uint64_t* value) {
    const size_t byte = position_ >> 1;
    if (byte + 8 > size_) return false;
    uint64_t word;
    std::memcpy(&word, data_ + byte, 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    word >>= 4 * (position_ & 1);
    if ((word & 1) != 0 && position_ < end_) {  // One nybble, the most common code.
      ++position_;
      *value = (word >> 1) & 7;
      return true;
    }
    const uint64_t stops = word & internal::kStopBits;
    if (stops == 0) return false;
    const int length = std::countr_zero(stops) / 4 + 1;
    if (position_ + length > end_) return false;
    position_ += length;
    *value = internal::GatherNybbleData(word) & ((uint64_t{1} << (3 * length)) - 1);
    return true;
  }

  // One nybble at a time: the codes ReadShort leaves, and every error.
  uint64_t ReadLongUnsigned();
  int64_t ReadLongSigned();
  // Reads one string: *low gets data groups 0 to 20 (value bits 0 to 62), *top the data of a
  // 22nd nybble (value bits 63 to 65), or 0. False, with the error set, on error.
  bool ReadGroups(uint64_t* low, uint64_t* top);
  void Fail() {
    ok_ = false;
    position_ = end_;
  }

  const uint8_t* data_;
  size_t size_;          // Bytes.
  size_t end_;           // Nybbles that may be read, at most 2 · size_.
  size_t position_ = 0;  // Nybbles consumed, in [0, end_].
  bool ok_ = true;
};

}  // namespace crawldb::codecs
