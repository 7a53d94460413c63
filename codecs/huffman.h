// Canonical Huffman codes with a limit on the codeword length: the prefix codes of the URL block
// codec (url_block_codec.h). This file computes code lengths and codewords; the tables a
// decoder indexes are built by the code's user, which knows what a symbol stands for.
//
// Definition. Given symbol weights w_s, HuffmanCodeLengths returns lengths l_s ≤ max_length
// minimising Σ w_s·l_s over all prefix codes (Larmore and Hirschberg's package-merge), l_s = 0
// for a symbol of weight 0 (it gets no codeword). The canonical code (CanonicalCodes) assigns
// codewords in order of (length, symbol): the first symbol of the shortest length gets all
// zeros, each next codeword is the previous one plus one, shifted left when the length grows
// (DEFLATE's rule, RFC 1951 §3.2.2). Codewords are written most significant bit first.
//
//   weights 5 2 1 1  →  lengths 1 2 3 3  →  codewords 0, 10, 110, 111
//   weights 1 1 1 1 1 1 1 1 1, max_length 3  →  impossible (9 symbols > 2^3): error
//
// A code is complete when Σ 2^(−l_s) = 1 (every bit string starts with a codeword): a table
// decoder then has no invalid entry. Package-merge yields a complete code whenever two or more
// symbols have weight; one symbol alone gets length 1 (half the space unused).
//
// References: L. L. Larmore and D. S. Hirschberg, "A fast algorithm for optimal length-limited
// Huffman codes", JACM 37(3), 1990; RFC 1951 §3.2.2 (canonical codes).
//
// Caller's obligations: lengths read from disk go through CheckCompleteCode before
// CanonicalCodes, which assumes a valid (Kraft sum ≤ 1) set of lengths ≤ 31.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace crawldb::codecs {

// Longest codeword these functions handle.
inline constexpr int kMaxHuffmanCodeLength = 31;

// Optimal lengths ≤ max_length (in [1, kMaxHuffmanCodeLength]) for `weights`, one per symbol.
// InvalidArgumentError when more than 2^max_length symbols have a nonzero weight.
absl::StatusOr<std::vector<uint8_t>> HuffmanCodeLengths(absl::Span<const uint64_t> weights,
                                                        int max_length);

// OK iff every length is ≤ max_length and the nonzero lengths form a complete prefix code.
// DataLossError "huffman: <what is wrong>" otherwise (lengths are data from disk).
absl::Status CheckCompleteCode(absl::Span<const uint8_t> lengths, int max_length);

// Symbols per codeword length, [l] for length l ([0] is not read).
using CodeLengthCounts = std::array<uint32_t, kMaxHuffmanCodeLength + 1>;
// The canonical codeword of the first symbol of each length, [l] for length l: the others of
// that length follow it, one apart, in symbol order.
CodeLengthCounts FirstCanonicalCodes(const CodeLengthCounts& count);

// The canonical codeword of each symbol (0 where the length is 0), in the low lengths[s] bits.
std::vector<uint32_t> CanonicalCodes(absl::Span<const uint8_t> lengths);
// The same into codes[0, lengths.size()).
void CanonicalCodes(absl::Span<const uint8_t> lengths, absl::Span<uint32_t> codes);

}  // namespace crawldb::codecs
