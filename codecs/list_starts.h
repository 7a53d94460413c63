// The compressed starts array of paper 001 §3.3: where each node's record lies in a stream
// (Link2's gap lists, Link3's records), the records being laid back to back in node order, so
// record v spans positions [begin(v), end(v)) with end(v) = begin(v + 1). Positions and lengths
// are in the stream's unit: nybbles for link2 and link3 (the paper's "elements of starts are
// indices to nybbles"), bits for link3+huff.
//
// The nodes are cut into consecutive *partitions*, each with a width:
//   - width 32: a plain array of 32-bit positions, begin(v) for every node of the partition
//     and one more for the end of its last node ("32-bit indices as before", for the high-degree
//     partition);
//   - width 16 or 8: *records* of P = 16 nodes, each a 32-bit base (begin of the record's first
//     node) and P lengths of `width` bits each: "a 32-bit base index, plus P 16-bit
//     offsets from the previous index" (the medium-degree partition; 8 bits for the low-degree
//     one). begin(v) is the base plus the lengths before v in its record: at most P − 1 adds.
//     With P = 16 an entry costs 32/16 + 8 = 10 bits (8-bit) or 18 bits (16-bit).
// A length that does not fit its width (≥ 2^width − 1) is *escaped*: its field holds 2^width − 1
// and the length is in a table of exceptions, looked up by binary search on the node. Paper 001
// has no escapes: with its degree partitions (codecs/degree_partitions.h) every length fits.
// Ours serve the one-partition layout ("Link2-1part") that keeps the input's node order, and any
// partitioning a caller chooses.
//
// Byte format (integers little-endian, codecs/little_endian.h; no padding between fields):
//   starts     := P:u8 exception_count:u32 exception{exception_count}
//                 partition_count:u8 partition{partition_count}
//   exception  := node:u32 length:u32
//   partition  := node_count:u32 width:u8 body
//   body       := begin:u32{node_count + 1}                               width = 32
//               | record{ceil(node_count / P)}                            width = 8 or 16
//   record     := base:u32 length:u<width>{P}
// Invariants (Build guarantees them, Parse checks them): 1 ≤ P ≤ 64; 1 ≤ partition_count ≤ 8;
// the node counts sum to the graph's; partitions follow each other in node order, and each
// starts where the previous ended (the first at position 0): the first begin or base of a
// partition is the previous one's end, begins are non-decreasing, every base equals the begin
// its record's first node gets from the lengths before it, lengths past a partition's last node
// are 0, and the last end is the stream's length, below 2^32. Exceptions are sorted
// by node, strictly; there is exactly one for each escaped field, and its length is at least
// the escape value.
//
// Caller's obligations: the node count and the stream's length are the caller's to store (Parse
// takes them); both are below 2^32.
//
// Paged starts (ParseDeferred) lie in place in a PagedBytes (codecs/paged_bytes.h): reading
// them fetches the parts that hold their header, exceptions and partition headers, not their
// bodies, and checks the headers; the exceptions and the bodies are checked record by record as
// GetChecked reads them (begin ≤ end ≤ the stream's length, every escape matched), or all at
// once by CheckRecords. Only GetChecked may read unchecked starts.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/degree_partitions.h"
#include "codecs/little_endian.h"
#include "codecs/paged_bytes.h"

namespace crawldb::codecs {

class ListStarts {
 public:
  // Nodes per record (P), as the paper's P = 16.
  static constexpr uint32_t kEntriesPerRecord = 16;
  static constexpr uint32_t kMaxPartitions = 8;

  struct Partition {
    uint32_t node_count;  // Nodes.
    uint32_t width;       // Bits per entry: 8, 16 or 32.
  };

  // A record's span.
  struct Range {
    uint64_t begin;  // Position in the stream's unit.
    uint64_t end;    // Position, ≥ begin.
  };

  // The empty starts of 0 nodes.
  ListStarts() = default;

