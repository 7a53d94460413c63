// An encoded graph of LimitSelect-K-L records (codecs/reference_lists.h) laid back to back in
// one stream and located by a starts array (codecs/list_starts.h): the decoding, scanning,
// degree and checking that link3 and link3+huff share. A *record format* says how a record's
// fields are coded (nybble codes for link3, Huffman codes for link3+huff).
//
// Body (after the envelope of adjacency_codec.h; integers little-endian):
//   body    := window:u16 max_chain:u8 node_count:u32 data_length:u32 tables starts data
//   tables  := the record format's code tables (none for link3)
//   starts  := list_starts.h, for node_count records in a stream of data_length units
//   data    := bytes[ceil(data_length · unit / 8)], unit = 4 (nybbles) or 1 (bits); the bits
//              after the stream's last unit are zero
//   record  := ε                                       the empty list
//            | ref adds                                ref = 0: absolute, the list is adds
//            | ref del_count del_gap{del_count} adds   ref in 1..K: relative to list v − ref
// adds run to the record's end: the first id relative to the node v (signed), then the gaps
// less one, as Link2 (codecs/nybble_gaps.h). List v = (list v − ref without the elements at the
// deleted indices) ∪ adds.
//
// Invariants (checked when loading): 1 ≤ K ≤ kMaxLink3Window, 0 ≤ L ≤ kMaxLink3Chain;
// ref ≤ min(K, v); chain(v) ≤ L; del_count ≤ the representative's length and every deleted
// index below it; adds are ids below node_count, none among the representative's kept
// elements; every record's codes end exactly at its end; the body ends with the data.
// With deferred checks (adjacency_codec.h) loading checks up to the starts and the data's
// length (and its padding, unless paged: no decode reads the padding, and a paged load would
// fetch the last part for it; CheckAll checks it); Decode checks the records of the chain it
// follows, Degree decodes a list the first time (once those decodes reach an eighth of the
// arcs, CheckAll instead), a scan checks as Check does. A paged graph (LoadPaged) also reads its bytes as they are needed:
// loading fetches the parts holding the parameters, tables and the starts' headers; a decode,
// the parts holding its chain's starts and records; a scan or CheckAll, every part, record by
// record when the pages have a budget (codecs/paged_bytes.h: each call, and each record of a
// pass, begins a use).
//
// A record format F provides (all positions in its units; `data` is the stream's bytes):
//   static constexpr absl::string_view kName;      the registered codec name
//   static constexpr int kUnitBits;               4 or 1
//   static absl::StatusOr<F> ParseTables(LittleEndianReader*);  the tables; DataLossError
//   void AppendTables(std::vector<uint8_t>*) const;
//   uint64_t TableBits() const;
//   bool ReadRef(data, begin, end, uint64_t* ref, uint64_t* after) const;  non-empty record
//   bool ApplyRecord(bool relative, uint32_t node, uint32_t node_count, data, begin, end,
//                    std::vector<uint32_t>* list, uint64_t* adds_begin) const;
//       rebuilds the list in place from the record after its ref: *list holds the
//       representative (relative) or nothing (absolute); false if corrupt (Decode)
//   bool ReadFields(bool relative, uint32_t node, uint32_t node_count, data, begin, end,
//                   size_t representative_size, RecordFields* fields, uint64_t* adds_begin) const;
//       reads the record after its ref into *fields (reference_lists.h; no deletes when
//       absolute) for RebuildList; false if corrupt (the sequential scan and the load's check)
//   int64_t DegreeChange(bool relative, data, begin, end) const;
//       |adds| − del_count of a checked record, from after its ref
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/adjacency_codec.h"
#include "codecs/list_starts.h"
#include "codecs/little_endian.h"
#include "codecs/paged_bytes.h"
#include "codecs/reference_lists.h"
#include "codecs/zeroed_array.h"

namespace crawldb::codecs {

// Units of a reference graph's records, by component.
struct ReferenceTally {
  uint64_t refs = 0;
  uint64_t deletes = 0;
  uint64_t adds = 0;
};

template <typename Format>
class ReferenceGraph final : public EncodedGraph {
 public:
  // window:u16 max_chain:u8 node_count:u32 data_length:u32.
  static constexpr uint64_t kParameterBits = 16 + 8 + 32 + 32;

