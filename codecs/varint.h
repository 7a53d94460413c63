// Varint: unsigned LEB128, a byte-oriented code for 64-bit integers, and zig-zag for signed ones.
//
// Definition. The value is cut into 7-bit groups, least significant group first; each group is
// one byte whose high bit (0x80) is set when more bytes follow. Signed values are mapped to
// unsigned ones by zig-zag, ZigZagEncode(v) = 2v for v ≥ 0 and −2v − 1 for v < 0, so values
// of small magnitude stay short.
//
//   value      bytes             | signed  zig-zag  bytes
//   0          00                | 0       0        00
//   1          01                | −1      1        01
//   127        7F                | 1       2        02
//   128        80 01             | −2      3        03
//   300        AC 02             | 63      126      7E
//   16383      FF 7F             | −64     127      7F
//   16384      80 80 01          | 64      128      80 01
//   UINT64_MAX FF FF FF FF FF FF FF FF FF 01 (10 bytes)
//
// Range: every uint64_t (1 to 10 bytes, VarintLength) and every int64_t through zig-zag.
// Reference: DWARF 4 standard §7.6 (LEB128); Protocol Buffers encoding guide (varint, zig-zag).
//
// Caller's obligations: WriteVarint needs kMaxVarintBytes of room at `out`. ReadVarint never
// reads at or past `end`; it returns nullptr (input is corrupt) when the bytes end inside a
// varint, or when the value does not fit in 64 bits: an 11th byte, or a 10th byte above 1.
// Redundant zero groups (80 00 for 0) are accepted. The count of varints is the caller's to
// store; nothing here delimits a sequence.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace crawldb::codecs {

inline constexpr size_t kMaxVarintBytes = 10;

// Bytes WriteVarint(value) writes, in [1, 10].
inline size_t VarintLength(uint64_t value) {
  return (static_cast<size_t>(std::bit_width(value | 1)) + 6) / 7;
}

// Writes `value` at `out` (room for kMaxVarintBytes required); returns the bytes written.
inline size_t WriteVarint(uint64_t value, uint8_t* out) {
  size_t n = 0;
  while (value >= 0x80) {
    out[n++] = static_cast<uint8_t>(value | 0x80);
    value >>= 7;
  }
  out[n++] = static_cast<uint8_t>(value);
  return n;
}

inline void AppendVarint(uint64_t value, std::string* out) {
  uint8_t buffer[kMaxVarintBytes];
  out->append(reinterpret_cast<const char*>(buffer), WriteVarint(value, buffer));
}

inline void AppendVarint(uint64_t value, std::vector<uint8_t>* out) {
  // WriteVarint's loop, pushing each byte: a range insert of two or three bytes costs a call.
  while (value >= 0x80) {
    out->push_back(static_cast<uint8_t>(value | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<uint8_t>(value));
}

// Decodes one varint from [p, end) into *out; returns the byte after it, or nullptr if the input
// is truncated or overflows 64 bits (then *out is unchanged).
inline const uint8_t* ReadVarint(const uint8_t* p, const uint8_t* end, uint64_t* out) {
  if (p < end && *p < 0x80) [[likely]] {
    *out = *p;
    return p + 1;
  }
  uint64_t value = 0;
  // Bytes 1 to 9 carry bits 0 to 62.
  for (int shift = 0; shift < 63; shift += 7) {
    if (p >= end) return nullptr;
    const uint64_t byte = *p++;
    value |= (byte & 0x7F) << shift;
    if (byte < 0x80) {
      *out = value;
      return p;
    }
  }
  // Byte 10 may only carry bit 63, and must end the varint.
  if (p >= end || *p > 1) return nullptr;
  *out = value | (uint64_t{*p} << 63);
  return p + 1;
}

inline uint64_t ZigZagEncode(int64_t value) {
  return (static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63);
}

inline int64_t ZigZagDecode(uint64_t value) {
  return static_cast<int64_t>((value >> 1) ^ (0 - (value & 1)));
}

inline size_t SignedVarintLength(int64_t value) { return VarintLength(ZigZagEncode(value)); }

inline size_t WriteSignedVarint(int64_t value, uint8_t* out) {
  return WriteVarint(ZigZagEncode(value), out);
}

inline void AppendSignedVarint(int64_t value, std::string* out) {
  AppendVarint(ZigZagEncode(value), out);
}

inline void AppendSignedVarint(int64_t value, std::vector<uint8_t>* out) {
  AppendVarint(ZigZagEncode(value), out);
}

// As ReadVarint, for a zig-zag coded value.
inline const uint8_t* ReadSignedVarint(const uint8_t* p, const uint8_t* end, int64_t* out) {
  uint64_t zigzag;
  p = ReadVarint(p, end, &zigzag);
  if (p != nullptr) *out = ZigZagDecode(zigzag);
  return p;
}

}  // namespace crawldb::codecs