  // Starts for records of lengths[v] units, back to back, laid out in `partitions` (node
  // counts summing to lengths.size(), widths 8, 16 or 32, at most kMaxPartitions).
  // InvalidArgumentError "list_starts: …" when the partitions are malformed or the lengths add
  // up to 2^32 or more.
  static absl::StatusOr<ListStarts> Build(absl::Span<const uint32_t> lengths,
                                          absl::Span<const Partition> partitions);

  // One partition of the width (8, 16 or 32) that makes the starts smallest.
  static absl::StatusOr<ListStarts> BuildOnePartition(absl::Span<const uint32_t> lengths);

  // Reads starts (the grammar above) for `node_count` nodes and a stream of `total` units
  // from `in`, checking every invariant; DataLossError "list_starts: …" on any violation.
  // Reads only the starts' own bytes; the bytes are copied.
  static absl::StatusOr<ListStarts> Parse(LittleEndianReader* in, uint32_t node_count,
                                          uint64_t total);
  // Paged starts beginning at byte `offset` of `pages`, which must outlive them (above);
  // *end is set to the byte after them. DataLossError "list_starts: …" when the header,
  // exceptions or partition headers are malformed, or pages.failure() when a fetch failed.
  static absl::StatusOr<ListStarts> ParseDeferred(const PagedBytes& pages, uint64_t offset,
                                                  uint32_t node_count, uint64_t total,
                                                  uint64_t* end);
  // Checks the bodies of paged starts (fetching them) as Parse does; OK at once if checked().
  // Once it passed, every node's span is Get's to read.
  absl::Status CheckRecords() const;

  // Appends the serialized form (SizeInBits() / 8 bytes).
  void AppendTo(std::vector<uint8_t>* out) const;
  uint64_t SizeInBits() const { return 8 * size_; }

  absl::Span<const Partition> partitions() const { return partitions_; }

  // The span of record `node` (node < the node count). O(P) adds, plus a binary search over
  // the exceptions when one of those lengths is escaped. Checked starts only, or a node
  // GetChecked accepted, or any once CheckRecords passed.
  Range Get(uint32_t node) const;
  // The same for unchecked starts: fetches the record's bytes and checks what the span rests
  // on; false when a fetch failed or the record is corrupt.
  bool GetChecked(uint32_t node, Range* range) const;

  class LengthReader;

 private:
  struct Layout {
    uint32_t first_node;
    uint32_t node_count;
    uint32_t width;
    uint64_t offset;  // Byte offset of the partition's body in the serialized form.
  };

  // The partition holding `node`.
  const Layout& Find(uint32_t node) const {
    const Layout* layout = layouts_.data();
    while (node - layout->first_node >= layout->node_count) ++layout;
    return *layout;
  }
  // Reads P, the exceptions and the partition headers from `bytes` (which start with the
  // starts and may run past them), skipping the bodies; *size is set to the starts' bytes.
  // Paged (pages_ set): the bytes are fetched as read, and a failed fetch is pages_->failure().
  absl::Status ParseLayout(absl::Span<const uint8_t> bytes, uint32_t node_count, uint64_t* size);
  // Checks the bodies against every invariant (the walk of Parse); paged starts whose parts may
  // be dropped are read record by record (a failed fetch is pages_->failure()).
  absl::Status CheckBodies() const;
  // The span of entry j of `record` (width 8 or 16), whose first node is `first`: Get's sum.
  // kChecked: false when a field is an escape with no exception (unchecked starts only).
  template <bool kChecked>
  bool RecordRange(const uint8_t* record, uint32_t width, uint32_t j, uint32_t first,
                   Range* range) const;
  // Paged: makes the `count` bytes from `at` (in data()) present, as far as the starts go.
  bool EnsureBytes(const uint8_t* at, uint64_t count) const {
    const uint64_t offset = offset_ + static_cast<uint64_t>(at - data());
    return pages_->Ensure(offset, std::min(offset + count, offset_ + size_));
  }
  // Length field `index` of the record at `record` (width 8 or 16), exceptions resolved; `node`
  // is the node it belongs to. Unchecked starts: UINT64_MAX for an escape with no exception.
  uint64_t Field(const uint8_t* record, uint32_t width, uint32_t index, uint32_t node) const;
  // Exception i (< exception_count_): its node, and the length (units) it gives that node.
  uint32_t ExceptionNode(uint32_t i) const {
    return LoadLittleEndian<uint32_t>(exceptions_.data() + 8 * uint64_t{i});
  }
  uint32_t ExceptionLength(uint32_t i) const {
    return LoadLittleEndian<uint32_t>(exceptions_.data() + 8 * uint64_t{i} + 4);
  }
  // The serialized form.
  const uint8_t* data() const {
    return pages_ != nullptr ? pages_->bytes().data() + offset_ : bytes_.data();
  }