  // InvalidArgumentError "<name>: K = …" unless 1 ≤ K ≤ kMaxLink3Window and L ≤ kMaxLink3Chain.
  static absl::Status CheckOptions(const AdjacencyCodecOptions& options) {
    if (options.window < 1 || options.window > kMaxLink3Window ||
        options.max_chain > kMaxLink3Chain) {
      return absl::InvalidArgumentError(absl::StrCat(
          Name(), ": K = ", options.window, ", L = ", options.max_chain, "; K must be in [1, ",
          kMaxLink3Window, "] and L in [0, ", kMaxLink3Chain, "]"));
    }
    return absl::OkStatus();
  }

  // From an encoder, which also gives the counts a load would find by checking.
  ReferenceGraph(Format format, uint32_t window, uint32_t max_chain, uint32_t node_count,
                 ListStarts starts, std::vector<uint8_t> data, uint64_t data_length,
                 uint64_t arc_count, const ReferenceTally& tally)
      : format_(std::move(format)),
        window_(window),
        max_chain_(max_chain),
        node_count_(node_count),
        arc_count_(arc_count),
        starts_(std::move(starts)),
        owned_data_(std::move(data)),
        data_(owned_data_),
        data_length_(data_length),
        tally_(tally) {}

  // Checks and loads a body (the grammar above).
  static absl::StatusOr<std::unique_ptr<EncodedGraph>> Load(absl::Span<const uint8_t> body) {
    return LoadBody(body, std::nullopt);
  }

  // Loads a body with deferred checks (adjacency_codec.h).
  static absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadDeferred(absl::Span<const uint8_t> body,
                                                                    uint64_t arc_count) {
    return LoadBody(body, arc_count);
  }

  // Loads the body that starts at byte `body_offset` of `pages` and ends with them, paged, with
  // deferred checks (adjacency_codec.h).
  static absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadPaged(
      std::shared_ptr<const PagedBytes> pages, uint64_t body_offset, uint64_t arc_count) {
    const absl::Span<const uint8_t> body = pages->bytes().subspan(body_offset);
    // The parameters and the tables, from a prefix of the body that grows until it holds them
    // (their size is known once they are read).
    absl::StatusOr<Header> header;
    size_t header_bytes = 0;
    for (uint64_t prefix = 4 << 10;; prefix *= 4) {
      prefix = std::min<uint64_t>(prefix, body.size());
      if (!pages->Ensure(body_offset, body_offset + prefix)) return pages->failure();
      LittleEndianReader in(body.subspan(0, prefix));
      header = ReadHeader(&in);
      header_bytes = in.position();
      if (header.ok() || prefix == body.size()) break;
    }
    if (!header.ok()) return header.status();
    uint64_t starts_end = 0;
    absl::StatusOr<ListStarts> starts = ListStarts::ParseDeferred(
        *pages, body_offset + header_bytes, header->node_count, header->data_length, &starts_end);
    if (!starts.ok()) {
      return starts.status().code() == absl::StatusCode::kDataLoss
                 ? Corrupt(starts.status().message())
                 : starts.status();
    }
    const uint64_t data_bits = uint64_t{header->data_length} * Format::kUnitBits;
    const uint64_t data_bytes = (data_bits + 7) / 8;
    const uint64_t remaining = pages->size() - starts_end;
    if (remaining != data_bytes) {
      return Corrupt(absl::StrCat("the data takes ", remaining, " bytes; ", data_bits,
                                  " bits need ", data_bytes));
    }
    const absl::Span<const uint8_t> data = pages->bytes().subspan(starts_end);
    auto graph = std::make_unique<ReferenceGraph>(*std::move(header->format), header->window,
                                                  header->max_chain, header->node_count,
                                                  *std::move(starts), std::vector<uint8_t>(),
                                                  header->data_length, arc_count, ReferenceTally());
    graph->data_ = data;
    graph->data_offset_ = starts_end;
    graph->body_offset_ = body_offset;
    graph->pages_ = std::move(pages);
    graph->MakeDeferred();
    return graph;
  }

  absl::string_view codec() const override { return Format::kName; }
  uint32_t size() const override { return node_count_; }
  uint64_t arc_count() const override { return arc_count_; }

