// Canonical Huffman codes with lengths limited to 24 bits, over BitWriter / BitReader (most
// significant bit first): the code tables of link3+huff, as paper 001 §3.2 and §4.4 use them.
//
// Definition. A code gives each used symbol s of an alphabet 0..A−1 a length l(s) in [1, 24],
// with Σ 2^−l(s) ≤ 1 (Kraft). Its codewords are canonical: used symbols sorted by (length,
// symbol) get consecutive codewords, the first all zeros, each next one the previous plus one,
// shifted left by the increase in length. The lengths alone define the code; only they are
// stored. Example: lengths b:1 a:2 c:3 d:3 → b 0, a 10, c 110, d 111.
//
// Lengths from frequencies (HuffmanCode::Lengths): optimal (D. A. Huffman, "A method for the
// construction of minimum-redundancy codes", Proc. IRE 40(9), 1952) unless the longest exceeds
// 24 bits; then the frequencies are halved (a nonzero one stays nonzero) and the lengths computed
// again until they fit — simple and slightly suboptimal, and reached only by skewed
// distributions of at least 25 symbols. A single used symbol gets length 1.
//
// Table format (the integers LEB128 varints, codecs/varint.h, the lengths one byte each):
//   table := alphabet:varint used:varint (symbol_gap:varint length:u8){used}
//   symbol_gap is the first used symbol, then the symbol less the previous one less one.
// Invariants (Parse checks them): alphabet ≤ the caller's bound, used ≤ alphabet, symbols below
// the alphabet, lengths in [1, 24], Kraft ≤ 1. An incomplete code (Kraft < 1) is legal: bit
// patterns no codeword starts are decoding errors.
//
// Decoding peeks 24 bits: codewords of up to 10 bits come from a 1024-entry table, longer ones
// by comparing with the first codeword of each length. A bit pattern that starts no codeword,
// or input ending inside a codeword, fails the reader (BitReader::Fail) and reads as symbol 0.
//
// Caller's obligations: write only symbols that have a code (length(s) > 0); the count of
// symbols and where they end are the caller's to store.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/little_endian.h"

namespace crawldb::codecs {

class HuffmanCode {
 public:
  static constexpr int kMaxLength = 24;

  // The code of no symbol.
  HuffmanCode() = default;

  // Lengths for an alphabet of frequencies.size() symbols: 0 for a symbol of frequency 0, as
  // defined above otherwise.
  static std::vector<uint8_t> Lengths(absl::Span<const uint64_t> frequencies);

  // The canonical code of `lengths` (0 = no code; alphabet lengths.size(), below 2^27).
  // InvalidArgumentError "canonical_huffman: …" for a length above 24 or Kraft > 1.
  static absl::StatusOr<HuffmanCode> FromLengths(std::vector<uint8_t> lengths);

  // Reads a table (the grammar above) of an alphabet of at most `max_alphabet` symbols;
  // DataLossError "canonical_huffman: …" on any violation.
  static absl::StatusOr<HuffmanCode> Parse(LittleEndianReader* in, uint32_t max_alphabet);

  // Appends the table (TableBits() / 8 bytes).
  void AppendTo(std::vector<uint8_t>* out) const;
  uint64_t TableBits() const;

  uint32_t alphabet_size() const { return static_cast<uint32_t>(lengths_.size()); }
  // Bits of the codeword of `symbol`, 0 when it has none (or is outside the alphabet).
  int length(uint32_t symbol) const { return symbol < lengths_.size() ? lengths_[symbol] : 0; }
  // The codeword of `symbol` (which has one), right-aligned in length(symbol) bits.
  uint32_t codeword(uint32_t symbol) const { return codewords_[symbol]; }

  // Appends the codeword of `symbol`, which must have one.
  void Write(uint32_t symbol, BitWriter& out) const {
    out.WriteBits(codewords_[symbol], lengths_[symbol]);
  }

  // Reads one codeword and returns its symbol; see the header comment for errors.
  uint32_t Read(BitReader& in) const {
    const uint64_t bits = in.PeekBits(kMaxLength);
    const uint32_t entry = fast_[bits >> (kMaxLength - kFastBits)];
    if (entry != 0) [[likely]] {
      in.SkipBits(entry & kLengthMask);
      return entry >> kLengthBits;
    }
    return ReadLong(in, bits);
  }

 private:
  static constexpr int kFastBits = 10;
  static constexpr int kLengthBits = 5;
  static constexpr uint32_t kLengthMask = (1u << kLengthBits) - 1;

  uint32_t ReadLong(BitReader& in, uint64_t bits) const;

  std::vector<uint8_t> lengths_;     // Per symbol; 0 = no code.
  std::vector<uint32_t> codewords_;  // Per symbol, right-aligned in lengths_[s] bits.
  std::vector<uint32_t> sorted_;     // Used symbols by (length, symbol).
  // Per length: the codeword of its first symbol, its count of symbols, and where they start
  // in sorted_.
  std::array<uint32_t, kMaxLength + 1> first_code_{};
  std::array<uint32_t, kMaxLength + 1> count_{};
  std::array<uint32_t, kMaxLength + 1> first_index_{};
  // 2^kFastBits entries indexed by the next kFastBits bits: symbol << kLengthBits | length for
  // a codeword of at most kFastBits bits, 0 otherwise.
  std::vector<uint32_t> fast_ = std::vector<uint32_t>(1u << kFastBits, 0);
};

}  // namespace crawldb::codecs
