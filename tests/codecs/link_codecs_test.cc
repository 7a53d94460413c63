// The adjacency codecs link1, link2 and link3 (codecs/adjacency_codec.h): golden bytes for the
// paper's examples, round trips on hand-made, random and real (cnr-2000) graphs through every
// access path (Decode, Degree, Scan, Serialize + LoadAdjacency), hostile bytes with pinned
// messages, and truncation / byte-flip loops that must end in DataLoss or a valid graph, loaded
// with every list checked, with deferred checks and paged.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "codecs/adjacency_codec.h"
#include "codecs/adjacency_lists.h"
#include "codecs/canonical_huffman.h"
#include "codecs/degree_partitions.h"
#include "codecs/link3.h"
#include "codecs/little_endian.h"
#include "codecs/paged_bytes.h"
#include "gtest/gtest.h"
#include "tests/codecs/adjacency_test_support.h"
#include "tests/codecs/cnr2000_arcs.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::Lists;
using ::crawldb::codecs::testing::LoadError;
using ::crawldb::codecs::testing::Serialized;

using ::crawldb::codecs::testing::ReadCnr2000;

// A codec with its options, as one row of a test.
struct Config {
  std::string label;
  std::string codec;
  AdjacencyCodecOptions options;
};

// Every codec, with the one-partition starts and with three arbitrary partitions (the codecs
// must be exact whatever the partitions; only their size depends on them), and link3 with
// short and long windows and chains.
std::vector<Config> Configs(uint32_t node_count) {
  AdjacencyCodecOptions three;
  three.partitions = DegreePartitions{node_count / 5, node_count / 3};
  AdjacencyCodecOptions small_window;
  small_window.window = 1;
  small_window.max_chain = 1;
  AdjacencyCodecOptions no_chain;
  no_chain.max_chain = 0;
  AdjacencyCodecOptions long_chain;
  long_chain.window = 40;
  long_chain.max_chain = kMaxLink3Chain;
  return {{"link1", "link1", {}},
          {"link2", "link2", {}},
          {"link2_3part", "link2", three},
          {"link3", "link3", {}},
          {"link3_3part", "link3", three},
          {"link3_K1L1", "link3", small_window},
          {"link3_L0", "link3", no_chain},
          {"link3_K40L64", "link3", long_chain},
          {"link3+huff", "link3+huff", {}},
          {"link3+huff_3part", "link3+huff", three},
          {"link3+huff_K1L1", "link3+huff", small_window},
          {"bv", "bv", {}},
          {"bv_K1L1", "bv", small_window},
          {"bv_L0", "bv", no_chain},
          {"bv_K40L64", "bv", long_chain}};
}

// Every access path of `encoded` gives the lists of `graph`.
void ExpectSameLists(const AdjacencyLists& graph, const EncodedGraph& encoded,
                     const std::string& label) {
  SCOPED_TRACE(label);
  ASSERT_EQ(encoded.size(), graph.size());
  ASSERT_EQ(encoded.arc_count(), graph.arc_count());
  std::vector<uint32_t> list = {7, 7, 7};  // Decode replaces whatever is there.
  for (uint32_t v = 0; v < graph.size(); ++v) {
    encoded.Decode(v, &list);
    const absl::Span<const uint32_t> expected = graph.list(v);
    ASSERT_TRUE(std::equal(list.begin(), list.end(), expected.begin(), expected.end()))
        << "node " << v;
    ASSERT_EQ(encoded.Degree(v), expected.size()) << "node " << v;
  }
  std::unique_ptr<ListScanner> scanner = encoded.Scan();
  absl::Span<const uint32_t> scanned;
  for (uint32_t v = 0; v < graph.size(); ++v) {
    ASSERT_TRUE(scanner->Next(&scanned)) << "node " << v;
    ASSERT_EQ(scanned, graph.list(v)) << "node " << v;
  }
  EXPECT_FALSE(scanner->Next(&scanned));
}

// Encodes `graph` with `config`, checks every access path before and after a serialization
// round trip, and returns the serialized bytes.
std::vector<uint8_t> RoundTrip(const AdjacencyLists& graph, const Config& config) {
  SCOPED_TRACE(config.label);
  absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded =
      EncodeAdjacency(config.codec, graph.view(), config.options);
  EXPECT_TRUE(encoded.ok()) << encoded.status();
  if (!encoded.ok()) return {};
  EXPECT_EQ((*encoded)->codec(), config.codec);
  ExpectSameLists(graph, **encoded, "encoded");
  std::vector<uint8_t> bytes = (*encoded)->Serialize();
  const AdjacencySizeBits bits = (*encoded)->SizeBits();
  EXPECT_EQ(bits.Total(), 8 * bytes.size());
  absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(bytes);
  EXPECT_TRUE(loaded.ok()) << loaded.status();
  if (!loaded.ok()) return bytes;
  ExpectSameLists(graph, **loaded, "loaded");
  const AdjacencySizeBits loaded_bits = (*loaded)->SizeBits();
  EXPECT_EQ(loaded_bits.header, bits.header);
  EXPECT_EQ(loaded_bits.starts, bits.starts);
  EXPECT_EQ(loaded_bits.refs, bits.refs);
  EXPECT_EQ(loaded_bits.deletes, bits.deletes);
  EXPECT_EQ(loaded_bits.adds, bits.adds);
  EXPECT_EQ(loaded_bits.tables, bits.tables);
  EXPECT_EQ((*loaded)->Serialize(), bytes);
  return bytes;
}

void RoundTripAll(const AdjacencyLists& graph) {
  for (const Config& config : Configs(graph.size())) RoundTrip(graph, config);
}

// ---------------------------------------------------------------------------------------------
// Golden bytes.

TEST(LinkCodecs, Link2CodesThePapersFigure2) {
  // Node 104 → 101, 132, 174: gaps −3, 31 − 1, 42 − 1 → nybbles F | C 7 | 2 B (stream order).
  std::vector<std::vector<uint32_t>> lists(175);
  lists[104] = {101, 132, 174};
  const std::vector<uint8_t> bytes = Serialized("link2", Lists(lists));
  ASSERT_GE(bytes.size(), 3u);
  const std::vector<uint8_t> data(bytes.end() - 3, bytes.end());
  EXPECT_EQ(data, (std::vector<uint8_t>{0xCF, 0x27, 0x0B}));
  // Envelope: version 1, "link2"; then node_count 175 and data_nybbles 5.
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 15),
            (std::vector<uint8_t>{1, 5, 'l', 'i', 'n', 'k', '2', 175, 0, 0, 0, 5, 0, 0, 0}));
}

