// Adjacency codecs: a whole graph's lists encoded into one immutable, random-access object — the
// Link Database of paper 001 (link1, link2, link3, link3+huff) and the codecs that come after it.
//
// Encoding takes a graph as adjacency lists (adjacency_lists.h): nodes 0..n−1 (n < 2^32), each
// list strictly increasing (sorted, duplicates removed) with ids < n; self loops allowed. The
// encoder checks this (InvalidArgumentError otherwise) and keeps nothing of the input.
//
// The result, an EncodedGraph, decodes any list, scans them all in order, reports its size by
// component, and serializes to bytes. Bytes are untrusted: LoadAdjacency checks the envelope and
// the codec checks every field, every list and every invariant of its format while loading, so
// that once loaded, decoding cannot fail; corruption is a DataLossError "<codec>: <what is
// wrong>", never a read outside the bytes. The bytes are copied; loading costs one decode of
// every list.
//
// Deferred checks. Given the arc count its owner recorded (AdjacencyLoadOptions), a codec that
// can check a list as it decodes it (link3, link3+huff) loads at once instead: its parameters
// and starts are checked, each list when a decode, a degree or a scan first reaches it (once
// the degrees asked for have decoded an eighth of the arcs, CheckAll checks the rest at once). A
// corrupt list then reads as empty (degree 0; a scan ends before it) and status() turns into
// the DataLossError naming it, for good; never a read outside the bytes. CheckAll() checks what
// is left, as a full load does, and compares the arc count. The other codecs check everything
// while loading, deferred or not.
//
// Paged loading (LoadPagedAdjacency). The serialized bytes come as a PagedBytes
// (codecs/paged_bytes.h), parts fetched when first needed. link3 and link3+huff keep them in
// place and read only what each call needs, with deferred checks; the other codecs read every
// part, then load as above. A part that cannot be read makes the call that needed it act as
// on a corrupt list (an empty list, a scan that ends), but status() is then the fetch's failure,
// not a DataLossError, and lasts until ClearReadFailure(): the next call fetches again. With a
// memory budget (SetMemoryBudget) the parts read longest ago are dropped and fetched again when
// needed; calls on such a graph must not overlap.
//
// Byte format (the envelope; each codec's body is a grammar at the top of its header):
//   graph  := version:u8 name_length:u8 name:bytes[name_length] body
//   version = kAdjacencyFormatVersion (1); name is a registered codec name ("link1", "link2",
//   "link3", "link3+huff", "bv"); the body holds the codec's parameters and its data, and ends the
//   bytes exactly.
//
// Adding a codec: one header and source file defining an EncodedGraph subclass with an Encode
// and a Load function, and one line in the table of adjacency_codecs.cc.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/adjacency_lists.h"
#include "codecs/degree_partitions.h"
#include "codecs/paged_bytes.h"

namespace crawldb::codecs {

inline constexpr uint8_t kAdjacencyFormatVersion = 1;

// Parameters of the encoders; each codec reads those it has and stores them with its data.
struct AdjacencyCodecOptions {
  // link2, link3, link3+huff: the starts array (list_starts.h). Unset: one partition, keeping
  // the input's node order (paper 001's "-1part"). Set: the graph is numbered partition-first
  // (PartitionFirstOrder) and the partitions get the paper's widths, 32 / 16 / 8 bits.
  std::optional<DegreePartitions> partitions;
  // link3, link3+huff, bv: a list may refer to one of the previous `window` lists (K, 1 to
  // 1024) ...
  uint32_t window = 8;
  // ... and a list is rebuilt by following at most `max_chain` references (L, 0 to 64).
  uint32_t max_chain = 4;
};

// Size of an encoded graph by component, in bits; Total() is exactly 8 × the serialized bytes.
struct AdjacencySizeBits {
  uint64_t header = 0;   // The envelope, counts and parameters.
  uint64_t starts = 0;   // Where each list begins: starts array, records, exceptions.
  uint64_t refs = 0;     // Link3's references to representative lists.
  uint64_t deletes = 0;  // Link3's deletions from representative lists (count and indices).
  uint64_t adds = 0;     // The list data proper: link1's ids, link2's gaps, link3's adds, with
                         // the padding that ends the data on a byte.
  uint64_t tables = 0;   // Code tables (Huffman); 0 for the nybble codecs.

  uint64_t Total() const { return header + starts + refs + deletes + adds + tables; }
};

// Visits every list in node order, 0 first; for a full pass it is cheaper than Decode (link3
// keeps the last lists it decoded instead of following references again).
class ListScanner {
 public:
  virtual ~ListScanner() = default;
  // Sets *list to the next node's list, valid until the next call; false after the last node.
  virtual bool Next(absl::Span<const uint32_t>* list) = 0;
};

// How LoadAdjacency checks the lists (deferred checks, above).
struct AdjacencyLoadOptions {
  // Unset: every list is checked while loading. Set: the graph's arc count as its owner
  // recorded it; the lists may be checked as they are decoded, and arc_count() reports this
  // count until CheckAll() confirms it.
  std::optional<uint64_t> arc_count;
};

// An immutable encoded graph. Const methods may run concurrently.
class EncodedGraph {
 public:
  virtual ~EncodedGraph() = default;