  uint32_t Degree(uint32_t node) const override {
    if (deferred_ && !all_sound_.load(std::memory_order_acquire) && !NodeChecked(node)) {
      // Checking a list decodes its chain again for each node of it: once the degrees asked
      // for have decoded an eighth of the arcs, one pass checks every list (CheckAll) instead,
      // which costs about what decoding half of them did. A statement that stops just past
      // that point pays about five times its decodes (on cnr-2000, the lengths of 1,731 lists
      // cost 27 M instructions, and 200 M with the pass at a 64th); one over every list, about
      // 0.7 times (Wikispeedia: 33.2 M -> 26.6 M; cnr-2000: 2.13 G -> 1.52 G). Unless that
      // pass found every list sound (a corrupt list elsewhere, a part unread), the lists are
      // checked one by one again, and the pass is tried again only after another eighth (a
      // part that cannot be read would otherwise be read again at every degree).
      if (degree_decoded_arcs_.load(std::memory_order_relaxed) >= arc_count_ / 8) {
        CheckAll().IgnoreError();  // status() reports what it found
        if (!all_sound_.load(std::memory_order_acquire)) {
          degree_decoded_arcs_.store(0, std::memory_order_relaxed);
        }
      }
      if (!all_sound_.load(std::memory_order_acquire)) {
        std::vector<uint32_t> list;
        Decode(node, &list);  // Checks the chain, so that the walk below is safe next time.
        degree_decoded_arcs_.fetch_add(list.size() + 1, std::memory_order_relaxed);
        return static_cast<uint32_t>(list.size());
      }
    }
    // |list v| = |representative| − del_count + |adds|, down the chain (checked: its records
    // are sound, though their parts may have to be read again).
    if (pages_ != nullptr) pages_->BeginUse();
    int64_t degree = 0;
    for (uint32_t depth = 0; depth <= max_chain_; ++depth) {
      ListStarts::Range range;
      if (!starts_.GetChecked(node, &range) || !EnsureData(range.begin, range.end)) return 0;
      if (range.begin == range.end) break;
      uint64_t ref;
      uint64_t after;
      format_.ReadRef(data_, range.begin, range.end, &ref, &after);
      degree += format_.DegreeChange(ref != 0, data_, after, range.end);
      if (ref == 0) break;
      node -= static_cast<uint32_t>(ref);
    }
    return static_cast<uint32_t>(degree);
  }

  void Decode(uint32_t node, std::vector<uint32_t>* out) const override {
    if (pages_ != nullptr) pages_->BeginUse();
    const Outcome outcome = DecodeChecked(node, out);
    if (outcome == Outcome::kDecoded) {
      if (deferred_) MarkNodeChecked(node);
      return;
    }
    out->clear();
    // A part that could not be read is pages_->failure(), which status() reports.
    if (outcome == Outcome::kCorrupt) ReportCorrupt(NodeProblem(node));
  }

  std::unique_ptr<ListScanner> Scan() const override { return std::make_unique<Scanner>(this); }

  absl::Status CheckAll() const override {
    if (!deferred_) return status();
    std::lock_guard<std::mutex> lock(check_mutex_);
    if (!all_checked_.load(std::memory_order_relaxed)) {
      absl::Status starts;
      if (!PrepareFullPass(&starts)) return ReadFailure();  // Tried again next time.
      if (pages_ != nullptr && !data_.empty()) {            // Not checked at load (LoadPaged).
        if (!pages_->Ensure(pages_->size() - 1, pages_->size())) return ReadFailure();
        if (!PaddingIsZero(data_, uint64_t{data_length_} * Format::kUnitBits)) {
          ReportCorrupt(absl::StrCat(Name(), ": nonzero padding after the data"));
        }
      }
      if (!starts.ok()) {
        all_checked_.store(true, std::memory_order_release);
        return status();
      }
      Checks checks;
      if (absl::Status status = CheckLists(&checks); !status.ok()) {
        if (Unread()) return ReadFailure();  // Tried again next time.
        ReportCorrupt(std::string(status.message()));
      } else if (checks.arcs != arc_count_) {
        ReportCorrupt(absl::StrCat(Name(), ": the lists hold ", checks.arcs, " arcs; ", arc_count_,
                                   " were recorded"));
      }
      tally_ = checks.tally;
      if (status().ok()) all_sound_.store(true, std::memory_order_release);
      all_checked_.store(true, std::memory_order_release);
    }
    return status();
  }

  absl::Status ReadFailure() const override {
    return pages_ == nullptr ? absl::OkStatus() : pages_->failure();
  }
  void ClearReadFailure() const override {
    if (pages_ != nullptr) pages_->ClearFailure();
  }

