#include "codecs/link2.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/list_starts.h"
#include "codecs/little_endian.h"
#include "codecs/nybble.h"
#include "codecs/nybble_gaps.h"

namespace crawldb::codecs {
namespace {

constexpr absl::string_view kName = "link2";

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("link2: ", what));
}

class Link2Graph final : public EncodedGraph {
 public:
  Link2Graph(uint32_t node_count, uint64_t arc_count, ListStarts starts, std::vector<uint8_t> data,
             uint64_t data_nybbles)
      : node_count_(node_count),
        arc_count_(arc_count),
        starts_(std::move(starts)),
        data_(std::move(data)),
        data_nybbles_(data_nybbles) {}

  absl::string_view codec() const override { return kName; }
  uint32_t size() const override { return node_count_; }
  uint64_t arc_count() const override { return arc_count_; }

  uint32_t Degree(uint32_t node) const override {
    const ListStarts::Range range = starts_.Get(node);
    return static_cast<uint32_t>(CountNybbleCodes(data_, range.begin, range.end));
  }

  void Decode(uint32_t node, std::vector<uint32_t>* out) const override {
    out->clear();
    const ListStarts::Range range = starts_.Get(node);
    ReadList(node, range.begin, range.end, out);
  }

  std::unique_ptr<ListScanner> Scan() const override { return std::make_unique<Scanner>(this); }

  AdjacencySizeBits SizeBits() const override {
    AdjacencySizeBits bits;
    bits.header = EnvelopeBits(kName) + 64;
    bits.starts = starts_.SizeInBits();
    bits.adds = 8 * uint64_t{data_.size()};
    return bits;
  }

  // Appends the list of `node`, nybbles [begin, end), to *out; false if they are corrupt.
  bool ReadList(uint32_t node, uint64_t begin, uint64_t end, std::vector<uint32_t>* out) const {
    return ReadGapList(node, node_count_, data_, begin, end, out);
  }

  // Decodes every list once, checking it: LoadLink2's last step.
  absl::Status Check() {
    arc_count_ = 0;
    std::vector<uint32_t> list;
    uint64_t position = 0;
    ListStarts::LengthReader lengths(starts_);
    for (uint32_t v = 0; v < node_count_; ++v) {
      const uint64_t end = position + lengths.Next();
      list.clear();
      if (!ReadList(v, position, end, &list)) {
        return Corrupt(absl::StrCat("the list of node ", v, " is corrupt"));
      }
      arc_count_ += list.size();
      position = end;
    }
    return absl::OkStatus();
  }

 private:
  class Scanner final : public ListScanner {
   public:
    explicit Scanner(const Link2Graph* graph) : graph_(graph), lengths_(graph->starts_) {}
    bool Next(absl::Span<const uint32_t>* list) override {
      if (node_ == graph_->node_count_) return false;
      const uint64_t end = position_ + lengths_.Next();
      list_.clear();
      graph_->ReadList(node_, position_, end, &list_);
      position_ = end;
      ++node_;
      *list = list_;
      return true;
    }

   private:
    const Link2Graph* graph_;
    ListStarts::LengthReader lengths_;
    uint32_t node_ = 0;
    uint64_t position_ = 0;  // Nybble where the list of node_ begins.
    std::vector<uint32_t> list_;
  };

  void AppendBody(std::vector<uint8_t>* out) const override {
    AppendLittleEndian(node_count_, out);
    AppendLittleEndian(static_cast<uint32_t>(data_nybbles_), out);
    starts_.AppendTo(out);
    out->insert(out->end(), data_.begin(), data_.end());
  }

  uint32_t node_count_;
  uint64_t arc_count_;
  ListStarts starts_;
  std::vector<uint8_t> data_;  // ceil(data_nybbles_ / 2) bytes.
  uint64_t data_nybbles_;      // Below 2^32.
};

}  // namespace

absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink2(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions& options) {
  const uint32_t n = graph.size();
  NybbleWriter writer;
  std::vector<uint32_t> lengths(n);
  for (uint32_t v = 0; v < n; ++v) {
    const uint64_t before = writer.nybble_length();
    WriteGapList(v, graph.list(v), &writer);
    if (writer.nybble_length() > UINT32_MAX) {
      return absl::InvalidArgumentError("link2: the lists take 2^32 nybbles or more");
    }
    lengths[v] = static_cast<uint32_t>(writer.nybble_length() - before);
  }
  absl::StatusOr<ListStarts> starts = BuildLinkStarts(lengths, options.partitions);
  if (!starts.ok()) return starts.status();
  const uint64_t data_nybbles = writer.nybble_length();
  return std::make_unique<Link2Graph>(n, graph.arc_count(), *std::move(starts), writer.Finish(),
                                      data_nybbles);
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink2(absl::Span<const uint8_t> body) {
  LittleEndianReader in(body);
  uint32_t n;
  uint32_t data_nybbles;
  if (!in.Read(&n) || !in.Read(&data_nybbles)) return Corrupt("truncated header");
  absl::StatusOr<ListStarts> starts = ListStarts::Parse(&in, n, data_nybbles);
  if (!starts.ok()) return Corrupt(starts.status().message());
  const uint64_t data_bytes = (uint64_t{data_nybbles} + 1) / 2;
  if (in.remaining() != data_bytes) {
    return Corrupt(absl::StrCat("the data takes ", in.remaining(), " bytes; ", data_nybbles,
                                " nybbles need ", data_bytes));
  }
  absl::Span<const uint8_t> data;
  in.ReadBytes(data_bytes, &data);
  if ((data_nybbles & 1) && (data.back() >> 4) != 0) return Corrupt("nonzero padding nybble");
  auto graph = std::make_unique<Link2Graph>(
      n, 0, *std::move(starts), std::vector<uint8_t>(data.begin(), data.end()), data_nybbles);
  if (absl::Status status = graph->Check(); !status.ok()) return status;
  return graph;
}

}  // namespace crawldb::codecs
