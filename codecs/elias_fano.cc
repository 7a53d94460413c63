#include "codecs/elias_fano.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "absl/types/span.h"

namespace crawldb::codecs {
namespace {

constexpr uint64_t kBytesOnes = 0x0101010101010101;
constexpr uint64_t kBytesHighBit = 0x8080808080808080;

constexpr int kLog2BlockSize = 8;
constexpr uint64_t kBlockSize = uint64_t{1} << kLog2BlockSize;
// Dense blocks also keep the offsets of their ones 0, 64, 128 and 192 from their first position:
// 16 bits suffice below kMaxDenseSpread, and a select then scans past fewer than 64 ones.
constexpr int kLog2SubblockSize = 6;
constexpr uint64_t kSubblocks = kBlockSize >> kLog2SubblockSize;
// A block spread wider than this stores every position, which bounds the scan of a dense block
// to 2^16 / 64 + 1 words while costing at most 256·64 / 2^16 = 1/4 bit per bitvector bit.
constexpr uint64_t kMaxDenseSpread = uint64_t{1} << 16;
// Bitvector positions stay below 2^58 (n < 2^56 and u >> l < 2n), so the top bit of a sample is
// free to mark a sparse block.
constexpr uint64_t kSparse = uint64_t{1} << 63;

// LowerBound reads this many values of the query's bucket in place before it starts to gallop:
// with l = floor(log2(u/n)) there are at least as many buckets as values when u >= n, so only
// repeated values make a bucket longer.
constexpr int kInPlaceProbes = 4;

// kSelectInByte[r][b]: position of the r-th one (from 0) of byte b, 0 when b has no such one.
constexpr std::array<std::array<uint8_t, 256>, 8> kSelectInByte = [] {
  std::array<std::array<uint8_t, 256>, 8> table{};
  for (int byte = 0; byte < 256; ++byte) {
    int rank = 0;
    for (int bit = 0; bit < 8; ++bit) {
      if ((byte >> bit) & 1) table[rank++][byte] = static_cast<uint8_t>(bit);
    }
  }
  return table;
}();

// The ones of `word`. std::popcount is a call into libgcc on x86-64 targets without POPCNT (the
// default -march), which would dominate select; the broadword count stays inline.
inline int PopCount(uint64_t word) {
#if defined(__x86_64__) && !defined(__POPCNT__)
  word = word - ((word >> 1) & 0x5555555555555555);
  word = (word & 0x3333333333333333) + ((word >> 2) & 0x3333333333333333);
  word = (word + (word >> 4)) & 0x0F0F0F0F0F0F0F0F;
  return static_cast<int>((word * kBytesOnes) >> 56);
#else
  return std::popcount(word);
#endif
}

// Position of the rank-th one (from 0) of `word`. Requires rank < popcount(word).
// Broadword: byte-wise popcounts, their prefix sums in one multiplication, then a parallel
// comparison of every prefix with rank finds the byte; a table finds the bit within it.
inline int SelectInWord(uint64_t word, uint64_t rank) {
  uint64_t counts = word - ((word >> 1) & 0x5555555555555555);
  counts = (counts & 0x3333333333333333) + ((counts >> 2) & 0x3333333333333333);
  counts = (counts + (counts >> 4)) & 0x0F0F0F0F0F0F0F0F;
  // Byte b of `prefix` counts the ones of bytes 0..b; at most 64, so no byte carries.
  const uint64_t prefix = counts * kBytesOnes;
  // Each byte computes (rank + 128) - prefix, which keeps its high bit iff prefix <= rank and
  // never borrows from its neighbour because prefix <= 64 < 128.
  const uint64_t at_most_rank = (((rank * kBytesOnes) | kBytesHighBit) - prefix) & kBytesHighBit;
  // The count of bytes whose high bit is set, times 8: the shift to the byte holding the one.
  const int shift = static_cast<int>((((at_most_rank >> 7) * kBytesOnes) >> 56) * 8);
  const uint64_t ones_before = ((prefix << 8) >> shift) & 0xFF;
  return shift + kSelectInByte[rank - ones_before][(word >> shift) & 0xFF];
}

uint64_t LowWordCount(uint64_t n, int low_bits) { return (n * low_bits + 63) / 64; }

uint64_t HighBitCount(uint64_t n, uint64_t universe, int low_bits) {
  return n == 0 ? 0 : n + (universe >> low_bits);
}

uint64_t LoadLittleEndian64(const uint8_t* bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

void AppendLittleEndian64(uint64_t value, std::vector<uint8_t>* out) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<uint8_t>(value >> (8 * i)));
}

// Bits at and above `bit_count` in the last of the words that hold bit_count bits.
bool PaddingIsZero(const std::vector<uint64_t>& words, uint64_t word_count, uint64_t bit_count) {
  if (bit_count % 64 == 0) return true;
  return (words[word_count - 1] >> (bit_count % 64)) == 0;
}

}  // namespace