  void SetMemoryBudget(uint64_t bytes) const override {
    if (pages_ != nullptr) pages_->SetBudget(bytes);
  }

  uint64_t MemoryBytes() const override {
    const uint64_t checked_bits = deferred_ ? (uint64_t{node_count_} + 63) / 64 * 8 : 0;
    if (pages_ != nullptr) return pages_->present_bytes() + checked_bits;
    return starts_.SizeInBits() / 8 + data_.size() + checked_bits;
  }

  AdjacencySizeBits SizeBits() const override {
    // The tally, with deferred checks; a corrupt graph's counts stop at its fault.
    CheckAll().IgnoreError();
    AdjacencySizeBits bits;
    bits.header = EnvelopeBits(Format::kName) + kParameterBits;
    bits.tables = format_.TableBits();
    bits.starts = starts_.SizeInBits();
    bits.refs = Format::kUnitBits * tally_.refs;
    bits.deletes = Format::kUnitBits * tally_.deletes;
    // The adds take the rest of the data, with the padding that ends it on a byte (so that
    // Total() is the serialized size even when a fault stopped the tally).
    bits.adds = 8 * uint64_t{data_.size()} - bits.refs - bits.deletes;
    return bits;
  }

 private:
  // The body's parameters and tables.
  struct Header {
    uint16_t window;
    uint8_t max_chain;
    uint32_t node_count;
    uint32_t data_length;
    std::optional<Format> format;
  };
  static absl::StatusOr<Header> ReadHeader(LittleEndianReader* in) {
    Header header;
    if (!in->Read(&header.window) || !in->Read(&header.max_chain) ||
        !in->Read(&header.node_count) || !in->Read(&header.data_length)) {
      return Corrupt("truncated header");
    }
    if (header.window < 1 || header.window > kMaxLink3Window || header.max_chain > kMaxLink3Chain) {
      return Corrupt(
          absl::StrCat("K = ", header.window, ", L = ", int{header.max_chain}, " out of range"));
    }
    absl::StatusOr<Format> format = Format::ParseTables(in);
    if (!format.ok()) return Corrupt(format.status().message());
    header.format.emplace(*std::move(format));
    return header;
  }

  static absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadBody(
      absl::Span<const uint8_t> body, std::optional<uint64_t> deferred_arc_count) {
    LittleEndianReader in(body);
    absl::StatusOr<Header> header = ReadHeader(&in);
    if (!header.ok()) return header.status();
    const uint32_t n = header->node_count;
    const uint32_t data_length = header->data_length;
    absl::StatusOr<ListStarts> starts = ListStarts::Parse(&in, n, data_length);
    if (!starts.ok()) return Corrupt(starts.status().message());
    const uint64_t data_bits = uint64_t{data_length} * Format::kUnitBits;
    const uint64_t data_bytes = (data_bits + 7) / 8;
    if (in.remaining() != data_bytes) {
      return Corrupt(absl::StrCat("the data takes ", in.remaining(), " bytes; ", data_bits,
                                  " bits need ", data_bytes));
    }
    absl::Span<const uint8_t> data;
    in.ReadBytes(data_bytes, &data);
    if (!PaddingIsZero(data, data_bits)) return Corrupt("nonzero padding after the data");
    auto graph = std::make_unique<ReferenceGraph>(
        *std::move(header->format), header->window, header->max_chain, n, *std::move(starts),
        std::vector<uint8_t>(data.begin(), data.end()), data_length, 0, ReferenceTally());
    if (deferred_arc_count.has_value()) {
      graph->arc_count_ = *deferred_arc_count;
      graph->MakeDeferred();
      return graph;
    }
    Checks checks;
    if (absl::Status status = graph->CheckLists(&checks); !status.ok()) return status;
    graph->arc_count_ = checks.arcs;
    graph->tally_ = checks.tally;
    return graph;
  }

  static std::string Name() { return std::string(Format::kName); }

  void MakeDeferred() {
    deferred_ = true;
    checked_nodes_ = ZeroedArray<uint64_t>((uint64_t{node_count_} + 63) / 64);
  }

  // Makes data units [begin, end) readable, with the 8 bytes after them that a bit reader may
  // peek at; false when a part could not be read.
  bool EnsureData(uint64_t begin, uint64_t end) const {
    if (pages_ == nullptr) return true;
    return pages_->Ensure(data_offset_ + begin * Format::kUnitBits / 8,
                          data_offset_ + (end * Format::kUnitBits + 7) / 8 + 8);
  }

