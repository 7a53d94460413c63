// BitReader: reads bit strings from a byte span, most significant bit of each byte first (the
// WebGraph / dsi-bitstream convention, the layout BitWriter in bit_writer.h produces): bit
// position p is bit 7 - p % 8 of byte p / 8. Multi-bit values are read most significant bit
// first.
//
// Units: positions, counts and lengths are in bits.
//
// Errors: the input is untrusted. Reading past the end (ReadBits, ReadUnary with no one bit
// left, Seek beyond the end) sets a sticky error flag, moves the position to the end and returns
// 0; ok() then stays false for the reader's lifetime (Seek does not clear it), so a decoder can
// read a whole record and check ok() once. Code decoders (elias_gamma.h, ...) call Fail() on an
// invalid codeword. No call ever reads outside the span.
//
// Caller's obligations: the span outlives the reader; counts are in [0, 64]. No padding is
// needed after the data: word loads are done only where 8 bytes are in bounds, the last bytes
// are read into a zeroed local word.
//
// Speed: each read is one unaligned 64-bit load (memcpy) at the current position plus shifts.
// There is no buffer state, so Seek is free; a refill-buffer variant measured no faster for
// γ and ζ decoding.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "absl/types/span.h"

namespace crawldb::codecs {

class BitReader {
 public:
  explicit BitReader(absl::Span<const uint8_t> bytes)
      : data_(bytes.data()), size_(bytes.size()), bit_size_(uint64_t{bytes.size()} * 8) {}

  // Reads `count` bits (count in [0, 64]) as an unsigned integer, first bit most significant.
  // Fewer than `count` bits left: error, returns 0.
  uint64_t ReadBits(int count) {
    if (static_cast<uint64_t>(count) > bits_left()) [[unlikely]] {
      return Fail();
    }
    const uint64_t value = PeekBits(count);
    position_ += count;
    return value;
  }

  // The next `count` bits (count in [0, 64]) without advancing. Bits past the end read as zero
  // and do not set the error flag, so table-driven decoders may peek speculatively.
  uint64_t PeekBits(int count) const {
    if (count == 0) return 0;
    const uint64_t byte = position_ >> 3;
    const int offset = static_cast<int>(position_ & 7);
    uint64_t word = LoadWord(byte) << offset;
    if (count + offset > 64) word |= LoadByte(byte + 8) >> (8 - offset);
    return word >> (64 - count);
  }

  // Reads a unary code: counts zeros up to and including the next one, returns the zeros.
  // No one bit before the end: error, returns 0.
  uint64_t ReadUnary() {
    uint64_t zeros = 0;
    for (;;) {
      const int offset = static_cast<int>(position_ & 7);
      const uint64_t word = LoadWord(position_ >> 3) << offset;
      if (word != 0) [[likely]] {
        // Bits past the end load as zeros, so this one bit is real input.
        const int run = std::countl_zero(word);
        position_ += run + 1;
        return zeros + run;
      }
      const uint64_t scanned = 64 - offset;
      if (bits_left() <= scanned) return Fail();
      position_ += scanned;
      zeros += scanned;
    }
  }

  // Advances by `count` bits; past the end is an error.
  void SkipBits(uint64_t count) {
    if (count > bits_left()) {
      Fail();
      return;
    }
    position_ += count;
  }

  // Moves to absolute bit position `bit`; beyond the end is an error. Does not clear the flag.
  void Seek(uint64_t bit) {
    if (bit > bit_size_) {
      Fail();
      return;
    }
    position_ = bit;
  }

  uint64_t position() const { return position_; }
  uint64_t bits_left() const { return bit_size_ - position_; }
  uint64_t bit_size() const { return bit_size_; }

  // False once any read has failed.
  bool ok() const { return ok_; }

  // Marks the input corrupt: sets the error flag, moves to the end, returns 0 (for
  // `return in.Fail();` in decoders).
  uint64_t Fail() {
    ok_ = false;
    position_ = bit_size_;
    return 0;
  }

 private:
  // The 8 bytes from `byte` on as a big-endian word; bytes past the end are zero.
  uint64_t LoadWord(uint64_t byte) const {
    if (byte + 8 <= size_) [[likely]] {
      return LoadFullWord(data_ + byte);
    }
    return LoadTailWord(byte);
  }

  static uint64_t LoadFullWord(const uint8_t* p) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
    return word;
  }

  // Kept apart from LoadWord so that the variable-length copy does not force the hot path's
  // word through memory.
  uint64_t LoadTailWord(uint64_t byte) const {
    uint8_t tail[8] = {};
    if (byte < size_) std::memcpy(tail, data_ + byte, size_ - byte);
    return LoadFullWord(tail);
  }

  uint64_t LoadByte(uint64_t byte) const { return byte < size_ ? data_[byte] : 0; }

  const uint8_t* data_;
  uint64_t size_;          // Bytes.
  uint64_t bit_size_;      // size_ * 8.
  uint64_t position_ = 0;  // Bits consumed, in [0, bit_size_].
  bool ok_ = true;
};

}  // namespace crawldb::codecs
