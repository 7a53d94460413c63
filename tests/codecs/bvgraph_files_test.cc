// LAW's BVGraph files (codecs/bvgraph_files.h): golden bytes for a small graph, round trips of
// random graphs under every parameter, pinned errors for bad properties, truncated and flipped
// files that must end in DataLoss or a valid graph, and LAW's own cnr-2000 files: read, written
// again with LAW's parameters, and read back by our reader and by the independent Python decoder
// of tests/python/bvgraph_decoder.py.
#include <unistd.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/bvgraph_files.h"
#include "gtest/gtest.h"
#include "tests/codecs/adjacency_test_support.h"
#include "tests/codecs/cnr2000_arcs.h"
#include "tests/codecs/codec_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::Lists;

using ::crawldb::codecs::testing::BitString;
using ::crawldb::codecs::testing::Cnr2000ArcsPath;
using ::crawldb::codecs::testing::ReadCnr2000;
using ::crawldb::testing::SharedDataPath;

void ExpectSameGraph(const AdjacencyLists& expected, const AdjacencyLists& actual) {
  ASSERT_EQ(actual.size(), expected.size());
  ASSERT_EQ(actual.arc_count(), expected.arc_count());
  for (uint32_t v = 0; v < expected.size(); ++v) {
    ASSERT_EQ(actual.list(v), expected.list(v)) << "node " << v;
  }
}

absl::StatusOr<AdjacencyLists> ReadBack(const BvGraphFiles& files, bool with_offsets = true) {
  return ReadBvGraph(
      files.properties, files.graph,
      with_offsets ? std::optional<absl::Span<const uint8_t>>(files.offsets) : std::nullopt);
}

BvGraphFiles Written(const AdjacencyLists& graph, const BvGraphParameters& parameters = {}) {
  absl::StatusOr<BvGraphFiles> files = WriteBvGraph(graph.view(), parameters);
  EXPECT_TRUE(files.ok()) << files.status();
  return files.ok() ? *std::move(files) : BvGraphFiles();
}

void RoundTrip(const AdjacencyLists& graph, const BvGraphParameters& parameters) {
  const BvGraphFiles files = Written(graph, parameters);
  for (bool with_offsets : {true, false}) {
    absl::StatusOr<AdjacencyLists> read = ReadBack(files, with_offsets);
    ASSERT_TRUE(read.ok()) << read.status();
    ExpectSameGraph(graph, *read);
  }
}

// A graph like a web crawl: ids near the source, runs of consecutive ids, lists copied from a
// recent node with changes, empty lists.
AdjacencyLists RandomGraph(uint32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::vector<uint32_t>> lists(n);
  for (uint32_t v = 0; v < n; ++v) {
    std::vector<uint32_t>& list = lists[v];
    const uint32_t kind = rng() % 8;
    if (kind == 0) continue;
    if (kind <= 3 && v > 0) {
      for (uint32_t id : lists[v - 1 - rng() % std::min<uint32_t>(v, 10)]) {
        if (rng() % 5 != 0) list.push_back(id);
      }
    }
    if (kind == 4) {
      const uint32_t start = static_cast<uint32_t>(rng() % n);
      for (uint32_t id = start; id < std::min(n, start + 2 + static_cast<uint32_t>(rng() % 9));
           ++id)
        list.push_back(id);
    }
    for (uint32_t k = rng() % 6; k > 0; --k) list.push_back(static_cast<uint32_t>(rng() % n));
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
  return Lists(lists);
}

TEST(BvGraphFiles, WritesTheDefaultCodes) {
  // Node 0 → 0 1 2 3 5: outdegree 5 (γ 00110), no reference (unary 1), one interval (γ 010)
  // of left nat(0 − 0) = 0 (γ 1) and length 4 − 4 = 0 (γ 1), residual nat(5 − 0) = 10 (ζ_3
  // 01 00011): 18 bits.
  // Node 1 → 0 1 2 3 5 6 refers to node 0 (unary 01), 0 blocks (γ 1): all of it copied; no
  // interval (γ 1), residual nat(6 − 1) = 10: 16 bits, against 23 without the reference.
  // Nodes 2 to 6 → nothing: outdegree 0 (γ 1).
  const AdjacencyLists graph = Lists({{0, 1, 2, 3, 5}, {0, 1, 2, 3, 5, 6}, {}, {}, {}, {}, {}});
  const BvGraphFiles files = Written(graph);
  const std::string bits = std::string(
                               "00110"
                               "1"
                               "010"
                               "1"
                               "1"
                               "0100011") +
                           "00111"
                           "01"
                           "1"
                           "1"
                           "0100011" +
                           "11111";
  EXPECT_EQ(BitString(files.graph, files.graph.size() * 8), bits + "0");
  // Offsets: γ of 0, then of each list's length in bits: 18, 16, then 1 five times.
  EXPECT_EQ(BitString(files.offsets, files.offsets.size() * 8),
            "1"
            "000010011"
            "000010001"
            "010"
            "010"
            "010"
            "010"
            "010"
            "000000");
  EXPECT_EQ(files.properties,
            "#BVGraph properties\n#written by crawldb\ngraphclass=it.unimi.dsi.webgraph.BVGraph\n"
            "version=0\nnodes=7\narcs=11\nwindowsize=7\nmaxrefcount=3\nminintervallength=4\n"
            "zetak=3\ncompressionflags=\nbitsperlink=3.54545\n");
  RoundTrip(graph, {});
}

TEST(BvGraphFiles, RoundTripsRandomGraphsUnderEveryParameter) {
  std::vector<BvGraphParameters> all = {
      {}, {0, 0, 0, 3}, {1, 1, 2, 1}, {16, 100, 1, 7}, {7, 0, 4, 2}};
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const AdjacencyLists graph = RandomGraph(static_cast<uint32_t>(seed * 61), seed);
    for (const BvGraphParameters& parameters : all) {
      SCOPED_TRACE(absl::StrCat("seed ", seed, " window ", parameters.window_size, " zeta ",
                                parameters.zeta_k));
      RoundTrip(graph, parameters);
      RoundTrip(graph.Transpose(), parameters);
    }
  }
  RoundTrip(AdjacencyLists(), {});
}