TEST(LinkCodecs, Link3CodesAReferenceWithAnAdd) {
  // 0 → 1 2 3 is absolute: ref 0 (1), first 1 − 0 signed (5), gaps 0 0 (1 1).
  // 1 → 1 2 3 4 refers to list 0: ref 1 (3), no deletes (1), add 4 − 1 signed (D): 3 nybbles
  // against 5 absolute.
  const AdjacencyLists graph = Lists({{1, 2, 3}, {1, 2, 3, 4}, {}, {}, {}});
  const std::vector<uint8_t> bytes = Serialized("link3", graph);
  ASSERT_GE(bytes.size(), 4u);
  EXPECT_EQ(std::vector<uint8_t>(bytes.end() - 4, bytes.end()),
            (std::vector<uint8_t>{0x51, 0x11, 0x13, 0x0D}));
  absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded = EncodeAdjacency("link3", graph.view());
  ASSERT_TRUE(encoded.ok());
  const AdjacencySizeBits bits = (*encoded)->SizeBits();
  EXPECT_EQ(bits.refs, 4u * 2);
  EXPECT_EQ(bits.deletes, 4u * 1);
  EXPECT_EQ(bits.adds, 4u * 4 + 4 * 1);  // 3 + 1 nybbles of adds, one of padding.
}

TEST(LinkCodecs, Link3DeletesByIndex) {
  // 1 → 0 2 4 5 refers to 0 → 0 1 2 3 5: delete indices 1 and 3 (gaps 1, 3 − 2 = 1), add 4.
  const AdjacencyLists graph = Lists({{0, 1, 2, 3, 5}, {0, 2, 4, 5}, {}, {}, {}, {}});
  RoundTripAll(graph);
  absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded = EncodeAdjacency("link3", graph.view());
  ASSERT_TRUE(encoded.ok());
  // Relative: ref 1, count 2, gaps 1 1, add 4 − 1 = 3: 1 + 3 + 1 = 5 nybbles. Absolute:
  // ref 0, 0 − 1, gaps 1 1 0: 5 nybbles. Ties go to the absolute encoding.
  EXPECT_EQ((*encoded)->SizeBits().refs, 4u * 2);
  EXPECT_EQ((*encoded)->SizeBits().deletes, 0u);
}

// ---------------------------------------------------------------------------------------------
// Hand-made graphs.

TEST(LinkCodecs, RoundTripsTheEmptyGraph) { RoundTripAll(AdjacencyLists()); }

TEST(LinkCodecs, RoundTripsOneNode) {
  RoundTripAll(Lists({{}}));
  RoundTripAll(Lists({{0}}));
}

TEST(LinkCodecs, RoundTripsEmptyListsAndSelfLoops) {
  RoundTripAll(Lists({{}, {1}, {}, {}, {4}, {0, 5}, {}, {7}}));
}

TEST(LinkCodecs, RoundTripsNodeZeroAndTheLastNode) {
  const uint32_t n = 1000;
  std::vector<std::vector<uint32_t>> lists(n);
  lists[0] = {0, n - 1};
  lists[n - 1] = {0, n - 1};
  lists[n / 2] = {0};
  RoundTripAll(Lists(lists));
}

TEST(LinkCodecs, RoundTripsANodeLinkingToEveryNode) {
  // Node 300's list (300 ids, 1 nybble each) escapes an 8-bit length; the others repeat it,
  // so link3 refers to it.
  const uint32_t n = 300;
  std::vector<uint32_t> all(n);
  for (uint32_t i = 0; i < n; ++i) all[i] = i;
  std::vector<std::vector<uint32_t>> lists(n);
  lists[0] = all;
  lists[1] = all;
  lists[150] = all;
  lists[n - 1] = all;
  lists[n - 2] = {};
  RoundTripAll(Lists(lists));
}

TEST(LinkCodecs, RoundTripsLongGaps) {
  // Gaps up to 2^18 and first gaps of both signs near the node count.
  const uint32_t n = (1u << 18) + 3;
  std::vector<Arc> arcs = {{0, n - 1}, {n - 1, 0}, {n - 1, n - 2}, {n / 2, 1}, {n / 2, n - 1}};
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromArcs(n, arcs);
  ASSERT_TRUE(graph.ok());
  for (const Config& config : Configs(n)) {
    RoundTrip(*graph, config);
  }
}

TEST(LinkCodecs, RoundTripsChainsOfIdenticalLists) {
  // 100 copies of one list: link3 refers back as far as L allows, then starts over.
  std::vector<std::vector<uint32_t>> lists(100, std::vector<uint32_t>{3, 17, 40, 41, 42, 99});
  RoundTripAll(Lists(lists));
}

// ---------------------------------------------------------------------------------------------
// Random graphs.

// A graph like a web crawl: ids near the source, lists often copied from a recent node with a
// few changes, some nodes empty, a few hubs.
AdjacencyLists RandomGraph(uint32_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Arc> arcs;
  std::vector<std::vector<uint32_t>> lists(n);
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t kind = rng() % 10;
    if (kind == 0) continue;
    if (kind <= 4 && v > 0) {
      const uint32_t from = v - 1 - static_cast<uint32_t>(rng() % std::min<uint32_t>(v, 12));
      for (uint32_t id : lists[from]) {
        if (rng() % 6 != 0) arcs.push_back({v, id});
      }
    }
    const uint32_t degree =
        kind == 9 ? static_cast<uint32_t>(rng() % 400) : static_cast<uint32_t>(rng() % 12);
    for (uint32_t k = 0; k < degree; ++k) {
      const uint32_t near = static_cast<uint32_t>(
          std::clamp<int64_t>(int64_t{v} + static_cast<int64_t>(rng() % 64) - 32, 0, n - 1));
      arcs.push_back({v, rng() % 4 == 0 ? static_cast<uint32_t>(rng() % n) : near});
    }
    for (size_t a = arcs.size(); a-- > 0 && arcs[a].src == v;) lists[v].push_back(arcs[a].dst);
  }
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromArcs(n, arcs);
  EXPECT_TRUE(graph.ok());
  return *std::move(graph);
}

