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
//   Version 1 had no arc_count: still read, every list checked at load.
//   A version-2 base is read paged (LoadPagedGraph): loading reads part 0 and the parts that
//   hold each graph's parameters and starts headers; a look-up, the parts its lists lie in
//   (codecs/paged_bytes.h). Parts of kGraphPartBytes keep that a few pages each.
//
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
#include <functional>
#include <memory>
#include <optional>
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
// 16 KiB: a part is 4 pages of 4 KiB, so a new connection's first look-up, which reads a few
// parts per direction, reads (and faults in) tens of pages, not hundreds; a graph of 10^9 bytes
// is 61,036 rows. Bases written with 64 KiB or 1 MiB parts are read the same way (part_bytes is
// in the header).
inline constexpr size_t kGraphPartBytes = size_t{16} << 10;

// The parts of a base, part 0 first.
std::vector<std::vector<uint8_t>> GraphParts(const codecs::EncodedGraph& out,
                                             const codecs::EncodedGraph& in,
                                             size_t part_bytes = kGraphPartBytes);

struct LoadedGraph {
  std::unique_ptr<codecs::EncodedGraph> out;
  std::unique_ptr<codecs::EncodedGraph> in;
};

// Part 0, read.
struct GraphHeader {
  uint8_t version;
  uint64_t out_bytes;
  uint64_t in_bytes;
  uint64_t part_bytes;
  std::optional<uint64_t> arc_count;  // version 2
  size_t out_parts;                   // parts 1 .. out_parts
  size_t in_parts;                    // the next in_parts
};
// DataLossError "links: …" for a malformed header, FailedPreconditionError for a version this
// build does not read.
absl::StatusOr<GraphHeader> ReadGraphHeader(absl::Span<const uint8_t> part0);

// Fills `into` with part `part` of <t>_graph (exactly its bytes; the DataLossError of
// PartProblem when the stored part is missing or of another size).
using ReadGraphPart = std::function<absl::Status(size_t part, absl::Span<uint8_t> into)>;
// "links: graph part 3 is missing" / "… holds 10 bytes, not 65536".
absl::Status PartProblem(size_t part, std::optional<size_t> stored_bytes, size_t expected);

// Loads a version-2 base paged (above): `read` fetches the parts when they are needed. A fetch
// failure (a missing part among them) or a corrupt part found later is reported by the graphs'
// status() (codecs/adjacency_codec.h, paged loading). Parts past the header's count are not
// looked for: CheckPartCount finds them.
absl::StatusOr<LoadedGraph> LoadPagedGraph(const GraphHeader& header, ReadGraphPart read);
// OK when `last_part` (the highest part stored) is the last the header counts; the
// DataLossError "links: the graph has 7 parts, its header says 6" otherwise.
absl::Status CheckPartCount(const GraphHeader& header, int64_t last_part);
// Loads the parts (part 0 first); checks that both graphs have the same nodes and arc count
// (for version 2, the header's, which CheckAll() compares with the lists).
absl::StatusOr<LoadedGraph> LoadGraphParts(absl::Span<const absl::Span<const uint8_t>> parts);

std::vector<uint8_t> EncodeLogChanges(absl::Span<const LinkChange> changes);
// Decompresses into *scratch.
absl::StatusOr<std::vector<LinkChange>> DecodeLogChanges(absl::Span<const uint8_t> blob,
                                                         std::string* scratch);

}  // namespace crawldb::links
