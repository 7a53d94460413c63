#include "extension/containers/skewed_parts.h"

#include <array>

namespace crawldb {
namespace {

// 2^(1/1024) in fixed point with 63 fraction bits, rounded to nearest.
constexpr uint64_t kRatioQ63 = 9229617465154500136u;
// Hashes are first placed by their top kGuessBits bits; a guess bucket (2^20 hashes) is narrower
// than the smallest part (about 2^32 · ln 2 / 1024 ≈ 2.9 million hashes), so it holds at most one
// boundary and a guess is off by at most one part.
constexpr int kGuessBits = 12;

// Computed by the compiler: a process that opens a store would otherwise spend about 76,000
// instructions on them (issue 18's fresh connection).
struct Boundaries {
  std::array<uint32_t, kSkewedParts> start{};
  std::array<uint16_t, size_t{1} << kGuessBits> guess{};

  constexpr Boundaries() {
    uint64_t power = uint64_t{1} << 63;  // 2^(i/1024) in Q63; stays below 2^64 for i < 1024
    for (size_t i = 0; i < kSkewedParts; ++i) {
      start[i] = static_cast<uint32_t>((power - (uint64_t{1} << 63)) >> 31);
      const unsigned __int128 next = static_cast<unsigned __int128>(power) * kRatioQ63;
      power = static_cast<uint64_t>((next + (static_cast<unsigned __int128>(1) << 62)) >> 63);
    }
    size_t part = 0;
    for (size_t bucket = 0; bucket < guess.size(); ++bucket) {
      const uint64_t first = uint64_t{bucket} << (32 - kGuessBits);
      while (part + 1 < kSkewedParts && start[part + 1] <= first) ++part;
      guess[bucket] = static_cast<uint16_t>(part);
    }
  }
};

constexpr Boundaries kBoundaries;

}  // namespace

size_t SkewedPartOf(uint32_t hash) {
  const Boundaries& b = kBoundaries;
  size_t part = b.guess[hash >> (32 - kGuessBits)];
  if (part + 1 < kSkewedParts && b.start[part + 1] <= hash) ++part;
  return part;
}

uint32_t SkewedPartStart(size_t part) { return kBoundaries.start[part]; }

}  // namespace crawldb