  // Before a pass over every list (a scan, CheckAll) of a deferred graph: every part read and
  // the starts checked whole (a sequential pass trusts their lengths). False when a part could
  // not be read (ReadFailure() says why, and nothing is corrupt for it); else the starts'
  // DataLossError, reported, or OK.
  // With a budget, the pass reads the parts as it goes instead (Cursor).
  bool PrepareFullPass(absl::Status* starts) const {
    if (pages_ != nullptr && !pages_->bounded()) {
      pages_->BeginUse();
      if (!pages_->EnsureAll()) return false;
    }
    *starts = starts_.CheckRecords();
    if (!starts->ok() && Unread()) return false;
    if (!starts->ok()) ReportCorrupt(std::string(starts->message()));
    return true;
  }

  static absl::Status Corrupt(absl::string_view what) {
    return absl::DataLossError(absl::StrCat(Name(), ": ", what));
  }

  // The bits of `data` from bit `bits` on (most significant bit of each byte first for bit
  // streams, the high half for nybble streams: both are the bits that follow the stream) are 0.
  static bool PaddingIsZero(absl::Span<const uint8_t> data, uint64_t bits) {
    const unsigned used = bits % 8;
    if (used == 0) return true;
    const uint8_t last = data.back();
    return Format::kUnitBits == 4 ? (last >> 4) == 0 : (last & (0xFF >> used)) == 0;
  }

  // What Check() tracks while decoding.
  struct Checks {
    std::vector<uint8_t> chain;  // chain(v) of every node decoded so far.
    uint64_t arcs = 0;
    ReferenceTally tally;
  };

  static std::string NodeProblem(uint32_t node) {
    return absl::StrCat(Name(), ": the record of node ", node, " is corrupt");
  }

  // Decodes every list once, checking every invariant, and counts the arcs and the units of
  // each component into *checks: a full load's last step.
  // The starts checked and every part read (PrepareFullPass) first.
  absl::Status CheckLists(Checks* checks) const {
    checks->chain.resize(node_count_);
    Cursor cursor(this);
    for (uint32_t v = 0; v < node_count_; ++v) {
      if (!cursor.Advance(checks)) {
        return Unread() ? ReadFailure() : absl::DataLossError(NodeProblem(v));
      }
    }
    return absl::OkStatus();
  }

  enum class Outcome { kDecoded, kCorrupt, kUnread };

  // Decode, checking the records of the chain it follows (what Check verifies of them); kCorrupt
  // if one is corrupt, kUnread if a part could not be read.
  Outcome DecodeChecked(uint32_t node, std::vector<uint32_t>* out) const {
    // The chain from `node` back to its absolute (or empty) record, then the records applied
    // from there forward.
    struct Step {
      uint32_t node;
      bool relative;
      uint64_t after_ref;
      uint64_t end;
    };
    Step chain[kMaxLink3Chain + 1];
    uint32_t depth = 0;
    for (;; ++depth) {
      ListStarts::Range range;
      if (!starts_.GetChecked(node, &range)) return Unread() ? Outcome::kUnread : Outcome::kCorrupt;
      if (!EnsureData(range.begin, range.end)) return Outcome::kUnread;
      uint64_t ref = 0;
      uint64_t after_ref = range.end;
      if (range.begin != range.end &&
          !format_.ReadRef(data_, range.begin, range.end, &ref, &after_ref)) {
        return Outcome::kCorrupt;
      }
      if (ref > window_ || ref > node) return Outcome::kCorrupt;
      chain[depth] = {node, ref != 0, after_ref, range.end};
      if (ref == 0) break;
      if (depth == max_chain_) return Outcome::kCorrupt;  // A chain longer than L.
      node -= static_cast<uint32_t>(ref);
    }
    out->clear();
    for (uint32_t i = depth + 1; i-- > 0;) {
      uint64_t adds_begin;
      if (!format_.ApplyRecord(chain[i].relative, chain[i].node, node_count_, data_,
                               chain[i].after_ref, chain[i].end, out, &adds_begin)) {
        return Outcome::kCorrupt;
      }
    }
    return Outcome::kDecoded;
  }

  // Whether a part could not be read (since the owner last cleared the failure).
  bool Unread() const { return pages_ != nullptr && !pages_->failure().ok(); }

