// Fuzz target: one adjacency codec's body (codecs/adjacency_codec.h and the codec's header),
// built once per codec: CRAWLDB_FUZZ_CODEC names it ("link1", "link2", "link3", "link3+huff",
// "bv"; tests/fuzz/CMakeLists.txt).
//
// Input: an arc count (u32), then the body, which the target wraps in the envelope naming the
// codec.
// Properties: nothing crashes and every error is a DataLossError; a graph that loads has lists
// that are adjacency lists (strictly increasing, ids below the node count) whose lengths are
// the degrees and add up to the arc count, Decode and Scan agree, and it serializes, in
// SizeBits().Total() bits, to bytes that load to the same lists and serialize to themselves
// (the input itself but for overlong varints, which the codecs accept). Loaded with deferred
// checks and the arc count: every list read is an adjacency list of its degree (empty when
// corrupt, status() then saying so), and CheckAll() passes exactly when the full load found
// that arc count, the lists then being the full load's; the same loaded paged, from parts of a
// few bytes (codecs/paged_bytes.h).
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/adjacency_codec.h"
#include "codecs/adjacency_lists.h"
#include "codecs/degree_partitions.h"
#include "codecs/paged_bytes.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_graphs.h"

namespace crawldb::fuzz {
namespace {

constexpr absl::string_view kCodec = CRAWLDB_FUZZ_CODEC;
// Nodes whose lists are checked at most (loading decoded them all already).
constexpr uint32_t kMaxCheckedNodes = 1 << 16;

std::vector<uint8_t> Envelope() {
  std::string envelope = {static_cast<char>(codecs::kAdjacencyFormatVersion),
                          static_cast<char>(kCodec.size())};
  envelope.append(kCodec.data(), kCodec.size());
  return {envelope.begin(), envelope.end()};
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  auto add = [&](std::string name, const codecs::AdjacencyLists& graph,
                 const codecs::AdjacencyCodecOptions& options) {
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> encoded =
        codecs::EncodeAdjacency(kCodec, graph.view(), options);
    FUZZ_CHECK(encoded.ok());
    std::vector<uint8_t> bytes = (*encoded)->Serialize();
    bytes.erase(bytes.begin(), bytes.begin() + static_cast<ptrdiff_t>(Envelope().size()));
    const auto arcs = static_cast<uint32_t>((*encoded)->arc_count());
    std::vector<uint8_t> input = {static_cast<uint8_t>(arcs), static_cast<uint8_t>(arcs >> 8),
                                  static_cast<uint8_t>(arcs >> 16),
                                  static_cast<uint8_t>(arcs >> 24)};
    input.insert(input.end(), bytes.begin(), bytes.end());
    seeds.push_back({std::move(name), std::move(input)});
  };
  add("empty", codecs::AdjacencyLists(), {});
  absl::StatusOr<codecs::AdjacencyLists> small =
      codecs::AdjacencyLists::FromLists({{0, 1, 2}, {}, {0, 2}, {0, 1, 2, 3}});
  FUZZ_CHECK(small.ok());
  add("small", *small, {});
  const codecs::AdjacencyLists web = WebLikeGraph(300);
  add("web_300", web, {});
  codecs::AdjacencyCodecOptions wide;
  wide.window = 32;
  wide.max_chain = 16;
  add("web_300_window_32", web, wide);
  codecs::AdjacencyCodecOptions parted;
  parted.partitions = codecs::DegreePartitions{20, 60};
  add("web_300_partitions", web, parted);
  return seeds;
}

// The deferred load of `bytes` (paged or not) against `full`, their load with every list
// checked.
void CheckDeferred(const std::vector<uint8_t>& bytes, uint32_t arcs,
                   const absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>>& full, bool paged) {
  codecs::AdjacencyLoadOptions options;
  options.arc_count = arcs;
  // Parts of 1 to 61 bytes.
  const uint64_t part_bytes = 1 + bytes.size() % 61;
  absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> loaded =
      paged ? codecs::LoadPagedAdjacency(
                  std::make_shared<codecs::PagedBytes>(
                      bytes.size(), part_bytes,
                      [&bytes, part_bytes](size_t part, absl::Span<uint8_t> into) {
                        std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(part * part_bytes),
                                    into.size(), into.begin());
                        return absl::OkStatus();
                      }),
                  arcs)
            : codecs::LoadAdjacency(bytes, options);
  const bool same_graph = full.ok() && (*full)->arc_count() == arcs;
  if (!loaded.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(loaded.status()) && !same_graph);
    return;
  }
  const codecs::EncodedGraph& graph = **loaded;
  std::unique_ptr<codecs::ListScanner> scanner = graph.Scan();
  bool scanning = true;
  absl::Span<const uint32_t> scanned;
  std::vector<uint32_t> list;
  const uint32_t checked = std::min(graph.size(), kMaxCheckedNodes);
  for (uint32_t v = 0; v < checked; ++v) {
    const uint32_t degree = graph.Degree(v);
    graph.Decode(v, &list);
    FUZZ_CHECK(list.size() == degree);
    for (size_t i = 0; i < list.size(); ++i) {
      FUZZ_CHECK(list[i] < graph.size());
      if (i > 0) FUZZ_CHECK(list[i - 1] < list[i]);
    }
    if (scanning && !scanner->Next(&scanned)) {
      scanning = false;
      FUZZ_CHECK(!graph.status().ok());
    }
    if (scanning) FUZZ_CHECK(std::vector<uint32_t>(scanned.begin(), scanned.end()) == list);
  }
  const absl::Status status = graph.CheckAll();
  FUZZ_CHECK(status.ok() == same_graph);
  if (!status.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(status));
    return;
  }
  std::vector<uint32_t> expected;
  for (uint32_t v = 0; v < checked; ++v) {
    graph.Decode(v, &list);
    (*full)->Decode(v, &expected);
    FUZZ_CHECK(list == expected);
  }
}