TEST(BvGraphFiles, ReadsCompressionFlags) {
  // Outdegrees in δ, residuals in γ: node 0 → 1 is δ(1) = 0100, unary 1, no interval γ 1,
  // residual nat(1) = 2 in γ 011.
  const std::string properties =
      "nodes=2\narcs=1\nversion=0\nwindowsize=7\nminintervallength=4\nzetak=3\n"
      "compressionflags=OUTDEGREES_DELTA | RESIDUALS_GAMMA\n";
  // Node 1 → nothing: δ(0) = 1.
  const std::vector<uint8_t> graph = testing::FromBitString(
      "0100"
      "1"
      "1"
      "011"
      "1");
  absl::StatusOr<AdjacencyLists> read = ReadBvGraph(properties, graph, std::nullopt);
  ASSERT_TRUE(read.ok()) << read.status();
  ExpectSameGraph(Lists({{1}, {}}), *read);
  EXPECT_EQ(ReadBvGraph("nodes=2\narcs=1\nversion=0\nwindowsize=7\nminintervallength=4\n"
                        "compressionflags=RESIDUALS_NIBBLE\n",
                        graph, std::nullopt)
                .status()
                .message(),
            "bvgraph: unsupported compression flag 'RESIDUALS_NIBBLE'");
}

std::string ReadError(absl::string_view properties, const std::vector<uint8_t>& graph,
                      std::optional<std::vector<uint8_t>> offsets = std::nullopt) {
  absl::StatusOr<AdjacencyLists> read =
      ReadBvGraph(properties, graph,
                  offsets ? std::optional<absl::Span<const uint8_t>>(*offsets) : std::nullopt);
  if (read.ok()) return "OK";
  EXPECT_EQ(read.status().code(), absl::StatusCode::kDataLoss) << read.status();
  return std::string(read.status().message());
}

