// Fuzz target: the reader of LAW's BVGraph files (codecs/bvgraph_files.h), which
// crawldb_import_bvgraph feeds with files from anywhere.
//
// Input: flags:u8 (bit 0: an .offsets file is given) properties:piece graph:piece offsets:rest
// Properties: nothing crashes and every error is a DataLossError; a graph that reads holds
// adjacency lists, which written with the default parameters read back the same.
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/string_view.h"
#include "codecs/adjacency_lists.h"
#include "codecs/bvgraph_files.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_graphs.h"

namespace crawldb::fuzz {
namespace {

bool SameLists(const codecs::AdjacencyLists& a, const codecs::AdjacencyLists& b) {
  if (a.size() != b.size() || a.arc_count() != b.arc_count()) return false;
  for (uint32_t v = 0; v < a.size(); ++v) {
    if (!std::equal(a.list(v).begin(), a.list(v).end(), b.list(v).begin(), b.list(v).end())) {
      return false;
    }
  }
  return true;
}

std::vector<uint8_t> Input(const codecs::BvGraphFiles& files, bool offsets) {
  std::vector<uint8_t> input = {static_cast<uint8_t>(offsets ? 1 : 0)};
  AppendPiece(files.properties, &input);
  AppendPiece(files.graph, &input);
  if (offsets) input.insert(input.end(), files.offsets.begin(), files.offsets.end());
  return input;
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  const codecs::AdjacencyLists web = WebLikeGraph(200);
  codecs::BvGraphParameters no_intervals;
  no_intervals.min_interval_length = 0;
  no_intervals.zeta_k = 1;
  codecs::BvGraphParameters no_window;
  no_window.window_size = 0;
  for (const auto& [name, parameters] :
       {std::pair<std::string, codecs::BvGraphParameters>{"default", {}},
        {"no_intervals_zeta_1", no_intervals},
        {"no_window", no_window}}) {
    absl::StatusOr<codecs::BvGraphFiles> files = codecs::WriteBvGraph(web.view(), parameters);
    FUZZ_CHECK(files.ok());
    seeds.push_back({absl::StrCat("web_200_", name), Input(*files, true)});
    if (name == "default") {
      seeds.push_back({"web_200_no_offsets", Input(*files, false)});
      // The same lists, their components in other codes than the writer's (WebGraph's
      // compressionflags); reading them must fail cleanly or not at all.
      codecs::BvGraphFiles flagged = *files;
      absl::StrReplaceAll({{"compressionflags=",
                            "compressionflags=OUTDEGREES_DELTA|"
                            "RESIDUALS_GAMMA|REFERENCES_UNARY"}},
                          &flagged.properties);
      seeds.push_back({"web_200_compression_flags", Input(flagged, false)});
    }
  }
  absl::StatusOr<codecs::BvGraphFiles> empty =
      codecs::WriteBvGraph(codecs::AdjacencyLists().view(), {});
  FUZZ_CHECK(empty.ok());
  seeds.push_back({"empty", Input(*empty, true)});
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const bool has_offsets = (input.Byte() & 1) != 0;
  const absl::string_view properties = TextOf(input.Piece());
  const absl::Span<const uint8_t> graph = input.Piece();
  std::optional<absl::Span<const uint8_t>> offsets;
  if (has_offsets) offsets = input.Rest();
  absl::StatusOr<codecs::AdjacencyLists> lists = codecs::ReadBvGraph(properties, graph, offsets);
  if (!lists.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(lists.status()));
    return;
  }
  absl::StatusOr<codecs::BvGraphFiles> files = codecs::WriteBvGraph(lists->view(), {});
  FUZZ_CHECK(files.ok());
  absl::StatusOr<codecs::AdjacencyLists> again =
      codecs::ReadBvGraph(files->properties, files->graph, files->offsets);
  FUZZ_CHECK(again.ok() && SameLists(*again, *lists));
}

}  // namespace crawldb::fuzz
