#include "codecs/link3.h"

#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "codecs/list_starts.h"
#include "codecs/little_endian.h"
#include "codecs/nybble.h"
#include "codecs/nybble_gaps.h"
#include "codecs/reference_graph.h"

namespace crawldb::codecs {
namespace {

// Nybbles of del_count and the del_gaps for these indices.
uint64_t DeletesLength(absl::Span<const uint32_t> deletes) {
  uint64_t length = NybbleLength(deletes.size());
  uint64_t read = 0;
  for (uint32_t index : deletes) {
    length += NybbleLength(index - read);
    read = uint64_t{index} + 1;
  }
  return length;
}

void WriteDeletes(absl::Span<const uint32_t> deletes, NybbleWriter* out) {
  out->WriteNybble(deletes.size());
  uint64_t read = 0;
  for (uint32_t index : deletes) {
    out->WriteNybble(index - read);
    read = uint64_t{index} + 1;
  }
}

// The record format of link3 (reference_graph.h): every field a nybble code, no tables.
class NybbleRecords {
 public:
  static constexpr absl::string_view kName = "link3";
  static constexpr int kUnitBits = 4;

  static absl::StatusOr<NybbleRecords> ParseTables(LittleEndianReader*) { return NybbleRecords(); }
  void AppendTables(std::vector<uint8_t>*) const {}
  uint64_t TableBits() const { return 0; }

  bool ReadRef(absl::Span<const uint8_t> data, uint64_t begin, uint64_t end, uint64_t* ref,
               uint64_t* after) const {
    NybbleReader in(data, end);
    in.Seek(begin);
    *ref = in.ReadNybble();
    *after = in.position();
    return in.ok();
  }

  bool ApplyRecord(bool relative, uint32_t node, uint32_t node_count,
                   absl::Span<const uint8_t> data, uint64_t begin, uint64_t end,
                   std::vector<uint32_t>* list, uint64_t* adds_begin) const {
    *adds_begin = begin;
    if (relative) {
      NybbleReader in(data, end);
      in.Seek(begin);
      const uint64_t count = in.ReadNybble();
      const auto next_gap = [&in](uint64_t* gap) {
        *gap = in.ReadNybble();
        return in.ok();
      };
      if (!in.ok() || !DeleteIndices(count, next_gap, list)) return false;
      *adds_begin = in.position();
    }
    const size_t kept = list->size();
    return ReadGapList(node, node_count, data, *adds_begin, end, list) && MergeAdds(kept, list);
  }

  bool ReadFields(bool relative, uint32_t node, uint32_t node_count, absl::Span<const uint8_t> data,
                  uint64_t begin, uint64_t end, size_t representative_size, RecordFields* fields,
                  uint64_t* adds_begin) const {
    fields->deletes.clear();
    fields->adds.clear();
    *adds_begin = begin;
    if (relative) {
      NybbleReader in(data, end);
      in.Seek(begin);
      const uint64_t count = in.ReadNybble();
      const auto next_gap = [&in](uint64_t* gap) {
        *gap = in.ReadNybble();
        return in.ok();
      };
      if (!in.ok() || !ReadDeletedIndices(count, representative_size, next_gap, &fields->deletes)) {
        return false;
      }
      *adds_begin = in.position();
    }
    return ReadGapList(node, node_count, data, *adds_begin, end, &fields->adds);
  }

  int64_t DegreeChange(bool relative, absl::Span<const uint8_t> data, uint64_t begin,
                       uint64_t end) const {
    int64_t deleted = 0;
    if (relative) {
      NybbleReader in(data, end);
      in.Seek(begin);
      deleted = static_cast<int64_t>(in.ReadNybble());
      for (int64_t k = 0; k < deleted; ++k) in.ReadNybble();
      begin = in.position();
    }
    // Adds are one code each, a code one stop bit.
    return static_cast<int64_t>(CountNybbleCodes(data, begin, end)) - deleted;
  }
};

using Link3Graph = ReferenceGraph<NybbleRecords>;

}  // namespace

absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink3(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions& options) {
  if (absl::Status status = Link3Graph::CheckOptions(options); !status.ok()) return status;
  const uint32_t n = graph.size();
  NybbleWriter writer;
  std::vector<uint32_t> lengths(n);
  ReferenceChooser chooser(options.window, options.max_chain, n);
  ReferenceTally tally;
  for (uint32_t v = 0; v < n; ++v) {
    const absl::Span<const uint32_t> list = graph.list(v);
    if (list.empty()) continue;  // The empty record; chain 0, length 0.
    const uint32_t ref = chooser.Choose(
        graph, v,
        [v](uint32_t r, absl::Span<const uint32_t> deletes, absl::Span<const uint32_t> adds) {
          return NybbleLength(r) + (r == 0 ? 0 : DeletesLength(deletes)) + GapListLength(v, adds);
        });
    const absl::Span<const uint32_t> adds = ref == 0 ? list : chooser.adds();
    const uint64_t before = writer.nybble_length();
    writer.WriteNybble(ref);
    tally.refs += NybbleLength(ref);
    if (ref != 0) {
      WriteDeletes(chooser.deletes(), &writer);
      tally.deletes += DeletesLength(chooser.deletes());
    }
    WriteGapList(v, adds, &writer);
    tally.adds += GapListLength(v, adds);
    if (writer.nybble_length() > UINT32_MAX) {
      return absl::InvalidArgumentError("link3: the records take 2^32 nybbles or more");
    }
    lengths[v] = static_cast<uint32_t>(writer.nybble_length() - before);
  }
  absl::StatusOr<ListStarts> starts = BuildLinkStarts(lengths, options.partitions);
  if (!starts.ok()) return starts.status();
  const uint64_t data_nybbles = writer.nybble_length();
  return std::make_unique<Link3Graph>(NybbleRecords(), options.window, options.max_chain, n,
                                      *std::move(starts), writer.Finish(), data_nybbles,
                                      graph.arc_count(), tally);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3(absl::Span<const uint8_t> body) {
  return Link3Graph::Load(body);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3Deferred(absl::Span<const uint8_t> body,
                                                                uint64_t arc_count) {
  return Link3Graph::LoadDeferred(body, arc_count);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink3Paged(
    std::shared_ptr<const PagedBytes> pages, uint64_t body_offset, uint64_t arc_count) {
  return Link3Graph::LoadPaged(std::move(pages), body_offset, arc_count);
}

}  // namespace crawldb::codecs
