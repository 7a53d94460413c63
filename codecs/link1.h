// Link1, the uncompressed baseline of paper 001 (§2.3, Figure 1; Table 2's first row): every id
// in 32 bits, and a 32-bit starts array indexed by node giving where its list begins.
//
// Body (after the envelope of adjacency_codec.h; every integer a little-endian u32):
//   link1  := node_count start{node_count + 1} id{start[node_count]}
//   list v  = id[start[v], start[v + 1])
// Invariants (checked by LoadLink1): start[0] = 0, starts non-decreasing, every list strictly
// increasing with ids < node_count, and the body ends after the last id. Size: 32 · (n + 1 + m)
// bits for n nodes and m arcs, plus the envelope and node count.
//
// Range: fewer than 2^32 nodes and fewer than 2^32 arcs (the 32-bit starts); paper 001 numbers
// ids from 1, we from 0.
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"

namespace crawldb::codecs {

// The "link1" codec of AdjacencyCodecs(); no options. InvalidArgumentError for 2^32 arcs or more.
absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink1(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions& options);
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink1(absl::Span<const uint8_t> body);

}  // namespace crawldb::codecs
