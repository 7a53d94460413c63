// Elias–Fano: a non-decreasing sequence of integers in less than 3 + log2(u/n) bits per value,
// with the i-th value in constant time and successor search.
//
// Definition. A non-decreasing sequence x_0 ≤ x_1 ≤ … ≤ x_{n-1} ≤ u (u is the universe, an
// inclusive bound) is split at l = max(0, floor(log2(u / n))) bits (l = 0 when n = 0):
//   - the low parts  x_i mod 2^l  are stored verbatim, l bits each, value i at bit offset i·l of
//     an array of uint64 words (bit b of the array is bit b mod 64 of word b / 64);
//   - the high parts x_i >> l are stored in unary in a bitvector of n + (u >> l) bits (0 bits
//     when n = 0): bit (x_i >> l) + i is a one, every other bit is a zero. The ones are the
//     values in order; the zeros before the i-th one count its high part.
// Size: n·l + n + (u >> l) bits, less than n·(l + 3) since u >> l < 2n.
//
// Worked example: 2, 3, 5, 7, 11, 13 with u = 13. n = 6, u / n = 2, so l = 1.
//   low parts  0 1 1 1 1 1              → low word  0x3E   (bit 0 holds x_0's low part)
//   high parts 1 1 2 3 5 6, ones at 1 2 4 6 9 11 of 6 + (13 >> 1) = 12 bits
//   bitvector  0 1 1 0 1 0 1 0 0 1 0 1 (bit 0 first) → high word 0xA56
//   Size 6 + 12 = 18 bits. Get(4): one number 4 (counting from 0) is bit 9, so the high part is
//   9 − 4 = 5 and x_4 = 5·2 + 1 = 11. LowerBound(8): high part 8 >> 1 = 4 starts after zero
//   number 3 (bit 7); bit 8 is a zero, so no value has high part 4 and the answer is the value
//   after the 8 − 4 = 4 values below: index 4, value 11.
//
// Range: any n < 2^56 values in [0, u], u up to UINT64_MAX (l ≤ 63); duplicates allowed.
//
// Queries. Get(i) selects the i-th one of the high bitvector. The position of every 256th one
// is sampled; a block of 256 ones spread over 2^16 bits or more stores all 256 positions, and a
// denser block stores the 16-bit offsets of its ones 64, 128 and 192. A query reads a sample and
// an offset, counts ones (broadword popcount) over the words holding fewer than 64 more ones —
// at most 1025 words, one or two typically — then selects within one word by a portable
// broadword select (no pdep). The iterator decodes in order with no select at all.
// LowerBound(x) selects, the same way over the zeros, the zero that ends bucket x >> l, reads
// the bucket's first few low parts in place (the next one after the bucket is usually in the
// same or the next word), then gallops (doubling steps, then binary search) with Get:
// O(1 + log d) where d is the number of values equal in high part to x but smaller than x.
// The samples cost IndexSizeInBits(): 128 bits per 256 bits of the high bitvector, so 0.5 to
// 1.5 bits per value, plus 64 bits per position of a sparse block; they are rebuilt from the
// bitvector, never serialized.
//
// Serialized form (Serialize(), FromBytes()), all integers little-endian, no padding between
// fields:
//   u8      version            = 1
//   u64     n                  number of values, < 2^56
//   u64     universe           u, the inclusive upper bound of the values
//   u8      l                  must equal max(0, floor(log2(u / n))), 0 when n = 0
//   u64[]   low words          ceil(n·l / 64) words; bits past n·l are zero
//   u64[]   high words         ceil((n + (u >> l)) / 64) words (none when n = 0); exactly n ones,
//                              bits past n + (u >> l) are zero
// The length is therefore SerializedSize(n, u) = 18 + 8·(low words + high words) bytes; the
// decoded values are non-decreasing and at most u. The example above serializes to 34 bytes:
//   01 | 06 00 00 00 00 00 00 00 | 0D 00 00 00 00 00 00 00 | 01 | 3E 00…00 | 56 0A 00…00
//
// References: P. Elias, "Efficient storage and retrieval by content and address of static files",
// J. ACM 21(2), 1974. R. M. Fano, "On the number of bits required to implement an associative
// memory", MIT Project MAC memo 61, 1971. S. Vigna, "Quasi-succinct indices", WSDM 2013.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb::codecs {

