// Link2's single-list code (paper 001 §3.1–3.2): an adjacency list as nybble-coded gaps. Link3
// codes its *adds* the same way.
//
// Definition. The list a_1 < a_2 < … < a_d of node `source` (d ≥ 0) is the nybble codes
// (codecs/nybble.h) of
//   a_1 − source                 signed (sign/magnitude), may be negative or 0 (a self loop);
//   a_j − a_{j−1} − 1, j ≥ 2     unsigned.
// The list is strictly increasing, so every later gap is at least 1; storing it less one makes
// the one-nybble codes 0..7 stand for gaps 1..8. (The paper stores the gap itself, its data
// having no duplicates either; the shift is ours and never costs a nybble.) Nothing delimits the
// list: its length in nybbles is the caller's (a starts array, codecs/list_starts.h), and the
// count of ids is the count of codes, i.e. of nybbles whose stop bit is set.
//
// Example: node 104 linking to 101, 132, 174 (the paper's Figure 2) → −3, 30, 41 →
//   −3: N = 7 → 1111;  30 → 1100 0111;  41 → 0010 1011   (nybbles in stream order, data·stop)
// 5 nybbles.
//
// Range: ids and `source` below 2^32: a first gap takes at most 11 nybbles (|a_1 − source| <
// 2^32, N < 2^33), a later one at most 11 (< 2^32), so d ids take at most 11·d nybbles.
//
// Decoding reads the nybbles of one list, given as a nybble range of a byte span, 16 at a time
// where 8 bytes are in bounds, one at a time near the span's end; it never reads outside the
// span. A code of more than 11 nybbles stands for 2^33 or more, beyond every id, and is refused
// as soon as its 12th nybble is seen.
//
// Caller's obligations: the list is an adjacency list (adjacency_lists.h); the list's length in
// nybbles and the count of lists are the caller's to store.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "codecs/nybble.h"

namespace crawldb::codecs {

// Nybbles WriteGapList(source, list, …) writes.
uint64_t GapListLength(uint32_t source, absl::Span<const uint32_t> list);

// Appends the code of `list` (strictly increasing) for node `source`.
void WriteGapList(uint32_t source, absl::Span<const uint32_t> list, NybbleWriter* out);

// Decodes the list of node `source` held in nybbles [begin, end) of `bytes` (nybble 2k the low
// half of byte k; requires begin ≤ end ≤ 2 · bytes.size()), appending its ids to *out. False
// when the nybbles are corrupt: a code without its stop bit before `end`, a code of more than 11
// nybbles, or an id outside [0, node_count); *out then holds the ids decoded before the error.
// At most one id per nybble is appended.
bool ReadGapList(uint32_t source, uint32_t node_count, absl::Span<const uint8_t> bytes,
                 uint64_t begin, uint64_t end, std::vector<uint32_t>* out);

// Codes that end in nybbles [begin, end) of `bytes` (nybble 2k the low half of byte k): the
// nybbles with their stop bit set. Requires begin ≤ end ≤ 2 · bytes.size().
uint64_t CountNybbleCodes(absl::Span<const uint8_t> bytes, uint64_t begin, uint64_t end);

}  // namespace crawldb::codecs