  // Deferred checks: whether Decode has checked the chain of `node`.
  bool NodeChecked(uint32_t node) const {
    return (std::atomic_ref(checked_nodes_[node / 64]).load(std::memory_order_relaxed) >>
            (node % 64)) &
           1;
  }
  void MarkNodeChecked(uint32_t node) const {
    std::atomic_ref(checked_nodes_[node / 64])
        .fetch_or(uint64_t{1} << (node % 64), std::memory_order_relaxed);
  }

  // Decodes the lists in node order, keeping the last K + 1 of them, so that a representative
  // (at most K back) is at hand instead of decoded again: each list is rebuilt out of place
  // from its representative, or is its adds.
  class Cursor {
   public:
    explicit Cursor(const ReferenceGraph* graph)
        : graph_(graph),
          lengths_(graph->starts_),
          ring_(graph->window_ + 1),
          sizes_(graph->window_ + 1),
          ring_size_(graph->window_ + 1),
          slot_(graph->window_) {
      if (graph->pages_ != nullptr && graph->pages_->bounded()) lengths_.ReadPaged();
    }

    uint32_t node() const { return node_; }
    absl::Span<const uint32_t> last() const { return {ring_[slot_].data(), sizes_[slot_]}; }

    // Decodes list node() (< size()) into last() and moves to the next node. With `checks`,
    // also verifies the ref and the chain and tallies the record; false if corrupt.
    bool Advance(Checks* checks) {
      const uint32_t v = node_++;
      // With a budget: this record's starts and data, read again if they were dropped.
      const bool bounded = graph_->pages_ != nullptr && graph_->pages_->bounded();
      if (bounded) graph_->pages_->BeginUse();
      const uint64_t begin = position_;
      const uint64_t end = begin + lengths_.Next();
      if (bounded && (lengths_.unread() || !graph_->EnsureData(begin, end))) return false;
      position_ = end;
      slot_ = slot_ + 1 == ring_size_ ? 0 : slot_ + 1;
      std::vector<uint32_t>& list = ring_[slot_];
      size_t& size = sizes_[slot_];
      size = 0;
      if (begin == end) {
        if (checks != nullptr) checks->chain[v] = 0;
        return true;
      }
      uint64_t ref;
      uint64_t after_ref;
      if (!graph_->format_.ReadRef(graph_->data_, begin, end, &ref, &after_ref)) return false;
      if (checks != nullptr) {
        if (ref > graph_->window_ || ref > v) return false;
        const uint32_t chain = ref == 0 ? 0 : checks->chain[v - ref] + 1u;
        if (chain > graph_->max_chain_) return false;
        checks->chain[v] = static_cast<uint8_t>(chain);
      }
      const size_t from = slot_ >= ref ? slot_ - ref : slot_ + ring_size_ - ref;
      const absl::Span<const uint32_t> representative =
          ref == 0 ? absl::Span<const uint32_t>()
                   : absl::Span<const uint32_t>(ring_[from].data(), sizes_[from]);
      uint64_t adds_begin;
      if (!graph_->format_.ReadFields(ref != 0, v, graph_->node_count_, graph_->data_, after_ref,
                                      end, representative.size(), &fields_, &adds_begin)) {
        return false;
      }
      if (ref == 0) {
        list.swap(fields_.adds);  // The list is its adds; the old list's memory serves next.
        size = list.size();
      } else {
        size = representative.size() - fields_.deletes.size() + fields_.adds.size();
        if (list.size() < size) list.resize(size);
        if (!RebuildList(representative, fields_.deletes, fields_.adds, list.data())) return false;
      }
      if (checks != nullptr) {
        checks->arcs += size;
        checks->tally.refs += after_ref - begin;
        checks->tally.deletes += adds_begin - after_ref;
        checks->tally.adds += end - adds_begin;
      }
      return true;
    }

   private:
    const ReferenceGraph* graph_;
    ListStarts::LengthReader lengths_;
    // List v in slot v mod (K + 1): the first sizes_[slot] ids of the slot's vector.
    std::vector<std::vector<uint32_t>> ring_;
    std::vector<size_t> sizes_;
    size_t ring_size_;  // K + 1.
    size_t slot_;       // The slot of list node() − 1, v mod (K + 1) for list v.
    RecordFields fields_;
    uint32_t node_ = 0;
    uint64_t position_ = 0;  // Where the record of node_ begins.
  };