// Select over the ones (or the zeros) of a bitvector held by someone else: the sampled
// positions described in the header comment. Internal to EliasFano; exposed only because
// EliasFano holds two of them by value.
class SampledSelect {
 public:
  // Indexes the `ones` (or, when false, the zeros) of the first `length` bits of `words`.
  // `words` must hold at least ceil(length / 64) words and stay unchanged while Select is used.
  void Build(const uint64_t* words, uint64_t length, bool ones);

  // Position (bit index) of the rank-th one (zero), rank counted from 0. Requires rank < the
  // number of ones (zeros) indexed by Build, and the same `words`.
  uint64_t Select(const uint64_t* words, uint64_t rank) const;

  // Bits held by the samples.
  uint64_t SizeInBits() const;

 private:
  // Per block of 256: its first position, or for a sparse block the top bit set and the index of
  // its first position in explicit_.
  std::vector<uint64_t> samples_;
  // Per block, 4 entries: the offsets of its ones 0, 64, 128 and 192 from its first position
  // (zeros for a sparse block).
  std::vector<uint16_t> offsets_;
  std::vector<uint64_t> explicit_;  // All positions of the sparse blocks, in order.
  bool ones_ = true;
};

// An immutable Elias–Fano sequence as defined at the top of this file. Copyable and movable;
// const methods may run concurrently.
class EliasFano {
 public:
  // Where a LowerBound query landed: the index of the first value ≥ the query and that value,
  // or {size(), 0} when every value is smaller.
  struct Successor {
    uint64_t index;
    uint64_t value;
  };

  // Iterator over the values in order; the cheapest way to decode them all (one
  // count-trailing-zeros per value, no select). Yields values, not references, hence an input
  // iterator, but copies advance independently. Valid while its EliasFano lives and is not moved.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = uint64_t;
    using difference_type = std::ptrdiff_t;
    using pointer = const uint64_t*;
    using reference = uint64_t;

    Iterator() = default;
    uint64_t operator*() const;
    Iterator& operator++();
    Iterator operator++(int);
    bool operator==(const Iterator& other) const { return index_ == other.index_; }
    // The index of the value this iterator points at.
    uint64_t index() const { return index_; }

   private:
    friend class EliasFano;
    Iterator(const EliasFano* ef, uint64_t index, uint64_t position);

