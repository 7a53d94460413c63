// Elias δ code, over BitWriter / BitReader (bit_writer.h, bit_reader.h).
//
// Definition. For y ≥ 1 with m = floor(log2 y), δ(y) is γ(m + 1) followed by the m bits of y
// below its leading one, most significant first; 2·floor(log2(m + 1)) + 1 + m bits in all.
//
// Convention: as in WebGraph, these functions code the natural numbers x ≥ 0 as δ(x + 1); the
// γ inside is elias_gamma.h's, which also codes m as γ(m + 1). UINT64_MAX is coded as δ(2^64):
// γ(65) then 64 zeros (77 bits).
//
//   x (y = x + 1)   codeword       bits
//   0 (1)           1              1
//   1 (2)           0100           4
//   2 (3)           0101           4
//   3 (4)           01100          5
//   4 (5)           01101          5
//   6 (7)           01111          5
//   7 (8)           00100000       8
//   14 (15)         00100111       8
//   15 (16)         001010000      9
//
// Range: every uint64_t, 1 to 77 bits (DeltaLength).
// Reference: P. Elias, "Universal codeword sets and representations of the integers", IEEE
// Trans. Information Theory 21(2), 1975; P. Boldi and S. Vigna, "Codes for the World Wide Web",
// Internet Mathematics 2(4), 2005.
//
// Decoding errors (set !in.ok(); the value returned is then meaningless): a length m above 64,
// m = 64 followed by nonzero bits (value above UINT64_MAX), any γ error, or the input ending
// inside the codeword.
#pragma once

#include <bit>
#include <cstdint>

#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/elias_gamma.h"

namespace crawldb::codecs {

// Bits WriteDelta(x) writes, in [1, 77].
inline int DeltaLength(uint64_t x) {
  const int m = x == UINT64_MAX ? 64 : std::bit_width(x + 1) - 1;
  return GammaLength(static_cast<uint64_t>(m)) + m;
}

inline void WriteDelta(BitWriter& out, uint64_t x) {
  if (x == UINT64_MAX) [[unlikely]] {
    WriteGamma(out, 64);
    out.WriteBits(0, 64);
    return;
  }
  const uint64_t y = x + 1;
  const int m = std::bit_width(y) - 1;
  WriteGamma(out, static_cast<uint64_t>(m));
  out.WriteBits(y, m);  // The leading one is above the m bits written and is dropped.
}

inline uint64_t ReadDelta(BitReader& in) {
  const uint64_t m = ReadGamma(in);
  if (m < 64) [[likely]] {
    return ((uint64_t{1} << m) | in.ReadBits(static_cast<int>(m))) - 1;
  }
  if (m == 64 && in.ReadBits(64) == 0) return UINT64_MAX;
  return in.Fail();
}

}  // namespace crawldb::codecs
