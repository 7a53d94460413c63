// link3+huff: Link3 (link3.h) with every field in a canonical Huffman code (codecs/
// canonical_huffman.h) over a bit stream — paper 001's "Link3+huff" row of Table 2. (The paper's
// Link3 already Huffman-codes ref and deletes, §4.4; its "+huff" codes the adds too.)
//
// Body: the grammar of codecs/reference_graph.h with a stream of bits (most significant bit of
// each byte first, codecs/bit_writer.h), starts in bits, and five code tables:
//   tables  := ref del_count del_gap first gap         (each a canonical_huffman.h table)
//   record  := ε | ref adds | ref del_count del_gap{del_count} adds    (ref 0, or 1..K)
//   adds    := first gap*, running to the record's end
//   field   := symbol s of the field's table: below A − 1 (A the table's alphabet) s is the
//              value; s = A − 1 is an escape and the value follows as Elias γ (elias_gamma.h)
//   first   = 2·|a_1 − v| + (a_1 < v), the sign/magnitude of the first id less the node v;
//   gap     = a_j − a_{j−1} − 1; deleted indices as in link3.
// Alphabets: ref K + 2; del_count and del_gap 1025; first and gap 20,001 — the paper's Huffman
// "table of 20,000 delta values and an escape for values beyond that" (§3.2). The tables are
// counted in the size (AdjacencySizeBits::tables). Every invariant of reference_graph.h is
// checked by LoadLink3Huff, and every table's (canonical_huffman.h); an alphabet is at most
// 2^16 symbols and at least 1.
//
// Encoding, in three passes over the graph: (1) references chosen as link3 chooses them (by
// nybble costs) to count the symbols; (2) Huffman tables from those counts, every escape given a
// code, and the references chosen again by their cost in bits under those tables (a value with
// no code there is escaped), counting the symbols of these choices; (3) the final tables from
// those counts, and the records written with them.
//
// Starts count bits, so with paper 001's three partitions a low-degree record longer than 254
// bits does not fit its 8-bit length and is escaped (list_starts.h); the one-partition layout
// picks its width for bit lengths as it does for nybbles.
//
// Range: fewer than 2^32 nodes and data of fewer than 2^32 bits (512 MiB).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"

namespace crawldb::codecs {

// The "link3+huff" codec of AdjacencyCodecs(); reads options.window (K), options.max_chain (L)
// and options.partitions, as link3.
absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink3Huff(AdjacencyListsView graph,
                                                              const AdjacencyCodecOptions& options);
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3Huff(absl::Span<const uint8_t> body);
// With deferred checks (adjacency_codec.h).
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3HuffDeferred(absl::Span<const uint8_t> body,
                                                                    uint64_t arc_count);
// Paged, with deferred checks (adjacency_codec.h).
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3HuffPaged(
    std::shared_ptr<const PagedBytes> pages, uint64_t body_offset, uint64_t arc_count);

}  // namespace crawldb::codecs
