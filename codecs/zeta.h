// ζ_k codes (Boldi and Vigna), k = 1..7, over BitWriter / BitReader (bit_writer.h,
// bit_reader.h). ζ_1 is γ (elias_gamma.h); larger k suit power-law data with smaller exponents,
// such as the residual gaps of web graphs (k = 3 in WebGraph).
//
// Definition. For y ≥ 1 let h = floor(floor(log2 y) / k), so y ∈ [2^(hk), 2^((h+1)k)). ζ_k(y)
// is h in unary (h zeros, then a one) followed by the minimal binary code of y − 2^(hk) in the
// interval [0, z), z = 2^((h+1)k) − 2^(hk): with s = (h+1)k, values below 2^s − z = 2^(hk)
// take s − 1 bits, the others are written plus 2^(hk) in s bits. Concretely:
//   y < 2^(hk+1):  y − 2^(hk) in hk + k − 1 bits
//   otherwise:     y           in hk + k bits
//
// Convention: as in WebGraph, these functions code the natural numbers x ≥ 0 as ζ_k(x + 1).
// UINT64_MAX is coded as ζ_k(2^64), whose h is floor(64 / k).
//
//   x (y)    ζ_2        ζ_3
//   0 (1)    10         100
//   1 (2)    110        1010
//   2 (3)    111        1011
//   3 (4)    01000      1100
//   4 (5)    01001      1101
//   6 (7)    01011      1111
//   7 (8)    011000     0100000
//   8 (9)    011001     0100001
//   15 (16)  00100000   01010000
//
// Range: every uint64_t for every k in [kMinZetaK, kMaxZetaK]. A codeword takes h + 1 + hk + k
// bits, one less in the first case (ZetaLength); the longest is UINT64_MAX's: 129, 98, 88, 84,
// 78, 77 and 80 bits for k = 1 to 7.
// Reference: P. Boldi and S. Vigna, "Codes for the World Wide Web", Internet Mathematics 2(4),
// 2005, §4 (and the minimal binary code of §2).
//
// Caller's obligations: WriteZeta and ZetaLength take k in [kMinZetaK, kMaxZetaK]. ReadZeta
// checks k, since k is usually read from stored data, and flags an invalid k as an error.
// Decoding errors (set !in.ok(); the value returned is then meaningless): an invalid k, a unary
// prefix h above 64 / k, a value above UINT64_MAX, or the input ending inside the codeword.
#pragma once

#include <bit>
#include <cstdint>

#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"

namespace crawldb::codecs {

inline constexpr int kMinZetaK = 1;
inline constexpr int kMaxZetaK = 7;

namespace internal {

// Writes `value` in `count` bits, count in [0, 64 + kMaxZetaK]: counts above 64 are leading
// zeros.
inline void WriteZetaBits(BitWriter& out, uint64_t value, int count) {
  if (count > 64) {
    out.WriteBits(0, count - 64);
    count = 64;
  }
  out.WriteBits(value, count);
}

}  // namespace internal

// Bits WriteZeta(x, k) writes. k in [kMinZetaK, kMaxZetaK].
inline int ZetaLength(uint64_t x, int k) {
  if (x == UINT64_MAX) [[unlikely]] {
    const int h = 64 / k;
    // When hk = 64, y = 2^(hk) takes the short form.
    return h + 1 + (h * k == 64 ? 63 + k : h * k + k);
  }
  const uint64_t y = x + 1;
  const int h = (std::bit_width(y) - 1) / k;
  const uint64_t left = uint64_t{1} << (h * k);
  return h + 1 + h * k + k - (y - left < left ? 1 : 0);
}

// k in [kMinZetaK, kMaxZetaK].
inline void WriteZeta(BitWriter& out, uint64_t x, int k) {
  if (x == UINT64_MAX) [[unlikely]] {
    const int h = 64 / k;
    out.WriteUnary(static_cast<uint64_t>(h));
    if (h * k == 64) {
      internal::WriteZetaBits(out, 0, 63 + k);  // y − 2^64 = 0.
    } else {
      // y = 2^64 in hk + k ≥ 65 bits: leading zeros, a one, 64 zeros.
      out.WriteBits(0, h * k + k - 65);
      out.WriteBits(1, 1);
      out.WriteBits(0, 64);
    }
    return;
  }
  const uint64_t y = x + 1;
  const int h = (std::bit_width(y) - 1) / k;
  const int hk = h * k;  // At most 63 here.
  const uint64_t left = uint64_t{1} << hk;
  out.WriteUnary(static_cast<uint64_t>(h));
  if (y - left < left) {
    internal::WriteZetaBits(out, y - left, hk + k - 1);
  } else {
    internal::WriteZetaBits(out, y, hk + k);
  }
}

inline uint64_t ReadZeta(BitReader& in, int k) {
  if (k < kMinZetaK || k > kMaxZetaK) [[unlikely]] {
    return in.Fail();
  }
  const uint64_t h = in.ReadUnary();
  if (h > 64 || h * k > 64) [[unlikely]] {
    return in.Fail();
  }
  const int hk = static_cast<int>(h) * k;
  // The s − 1 = hk + k − 1 bit prefix m; above 64 bits its leading bits must be zero, or
  // y ≥ m ≥ 2^64 would not fit.
  int count = hk + k - 1;
  if (count > 64) {
    if (in.ReadBits(count - 64) != 0) return in.Fail();
    count = 64;
  }
  const uint64_t m = in.ReadBits(count);
  if (hk == 64) {
    // Only y = 2^64 has h = 64 / k here, coded as y − 2^64 = 0.
    return m == 0 ? UINT64_MAX : in.Fail();
  }
  const uint64_t left = uint64_t{1} << hk;
  if (m < left) return m + left - 1;
  // The long form: y = 2m + the next bit, at most 2^64.
  const uint64_t last = in.ReadBits(1);
  constexpr uint64_t kHalf = uint64_t{1} << 63;
  if (m < kHalf) return 2 * m + last - 1;
  if (m == kHalf && last == 0) return UINT64_MAX;
  return in.Fail();
}

}  // namespace crawldb::codecs
