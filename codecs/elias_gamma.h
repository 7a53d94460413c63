// Elias γ code, over BitWriter / BitReader (bit_writer.h, bit_reader.h).
//
// Definition. For y ≥ 1 with m = floor(log2 y), γ(y) is m in unary (m zeros, then a one)
// followed by the m bits of y below its leading one, most significant first; 2m + 1 bits in all.
// Equivalently: y written in binary in 2m + 1 bits, leading zeros included.
//
// Convention: as in WebGraph, these functions code the natural numbers x ≥ 0 as γ(x + 1).
// UINT64_MAX is coded as γ(2^64): 64 zeros, a one and 64 zeros (129 bits).
//
//   x (y = x + 1)   codeword       bits
//   0 (1)           1              1
//   1 (2)           010            3
//   2 (3)           011            3
//   3 (4)           00100          5
//   4 (5)           00101          5
//   6 (7)           00111          5
//   7 (8)           0001000        7
//   14 (15)         0001111        7
//
// Range: every uint64_t, 1 to 129 bits (GammaLength). ζ_1 (zeta.h) is the same code.
// Reference: P. Elias, "Universal codeword sets and representations of the integers", IEEE
// Trans. Information Theory 21(2), 1975; P. Boldi and S. Vigna, "Codes for the World Wide Web",
// Internet Mathematics 2(4), 2005.
//
// Decoding errors (set !in.ok(); the value returned is then meaningless): a unary prefix of more
// than 64 zeros, the 2^64-prefix followed by nonzero bits (value above UINT64_MAX), or the input
// ending inside the codeword.
#pragma once

#include <bit>
#include <cstdint>

#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"

namespace crawldb::codecs {

// Bits WriteGamma(x) writes, in [1, 129].
inline int GammaLength(uint64_t x) {
  const int m = x == UINT64_MAX ? 64 : std::bit_width(x + 1) - 1;
  return 2 * m + 1;
}

inline void WriteGamma(BitWriter& out, uint64_t x) {
  if (x == UINT64_MAX) [[unlikely]] {
    out.WriteUnary(64);
    out.WriteBits(0, 64);
    return;
  }
  const uint64_t y = x + 1;
  const int m = std::bit_width(y) - 1;
  if (m < 32) [[likely]] {
    out.WriteBits(y, 2 * m + 1);
    return;
  }
  out.WriteUnary(m);
  out.WriteBits(y, m);  // The leading one is above the m bits written and is dropped.
}

inline uint64_t ReadGamma(BitReader& in) {
  // Fast path: a codeword of at most 57 bits, the most one word load serves at any bit offset.
  // Bits past the end peek as zeros, so the one found is real; if the codeword runs past the
  // end, SkipBits flags the error.
  const uint64_t window = in.PeekBits(57) << 7;
  const int m = std::countl_zero(window);
  if (m < 29) [[likely]] {
    const int length = 2 * m + 1;
    in.SkipBits(static_cast<uint64_t>(length));
    return (window >> (64 - length)) - 1;
  }
  const uint64_t zeros = in.ReadUnary();
  if (zeros < 64) return ((uint64_t{1} << zeros) | in.ReadBits(static_cast<int>(zeros))) - 1;
  if (zeros == 64 && in.ReadBits(64) == 0) return UINT64_MAX;
  return in.Fail();
}

}  // namespace crawldb::codecs