void SampledSelect::Build(const uint64_t* words, uint64_t length, bool ones) {
  ones_ = ones;
  samples_.clear();
  offsets_.clear();
  explicit_.clear();
  std::array<uint64_t, kBlockSize> block;
  size_t in_block = 0;
  const auto flush = [&] {
    const bool sparse = block[in_block - 1] - block[0] >= kMaxDenseSpread;
    if (sparse) {
      samples_.push_back(kSparse | explicit_.size());
      explicit_.insert(explicit_.end(), block.begin(), block.begin() + in_block);
    } else {
      samples_.push_back(block[0]);
    }
    for (uint64_t sub = 0; sub < kSubblocks; ++sub) {
      const uint64_t first = sub << kLog2SubblockSize;
      offsets_.push_back(
          static_cast<uint16_t>(sparse || first >= in_block ? 0 : block[first] - block[0]));
    }
    in_block = 0;
  };
  const uint64_t word_count = (length + 63) / 64;
  for (uint64_t w = 0; w < word_count; ++w) {
    uint64_t word = ones ? words[w] : ~words[w];
    if (w == word_count - 1 && length % 64 != 0) word &= (uint64_t{1} << (length % 64)) - 1;
    while (word != 0) {
      block[in_block++] = w * 64 + std::countr_zero(word);
      word &= word - 1;
      if (in_block == kBlockSize) flush();
    }
  }
  if (in_block > 0) flush();
}

uint64_t SampledSelect::Select(const uint64_t* words, uint64_t rank) const {
  const uint64_t block = rank >> kLog2BlockSize;
  const uint64_t sample = samples_[block];
  if (sample & kSparse) return explicit_[(sample & ~kSparse) + (rank & (kBlockSize - 1))];
  const uint64_t start =
      sample + offsets_[block * kSubblocks + ((rank & (kBlockSize - 1)) >> kLog2SubblockSize)];
  uint64_t left = rank & ((uint64_t{1} << kLog2SubblockSize) - 1);
  uint64_t w = start / 64;
  uint64_t word = (ones_ ? words[w] : ~words[w]) & (~uint64_t{0} << (start % 64));
  for (;;) {
    const uint64_t count = PopCount(word);
    if (left < count) return w * 64 + SelectInWord(word, left);
    left -= count;
    ++w;
    word = ones_ ? words[w] : ~words[w];
  }
}

uint64_t SampledSelect::SizeInBits() const {
  return 64 * (samples_.size() + explicit_.size()) + 16 * offsets_.size();
}

int EliasFano::LowBits(uint64_t n, uint64_t universe) {
  if (n == 0) return 0;
  const uint64_t ratio = universe / n;
  return ratio == 0 ? 0 : std::bit_width(ratio) - 1;
}

uint64_t EliasFano::SizeInBits(uint64_t n, uint64_t universe) {
  const int low_bits = LowBits(n, universe);
  return n * low_bits + HighBitCount(n, universe, low_bits);
}

uint64_t EliasFano::SerializedSize(uint64_t n, uint64_t universe) {
  const int low_bits = LowBits(n, universe);
  const uint64_t high_words = (HighBitCount(n, universe, low_bits) + 63) / 64;
  return kHeaderBytes + 8 * (LowWordCount(n, low_bits) + high_words);
}

void EliasFano::AllocateArrays() {
  low_.assign(LowWordCount(size_, low_bits_) + 1, 0);
  high_.assign((HighLength() + 63) / 64, 0);
}

void EliasFano::BuildIndex() {
  ones_.Build(high_.data(), HighLength(), /*ones=*/true);
  zeros_.Build(high_.data(), HighLength(), /*ones=*/false);
  last_ = size_ == 0 ? 0 : Get(size_ - 1);
}