  // With deferred checks and lists left unchecked, the scan checks as CheckLists does and ends
  // before a corrupt list.
  class Scanner final : public ListScanner {
   public:
    explicit Scanner(const ReferenceGraph* graph) : graph_(graph), cursor_(graph) {
      // Paged without a bound: every part first (some may have been dropped under an earlier
      // budget); with one, the cursor reads them as it goes.
      if (graph->pages_ != nullptr && !graph->pages_->bounded()) {
        graph->pages_->BeginUse();
        if (!graph->pages_->EnsureAll()) {
          stopped_ = true;
          return;
        }
      }
      if (graph->deferred_ && !graph->all_sound_.load(std::memory_order_acquire)) {
        // Nothing to scan when a part is unread (ReadFailure()) or the starts are corrupt.
        absl::Status starts;
        if (!graph->PrepareFullPass(&starts) || !starts.ok()) {
          stopped_ = true;
          return;
        }
        checks_ = std::make_unique<Checks>();
        checks_->chain.resize(graph->node_count_);
      }
    }
    bool Next(absl::Span<const uint32_t>* list) override {
      if (stopped_ || cursor_.node() == graph_->node_count_) return false;
      const uint32_t node = cursor_.node();
      if (!cursor_.Advance(checks_.get())) {
        if (!graph_->Unread()) graph_->ReportCorrupt(NodeProblem(node));
        stopped_ = true;
        return false;
      }
      *list = cursor_.last();
      return true;
    }

   private:
    const ReferenceGraph* graph_;
    Cursor cursor_;
    std::unique_ptr<Checks> checks_;  // Only while lists are unchecked.
    bool stopped_ = false;            // The graph could not be scanned.
  };

  void AppendBody(std::vector<uint8_t>* out) const override {
    if (pages_ != nullptr) {
      // The stored body, part by part; one that cannot be read ends it (no load accepts it).
      const uint64_t body_end = pages_->size();
      for (uint64_t at = body_offset_; at < body_end;) {
        const uint64_t end =
            std::min(body_end, (at / pages_->part_bytes() + 1) * pages_->part_bytes());
        pages_->BeginUse();
        if (!pages_->Ensure(at, end)) return;
        out->insert(out->end(), pages_->bytes().begin() + static_cast<ptrdiff_t>(at),
                    pages_->bytes().begin() + static_cast<ptrdiff_t>(end));
        at = end;
      }
      return;
    }
    AppendLittleEndian(static_cast<uint16_t>(window_), out);
    out->push_back(static_cast<uint8_t>(max_chain_));
    AppendLittleEndian(node_count_, out);
    AppendLittleEndian(static_cast<uint32_t>(data_length_), out);
    format_.AppendTables(out);
    starts_.AppendTo(out);
    out->insert(out->end(), data_.begin(), data_.end());
  }

  Format format_;
  uint32_t window_;     // K.
  uint32_t max_chain_;  // L.
  uint32_t node_count_;
  uint64_t arc_count_;  // With deferred checks, as recorded until CheckAll() confirms it.
  ListStarts starts_;   // Paged graphs: in place in pages_.
  std::vector<uint8_t> owned_data_;
  // ceil(data_length_ · unit / 8) bytes: owned_data_, or in place in pages_.
  absl::Span<const uint8_t> data_;
  std::shared_ptr<const PagedBytes> pages_;  // Paged graphs: the serialized graph.
  uint64_t data_offset_ = 0;                 // Paged graphs: where data_ begins in pages_,
  uint64_t body_offset_ = 0;                 // and the body.
  uint64_t data_length_;                     // Units, below 2^32.
  // Units of the records by component, padding excluded; with deferred checks, set by
  // CheckAll() (under check_mutex_, before all_checked_).
  mutable ReferenceTally tally_;
  bool deferred_ = false;  // Loaded with deferred checks.
  mutable std::mutex check_mutex_;
  mutable std::atomic<bool> all_checked_{false};  // Deferred: CheckAll() has run,
  mutable std::atomic<bool> all_sound_{false};    // and found every list sound.
  // Deferred: one bit per node whose chain Decode has checked, read and set through
  // std::atomic_ref (a point query maps only the page of its node's bit).
  mutable ZeroedArray<uint64_t> checked_nodes_;
  // Deferred: arcs (plus one per list) Degree decoded to check lists before CheckAll().
  mutable std::atomic<uint64_t> degree_decoded_arcs_{0};
};

}  // namespace crawldb::codecs