    const EliasFano* ef_ = nullptr;
    uint64_t index_ = 0;
    uint64_t word_index_ = 0;  // Word of the high bitvector holding the current one.
    uint64_t word_ = 0;        // That word with the ones before the current one cleared.
  };

  // Values refused by Build and bytes refused by FromBytes stay below this count.
  static constexpr uint64_t kMaxSize = uint64_t{1} << 56;
  // The first byte of the serialized form.
  static constexpr uint8_t kFormatVersion = 1;
  // Bytes of the fixed header of the serialized form (version, n, universe, l).
  static constexpr uint64_t kHeaderBytes = 18;

  // The empty sequence (n = 0, universe 0).
  EliasFano() = default;

  // Encodes `values`, which must be non-decreasing and ≤ `universe`. The values are copied.
  // InvalidArgument names the first offending index otherwise, or when values.size() ≥ kMaxSize.
  static absl::StatusOr<EliasFano> Build(absl::Span<const uint64_t> values, uint64_t universe);

  // Decodes exactly one serialized sequence (the grammar above): the caller keeps the byte length
  // and passes exactly those bytes, no more. `bytes` are untrusted: every field, length, padding
  // bit and the order of the values is checked, and any failure is a DataLossError
  // "elias_fano: …"; nothing outside `bytes` is read. The bytes are copied.
  static absl::StatusOr<EliasFano> FromBytes(absl::Span<const uint8_t> bytes);

  // The serialized form; its length is SerializedSize(size(), universe()).
  std::vector<uint8_t> Serialize() const;

  // The length function: bits of the low and high arrays for n values in [0, universe],
  // n·l + n + (universe >> l), 0 when n = 0. Requires n < kMaxSize.
  static uint64_t SizeInBits(uint64_t n, uint64_t universe);
  // Bytes of the serialized form for n values in [0, universe]. Requires n < kMaxSize.
  static uint64_t SerializedSize(uint64_t n, uint64_t universe);
  // l for n values in [0, universe]: max(0, floor(log2(universe / n))), 0 when n = 0.
  static int LowBits(uint64_t n, uint64_t universe);

  uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  uint64_t universe() const { return universe_; }
  int low_bits() const { return low_bits_; }
  // SizeInBits(size(), universe()): the encoding itself.
  uint64_t SizeInBits() const { return SizeInBits(size_, universe_); }
  // Bits of the in-memory select samples on top of SizeInBits().
  uint64_t IndexSizeInBits() const;

  // The i-th value. Requires i < size().
  uint64_t Get(uint64_t i) const;

  // The first value ≥ x and its index, or {size(), 0} if there is none.
  Successor LowerBound(uint64_t x) const;

  Iterator begin() const;
  Iterator end() const;
  // An iterator at value i (i ≤ size(); size() gives end()).
  Iterator IteratorAt(uint64_t i) const;

 private:
  uint64_t HighLength() const { return size_ == 0 ? 0 : size_ + (universe_ >> low_bits_); }
  uint64_t Low(uint64_t i) const;
  // Value `index`, given that its one is the first one at or after bit `position`.
  uint64_t ValueAtOrAfter(uint64_t index, uint64_t position) const;
  bool HighBit(uint64_t position) const { return (high_[position / 64] >> (position % 64)) & 1; }
  // Resizes the arrays for size_, universe_ and low_bits_ (all zero bits).
  void AllocateArrays();
  // Samples the ones and zeros of the high bitvector and records the last value.
  void BuildIndex();

  uint64_t size_ = 0;
  uint64_t universe_ = 0;
  int low_bits_ = 0;
  uint64_t last_ = 0;  // The largest value, 0 when empty.
  // ceil(n·l / 64) words and one zero word more, so that reading any low part can load two words.
  std::vector<uint64_t> low_;
  std::vector<uint64_t> high_;  // ceil(HighLength() / 64) words.
  SampledSelect ones_;
  SampledSelect zeros_;
};

// Sequential decoding is the hot path of Elias–Fano lists; these stay inline for it.

inline uint64_t EliasFano::Low(uint64_t i) const {
  if (low_bits_ == 0) return 0;
  const uint64_t bit = i * low_bits_;
  const unsigned shift = bit % 64;
  // low_ ends with a spare word, so word bit / 64 + 1 always exists; the double shift of it is
  // zero when shift is 0 instead of an undefined shift by 64.
  const uint64_t joined = (low_[bit / 64] >> shift) | ((low_[bit / 64 + 1] << 1) << (63 - shift));
  return joined & (~uint64_t{0} >> (64 - low_bits_));
}

inline uint64_t EliasFano::Iterator::operator*() const {
  const uint64_t position = word_index_ * 64 + std::countr_zero(word_);
  return ((position - index_) << ef_->low_bits_) | ef_->Low(index_);
}

inline EliasFano::Iterator& EliasFano::Iterator::operator++() {
  ++index_;
  word_ &= word_ - 1;
  if (index_ < ef_->size_) {
    while (word_ == 0) word_ = ef_->high_[++word_index_];
  }
  return *this;
}

}  // namespace crawldb::codecs
