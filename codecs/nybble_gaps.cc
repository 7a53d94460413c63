#include "codecs/nybble_gaps.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace crawldb::codecs {

uint64_t GapListLength(uint32_t source, absl::Span<const uint32_t> list) {
  if (list.empty()) return 0;
  uint64_t length = SignedNybbleLength(int64_t{list[0]} - int64_t{source});
  for (size_t j = 1; j < list.size(); ++j) length += NybbleLength(list[j] - list[j - 1] - 1);
  return length;
}

void WriteGapList(uint32_t source, absl::Span<const uint32_t> list, NybbleWriter* out) {
  if (list.empty()) return;
  out->WriteSignedNybble(int64_t{list[0]} - int64_t{source});
  for (size_t j = 1; j < list.size(); ++j) out->WriteNybble(list[j] - list[j - 1] - 1);
}

bool ReadGapList(uint32_t source, uint32_t node_count, absl::Span<const uint8_t> bytes,
                 uint64_t begin, uint64_t end, std::vector<uint32_t>* out) {
  uint64_t value = 0;  // The data groups of the code being read.
  int shift = 0;       // 3 × the nybbles of that code read so far.
  bool first = true;
  uint64_t id = 0;  // The last id decoded.
  uint64_t position = begin;
  while (position < end) {
    // The next nybbles, up to 16, nybble `position` in the low bits.
    const size_t byte = position >> 1;
    uint64_t word = 0;
    if (byte + 8 <= bytes.size()) [[likely]] {
      std::memcpy(&word, bytes.data() + byte, 8);
      if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    } else {
      for (size_t k = byte; k < bytes.size(); ++k) word |= uint64_t{bytes[k]} << (8 * (k - byte));
    }
    const unsigned skip = position & 1;
    word >>= 4 * skip;
    const uint64_t count = std::min<uint64_t>(16 - skip, end - position);
    position += count;
    for (uint64_t k = 0; k < count; ++k, word >>= 4) {
      value |= ((word >> 1) & 7) << shift;
      if ((word & 1) == 0) {
        shift += 3;
        if (shift > 30) return false;  // A 12th nybble: 2^33 or more.
        continue;
      }
      if (first) {
        first = false;
        const uint64_t magnitude = value >> 1;  // Sign/magnitude, sign in the low bit.
        if (value & 1) {
          if (magnitude > source) return false;
          id = source - magnitude;
        } else {
          if (magnitude >= node_count - uint64_t{source}) return false;
          id = source + magnitude;
        }
      } else {
        // id + value + 1 < node_count; id < node_count, so no wrap.
        if (value >= node_count - id - 1) return false;
        id += value + 1;
      }
      out->push_back(static_cast<uint32_t>(id));
      value = 0;
      shift = 0;
    }
  }
  return shift == 0;  // The last code ended.
}

uint64_t CountNybbleCodes(absl::Span<const uint8_t> bytes, uint64_t begin, uint64_t end) {
  uint64_t count = 0;
  uint64_t i = begin;
  if ((i & 1) && i < end) {
    count += (bytes[i >> 1] >> 4) & 1;
    ++i;
  }
  // i is even: 16 nybbles are the 8 bytes from i / 2.
  for (; i + 16 <= end; i += 16) {
    uint64_t word;
    std::memcpy(&word, bytes.data() + (i >> 1), 8);
    count += std::popcount(word & internal::kStopBits);  // Byte order does not matter here.
  }
  for (; i < end; ++i) count += (bytes[i >> 1] >> (4 * (i & 1))) & 1;
  return count;
}

}  // namespace crawldb::codecs