TEST(LinkCodecs, RoundTripsRandomGraphs) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    const AdjacencyLists graph = RandomGraph(static_cast<uint32_t>(seed * 97), seed);
    RoundTripAll(graph);
    RoundTripAll(graph.Transpose());
  }
}

TEST(LinkCodecs, Link3IsSmallerThanLink2OnCopiedLists) {
  const AdjacencyLists graph = RandomGraph(5000, 42);
  absl::StatusOr<std::unique_ptr<EncodedGraph>> link2 = EncodeAdjacency("link2", graph.view());
  absl::StatusOr<std::unique_ptr<EncodedGraph>> link3 = EncodeAdjacency("link3", graph.view());
  ASSERT_TRUE(link2.ok() && link3.ok());
  EXPECT_LT((*link3)->SizeBits().Total(), (*link2)->SizeBits().Total());
  EXPECT_GT((*link3)->SizeBits().refs, 0u);
  EXPECT_GT((*link3)->SizeBits().deletes, 0u);
}

// ---------------------------------------------------------------------------------------------
// Encoder refusals.

TEST(LinkCodecs, EncodeRefusesMalformedGraphsAndOptions) {
  const std::vector<uint64_t> offsets = {0, 2, 2};
  const std::vector<uint32_t> unsorted = {1, 0};
  const std::vector<uint32_t> out_of_range = {0, 2};
  const AdjacencyListsView bad_order = {offsets, unsorted};
  const AdjacencyListsView bad_id = {offsets, out_of_range};
  for (const char* codec : {"link1", "link2", "link3", "link3+huff"}) {
    EXPECT_EQ(EncodeAdjacency(codec, bad_order).status().message(),
              "adjacency_lists: the list of node 0 is not strictly increasing");
    EXPECT_EQ(EncodeAdjacency(codec, bad_id).status().message(),
              "adjacency_lists: node 0 links to 2, not below 2");
  }
  const AdjacencyLists graph = Lists({{1}, {0}});
  EXPECT_EQ(EncodeAdjacency("link9", graph.view()).status().message(),
            "adjacency_codec: unknown codec 'link9'");
  AdjacencyCodecOptions options;
  options.window = 0;
  EXPECT_EQ(EncodeAdjacency("link3", graph.view(), options).status().message(),
            "link3: K = 0, L = 4; K must be in [1, 1024] and L in [0, 64]");
  options = {};
  options.partitions = DegreePartitions{2, 1};
  EXPECT_EQ(EncodeAdjacency("link2", graph.view(), options).status().message(),
            "list_starts: degree partitions of 2 and 1 nodes for a graph of 2");
}

TEST(LinkCodecs, RegistryListsTheCodecs) {
  std::vector<std::string> names;
  for (const AdjacencyCodec& codec : AdjacencyCodecs()) names.emplace_back(codec.name);
  EXPECT_EQ(names, (std::vector<std::string>{"link1", "link2", "link3", "link3+huff", "bv"}));
  EXPECT_EQ(FindAdjacencyCodec("link4"), nullptr);
}

// ---------------------------------------------------------------------------------------------
// Hostile bytes, one invariant at a time (messages pinned).

TEST(LinkCodecs, LoadRejectsABadEnvelope) {
  EXPECT_EQ(LoadError({}), "adjacency_codec: truncated envelope");
  EXPECT_EQ(LoadError({2, 0}), "adjacency_codec: format version 2; expected 1");
  EXPECT_EQ(LoadError({1, 6, 'l', 'i'}), "adjacency_codec: truncated codec name");
  EXPECT_EQ(LoadError({1, 3, 'b', '\n', 0xFF}), "adjacency_codec: unknown codec 'b\\n\\xff'");
}

TEST(LinkCodecs, Link1RejectsBadStartsAndIds) {
  // Envelope (7 bytes), n = 2, starts 0 1 2, ids 1 0.
  std::vector<uint8_t> bytes = Serialized("link1", Lists({{1}, {0}}));
  ASSERT_EQ(bytes.size(), 7u + 4 + 12 + 8);
  EXPECT_EQ(LoadError(bytes), "OK");
  std::vector<uint8_t> bad = bytes;
  bad[11] = 3;  // start[0] = 3.
  EXPECT_EQ(LoadError(bad), "link1: start[0] is not 0");
  bad = bytes;
  bad[15] = 3;  // start[1] = 3 > start[2].
  EXPECT_EQ(LoadError(bad), "link1: starts decrease at node 1");
  bad = bytes;
  bad[23] = 2;  // id 2 ≥ n.
  EXPECT_EQ(LoadError(bad), "link1: the list of node 0 has an id out of range or out of order");
  bad = bytes;
  bad[19] = 3;  // start[2] = 3: 12 bytes of ids needed, 8 present.
  EXPECT_EQ(LoadError(bad), "link1: the ids take 8 bytes; start[n] = 3 needs 12");
  bad = bytes;
  bad.pop_back();
  EXPECT_EQ(LoadError(bad), "link1: the ids take 7 bytes; start[n] = 2 needs 8");
}

