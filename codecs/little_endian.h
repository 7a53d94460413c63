// Fixed-width little-endian integers: the headers and tables of the serialized adjacency codecs
// (adjacency_codec.h and the link codecs). AppendLittleEndian writes one; LittleEndianReader
// reads them back from untrusted bytes, never past the end of its span, and reads the LEB128
// varints (codecs/varint.h) that some tables mix in.
//
// Definition. An N-byte unsigned integer is stored as N bytes, least significant first:
// 0x0A0B0C0D as a u32 is 0D 0C 0B 0A. No alignment, no padding.
//
// Caller's obligations: the reader's span outlives it. A failed read leaves the value unchanged
// and the reader where it was; callers turn `false` into their own DataLossError.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "codecs/varint.h"

namespace crawldb::codecs {

// Appends `value` as sizeof(T) little-endian bytes. T is an unsigned integer type.
template <typename T>
void AppendLittleEndian(T value, std::vector<uint8_t>* out) {
  static_assert(std::is_unsigned_v<T>);
  for (size_t i = 0; i < sizeof(T); ++i) {
    out->push_back(static_cast<uint8_t>(value >> (8 * i)));
  }
}

// The sizeof(T) little-endian bytes at `bytes`, which must all be readable.
template <typename T>
T LoadLittleEndian(const uint8_t* bytes) {
  static_assert(std::is_unsigned_v<T>);
  T value = 0;
  for (size_t i = 0; i < sizeof(T); ++i) value |= static_cast<T>(T{bytes[i]} << (8 * i));
  return value;
}

// A cursor over untrusted bytes.
class LittleEndianReader {
 public:
  explicit LittleEndianReader(absl::Span<const uint8_t> bytes) : bytes_(bytes) {}

  // Reads a sizeof(T)-byte integer; false, consuming nothing, if fewer bytes remain.
  template <typename T>
  bool Read(T* value) {
    if (remaining() < sizeof(T)) return false;
    *value = LoadLittleEndian<T>(bytes_.data() + position_);
    position_ += sizeof(T);
    return true;
  }

  // Reads one LEB128 varint; false, consuming nothing, if truncated or above 64 bits.
  bool ReadVarint(uint64_t* value) {
    const uint8_t* begin = bytes_.data() + position_;
    const uint8_t* end = codecs::ReadVarint(begin, bytes_.data() + bytes_.size(), value);
    if (end == nullptr) return false;
    position_ += static_cast<size_t>(end - begin);
    return true;
  }

  // The next `count` bytes, in place; false, consuming nothing, if fewer remain.
  bool ReadBytes(uint64_t count, absl::Span<const uint8_t>* out) {
    if (remaining() < count) return false;
    *out = bytes_.subspan(position_, count);
    position_ += count;
    return true;
  }

  size_t remaining() const { return bytes_.size() - position_; }
  // The bytes not consumed yet, without consuming them.
  absl::Span<const uint8_t> Rest() const { return bytes_.subspan(position_); }
  size_t position() const { return position_; }  // Bytes consumed.
  // The bytes consumed from position `from` (≤ position()) up to now.
  absl::Span<const uint8_t> ConsumedSince(size_t from) const {
    return bytes_.subspan(from, position_ - from);
  }

 private:
  absl::Span<const uint8_t> bytes_;
  size_t position_ = 0;  // Bytes consumed, at most bytes_.size().
};

}  // namespace crawldb::codecs
