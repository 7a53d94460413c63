// Link3 (paper 001 §4): interlist compression by LimitSelect-K-L. Each list is written either
// whole (absolute) or as a reference to one of the previous K lists — its *representative* —
// plus the representative's elements to delete and the ids to add; following references to
// rebuild a list takes at most L steps. Records lie back to back in node order in one nybble
// stream, located by Link2's compressed starts array (codecs/list_starts.h).
//
// Body: the grammar of codecs/reference_graph.h with no tables, a stream of nybbles, and every
// field a nybble code (codecs/nybble.h): ref, del_count and del_gap unsigned, the adds a Link2
// gap list (codecs/nybble_gaps.h: the first id less the node, signed, then the gaps less one).
// In short:
//   link3   := window:u16 max_chain:u8 node_count:u32 data_nybbles:u32 starts data
//   record  := ε | ref:nyb(0) adds | ref:nyb(1..K) del_count:nyb del_gap:nyb{del_count} adds
// with deleted indices i_1 = del_gap_1, i_j = i_{j−1} + del_gap_j + 1 into the representative.
// Every invariant of reference_graph.h is checked by LoadLink3.
//
// Where paper 001 is vague or we differ:
//   - L: the paper's LimitSelect-K-L "only allows chains of fewer than L hops"; here a list is
//     rebuilt from at most L references (L + 1 records), so L = 0 means no references and the
//     paper's default K = 8, L = 4 decodes at most 5 records per list.
//   - Codes: the paper codes ref and deletes with Huffman codes (adds with a Huffman or the
//     nybble code); every field here is a nybble code, the speed choice the paper makes for
//     adds in Link3 as measured in its Table 2. link3+huff (link3_huff.h) codes every field
//     with canonical Huffman codes.
//   - The empty list is the empty record (no ref nybble): the starts give its length, 0.
//   - Choice: greedy in node order, as the paper: for list v, the absolute encoding and every
//     reference to v − 1 … v − K whose chain is below L are costed in nybbles, and the cheapest
//     wins; ties go to the absolute encoding, then to the nearest reference. References to
//     empty lists are never cheapest and are not tried.
//   - Starts and partitions: as Link2 (link2.h).
//
// Range: fewer than 2^32 nodes and data of fewer than 2^32 nybbles.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"
#include "codecs/reference_lists.h"

namespace crawldb::codecs {

// The "link3" codec of AdjacencyCodecs(); reads options.window (K), options.max_chain (L) and
// options.partitions. InvalidArgumentError for K or L out of range.
absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink3(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions& options);
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3(absl::Span<const uint8_t> body);
// With deferred checks (adjacency_codec.h).
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3Deferred(absl::Span<const uint8_t> body,
                                                                uint64_t arc_count);
// Paged, with deferred checks (adjacency_codec.h).
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3Paged(
    std::shared_ptr<const PagedBytes> pages, uint64_t body_offset, uint64_t arc_count);

}  // namespace crawldb::codecs