TEST(LinkCodecs, Link2RejectsIdsOutOfRangeAndOverlongCodes) {
  // n = 2: node 0 → 1 (first gap +1: nybble 5), node 1 → 0 (−1: 7). One-partition starts.
  std::vector<uint8_t> bytes = Serialized("link2", Lists({{1}, {0}}));
  EXPECT_EQ(LoadError(bytes), "OK");
  ASSERT_EQ(bytes.back(), 0x75);
  const auto with_data = [&bytes](uint8_t data) {
    std::vector<uint8_t> bad = bytes;
    bad[bad.size() - 1] = data;
    return bad;
  };
  // node 0 → 0 + 2: not below 2.
  EXPECT_EQ(LoadError(with_data(0x79)), "link2: the list of node 0 is corrupt");
  // node 0's code has no stop bit within its one nybble.
  EXPECT_EQ(LoadError(with_data(0x70)), "link2: the list of node 0 is corrupt");
  // node 1 → 1 + 1.
  EXPECT_EQ(LoadError(with_data(0x55)), "link2: the list of node 1 is corrupt");
  bytes.push_back(0);
  EXPECT_EQ(LoadError(bytes), "link2: the data takes 2 bytes; 2 nybbles need 1");

  // A code cut by its list's end: node 0 → 1 2 3 is 5 1 | 1, the last nybble loses its stop.
  std::vector<std::vector<uint32_t>> lists(4);
  lists[0] = {1, 2, 3};
  std::vector<uint8_t> cut = Serialized("link2", Lists(lists));
  EXPECT_EQ(LoadError(cut), "OK");
  cut.back() = 0;
  EXPECT_EQ(LoadError(cut), "link2: the list of node 0 is corrupt");

  // 24 nybbles without a stop bit: longer than any 64-bit code (22 nybbles).
  std::vector<std::vector<uint32_t>> long_list(30);
  for (uint32_t i = 0; i < 30; ++i) long_list[0].push_back(i);
  std::vector<uint8_t> overlong = Serialized("link2", Lists(long_list));
  EXPECT_EQ(LoadError(overlong), "OK");
  std::fill(overlong.end() - 15, overlong.end() - 3, 0);
  EXPECT_EQ(LoadError(overlong), "link2: the list of node 0 is corrupt");
  // 22 nybbles holding a value of 2^64 or more.
  std::fill(overlong.end() - 15, overlong.end() - 5, 0xEE);  // 20 nybbles of data 7, no stop.
  overlong[overlong.size() - 5] = 0xFE;                      // Then 7 no stop, 7 with stop.
  EXPECT_EQ(LoadError(overlong), "link2: the list of node 0 is corrupt");
}

TEST(LinkCodecs, Link2RejectsBadStarts) {
  std::vector<std::vector<uint32_t>> lists(20);
  lists[3] = {1, 2, 3};
  lists[17] = {5};
  const std::vector<uint8_t> bytes = Serialized("link2", Lists(lists));
  EXPECT_EQ(LoadError(bytes), "OK");
  // Node 3: 1 2 3 → −2, 0, 0 (3 nybbles); node 17: 5 → −12 (2 nybbles); 5 in all.
  // Envelope 7, n and data_nybbles 4 each, then P at 15, exception count at 16..19, partition count
  // at 20, node count 21..24, width 25, record 0: base 26..29, lengths 30..45, record 1: base
  // 46..49, lengths 50..65.
  ASSERT_EQ(bytes[15], 16);
  ASSERT_EQ(bytes[25], 8);
  std::vector<uint8_t> bad = bytes;
  bad[15] = 0;
  EXPECT_EQ(LoadError(bad), "link2: list_starts: P = 0; expected 1 to 64");
  bad = bytes;
  bad[25] = 12;
  EXPECT_EQ(LoadError(bad), "link2: list_starts: partition 0 has width 12");
  bad = bytes;
  bad[46] = 2;
  EXPECT_EQ(LoadError(bad), "link2: list_starts: record base 2 of node 16; its lists begin at 3");
  bad = bytes;
  bad[30 + 5] = 1;  // Node 5 gets one nybble too many: the record of node 16 misplaced.
  EXPECT_EQ(LoadError(bad), "link2: list_starts: record base 3 of node 16; its lists begin at 4");
  bad = bytes;
  bad[50 + 1] = 3;  // Node 17 gets 3 nybbles: past the data's end.
  EXPECT_EQ(LoadError(bad), "link2: list_starts: lists end at 6, past the stream's 5");
  bad = bytes;
  bad[50 + 15] = 1;  // Padding past the partition's 20 nodes.
  EXPECT_EQ(LoadError(bad), "link2: list_starts: nonzero length past a partition's end");
  bad = bytes;
  bad[30 + 3] = 255;  // An escape without its exception.
  EXPECT_EQ(LoadError(bad), "link2: list_starts: escaped length of node 3 has no exception");
  bad = bytes;
  bad[21] = 21;  // 21 nodes in a graph of 20.
  EXPECT_EQ(LoadError(bad), "link2: list_starts: partitions hold more than 20 nodes");
  bad = bytes;
  bad[20] = 0;
  EXPECT_EQ(LoadError(bad), "link2: list_starts: 0 partitions; expected 1 to 8");
}

TEST(LinkCodecs, Link3RejectsBadRefsChainsAndDeletes) {
  // Records (see Link3CodesAReferenceWithAnAdd): node 0 = 1 5 1 1, node 1 = 3 1 D.
  const AdjacencyLists graph = Lists({{1, 2, 3}, {1, 2, 3, 4}, {}, {}, {}});
  const std::vector<uint8_t> bytes = Serialized("link3", graph);
  EXPECT_EQ(LoadError(bytes), "OK");
  const size_t data = bytes.size() - 4;
  std::vector<uint8_t> bad = bytes;
  bad[data + 2] = 0x15;  // Node 1: ref 2 > node 1.
  EXPECT_EQ(LoadError(bad), "link3: the record of node 1 is corrupt");
  bad = bytes;
  bad[data + 2] = 0x93;  // Node 1: 4 deletes from a list of 3.
  EXPECT_EQ(LoadError(bad), "link3: the record of node 1 is corrupt");
  bad = bytes;
  bad[data + 3] = 0x01;  // Node 1 adds 1 + 0 = 1, already in the representative.
  EXPECT_EQ(LoadError(bad), "link3: the record of node 1 is corrupt");
  bad = bytes;
  bad[data + 3] = 0x1D;  // Nonzero padding.
  EXPECT_EQ(LoadError(bad), "link3: nonzero padding after the data");

  // K and L are stored after the envelope (7 bytes): window u16, max_chain u8.
  bad = bytes;
  bad[7] = 0;
  EXPECT_EQ(LoadError(bad), "link3: K = 0, L = 4 out of range");
  bad = bytes;
  bad[9] = 65;
  EXPECT_EQ(LoadError(bad), "link3: K = 8, L = 65 out of range");

  // A chain of 4 references loaded with L = 3.
  std::vector<std::vector<uint32_t>> copies(6, std::vector<uint32_t>{0, 1, 2, 3, 4, 5});
  std::vector<uint8_t> chained = Serialized("link3", Lists(copies));
  EXPECT_EQ(LoadError(chained), "OK");
  chained[9] = 3;
  EXPECT_EQ(LoadError(chained), "link3: the record of node 4 is corrupt");
  // And one of 2 references with K = 1 whose second reference reaches 2 back.
  AdjacencyCodecOptions k2;
  k2.window = 2;
  std::vector<std::vector<uint32_t>> alternating = {{0, 1, 2, 3}, {5}, {0, 1, 2, 3}, {}, {}, {}};
  std::vector<uint8_t> far = Serialized("link3", Lists(alternating), k2);
  EXPECT_EQ(LoadError(far), "OK");
  far[7] = 1;
  EXPECT_EQ(LoadError(far), "link3: the record of node 2 is corrupt");
}