void TestOneInput(FuzzInput input) {
  const uint32_t claimed_arcs = input.U32();
  const absl::Span<const uint8_t> data = input.Rest();
  std::vector<uint8_t> bytes = Envelope();
  bytes.insert(bytes.end(), data.begin(), data.end());
  absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> loaded = codecs::LoadAdjacency(bytes);
  CheckDeferred(bytes, claimed_arcs, loaded, /*paged=*/false);
  CheckDeferred(bytes, claimed_arcs, loaded, /*paged=*/true);
  if (!loaded.ok()) {
    FUZZ_CHECK(absl::IsDataLoss(loaded.status()));
    return;
  }
  const codecs::EncodedGraph& graph = **loaded;
  FUZZ_CHECK(graph.codec() == kCodec);
  const std::vector<uint8_t> stored = graph.Serialize();
  FUZZ_CHECK(graph.SizeBits().Total() == 8 * stored.size());
  absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> reloaded = codecs::LoadAdjacency(stored);
  FUZZ_CHECK(reloaded.ok() && (*reloaded)->Serialize() == stored);
  std::vector<uint32_t> reloaded_list;
  std::unique_ptr<codecs::ListScanner> scanner = graph.Scan();
  std::vector<uint32_t> list;
  absl::Span<const uint32_t> scanned;
  uint64_t arcs = 0;
  const uint32_t checked = std::min(graph.size(), kMaxCheckedNodes);
  for (uint32_t v = 0; v < checked; ++v) {
    graph.Decode(v, &list);
    FUZZ_CHECK(list.size() == graph.Degree(v));
    for (size_t i = 0; i < list.size(); ++i) {
      FUZZ_CHECK(list[i] < graph.size());
      if (i > 0) FUZZ_CHECK(list[i - 1] < list[i]);
    }
    (*reloaded)->Decode(v, &reloaded_list);
    FUZZ_CHECK(reloaded_list == list);
    FUZZ_CHECK(scanner->Next(&scanned));
    FUZZ_CHECK(std::vector<uint32_t>(scanned.begin(), scanned.end()) == list);
    arcs += list.size();
  }
  if (checked == graph.size()) {
    FUZZ_CHECK(!scanner->Next(&scanned));
    FUZZ_CHECK(arcs == graph.arc_count());
  }
}

}  // namespace crawldb::fuzz
