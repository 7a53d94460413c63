// LAW's BVGraph files (WebGraph, format version 0): `basename.graph`, `basename.offsets` and
// `basename.properties`, read into adjacency lists and written from them.
//
// .graph: the lists of nodes 0..n−1 back to back in one bit stream (most significant bit of each
// byte first, codecs/bit_writer.h) in the list form of codecs/bv_lists.h, then padding. Each
// component has a code, by default (WebGraph's, an empty `compressionflags`):
//   outdegree γ, reference unary, block count γ, blocks γ, interval count γ (always),
//   interval lefts and lengths γ, residuals ζ_k with k = `zetak`
// (elias_gamma.h, zeta.h; unary n is n zeros then a one). `compressionflags` may change them:
// tokens <COMPONENT>_<CODE> separated by '|', COMPONENT one of OUTDEGREES, REFERENCES,
// BLOCK_COUNT, BLOCKS, INTERVALS, RESIDUALS, OFFSETS and CODE one of GAMMA, DELTA, UNARY, ZETA
// (NIBBLE and the others are refused as unsupported).
// .offsets: n + 1 naturals in the OFFSETS code (γ): 0, then the length in bits of each list.
// .properties: Java properties (key=value lines, '#' or '!' comments); the reader uses nodes,
// arcs, version (0), windowsize, minintervallength, zetak and compressionflags; maxrefcount
// bounds only the writer's references.
//
// The files are untrusted: every value is checked as it is read (ids below n, references inside
// the window, copy blocks inside their reference, lists strictly increasing, the arc count, the
// offsets against where each list really starts); any violation is a DataLossError
// "bvgraph: <what>". A graph whose decoded arcs would pass the properties' count stops there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/adjacency_lists.h"

namespace crawldb::codecs {

// The writer's parameters (LAW's cnr-2000 files use these defaults).
struct BvGraphParameters {
  uint32_t window_size = 7;          // References reach 1..window_size lists back; 0 none.
  uint32_t max_ref_count = 3;        // A list is rebuilt through at most this many references
                                     // (at most 255).
  uint32_t min_interval_length = 4;  // 0: no intervals.
  int zeta_k = 3;                    // Residuals' ζ_k, 1..7.
};

// The three files' contents.
struct BvGraphFiles {
  std::string properties;
  std::vector<uint8_t> graph;
  std::vector<uint8_t> offsets;
};

// Decodes a graph from the contents of its files; `offsets` may be absent.
absl::StatusOr<AdjacencyLists> ReadBvGraph(absl::string_view properties,
                                           absl::Span<const uint8_t> graph,
                                           std::optional<absl::Span<const uint8_t>> offsets);

// Encodes `graph` (an adjacency-list view that passes CheckAdjacencyLists) with WebGraph's
// default codes, choosing for each list the reference that makes it shortest (the whole window,
// chains bounded by max_ref_count). InvalidArgumentError "bvgraph: …" for parameters out of
// range.
absl::StatusOr<BvGraphFiles> WriteBvGraph(AdjacencyListsView graph,
                                          const BvGraphParameters& parameters);

// ReadBvGraph on `basename`.properties, .graph and, when it exists, .offsets. NotFoundError
// "bvgraph: …" naming a missing or unreadable file.
absl::StatusOr<AdjacencyLists> ReadBvGraphFiles(const std::string& basename);

// Writes `files` to `basename`.properties, .graph and .offsets (replaced). InternalError
// "bvgraph: …" naming a file that cannot be written.
absl::Status WriteBvGraphFiles(const BvGraphFiles& files, const std::string& basename);

}  // namespace crawldb::codecs