// Deferred checks: a graph loaded with its arc count reads its intact lists and finds a corrupt
// one when it decodes it; the codecs without deferred checks compare the count at load.
TEST(LinkCodecs, DeferredChecksFindACorruptListWhenItIsRead) {
  // Records as in Link3RejectsBadRefsChainsAndDeletes: node 0 = 1 5 1 1, node 1 = 3 1 D.
  const AdjacencyLists graph = Lists({{1, 2, 3}, {1, 2, 3, 4}, {}, {}, {}});
  const std::vector<uint8_t> bytes = Serialized("link3", graph);
  AdjacencyLoadOptions seven;
  seven.arc_count = 7;
  std::vector<uint8_t> bad = bytes;
  bad[bytes.size() - 4 + 2] = 0x15;  // Node 1: ref 2 > node 1.
  EXPECT_EQ(LoadError(bad), "link3: the record of node 1 is corrupt");
  absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(bad, seven);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const EncodedGraph& deferred = **loaded;
  EXPECT_EQ(deferred.arc_count(), 7u);
  std::vector<uint32_t> list;
  deferred.Decode(0, &list);
  EXPECT_EQ(list, std::vector<uint32_t>({1, 2, 3}));
  EXPECT_TRUE(deferred.status().ok());
  EXPECT_EQ(deferred.Degree(1), 0u);
  EXPECT_EQ(deferred.status(), absl::DataLossError("link3: the record of node 1 is corrupt"));
  deferred.Decode(1, &list);
  EXPECT_TRUE(list.empty());
  EXPECT_EQ(deferred.CheckAll(), absl::DataLossError("link3: the record of node 1 is corrupt"));

  // The scan ends before the corrupt list.
  absl::StatusOr<std::unique_ptr<EncodedGraph>> scanned = LoadAdjacency(bad, seven);
  ASSERT_TRUE(scanned.ok());
  std::unique_ptr<ListScanner> scanner = (*scanned)->Scan();
  absl::Span<const uint32_t> next;
  EXPECT_TRUE(scanner->Next(&next));
  EXPECT_FALSE(scanner->Next(&next));
  EXPECT_EQ((*scanned)->status(), absl::DataLossError("link3: the record of node 1 is corrupt"));

  // Intact lists and another arc count: found by CheckAll, for good.
  AdjacencyLoadOptions eight;
  eight.arc_count = 8;
  absl::StatusOr<std::unique_ptr<EncodedGraph>> miscounted = LoadAdjacency(bytes, eight);
  ASSERT_TRUE(miscounted.ok());
  (*miscounted)->Decode(1, &list);
  EXPECT_EQ(list, std::vector<uint32_t>({1, 2, 3, 4}));
  const absl::Status wrong = absl::DataLossError("link3: the lists hold 7 arcs; 8 were recorded");
  EXPECT_EQ((*miscounted)->CheckAll(), wrong);
  EXPECT_EQ((*miscounted)->CheckAll(), wrong);
  EXPECT_EQ((*miscounted)->status(), wrong);

  // A codec checked at load compares the count there.
  absl::StatusOr<std::unique_ptr<EncodedGraph>> link2 =
      LoadAdjacency(Serialized("link2", graph), eight);
  EXPECT_EQ(link2.status(), absl::DataLossError("link2: the lists hold 7 arcs; 8 were recorded"));
  link2 = LoadAdjacency(Serialized("link2", graph), seven);
  ASSERT_TRUE(link2.ok());
  EXPECT_TRUE((*link2)->CheckAll().ok());
}

TEST(LinkCodecs, DeferredDegreesCheckEveryListOnceTheyHaveDecodedAnEighthOfTheArcs) {
  // A degree checks its list by decoding it (and its chain) until the degrees asked for have
  // decoded an eighth of the arcs; then one pass checks every list. A wrong arc count shows when
  // that pass ran: it is found by the pass only.
  const AdjacencyLists graph = RandomGraph(3000, 11);
  const uint64_t arcs = graph.arc_count();
  for (const char* codec : {"link3", "link3+huff"}) {
    SCOPED_TRACE(codec);
    const std::vector<uint8_t> bytes = Serialized(codec, graph);
    for (const uint64_t recorded : {arcs, arcs + 1}) {
      AdjacencyLoadOptions options;
      options.arc_count = recorded;
      absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(bytes, options);
      ASSERT_TRUE(loaded.ok()) << loaded.status();
      const EncodedGraph& deferred = **loaded;
      uint64_t decoded = 0;  // arcs (plus one per list) of the degrees asked for
      bool passed = false;   // the pass over every list has run
      std::vector<uint32_t> list;
      for (uint32_t v = 0; v < graph.size(); ++v) {
        ASSERT_EQ(deferred.status().ok(), !passed || recorded == arcs) << "node " << v;
        passed = passed || decoded >= recorded / 8;
        const uint32_t degree = deferred.Degree(v);
        deferred.Decode(v, &list);
        ASSERT_EQ(degree, list.size()) << "node " << v;
        ASSERT_EQ(absl::MakeConstSpan(list), graph.list(v)) << "node " << v;
        decoded += list.size() + 1;
      }
      EXPECT_TRUE(passed);
      EXPECT_EQ(deferred.CheckAll().ok(), recorded == arcs);
    }
  }
}

