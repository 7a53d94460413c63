// Fuzz target: a link table's base, the rows of <t>_graph (extension/links/link_graph_format.h),
// loaded into a LinkStore as the table does.
//
// Input: part:piece… (part 0, the header, first)
// Properties: nothing crashes and every error is a DataLossError (FailedPrecondition for another
// version); a base that loads has two graphs of the same nodes and arcs, which a store lists
// (every node, both directions) and which stored again as parts load to the same graphs; its
// lists, checked whole, are intact or a DataLossError the store's status keeps.
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/adjacency_codec.h"
#include "extension/links/link_graph_format.h"
#include "extension/links/link_store.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {
namespace {

// Nodes listed at most.
constexpr uint32_t kMaxListedNodes = 1 << 12;

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  absl::StatusOr<codecs::AdjacencyLists> out =
      codecs::AdjacencyLists::FromLists({{1, 2, 3}, {0}, {}, {0, 1, 2, 3, 4}, {4}});
  FUZZ_CHECK(out.ok());
  const codecs::AdjacencyLists in = out->Transpose();
  for (absl::string_view codec : {"link1", "link2", "link3", "link3+huff", "bv"}) {
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> out_graph =
        codecs::EncodeAdjacency(absl::string_view(codec.data(), codec.size()), out->view());
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> in_graph =
        codecs::EncodeAdjacency(absl::string_view(codec.data(), codec.size()), in.view());
    FUZZ_CHECK(out_graph.ok() && in_graph.ok());
    for (size_t part_bytes : {size_t{1} << 20, size_t{16}}) {
      std::vector<uint8_t> input;
      for (const std::vector<uint8_t>& part :
           links::GraphParts(**out_graph, **in_graph, part_bytes)) {
        AppendPiece(part, &input);
      }
      seeds.push_back(
          {absl::StrCat(codec == "link3+huff" ? "link3_huff" : codec, "_parts_of_", part_bytes),
           std::move(input)});
    }
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const std::vector<absl::Span<const uint8_t>> parts = input.Pieces();
  absl::StatusOr<links::LoadedGraph> graph = links::LoadGraphParts(parts);
  if (!graph.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(graph.status()) || absl::IsFailedPrecondition(graph.status()));
    return;
  }
  FUZZ_CHECK(graph->out->size() == graph->in->size());
  FUZZ_CHECK(graph->out->arc_count() == graph->in->arc_count());
  const std::vector<std::vector<uint8_t>> stored = links::GraphParts(*graph->out, *graph->in);
  std::vector<absl::Span<const uint8_t>> views(stored.begin(), stored.end());
  absl::StatusOr<links::LoadedGraph> again = links::LoadGraphParts(views);
  FUZZ_CHECK(again.ok() && again->out->Serialize() == graph->out->Serialize() &&
             again->in->Serialize() == graph->in->Serialize());
  links::LinkStore store;
  store.Reset(std::move(graph->out), std::move(graph->in));
  std::vector<uint32_t> list;
  for (uint32_t v = 0; v < std::min(store.node_limit(), kMaxListedNodes); ++v) {
    store.List(links::Direction::kOut, v, &list);
    store.List(links::Direction::kIn, v, &list);
  }
  // Lists are checked as they are read (version 2): a corrupt one shows in the store's status.
  const absl::Status checked = store.CheckBase();
  FUZZ_CHECK(checked.ok() || absl::IsDataLoss(checked));
  FUZZ_CHECK(store.status().ok() == checked.ok());
}

}  // namespace crawldb::fuzz