  // The registered codec name, e.g. "link2".
  virtual absl::string_view codec() const = 0;
  virtual uint32_t size() const = 0;       // Nodes.
  virtual uint64_t arc_count() const = 0;  // Arcs: the sum of the list lengths.

  // The length of the list of `node` (< size()), without decoding it where the format allows.
  virtual uint32_t Degree(uint32_t node) const = 0;

  // Replaces *out with the list of `node` (< size()). Reuses out's capacity: no allocation once
  // it holds the longest list (link3 needs up to twice the longest list in a reference chain).
  virtual void Decode(uint32_t node, std::vector<uint32_t>* out) const = 0;

  // A scan over all lists; valid while this object lives.
  virtual std::unique_ptr<ListScanner> Scan() const = 0;

  // With deferred checks, checks every list not checked yet (once; later calls return the
  // same answer) and counts the components of SizeBits; the first corrupt list, or an arc
  // count other than the one loaded with, is the DataLossError, which status() keeps. OK at
  // once for a graph checked while loading.
  virtual absl::Status CheckAll() const { return status(); }

  // OK, or the DataLossError of the first corrupt list met (deferred checks, above), or else
  // a paged graph's ReadFailure().
  absl::Status status() const;

  // Paged graphs: the failure of a part's fetch since ClearReadFailure(), or OK (paged loading,
  // above).
  virtual absl::Status ReadFailure() const { return absl::OkStatus(); }
  virtual void ClearReadFailure() const {}

  // With deferred checks, counts the components with CheckAll() first (Total() does not need
  // it: it is the serialized size).
  virtual AdjacencySizeBits SizeBits() const = 0;

  // Bytes of memory the encoded lists take: the serialized size, or for a paged graph the
  // parts held (without reading more).
  virtual uint64_t MemoryBytes() const { return SizeBits().Total() / 8; }
  // Paged graphs: the bound on the bytes of the parts held (PagedBytes::SetBudget; kUnbounded:
  // none). Others hold everything.
  virtual void SetMemoryBudget(uint64_t /*bytes*/) const {}

  // The envelope and the body: SizeBits().Total() / 8 bytes.
  std::vector<uint8_t> Serialize() const;

 protected:
  // Keeps `problem` as status() unless a problem is kept already.
  void ReportCorrupt(std::string problem) const;

 private:
  mutable std::mutex problem_mutex_;
  mutable std::atomic<bool> corrupt_{false};
  mutable std::string problem_;  // Guarded by problem_mutex_; set once, when corrupt_ turns.

  // Appends the codec's body (its grammar) to *out.
  virtual void AppendBody(std::vector<uint8_t>* out) const = 0;
};

// Bits of the envelope for a codec name: (2 + name.size()) · 8.
uint64_t EnvelopeBits(absl::string_view codec);

// A registered codec.
struct AdjacencyCodec {
  absl::string_view name;
  // Encodes `graph` (CheckAdjacencyLists must pass).
  absl::StatusOr<std::unique_ptr<EncodedGraph>> (*encode)(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions& options);
  // Checks and loads a body (the bytes after the envelope, exactly).
  absl::StatusOr<std::unique_ptr<EncodedGraph>> (*load)(absl::Span<const uint8_t> body);
  // Loads a body with deferred checks, given the arc count; nullptr when the codec checks
  // everything while loading.
  absl::StatusOr<std::unique_ptr<EncodedGraph>> (*load_deferred)(absl::Span<const uint8_t> body,
                                                                 uint64_t arc_count);
  // Loads, paged, the body that begins at byte body_offset of `pages`, with deferred checks;
  // nullptr when the codec reads every part first.
  absl::StatusOr<std::unique_ptr<EncodedGraph>> (*load_paged)(
      std::shared_ptr<const PagedBytes> pages, uint64_t body_offset, uint64_t arc_count);
};

// Every registered codec, in registration order.
absl::Span<const AdjacencyCodec> AdjacencyCodecs();

// The codec called `name`, or nullptr.
const AdjacencyCodec* FindAdjacencyCodec(absl::string_view name);

// Encodes `graph` with the codec called `codec`. InvalidArgumentError for an unknown codec, a
// malformed graph or parameters out of range.
absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeAdjacency(
    absl::string_view codec, AdjacencyListsView graph, const AdjacencyCodecOptions& options = {});

// Loads serialized bytes (EncodedGraph::Serialize): the caller passes exactly those bytes.
// DataLossError "adjacency_codec: …" for a bad envelope, "<codec>: …" for a bad body, and for
// a codec checked while loading, an arc count other than options.arc_count.
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadAdjacency(
    absl::Span<const uint8_t> bytes, const AdjacencyLoadOptions& options = {});

// Loads the serialized bytes held by `pages`, paged where the codec can (paged loading, above),
// with deferred checks given the arc count. The errors of LoadAdjacency, or pages' failure().
absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadPagedAdjacency(
    std::shared_ptr<const PagedBytes> pages, uint64_t arc_count);

}  // namespace crawldb::codecs
