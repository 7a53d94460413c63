// BitWriter: appends bit strings to an owned byte vector, most significant bit of each byte
// first (the WebGraph / dsi-bitstream convention): the first bit written is bit 7 of byte 0,
// the ninth is bit 7 of byte 1. Multi-bit values are written most significant bit first, so
// WriteBits(0b101, 3) followed by WriteBits(0b11, 2) yields the byte 1011 1000 = 0xB8 after
// Finish().
//
// Units: counts and lengths are in bits. Output: Finish() returns ceil(bit_length() / 8) bytes,
// the unused low bits of the last byte set to zero. BitReader (bit_reader.h) reads it back.
//
// Caller's obligations: WriteBits() takes count in [0, 64]; bits of value above count are
// ignored. WriteUnary(n) writes n + 1 bits, so n is bounded only by memory.
//
// Codes built on it (elias_gamma.h, elias_delta.h, zeta.h) are free functions taking a
// BitWriter&; the writer itself knows only raw bits and unary.
//
// Speed: bits gather in a 64-bit buffer that is stored 8 bytes at a time into a vector kept
// larger than its content, so a write is a few shifts and, every 64 bits, one store.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/types/span.h"

namespace crawldb::codecs {

class BitWriter {
 public:
  BitWriter() = default;

  // Appends the low `count` bits of `value`, most significant first. count in [0, 64].
  void WriteBits(uint64_t value, int count) {
    if (count == 0) return;
    value &= ~uint64_t{0} >> (64 - count);
    if (count < free_bits_) [[likely]] {
      buffer_ = (buffer_ << count) | value;
      free_bits_ -= count;
      return;
    }
    // Fill the buffer, store it, keep the rest of value.
    const int rest = count - free_bits_;  // In [0, 63].
    AppendWord((buffer_ << (free_bits_ - 1) << 1) | (value >> rest));
    buffer_ = value;
    free_bits_ = 64 - rest;
  }

  // Appends n zeros then a one (the unary code of n, n + 1 bits).
  void WriteUnary(uint64_t n) {
    while (n >= 64) {
      WriteBits(0, 64);
      n -= 64;
    }
    WriteBits(1, static_cast<int>(n) + 1);  // n + 1 may be 64: WriteBits takes it.
  }

  // Bits written since construction or the last Finish().
  uint64_t bit_length() const { return size_ * 8 + (64 - free_bits_); }

  // The completed bytes so far: floor(bit_length() / 8) of them. The trailing partial byte, if
  // any, appears only after Finish(). Moves whole bytes out of the bit buffer, hence not const;
  // the span is invalidated by the next write.
  absl::Span<const uint8_t> bytes();

  // Pads the last byte with zero bits and returns all the bytes; the writer is then empty.
  std::vector<uint8_t> Finish();

 private:
  // Stores 64 bits at size_, big-endian. bytes_ keeps at least 8 bytes beyond size_ for this.
  void AppendWord(uint64_t word) {
    if (size_ + 8 > bytes_.size()) [[unlikely]] {
      Grow();
    }
    if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
    std::memcpy(bytes_.data() + size_, &word, 8);
    size_ += 8;
  }

  // Moves the whole bytes of buffer_ to bytes_, leaving fewer than 8 bits in the buffer.
  void FlushWholeBytes();
  void Grow();

  uint64_t buffer_ = 0;  // The last 64 - free_bits_ bits written, in its low bits; higher bits
                         // are stale.
  int free_bits_ = 64;   // Bits buffer_ can still take, in [1, 64].
  size_t size_ = 0;      // Bytes of bytes_ in use; the rest is room for AppendWord.
  std::vector<uint8_t> bytes_;
};

}  // namespace crawldb::codecs
