// bv: the BVGraph list form (codecs/bv_lists.h: a reference into a window of previous lists
// with a bounded chain, copy blocks, intervals, residuals) with every value in an entropy code
// fitted to the graph, and random access through an Elias–Fano index of where each list starts.
//
// Values. Each value x (a natural number) is a *token* in a canonical Huffman code
// (canonical_huffman.h) followed by raw bits (most significant first), as DEFLATE's and
// Zuckerli's hybrid integers:
//   x < 16:  token x, no raw bits
//   else:    m = floor(log2 x); token 16 + 2(m − 4) + (bit m − 1 of x); the m − 1 bits of x
//            below bit m − 1 follow
// so tokens run from 0 to kHybridTokens − 1 = 135 (UINT64_MAX: m = 63; codecs/
// hybrid_integer.h). Each value is coded with one of kBvTables tables, chosen by what the decoder
// knows at that point (the hints of bv_lists.h):
//   outdegree:      one table when there is no reference, one for nat(d − |reference|);
//   block count:    by the outdegree against the reference's: equal, below, above;
//   block:          the first block, a skipped run (odd index) or a copied run (even index ≥ 2);
//   interval count: by the ids left after the copy l ≥ min_interval, min(floor(log2 l) − 1, 3);
//   first residual: by the number of residuals r, min(floor(log2 r) + 1, 5) − 1;
//   residual:       by the token t of the residual before it, t / 2 for t < 16 and
//                   8 + (t − 16) / 2 above (one per magnitude), capped at kBvResidualContexts − 1;
// since neighbouring gaps are alike and lists with many residuals have small gaps.
//
// Body (after the envelope of adjacency_codec.h; integers little-endian):
//   bv       := window:u16 max_chain:u8 min_interval:u8 node_count:u32 data_bits:u64
//               table{kBvTables} offsets_bytes:u32 offsets data
//   table    := canonical_huffman.h table of an alphabet of kHybridTokens
//   offsets  := elias_fano.h serialized: node_count + 1 bit positions, the first 0, the last
//               data_bits; list v spans [offsets[v], offsets[v + 1]) of the data
//   data     := bytes[ceil(data_bits / 8)], the bits past data_bits zero
//   list     := bv_lists.h's extended list form (reference first, outdegree relative to the
//               reference's, no interval count when no interval fits) with window and
//               min_interval_length = min_interval
// Tables in order: outdegree, relative outdegree, reference, block count (3), first block,
// skipped runs, copied runs, interval count (4), interval left, interval length, first residual
// (kBvResidualCountBuckets), residual (kBvResidualContexts).
//
// Invariants (checked by LoadBv): 1 ≤ window ≤ kMaxBvWindow, max_chain ≤ kMaxBvChain,
// min_interval ≤ 255; the offsets as stated; every list decodes within its span and ends exactly
// at its end, with a reference inside the window and a chain of at most max_chain references;
// every list is an adjacency list (ReadBvList's checks). Once loaded, decoding cannot fail.
//
// Encoding chooses each list's reference by its measured cost: a first pass costs the
// candidates in WebGraph's codes (γ, unary, ζ_3) to count tokens, a second costs them under
// Huffman codes fitted to those counts (every token given a code), and the final tables are
// fitted to the second pass's choices, which are written. Candidates: no reference and each of
// the previous `window` lists whose chain is below max_chain; a reference that ends a chain (no
// later list may refer to this one) costs 8 bits more, so that the chain budget is not spent
// early for little (3% smaller outlinks on cnr-2000 than the plain greedy choice).
//
// Options: options.window (default 8) and options.max_chain (default 4) of AdjacencyCodecOptions;
// min_interval is kBvMinIntervalLength (3 measured a little smaller than WebGraph's 4 on
// cnr-2000). Larger windows measured larger: the greedy choice spends the chain budget early. Sizes (AdjacencySizeBits): refs = the references,
// deletes = block counts and blocks (what is not copied), adds = outdegrees, intervals,
// residuals and the data's padding, starts = the offsets, tables = the Huffman tables.
//
// Range: fewer than 2^32 nodes; lists decode in O(degree) plus their reference chain.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"

namespace crawldb::codecs {

inline constexpr uint32_t kMaxBvWindow = 1024;
inline constexpr uint32_t kMaxBvChain = 64;
inline constexpr uint32_t kBvMinIntervalLength = 3;
inline constexpr int kBvResidualCountBuckets = 5;
inline constexpr int kBvResidualContexts = 24;
inline constexpr int kBvTables = 15 + kBvResidualCountBuckets + kBvResidualContexts;

// The "bv" codec of AdjacencyCodecs(); reads options.window and options.max_chain.
// InvalidArgumentError "bv: …" for them out of range.
absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeBv(AdjacencyListsView graph,
                                                       const AdjacencyCodecOptions& options);
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadBv(absl::Span<const uint8_t> body);

}  // namespace crawldb::codecs
