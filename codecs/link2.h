// Link2 (paper 001 §3): single-list compression and starts compression. Each list is its
// nybble-coded gaps (codecs/nybble_gaps.h: the first gap relative to the source node, signed;
// the others less one, unsigned, the lists being strictly increasing); lists lie back to back
// in node order in one nybble stream, and a compressed starts array (codecs/list_starts.h)
// says where each begins.
//
// Body (after the envelope of adjacency_codec.h; integers little-endian):
//   link2  := node_count:u32 data_nybbles:u32 starts data
//   starts := the grammar of list_starts.h, for node_count nodes and data_nybbles nybbles
//   data   := bytes[ceil(data_nybbles / 2)]: the gap lists of nodes 0, 1, …, each spanning its
//             starts range; nybble 2k is the low half of byte k; an unused last high half is 0
// Invariants (checked by LoadLink2): every range decodes into whole codes whose ids lie in
// [0, node_count) (so lists are strictly increasing by construction), and the body ends with
// the data.
//
// Partitions. Paper 001 numbers nodes partition-first by degree (§2.2) and gives each partition
// its own starts width (§3.3): AdjacencyCodecOptions::partitions selects that layout (the caller
// has renumbered the graph with PartitionFirstOrder), and its absence the one-partition layout
// "Link2-1part" over the input's own order, 8-, 16- or 32-bit, whichever is smallest, escaping
// lengths that do not fit. Which layout was used is in the starts' bytes.
//
// Range: fewer than 2^32 nodes and data of fewer than 2^32 nybbles (2 GiB).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"

namespace crawldb::codecs {

// The "link2" codec of AdjacencyCodecs(); reads options.partitions.
absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink2(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions& options);
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink2(absl::Span<const uint8_t> body);

}  // namespace crawldb::codecs