TEST(LinkCodecs, Link3HuffRejectsBadTables) {
  const std::vector<uint8_t> bytes = Serialized("link3+huff", RandomGraph(50, 3));
  EXPECT_EQ(LoadError(bytes), "OK");
  // Envelope (2 + 10 bytes), K, L, n, data_length (11 bytes), then the ref table: alphabet
  // K + 2 = 10, used symbols, ….
  const size_t table = 2 + 10 + 11;
  ASSERT_EQ(bytes[table], 10);
  // The ref table replaced by one of an empty alphabet: 0 symbols, 0 used.
  LittleEndianReader reader(absl::MakeConstSpan(bytes).subspan(table));
  ASSERT_TRUE(HuffmanCode::Parse(&reader, 1 << 16).ok());
  std::vector<uint8_t> empty(bytes.begin(), bytes.begin() + table);
  empty.insert(empty.end(), {0, 0});
  empty.insert(empty.end(), bytes.begin() + table + reader.position(), bytes.end());
  EXPECT_EQ(LoadError(empty), "link3+huff: table 0 has an empty alphabet");
  std::vector<uint8_t> bad = bytes;
  bad[table + 1] = 100;
  EXPECT_EQ(LoadError(bad),
            "link3+huff: canonical_huffman: a table of 100 of 10 symbols; at most 65536 are "
            "possible");
}

// ---------------------------------------------------------------------------------------------
// Corruption loops: every truncation fails; every flip fails or yields a valid graph.

// A loaded graph must be internally consistent whatever bytes it came from.
void ExpectValidGraph(const EncodedGraph& graph) {
  std::vector<uint32_t> list;
  std::unique_ptr<ListScanner> scanner = graph.Scan();
  absl::Span<const uint32_t> scanned;
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < graph.size(); ++v) {
    graph.Decode(v, &list);
    ASSERT_EQ(graph.Degree(v), list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      ASSERT_LT(list[i], graph.size());
      if (i > 0) {
        ASSERT_LT(list[i - 1], list[i]);
      }
    }
    ASSERT_TRUE(scanner->Next(&scanned));
    ASSERT_EQ(scanned, absl::MakeConstSpan(list));
    arcs += list.size();
  }
  EXPECT_EQ(arcs, graph.arc_count());
  EXPECT_EQ(graph.SizeBits().Total(), 8 * graph.Serialize().size());
}

// `bytes` as parts of `part_bytes`, fetched from a copy; *fail, while set, makes every fetch
// fail.
std::shared_ptr<PagedBytes> Paged(const std::vector<uint8_t>& bytes, uint64_t part_bytes,
                                  const bool* fail = nullptr) {
  return std::make_shared<PagedBytes>(
      bytes.size(), part_bytes, [bytes, part_bytes, fail](size_t part, absl::Span<uint8_t> into) {
        if (fail != nullptr && *fail) return absl::UnavailableError("the disk is gone");
        std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(part * part_bytes), into.size(),
                    into.begin());
        return absl::OkStatus();
      });
}

// The same bytes loaded with deferred checks (paged, in parts of 16 bytes, or not), given the
// arc count of the graph they were made from: whatever the bytes, every list read is an
// adjacency list (a corrupt one empty, with status() saying so), and CheckAll() passes exactly
// when the full load found that graph's arc count, after which the lists are the full load's.
void ExpectDeferredAgrees(const std::vector<uint8_t>& bytes, uint64_t arcs, bool paged) {
  absl::StatusOr<std::unique_ptr<EncodedGraph>> full = LoadAdjacency(bytes);
  AdjacencyLoadOptions options;
  options.arc_count = arcs;
  absl::StatusOr<std::unique_ptr<EncodedGraph>> deferred =
      paged ? LoadPagedAdjacency(Paged(bytes, 16), arcs) : LoadAdjacency(bytes, options);
  if (!deferred.ok()) {
    ASSERT_EQ(deferred.status().code(), absl::StatusCode::kDataLoss) << deferred.status();
    ASSERT_TRUE(!full.ok() || (*full)->arc_count() != arcs) << "deferred: " << deferred.status();
    return;
  }
  const EncodedGraph& graph = **deferred;
  std::unique_ptr<ListScanner> scanner = graph.Scan();
  bool scanning = true;
  absl::Span<const uint32_t> scanned;
  std::vector<uint32_t> list;
  for (uint32_t v = 0; v < graph.size(); ++v) {
    const uint32_t degree = graph.Degree(v);
    graph.Decode(v, &list);
    ASSERT_EQ(degree, list.size());
    for (size_t i = 0; i < list.size(); ++i) {
      ASSERT_LT(list[i], graph.size());
      if (i > 0) {
        ASSERT_LT(list[i - 1], list[i]);
      }
    }
    if (scanning && !scanner->Next(&scanned)) {
      scanning = false;
      ASSERT_FALSE(graph.status().ok()) << "the scan ended at node " << v;
    }
    if (scanning) {
      ASSERT_EQ(scanned, absl::MakeConstSpan(list));
    }
  }
  const absl::Status checked = graph.CheckAll();
  const bool same_graph = full.ok() && (*full)->arc_count() == arcs;
  ASSERT_EQ(checked.ok(), same_graph) << checked;
  if (!checked.ok()) {
    ASSERT_EQ(checked.code(), absl::StatusCode::kDataLoss);
    return;
  }
  EXPECT_EQ(graph.SizeBits().Total(), (*full)->SizeBits().Total());
  EXPECT_EQ(graph.SizeBits().adds, (*full)->SizeBits().adds);
  std::vector<uint32_t> expected;
  for (uint32_t v = 0; v < graph.size(); ++v) {
    graph.Decode(v, &list);
    (*full)->Decode(v, &expected);
    ASSERT_EQ(list, expected) << "node " << v;
  }
}

void CorruptionLoop(const std::vector<uint8_t>& bytes, uint64_t seed) {
  absl::StatusOr<std::unique_ptr<EncodedGraph>> clean = LoadAdjacency(bytes);
  ASSERT_TRUE(clean.ok()) << clean.status();
  const uint64_t arcs = (*clean)->arc_count();
  for (size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + size);
    absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(truncated);
    ASSERT_FALSE(loaded.ok()) << "truncated to " << size;
    ASSERT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss) << loaded.status();
  }
  std::mt19937_64 rng(seed);
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int flip = 0; flip < 3; ++flip) {
      std::vector<uint8_t> flipped = bytes;
      flipped[i] ^= flip == 0 ? 0xFF : static_cast<uint8_t>(1u << (rng() % 8));
      if (flip == 2) flipped[rng() % flipped.size()] = static_cast<uint8_t>(rng());
      absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(flipped);
      if (loaded.ok()) {
        ExpectValidGraph(**loaded);
      } else {
        ASSERT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss) << loaded.status();
      }
      // One flip in three, deferred or paged in turn: CI's time.
      if (flip == 0) ExpectDeferredAgrees(flipped, arcs, /*paged=*/i % 2 == 1);
    }
  }
}