  uint32_t entries_per_record_ = kEntriesPerRecord;
  std::vector<Partition> partitions_;
  std::vector<Layout> layouts_;
  // The exceptions as stored: (node u32, length u32) little-endian each, copied at parse (a
  // paged form may drop its parts).
  std::vector<uint8_t> exceptions_;
  uint32_t exception_count_ = 0;
  std::vector<uint8_t> bytes_;         // The serialized form, unless paged.
  const PagedBytes* pages_ = nullptr;  // Paged: the bytes, from byte offset_ on.
  uint64_t offset_ = 0;
  uint64_t size_ = 0;   // Bytes of the serialized form.
  uint64_t total_ = 0;  // The stream's length.
  bool checked_ = true;
};

// The lengths (end − begin) of records 0, 1, 2, … in turn, each in O(1), escapes included: the
// starts of a sequential scan, without Get's sums or a division. Valid while the starts live.
class ListStarts::LengthReader {
 public:
  explicit LengthReader(const ListStarts& starts) : starts_(&starts) {}

  // Paged starts whose parts may be dropped: each Next() makes the bytes it reads present
  // first; unread() tells when they could not be read (the length is then 0).
  void ReadPaged() { paged_ = starts_->pages_ != nullptr; }
  bool unread() const { return unread_; }

  // The length of the next record; at most node-count calls.
  uint64_t Next() {
    while (left_in_partition_ == 0) EnterPartition();
    --left_in_partition_;
    // At most a base and a field, or two begins: 8 bytes.
    if (paged_ && !starts_->EnsureBytes(at_, 8)) [[unlikely]] {
      unread_ = true;
      return 0;
    }
    if (width_ == 32) {
      const uint64_t length = LoadLittleEndian<uint32_t>(at_ + 4) - LoadLittleEndian<uint32_t>(at_);
      at_ += 4;
      return length;
    }
    if (left_in_record_ == 0) {
      at_ += 4;  // The record's base.
      left_in_record_ = starts_->entries_per_record_;
    }
    --left_in_record_;
    uint64_t field;
    if (width_ == 8) {
      field = *at_++;
    } else {
      field = LoadLittleEndian<uint16_t>(at_);
      at_ += 2;
    }
    // Escapes come in node order, one exception each (Parse and Build guarantee it).
    if (field == escape_) [[unlikely]] {
      field = starts_->ExceptionLength(exception_++);
    }
    return field;
  }

 private:
  void EnterPartition();

  const ListStarts* starts_;
  size_t partition_ = 0;            // The next partition to enter.
  uint32_t left_in_partition_ = 0;  // Records of the current partition still to read.
  uint32_t left_in_record_ = 0;     // Width 8 or 16: fields of the current P-record still to read.
  uint32_t width_ = 32;
  uint64_t escape_ = 0;          // The escaped field value of width_ (8 or 16).
  const uint8_t* at_ = nullptr;  // The next begin (width 32) or field or base to read.
  size_t exception_ = 0;         // The next exception.
  bool paged_ = false;
  bool unread_ = false;
};

// The starts of Link2 and Link3: with `partitions`, paper 001's three, high / medium / low, of
// widths 32 / 16 / 8 (InvalidArgumentError if they hold more nodes than there are lengths);
// without, ListStarts::BuildOnePartition.
absl::StatusOr<ListStarts> BuildLinkStarts(absl::Span<const uint32_t> lengths,
                                           const std::optional<DegreePartitions>& partitions);

}  // namespace crawldb::codecs
