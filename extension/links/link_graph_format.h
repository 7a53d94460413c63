// The stored forms of a link graph: the base in the rows of <t>_graph and each transaction's
// changes in one row of <t>_log (extension/links/links_table.h names the tables). This header
// owns both byte formats.
//
//   <t>_graph(part INTEGER PRIMARY KEY, data BLOB NOT NULL), parts 0, 1, 2, … in order:
//   part 0     header := version:u8 (= kGraphFormatVersion) out_bytes:varint in_bytes:varint
//                        part_bytes:varint arc_count:varint
//   parts 1..  the bytes of the out graph, then of the in graph (EncodedGraph::Serialize, codecs/
//              adjacency_codec.h, which names the codec and holds its parameters), cut into
//              parts of part_bytes bytes (the last of each graph shorter; an empty graph has
//              none): ⌈out_bytes / part_bytes⌉ parts of out, then ⌈in_bytes / part_bytes⌉ of in.
//   Parts keep each row far below SQLITE_LIMIT_LENGTH however large the graph.
//   The arc count (of each graph; out and in hold the same arcs) lets the codecs check each
//   list when it is first decoded instead of all of them at load (codecs/adjacency_codec.h,
//   "Deferred checks"): a new connection's first look-up does not decode the whole graph.
//   Version 1 had no arc_count: still read, every list checked at load.//
//   <t>_log(seq INTEGER PRIMARY KEY, changes BLOB NOT NULL)
//   changes := version:u8 (= kLogFormatVersion) count:varint packed
//   packed    the changes, zstd-compressed once large enough (codecs/packed_bytes.h):
//             change{count}
//   change  := kind:u8 (1 add, 0 remove) src-delta:zigzag dst-delta:zigzag
//             src and dst (< 2^32) less the previous change's (0 before the first): crawl_add
//             links each new URL, the previous one's successor, from a parent, so most deltas
//             take a byte or two
//   seq 1, 2, 3, … in commit order; replaying every row over the base gives the current graph.
//   Version 1 held each change plainly, kind:u8 src:varint dst:varint, uncompressed: still read.
//
// Loading validates the header, the parts and the codec's envelope and parameters
// (DataLossError "links: …"); a version-2 graph's lists are checked as they are decoded
// (LinkStore::status()), a version-1 graph's at load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"
#include "extension/links/link_store.h"

namespace crawldb::links {

inline constexpr uint8_t kGraphFormatVersion = 2;
inline constexpr uint8_t kGraphFormatVersionWithoutArcs = 1;
inline constexpr uint8_t kLogFormatVersion = 2;
inline constexpr uint8_t kPlainLogFormatVersion = 1;
// Largest body of changes one log row holds (SQLite's own limit on a blob is 1 GB).
inline constexpr size_t kMaxLogBodyBytes = size_t{1} << 30;
inline constexpr size_t kGraphPartBytes = size_t{1} << 20;

// The parts of a base, part 0 first.
std::vector<std::vector<uint8_t>> GraphParts(const codecs::EncodedGraph& out,
                                             const codecs::EncodedGraph& in,
                                             size_t part_bytes = kGraphPartBytes);

struct LoadedGraph {
  std::unique_ptr<codecs::EncodedGraph> out;
  std::unique_ptr<codecs::EncodedGraph> in;
};
// Loads the parts (part 0 first); checks that both graphs have the same nodes and arc count
// (for version 2, the header's, which CheckAll() compares with the lists).
absl::StatusOr<LoadedGraph> LoadGraphParts(absl::Span<const absl::Span<const uint8_t>> parts);

std::vector<uint8_t> EncodeLogChanges(absl::Span<const LinkChange> changes);
// Decompresses into *scratch.
absl::StatusOr<std::vector<LinkChange>> DecodeLogChanges(absl::Span<const uint8_t> blob,
                                                         std::string* scratch);

}  // namespace crawldb::links