// The padding after a paged graph's data is not checked at load (no decode reads it, and the
// load would fetch the last part for it): CheckAll finds it.
TEST(LinkCodecs, APagedGraphsNonzeroPaddingIsFoundByCheckAll) {
  const AdjacencyLists graph = Lists({{1, 2, 3}, {1, 2, 3, 4}, {}, {}, {}});
  std::vector<uint8_t> bad = Serialized("link3", graph);
  bad.back() = 0x1D;  // Node 1's last nybble (D), then a nonzero padding nybble.
  ASSERT_EQ(LoadError(bad), "link3: nonzero padding after the data");
  absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded =
      LoadPagedAdjacency(Paged(bad, 16), graph.arc_count());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  std::vector<uint32_t> list;
  (*loaded)->Decode(1, &list);
  EXPECT_EQ(list, (std::vector<uint32_t>{1, 2, 3, 4}));
  EXPECT_EQ((*loaded)->CheckAll(), absl::DataLossError("link3: nonzero padding after the data"));
}

// Paged loading (adjacency_codec.h): a graph read part by part loads from the parts that hold
// its parameters and starts headers, and a look-up reads the few parts its lists lie in; a
// part that cannot be read fails the call that needed it with the fetch's error (not as
// corruption), and is fetched again once the failure is cleared.
TEST(LinkCodecs, PagedGraphsReadThePartsALookUpNeeds) {
  const AdjacencyLists graph = RandomGraph(40000, 5);
  for (const std::string codec : {"link3", "link3+huff", "link2"}) {
    SCOPED_TRACE(codec);
    const std::vector<uint8_t> bytes = Serialized(codec, graph);
    absl::StatusOr<std::unique_ptr<EncodedGraph>> full = LoadAdjacency(bytes);
    ASSERT_TRUE(full.ok()) << full.status();
    bool fail = false;
    std::shared_ptr<PagedBytes> pages = Paged(bytes, 1024, &fail);
    absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded =
        LoadPagedAdjacency(pages, graph.arc_count());
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    const EncodedGraph& paged = **loaded;
    ASSERT_GT(pages->part_count(), 200u);
    std::vector<uint32_t> list, expected;
    if (codec == "link2") {
      // Not paged: every part read at load.
      EXPECT_EQ(pages->parts_present(), pages->part_count());
      continue;
    }
    // The parameters and tables (in the first 4 KiB), the starts' exceptions and partition
    // headers: a tenth of the graph at most.
    EXPECT_LE(pages->parts_present(), pages->part_count() / 10);
    const size_t after_load = pages->parts_present();
    std::printf("%s: %zu of %zu parts of 1 KiB read to load\n", codec.c_str(), after_load,
                pages->part_count());
    paged.Decode(20000, &list);
    (*full)->Decode(20000, &expected);
    EXPECT_EQ(list, expected);
    // The starts record and the records of a chain of at most 5 lists, nearby.
    EXPECT_LE(pages->parts_present() - after_load, 4u);
    EXPECT_EQ(paged.Degree(20000), expected.size());

    fail = true;
    paged.Decode(30000, &list);
    EXPECT_TRUE(list.empty());
    EXPECT_EQ(paged.status(), absl::UnavailableError("the disk is gone"));
    EXPECT_EQ(paged.CheckAll(), absl::UnavailableError("the disk is gone"));
    absl::Span<const uint32_t> scanned;
    EXPECT_FALSE(paged.Scan()->Next(&scanned));
    fail = false;
    paged.ClearReadFailure();
    EXPECT_TRUE(paged.status().ok());
    paged.Decode(30000, &list);
    (*full)->Decode(30000, &expected);
    EXPECT_EQ(list, expected);
    ASSERT_TRUE(paged.CheckAll().ok()) << paged.CheckAll();
    EXPECT_EQ(pages->parts_present(), pages->part_count());
    EXPECT_EQ(paged.Serialize(), bytes);
    std::unique_ptr<ListScanner> scanner = paged.Scan();
    for (uint32_t v = 0; v < paged.size(); ++v) {
      ASSERT_TRUE(scanner->Next(&scanned));
      (*full)->Decode(v, &expected);
      ASSERT_EQ(scanned, absl::MakeConstSpan(expected)) << "node " << v;
    }

    // Every list, looked up in a random order on a graph just loaded, reads the parts it needs
    // (a part read too late would decode as zeros).
    absl::StatusOr<std::unique_ptr<EncodedGraph>> fresh =
        LoadPagedAdjacency(Paged(bytes, 512), graph.arc_count());
    ASSERT_TRUE(fresh.ok()) << fresh.status();
    std::vector<uint32_t> order(graph.size());
    for (uint32_t v = 0; v < graph.size(); ++v) order[v] = v;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(3));
    for (uint32_t v : order) {
      (*fresh)->Decode(v, &list);
      (*full)->Decode(v, &expected);
      ASSERT_EQ(list, expected) << "node " << v;
      ASSERT_EQ((*fresh)->Degree(v), expected.size()) << "node " << v;
    }
    EXPECT_TRUE((*fresh)->CheckAll().ok());
  }
}