TEST(BvGraphFiles, RejectsBadPropertiesAndLists) {
  const BvGraphFiles files = Written(Lists({{1}, {0, 1}, {}}));
  const std::string good = files.properties;
  EXPECT_EQ(ReadError(good, files.graph, files.offsets), "OK");
  const auto replaced = [&good](const std::string& from, const std::string& to) {
    std::string text = good;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  EXPECT_EQ(ReadError(replaced("version=0", "version=1"), files.graph),
            "bvgraph: format version 1; expected 0");
  EXPECT_EQ(ReadError(replaced("nodes=3", "vertices=3"), files.graph),
            "bvgraph: the properties have no nodes");
  EXPECT_EQ(ReadError(replaced("nodes=3", "nodes=x"), files.graph),
            "bvgraph: the properties' nodes is 'x'; expected 0 to 4294967295");
  EXPECT_EQ(ReadError(replaced("zetak=3", "zetak=9"), files.graph),
            "bvgraph: the properties' zetak is '9'; expected 0 to 7");
  EXPECT_EQ(ReadError(replaced("nodes=3", "nodes=4000"), files.graph),
            "bvgraph: 4000 nodes in 3 bytes");
  EXPECT_EQ(ReadError(replaced("nodes=3", "nodes=5"), files.graph),
            "bvgraph: the list of node 3 is corrupt");
  EXPECT_EQ(ReadError(replaced("arcs=3", "arcs=2"), files.graph),
            "bvgraph: more arcs than the properties' 2");
  EXPECT_EQ(ReadError(replaced("arcs=3", "arcs=4"), files.graph),
            "bvgraph: 3 arcs; the properties say 4");
  std::vector<uint8_t> offsets = files.offsets;
  offsets[0] ^= 0x40;
  EXPECT_EQ(ReadError(good, files.graph, offsets),
            "bvgraph: the offset of node 1 is not where its list starts");
}

TEST(BvGraphFiles, WriteRefusesParametersOutOfRange) {
  const AdjacencyLists graph = Lists({{1}, {0}});
  EXPECT_EQ(WriteBvGraph(graph.view(), {7, 256, 4, 3}).status().message(),
            "bvgraph: windowsize 7, maxrefcount 256, minintervallength 4, zetak 3; expected at "
            "most 65536, 255 and 65536, and 1 to 7");
  EXPECT_EQ(WriteBvGraph(graph.view(), {7, 3, 4, 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// Every truncation and flip of the files of a random graph ends in DataLoss or in a graph of
// adjacency lists (FromCsr checks them).
TEST(BvGraphFiles, CorruptionEndsInDataLossOrAValidGraph) {
  const BvGraphFiles files = Written(RandomGraph(150, 5));
  for (size_t size = 0; size < files.graph.size(); ++size) {
    const std::vector<uint8_t> truncated(files.graph.begin(), files.graph.begin() + size);
    EXPECT_NE(ReadError(files.properties, truncated), "OK") << size;
  }
  std::mt19937_64 rng(9);
  for (size_t i = 0; i < files.graph.size(); ++i) {
    std::vector<uint8_t> flipped = files.graph;
    flipped[i] ^= static_cast<uint8_t>(1u << (rng() % 8));
    ReadError(files.properties, flipped);
    ReadError(files.properties, flipped, files.offsets);
  }
}

// ---------------------------------------------------------------------------------------------
// LAW's cnr-2000 files.

TEST(BvGraphFiles, ReadsLawsCnr2000AndWritesItAgain) {
  absl::StatusOr<AdjacencyLists> arcs = ReadCnr2000();
  ASSERT_TRUE(arcs.ok()) << arcs.status();
  const std::string basename = SharedDataPath("cnr-2000/cnr-2000.graph");
  const std::string law = basename.substr(0, basename.size() - 6);
  absl::StatusOr<AdjacencyLists> read = ReadBvGraphFiles(law);
  ASSERT_TRUE(read.ok()) << read.status();
  ExpectSameGraph(*arcs, *read);
  absl::StatusOr<AdjacencyLists> transpose = ReadBvGraphFiles(law + "-t");
  ASSERT_TRUE(transpose.ok()) << transpose.status();
  ExpectSameGraph(arcs->Transpose(), *transpose);

  // LAW's parameters (windowsize 7, maxrefcount 3, minintervallength 4, zetak 3) are the
  // defaults.
  const BvGraphFiles files = Written(*arcs);
  const double law_bytes = static_cast<double>(std::filesystem::file_size(law + ".graph"));
  std::printf("cnr-2000.graph: ours %zu bytes, LAW's %.0f (%+.2f%%)\n", files.graph.size(),
              law_bytes, 100 * (files.graph.size() / law_bytes - 1));
  EXPECT_LE(files.graph.size(), 1.03 * law_bytes);
  absl::StatusOr<AdjacencyLists> back = ReadBack(files);
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSameGraph(*arcs, *back);

  // The independent decoder reads the files we wrote.
  const char* tmp = std::getenv("TMPDIR");
  const std::filesystem::path dir =
      std::filesystem::path(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") /
      absl::StrCat("bvgraph_files_test_", getpid());
  std::filesystem::create_directories(dir);
  const std::string ours = (dir / "cnr-2000").string();
  ASSERT_TRUE(WriteBvGraphFiles(files, ours).ok());
  const std::string decoder = (std::filesystem::path(__FILE__).parent_path().parent_path() /
                               "python" / "bvgraph_decoder.py")
                                  .string();
  const std::string command =
      "/usr/bin/python3 '" + decoder + "' '" + ours + "' '" + Cnr2000ArcsPath() + "'";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace crawldb::codecs