absl::StatusOr<EliasFano> EliasFano::Build(absl::Span<const uint64_t> values, uint64_t universe) {
  const uint64_t n = values.size();
  if (n >= kMaxSize) {
    return absl::InvalidArgumentError(
        absl::StrFormat("elias_fano: %d values are too many; split them below 2^56", n));
  }
  for (uint64_t i = 0; i < n; ++i) {
    if (values[i] > universe) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "elias_fano: value %d at index %d exceeds the universe %d; pass a universe of at least "
          "the largest value",
          values[i], i, universe));
    }
    if (i > 0 && values[i] < values[i - 1]) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "elias_fano: value %d at index %d is smaller than the value %d before it; sort the "
          "values",
          values[i], i, values[i - 1]));
    }
  }
  EliasFano ef;
  ef.size_ = n;
  ef.universe_ = universe;
  ef.low_bits_ = LowBits(n, universe);
  ef.AllocateArrays();
  const int l = ef.low_bits_;
  for (uint64_t i = 0; i < n; ++i) {
    if (l > 0) {
      const uint64_t low = values[i] & (~uint64_t{0} >> (64 - l));
      const uint64_t bit = i * l;
      const unsigned shift = bit % 64;
      ef.low_[bit / 64] |= low << shift;
      if (shift + l > 64) ef.low_[bit / 64 + 1] |= low >> (64 - shift);
    }
    const uint64_t position = (values[i] >> l) + i;
    ef.high_[position / 64] |= uint64_t{1} << (position % 64);
  }
  ef.BuildIndex();
  return ef;
}

absl::StatusOr<EliasFano> EliasFano::FromBytes(absl::Span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderBytes) {
    return absl::DataLossError(absl::StrFormat(
        "elias_fano: %d bytes are shorter than the %d-byte header", bytes.size(), kHeaderBytes));
  }
  if (bytes[0] != kFormatVersion) {
    return absl::DataLossError(absl::StrFormat("elias_fano: unknown format version %d; expected %d",
                                               bytes[0], kFormatVersion));
  }
  const uint64_t n = LoadLittleEndian64(&bytes[1]);
  const uint64_t universe = LoadLittleEndian64(&bytes[9]);
  const int low_bits = bytes[17];
  // Checked first: below 2^56 values, every size below is computed without overflow.
  if (n >= kMaxSize) {
    return absl::DataLossError(
        absl::StrFormat("elias_fano: count %d is not below the limit 2^56", n));
  }
  if (low_bits != LowBits(n, universe)) {
    return absl::DataLossError(absl::StrFormat(
        "elias_fano: low-bit width %d does not match count %d and universe %d, which give %d",
        low_bits, n, universe, LowBits(n, universe)));
  }
  // Checked before allocating, so the allocation is bounded by the input's own size.
  if (bytes.size() != SerializedSize(n, universe)) {
    return absl::DataLossError(
        absl::StrFormat("elias_fano: %d bytes where count %d and universe %d need %d", bytes.size(),
                        n, universe, SerializedSize(n, universe)));
  }
  EliasFano ef;
  ef.size_ = n;
  ef.universe_ = universe;
  ef.low_bits_ = low_bits;
  ef.AllocateArrays();
  const uint64_t low_words = LowWordCount(n, low_bits);
  const uint8_t* cursor = bytes.data() + kHeaderBytes;
  for (uint64_t w = 0; w < low_words; ++w, cursor += 8) ef.low_[w] = LoadLittleEndian64(cursor);
  uint64_t ones = 0;
  for (uint64_t& word : ef.high_) {
    word = LoadLittleEndian64(cursor);
    cursor += 8;
    ones += PopCount(word);
  }
  if (!PaddingIsZero(ef.low_, low_words, n * low_bits)) {
    return absl::DataLossError("elias_fano: nonzero padding after the low bits");
  }
  if (!PaddingIsZero(ef.high_, ef.high_.size(), ef.HighLength())) {
    return absl::DataLossError("elias_fano: nonzero padding after the high bits");
  }
  if (ones != n) {
    return absl::DataLossError(
        absl::StrFormat("elias_fano: the high bits hold %d ones where the count is %d", ones, n));
  }
  // With exactly n ones every select below is in range; the high parts are then non-decreasing
  // and at most u >> l by construction, but corrupt low parts can still break the order or the
  // universe.
  ef.BuildIndex();
  uint64_t previous = 0;
  for (Iterator it = ef.begin(); it != ef.end(); ++it) {
    const uint64_t value = *it;
    if (value < previous) {
      return absl::DataLossError(
          absl::StrFormat("elias_fano: value %d at index %d is smaller than the value %d before it",
                          value, it.index(), previous));
    }
    previous = value;
  }
  if (ef.last_ > universe) {
    return absl::DataLossError(
        absl::StrFormat("elias_fano: last value %d exceeds the universe %d", ef.last_, universe));
  }
  return ef;
}

