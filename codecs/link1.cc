#include "codecs/link1.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/little_endian.h"

namespace crawldb::codecs {
namespace {

constexpr absl::string_view kName = "link1";

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("link1: ", what));
}

class Link1Graph final : public EncodedGraph {
 public:
  Link1Graph(std::vector<uint32_t> starts, std::vector<uint32_t> ids)
      : starts_(std::move(starts)), ids_(std::move(ids)) {}

  absl::string_view codec() const override { return kName; }
  uint32_t size() const override { return static_cast<uint32_t>(starts_.size() - 1); }
  uint64_t arc_count() const override { return ids_.size(); }
  uint32_t Degree(uint32_t node) const override { return starts_[node + 1] - starts_[node]; }
  void Decode(uint32_t node, std::vector<uint32_t>* out) const override {
    const absl::Span<const uint32_t> list = List(node);
    out->assign(list.begin(), list.end());
  }
  std::unique_ptr<ListScanner> Scan() const override { return std::make_unique<Scanner>(this); }
  AdjacencySizeBits SizeBits() const override {
    AdjacencySizeBits bits;
    bits.header = EnvelopeBits(kName) + 32;
    bits.starts = 32 * uint64_t{starts_.size()};
    bits.adds = 32 * uint64_t{ids_.size()};
    return bits;
  }

  absl::Span<const uint32_t> List(uint32_t node) const {
    return absl::MakeConstSpan(ids_).subspan(starts_[node], starts_[node + 1] - starts_[node]);
  }

 private:
  // Hands out the lists in place: Link1's scan copies nothing.
  class Scanner final : public ListScanner {
   public:
    explicit Scanner(const Link1Graph* graph) : graph_(graph) {}
    bool Next(absl::Span<const uint32_t>* list) override {
      if (node_ == graph_->size()) return false;
      *list = graph_->List(node_++);
      return true;
    }

   private:
    const Link1Graph* graph_;
    uint32_t node_ = 0;
  };

  void AppendBody(std::vector<uint8_t>* out) const override {
    out->reserve(out->size() + 4 * (1 + starts_.size() + ids_.size()));
    AppendLittleEndian(size(), out);
    for (uint32_t start : starts_) AppendLittleEndian(start, out);
    for (uint32_t id : ids_) AppendLittleEndian(id, out);
  }

  std::vector<uint32_t> starts_;  // n + 1 entries, indices into ids_.
  std::vector<uint32_t> ids_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeLink1(AdjacencyListsView graph,
                                                          const AdjacencyCodecOptions&) {
  if (graph.arc_count() > UINT32_MAX) {
    return absl::InvalidArgumentError(
        absl::StrCat("link1: ", graph.arc_count(), " arcs; 32-bit starts hold fewer than 2^32"));
  }
  std::vector<uint32_t> starts(uint64_t{graph.size()} + 1);
  for (uint32_t v = 0; v < graph.size(); ++v) {
    starts[v + 1] = static_cast<uint32_t>(graph.offsets[v + 1]);
  }
  std::vector<uint32_t> ids(graph.targets.begin(), graph.targets.end());
  return std::make_unique<Link1Graph>(std::move(starts), std::move(ids));
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadLink1(absl::Span<const uint8_t> body) {
  LittleEndianReader in(body);
  uint32_t n;
  if (!in.Read(&n)) return Corrupt("truncated node count");
  if (in.remaining() / 4 < uint64_t{n} + 1) return Corrupt("truncated starts");
  std::vector<uint32_t> starts(uint64_t{n} + 1);
  for (uint32_t& start : starts) in.Read(&start);
  if (in.remaining() % 4 != 0 || in.remaining() / 4 != starts[n]) {
    return Corrupt(absl::StrCat("the ids take ", in.remaining(), " bytes; start[n] = ", starts[n],
                                " needs ", 4 * uint64_t{starts[n]}));
  }
  if (starts[0] != 0) return Corrupt("start[0] is not 0");
  std::vector<uint32_t> ids(starts[n]);
  for (uint32_t& id : ids) in.Read(&id);
  for (uint32_t v = 0; v < n; ++v) {
    if (starts[v + 1] < starts[v]) return Corrupt(absl::StrCat("starts decrease at node ", v));
  }
  for (uint32_t v = 0; v < n; ++v) {
    for (uint32_t i = starts[v]; i < starts[v + 1]; ++i) {
      if (ids[i] >= n || (i > starts[v] && ids[i] <= ids[i - 1])) {
        return Corrupt(
            absl::StrCat("the list of node ", v, " has an id out of range or out of order"));
      }
    }
  }
  return std::make_unique<Link1Graph>(std::move(starts), std::move(ids));
}

}  // namespace crawldb::codecs