// With a budget (codecs/paged_bytes.h), a paged graph drops the parts it read longest ago and
// reads them again when needed: every access path still reads the full load's lists, while the
// parts held stay within the budget but for those one call is using.
TEST(LinkCodecs, PagedGraphsWithABudgetDropAndReadAgain) {
  const AdjacencyLists graph = RandomGraph(40000, 9);
  for (const std::string codec : {"link3", "link3+huff"}) {
    SCOPED_TRACE(codec);
    const std::vector<uint8_t> bytes = Serialized(codec, graph);
    absl::StatusOr<std::unique_ptr<EncodedGraph>> full = LoadAdjacency(bytes);
    ASSERT_TRUE(full.ok()) << full.status();
    // Parts of one page (dropping needs whole pages), four of them held.
    std::shared_ptr<PagedBytes> pages = Paged(bytes, 4096);
    absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded =
        LoadPagedAdjacency(pages, graph.arc_count());
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    pages->SetBudget(4 * 4096);
    ASSERT_TRUE(pages->bounded());
    const EncodedGraph& paged = **loaded;
    size_t most_held = 0;
    std::vector<uint32_t> order(graph.size()), list, expected;
    for (uint32_t v = 0; v < graph.size(); ++v) order[v] = v;
    std::shuffle(order.begin(), order.end(), std::mt19937_64(4));
    for (uint32_t v : order) {
      paged.Decode(v, &list);
      most_held = std::max(most_held, pages->parts_present());
      (*full)->Decode(v, &expected);
      ASSERT_EQ(list, expected) << "node " << v;
      ASSERT_EQ(paged.Degree(v), expected.size()) << "node " << v;
    }
    std::unique_ptr<ListScanner> scanner = paged.Scan();
    absl::Span<const uint32_t> scanned;
    for (uint32_t v = 0; v < paged.size(); ++v) {
      ASSERT_TRUE(scanner->Next(&scanned)) << paged.status();
      most_held = std::max(most_held, pages->parts_present());
      (*full)->Decode(v, &expected);
      ASSERT_EQ(scanned, absl::MakeConstSpan(expected)) << "node " << v;
    }
    EXPECT_FALSE(scanner->Next(&scanned));
    ASSERT_TRUE(paged.CheckAll().ok()) << paged.CheckAll();
    EXPECT_EQ(paged.Serialize(), bytes);
    EXPECT_TRUE(paged.status().ok());
    // A chain of at most 5 records and their starts: a few parts over the budget at most.
    EXPECT_LE(pages->parts_present(), 4u);
    EXPECT_LE(most_held, 4u + 12u);
    EXPECT_GT(pages->fetches(), 10 * pages->part_count());
    // Unbounded again: a scan reads back what the budget dropped.
    pages->SetBudget(PagedBytes::kUnbounded);
    scanner = paged.Scan();
    for (uint32_t v = 0; v < paged.size(); ++v) {
      ASSERT_TRUE(scanner->Next(&scanned)) << paged.status();
      (*full)->Decode(v, &expected);
      ASSERT_EQ(scanned, absl::MakeConstSpan(expected)) << "node " << v;
    }
    EXPECT_EQ(pages->parts_present(), pages->part_count());
    std::printf("%s: %zu parts, %llu fetches, at most %zu held\n", codec.c_str(),
                pages->part_count(), static_cast<unsigned long long>(pages->fetches()), most_held);
  }
}

TEST(LinkCodecs, CorruptionEndsInDataLossOrAValidGraph) {
  const AdjacencyLists graph = RandomGraph(120, 7);
  for (const Config& config : Configs(graph.size())) {
    SCOPED_TRACE(config.label);
    CorruptionLoop(Serialized(config.codec, graph, config.options), 11);
  }
}

// ---------------------------------------------------------------------------------------------
// The real graph: cnr-2000 (LAW), 325,557 nodes and 3,216,152 arcs, and its transpose.

TEST(LinkCodecs, RoundTripsCnr2000BothDirections) {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<AdjacencyLists> outlinks = ReadCnr2000();
  ASSERT_TRUE(outlinks.ok()) << outlinks.status();
  ASSERT_EQ(outlinks->size(), 325557u);
  ASSERT_EQ(outlinks->arc_count(), 3216152u);
  const AdjacencyLists inlinks = outlinks->Transpose();
  DegreePartitions partitions;
  const std::vector<uint32_t> new_id =
      PartitionFirstOrder(outlinks->view(), inlinks.view(), &partitions);
  const AdjacencyLists renumbered_out = outlinks->Renumber(new_id);
  const AdjacencyLists renumbered_in = inlinks.Renumber(new_id);
  AdjacencyCodecOptions three;
  three.partitions = partitions;
  struct Case {
    std::string label;
    const AdjacencyLists* graph;
    std::string codec;
    AdjacencyCodecOptions options;
  };
  const std::string names[2] = {"outlinks", "inlinks"};
  const AdjacencyLists* graphs[2] = {&*outlinks, &inlinks};
  const AdjacencyLists* renumbered_graphs[2] = {&renumbered_out, &renumbered_in};
  std::vector<Case> cases;
  for (int d = 0; d < 2; ++d) {
    const std::string& name = names[d];
    const AdjacencyLists* graph = graphs[d];
    const AdjacencyLists* renumbered = renumbered_graphs[d];
    cases.push_back({name + " link1", graph, "link1", {}});
    cases.push_back({name + " link2-1part", graph, "link2", {}});
    cases.push_back({name + " link2-3part", renumbered, "link2", three});
    cases.push_back({name + " link3-1part", graph, "link3", {}});
    cases.push_back({name + " link3-3part", renumbered, "link3", three});
    cases.push_back({name + " link3+huff-1part", graph, "link3+huff", {}});
    cases.push_back({name + " link3+huff-3part", renumbered, "link3+huff", three});
    cases.push_back({name + " bv", graph, "bv", {}});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.label);
    absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded =
        EncodeAdjacency(c.codec, c.graph->view(), c.options);
    ASSERT_TRUE(encoded.ok()) << encoded.status();
    const std::vector<uint8_t> bytes = (*encoded)->Serialize();
    absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(bytes);
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ExpectSameLists(*c.graph, **loaded, "loaded");
    const double bits_per_link = 8.0 * bytes.size() / c.graph->arc_count();
    RecordProperty(c.label, absl::StrCat(bits_per_link));
    std::printf("%s: %.3f bits/link\n", c.label.c_str(), bits_per_link);
  }
  // A few flips of the real bytes, through the full validation.
  const std::vector<uint8_t> bytes = Serialized("link3", *outlinks);
  std::mt19937_64 rng(3);
  for (int i = 0; i < 8; ++i) {
    std::vector<uint8_t> flipped = bytes;
    flipped[rng() % bytes.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    absl::StatusOr<std::unique_ptr<EncodedGraph>> loaded = LoadAdjacency(flipped);
    if (!loaded.ok()) {
      ASSERT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("cnr-2000 round trips: %.1f s\n", seconds);
}

}  // namespace
}  // namespace crawldb::codecs
