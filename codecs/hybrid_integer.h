// Hybrid integers (as DEFLATE's length codes and Zuckerli's): a natural number as a small
// *token*, to be entropy coded, and raw bits. The token keeps the value's magnitude and the bit
// below its leading one; the raw bits are the rest.
//
// Definition. x < 16: token x, no raw bits. Otherwise, with m = floor(log2 x) ≥ 4: token
// 16 + 2(m − 4) + (bit m − 1 of x), and the m − 1 bits of x below bit m − 1 as raw bits.
//
//   x        token  raw bits
//   0..15    x      —
//   16..23   16     x − 16 in 3 bits
//   24..31   17     x − 24 in 3 bits
//   32..47   18     x − 32 in 4 bits
//   48..63   19     x − 48 in 4 bits
//
// Range: every uint64_t; tokens 0 to kHybridTokens − 1 (UINT64_MAX is token 135 and 62 raw
// bits).
//
// Caller's obligations: HybridValue takes a token below kHybridTokens.
#pragma once

#include <bit>
#include <cstdint>

#include "codecs/bit_reader.h"

namespace crawldb::codecs {

inline constexpr uint32_t kHybridDirectTokens = 16;
inline constexpr uint32_t kHybridTokens = kHybridDirectTokens + 2 * 60;

struct HybridInteger {
  uint32_t token;
  int raw_bit_count;  // In [0, 62].
  uint64_t raw_bits;  // Below 2^raw_bit_count.
};

inline HybridInteger SplitHybrid(uint64_t x) {
  if (x < kHybridDirectTokens) return {static_cast<uint32_t>(x), 0, 0};
  const int m = std::bit_width(x) - 1;
  const uint32_t token = kHybridDirectTokens + 2 * (m - 4) + ((x >> (m - 1)) & 1);
  return {token, m - 1, x & ((uint64_t{1} << (m - 1)) - 1)};
}

// The raw bits of `token`.
inline int HybridRawBitCount(uint32_t token) {
  return token < kHybridDirectTokens ? 0 : static_cast<int>((token - kHybridDirectTokens) / 2 + 3);
}

// The value of `token` (< kHybridTokens), reading its raw bits from `in`.
inline uint64_t HybridValue(uint32_t token, BitReader& in) {
  if (token < kHybridDirectTokens) return token;
  const int raw = HybridRawBitCount(token);
  const uint64_t high = 2 | ((token - kHybridDirectTokens) & 1);
  return (high << raw) | in.ReadBits(raw);
}

}  // namespace crawldb::codecs