std::vector<uint8_t> EliasFano::Serialize() const {
  std::vector<uint8_t> out;
  out.reserve(SerializedSize(size_, universe_));
  out.push_back(kFormatVersion);
  AppendLittleEndian64(size_, &out);
  AppendLittleEndian64(universe_, &out);
  out.push_back(static_cast<uint8_t>(low_bits_));
  const uint64_t low_words = LowWordCount(size_, low_bits_);
  for (uint64_t w = 0; w < low_words; ++w) AppendLittleEndian64(low_[w], &out);
  for (uint64_t word : high_) AppendLittleEndian64(word, &out);
  return out;
}

uint64_t EliasFano::IndexSizeInBits() const { return ones_.SizeInBits() + zeros_.SizeInBits(); }

uint64_t EliasFano::Get(uint64_t i) const {
  assert(i < size_);
  const uint64_t position = ones_.Select(high_.data(), i);
  return ((position - i) << low_bits_) | Low(i);
}

uint64_t EliasFano::ValueAtOrAfter(uint64_t index, uint64_t position) const {
  // Gaps are short on average (l = floor(log2(u/n))), so two words usually hold the one; a long
  // gap is left to select, which bounds the work.
  uint64_t w = position / 64;
  uint64_t word = high_[w] & (~uint64_t{0} << (position % 64));
  if (word == 0 && w + 1 < high_.size()) word = high_[++w];
  if (word == 0) return Get(index);
  const uint64_t one = w * 64 + std::countr_zero(word);
  return ((one - index) << low_bits_) | Low(index);
}

EliasFano::Successor EliasFano::LowerBound(uint64_t x) const {
  if (size_ == 0 || x > last_) return {size_, 0};
  const uint64_t bucket = x >> low_bits_;
  const uint64_t x_low = low_bits_ == 0 ? 0 : x & (~uint64_t{0} >> (64 - low_bits_));
  // Bucket `bucket` starts after zero number bucket − 1. Invariant: the values before `index` are
  // below x, and bit `position` is value `index`'s one if its high part is `bucket`, else a zero.
  // Since x <= last_, index stays below size_.
  uint64_t position = bucket == 0 ? 0 : zeros_.Select(high_.data(), bucket - 1) + 1;
  uint64_t index = position - bucket;
  for (int probe = 0; probe < kInPlaceProbes; ++probe, ++index, ++position) {
    if (!HighBit(position)) return {index, ValueAtOrAfter(index, position)};
    const uint64_t low = Low(index);
    if (low >= x_low) return {index, (bucket << low_bits_) | low};
  }
  // A long bucket, typically of duplicates: gallop, then binary search in [below, probe].
  uint64_t below = index;
  uint64_t probe = index;
  uint64_t step = 1;
  uint64_t value;
  while ((value = Get(probe)) < x) {
    below = probe + 1;
    probe = std::min(probe + step, size_ - 1);
    step *= 2;
  }
  while (below < probe) {
    const uint64_t middle = below + (probe - below) / 2;
    const uint64_t middle_value = Get(middle);
    if (middle_value >= x) {
      probe = middle;
      value = middle_value;
    } else {
      below = middle + 1;
    }
  }
  return {probe, value};
}

EliasFano::Iterator::Iterator(const EliasFano* ef, uint64_t index, uint64_t position)
    : ef_(ef), index_(index) {
  if (index < ef->size_) {
    word_index_ = position / 64;
    word_ = ef->high_[word_index_] & (~uint64_t{0} << (position % 64));
  }
}

EliasFano::Iterator EliasFano::Iterator::operator++(int) {
  Iterator before = *this;
  ++*this;
  return before;
}

EliasFano::Iterator EliasFano::begin() const { return IteratorAt(0); }

EliasFano::Iterator EliasFano::end() const { return Iterator(this, size_, 0); }

EliasFano::Iterator EliasFano::IteratorAt(uint64_t i) const {
  assert(i <= size_);
  if (i == size_) return end();
  return Iterator(this, i, ones_.Select(high_.data(), i));
}

}  // namespace crawldb::codecs
