// Paper 001's Table 2 on a real graph: the adjacency codecs (codecs/adjacency_codec.h) on
// cnr-2000 (LAW; 325,557 nodes, 3,216,152 arcs) and its transpose, the outlinks and inlinks of
// the Link Database. Prints markdown (bench/links.sh runs it; bench/README.md explains it).
//
// Rows. Every codec in LAW's node order with one starts partition ("-1part"), and link2, link3
// and link3+huff again on the graph renumbered partition-first by degree with the paper's three
// starts partitions (degree_partitions.h; both directions renumbered with the same ids, the
// degree being the larger of in- and outdegree, as paper 001 §2.2); bv with K = 8 and L = 4
// (the defaults) and L = 6.
//
// Last table: bv against LAW's BVGraph files of the same graph (NAME.graph, .offsets and
// NAME-t.* beside NAME.arcs.tsv.xz), their sizes read from the files as the reference; the
// files bvgraph_files.h writes with LAW's parameters; bv's lists (refs + deletes + adds),
// tables and Elias-Fano offsets; the time to import LAW's files (ReadBvGraphFiles, one run).
//
// Columns, per direction:
//   bits/link    8 × the serialized bytes (EncodedGraph::Serialize: envelope, parameters,
//                starts, data, tables — everything) ÷ arcs; then the same split by component
//                (AdjacencySizeBits), header and tables in bits, not per link
//   encode s     EncodeAdjacency wall time, one run
//   seq ns/link  a ListScanner over every list, summing the ids, ÷ arcs
//   rand ns/link Decode of every list once, in one random order (fixed seed), summing the ids,
//                into one reused vector, ÷ arcs
//   SCC ms       strongly connected components: graph::StrongComponents (Tarjan's algorithm made
//                iterative, extension/graph/strong_components.h, the one scc() runs), which takes
//                each node's list by Decode (random access, as the paper's SCC) when the depth-
//                first search first reaches the node, keeping it on a stack until the node is done
// Times are the median of --repetitions runs (5 by default). Checksums of the scans and the SCC
// results must agree across codecs; a disagreement prints a WARNING line.
//
//   links_benchmark [--arcs=PATH] [--repetitions=N] [--seed=N]
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "codecs/adjacency_codec.h"
#include "codecs/adjacency_lists.h"
#include "codecs/bvgraph_files.h"
#include "codecs/degree_partitions.h"
#include "extension/graph/graph_lists.h"
#include "extension/graph/strong_components.h"

namespace crawldb::codecs {
namespace {

using Clock = std::chrono::steady_clock;

struct Flags {
  std::string arcs = std::string(CRAWLDB_SHARED_DATA) + "/cnr-2000/cnr-2000.arcs.tsv.xz";
  int repetitions = 5;
  uint64_t seed = 1;
};

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The median of `runs` calls of `run`, each returning seconds.
template <typename Run>
double Median(int runs, Run run) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) times.push_back(run());
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

// Reads `src<TAB>dst` lines through `xz -dc`; exits on failure.
AdjacencyLists ReadArcs(const std::string& path) {
  FILE* pipe = popen(("xz -dc '" + path + "'").c_str(), "r");
  if (pipe == nullptr) {
    std::fprintf(stderr, "links_benchmark: cannot run xz -dc %s\n", path.c_str());
    std::exit(1);
  }
  std::vector<Arc> arcs;
  uint32_t node_count = 0;
  char line[64];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) {
    char* end;
    const unsigned long src = std::strtoul(line, &end, 10);
    const unsigned long dst = std::strtoul(end, nullptr, 10);
    arcs.push_back({static_cast<uint32_t>(src), static_cast<uint32_t>(dst)});
    node_count = std::max<uint32_t>(node_count, static_cast<uint32_t>(std::max(src, dst)) + 1);
  }
  if (pclose(pipe) != 0 || arcs.empty()) {
    std::fprintf(stderr, "links_benchmark: xz -dc %s failed or gave no arcs\n", path.c_str());
    std::exit(1);
  }
  absl::StatusOr<AdjacencyLists> graph = AdjacencyLists::FromArcs(node_count, arcs);
  if (!graph.ok()) {
    std::fprintf(stderr, "links_benchmark: %s\n", graph.status().ToString().c_str());
    std::exit(1);
  }
  return *std::move(graph);
}

// An encoded graph as the graph algorithms read it: every id a node, each list by Decode.
class EncodedGraphLists : public graph::GraphLists {
 public:
  explicit EncodedGraphLists(const EncodedGraph* graph) : graph_(graph) {}
  uint32_t node_limit() const override { return graph_->size(); }
  bool IsNode(uint32_t) const override { return true; }
  void List(graph::Follow, uint32_t node, std::vector<uint32_t>* list) const override {
    graph_->Decode(node, list);
  }

 private:
  const EncodedGraph* graph_;
};

struct Row {
  std::string label;  // e.g. "link2-1part"
  std::string codec;
  bool renumbered;         // Partition-first ids and three starts partitions.
  uint32_t max_chain = 4;  // L (link3, link3+huff, bv); K is 8 for all.
};

struct Measurement {
  AdjacencySizeBits bits;
  double encode_seconds = 0;
  double sequential_ns = 0;  // Per link.
  double random_ns = 0;      // Per link.
  double scc_ms = 0;
  graph::ComponentCounts scc;
  uint64_t checksum = 0;
};

Measurement Measure(const Row& row, const AdjacencyLists& graph,
                    const AdjacencyCodecOptions& options, const std::vector<uint32_t>& order,
                    int repetitions) {
  Measurement m;
  const Clock::time_point start = Clock::now();
  absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded =
      EncodeAdjacency(row.codec, graph.view(), options);
  m.encode_seconds = Seconds(start);
  if (!encoded.ok()) {
    std::fprintf(stderr, "links_benchmark: %s: %s\n", row.label.c_str(),
                 encoded.status().ToString().c_str());
    std::exit(1);
  }
  const EncodedGraph& g = **encoded;
  m.bits = g.SizeBits();
  if (m.bits.Total() != 8 * g.Serialize().size()) {
    std::printf("WARNING: %s: SizeBits() disagrees with the serialized size\n", row.label.c_str());
  }
  uint64_t sequential_sum = 0;
  const auto sequential_scan = [&] {
    const Clock::time_point t = Clock::now();
    std::unique_ptr<ListScanner> scanner = g.Scan();
    absl::Span<const uint32_t> list;
    uint64_t sum = 0;
    while (scanner->Next(&list)) {
      for (uint32_t id : list) sum += id;
    }
    const double seconds = Seconds(t);
    sequential_sum = sum;
    return seconds;
  };
  uint64_t random_sum = 0;
  const auto random_scan = [&] {
    const Clock::time_point t = Clock::now();
    std::vector<uint32_t> list;
    uint64_t sum = 0;
    for (uint32_t v : order) {
      g.Decode(v, &list);
      for (uint32_t id : list) sum += id;
    }
    const double seconds = Seconds(t);
    random_sum = sum;
    return seconds;
  };
  const auto scc = [&] {
    const Clock::time_point t = Clock::now();
    const EncodedGraphLists lists(&g);
    m.scc = graph::CountComponents(graph::StrongComponents(lists));
    return Seconds(t);
  };
  const double arcs = static_cast<double>(g.arc_count());
  m.sequential_ns = 1e9 / arcs * Median(repetitions, sequential_scan);
  m.random_ns = 1e9 / arcs * Median(repetitions, random_scan);
  m.scc_ms = 1e3 * Median(repetitions, scc);
  if (random_sum != sequential_sum) {
    std::printf("WARNING: %s: sequential and random scans disagree\n", row.label.c_str());
  }
  m.checksum = sequential_sum;
  return m;
}

struct PaperRow {
  const char* name;
  const char* inlinks;   // bits/link
  const char* outlinks;  // bits/link
  const char* seq;       // ns/link, inlinks
  const char* rand;      // ns/link, inlinks
  const char* scc;       // s
};

// Paper 001, Table 2, as printed (7-day crawl: 61 M URLs, 1 G links; Alpha 21264A, 667 MHz).
constexpr PaperRow kPaper[] = {
    {"Link1", "34.00", "24.00", "13", "72", "187"},
    {"Link2", "8.90", "11.03", "47", "109", "217"},
    {"Link2-1part", "9.02", "12.81", "49", "117", "217"},
    {"Link2+huff", "7.92", "10.8", "117", "195", "287"},
    {"Link3", "5.66", "5.61", "248", "336", "414"},
    {"Link3+huff", "5.39", "5.55", "278", "367", "451"},
};

double PerLink(uint64_t bits, uint64_t arcs) { return static_cast<double>(bits) / arcs; }

// LAW's files for the graph of `arcs` (…/NAME.arcs.tsv.xz → …/NAME), or "" when the name does
// not end so.
std::string LawBasename(const std::string& arcs) {
  const std::string suffix = ".arcs.tsv.xz";
  if (arcs.size() < suffix.size() ||
      arcs.compare(arcs.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return "";
  }
  return arcs.substr(0, arcs.size() - suffix.size());
}

// The size of a file in bits per link, or -1 when it is missing.
double FileBitsPerLink(const std::string& path, uint64_t arcs) {
  std::error_code error;
  const uintmax_t bytes = std::filesystem::file_size(path, error);
  return error ? -1 : 8.0 * static_cast<double>(bytes) / static_cast<double>(arcs);
}

// bv against LAW's BVGraph files (read from beside the arcs file, the reference) and against
// what bvgraph_files.h writes with LAW's parameters; LAW's import time; both directions all-in.
void PrintAgainstLaw(const Flags& flags, const AdjacencyLists* const graphs[2],
                     const std::vector<Row>& rows, const std::vector<Measurement> results[2]) {
  const std::string law = LawBasename(flags.arcs);
  const char* directions[2] = {"outlinks", "inlinks"};
  const char* suffixes[2] = {"", "-t"};
  const uint64_t m = graphs[0]->arc_count();
  std::printf("### against LAW's BVGraph files (%s, %s-t; windowsize 7, maxrefcount 3)\n\n",
              law.c_str(), law.c_str());
  std::printf(
      "| direction | LAW .graph | LAW .offsets | LAW all-in | ours in LAW's format .graph | "
      ".offsets | bv lists | bv tables | bv offsets | bv all-in | bv L=6 lists | bv L=6 all-in "
      "| LAW import s |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  double all_in[3] = {0, 0, 0};  // LAW, bv, bv L=6.
  for (int d = 0; d < 2; ++d) {
    const std::string base = law + suffixes[d];
    const double graph_bits = FileBitsPerLink(base + ".graph", m);
    const double offsets_bits = FileBitsPerLink(base + ".offsets", m);
    double import_seconds = -1;
    if (graph_bits >= 0) {
      const Clock::time_point start = Clock::now();
      absl::StatusOr<AdjacencyLists> read = ReadBvGraphFiles(base);
      import_seconds = Seconds(start);
      if (!read.ok() || read->arc_count() != m) {
        std::printf("WARNING: %s: %s\n", base.c_str(),
                    read.ok() ? "a different arc count" : read.status().ToString().c_str());
      }
    }
    absl::StatusOr<BvGraphFiles> ours = WriteBvGraph(graphs[d]->view(), {});
    if (!ours.ok()) {
      std::fprintf(stderr, "links_benchmark: %s\n", ours.status().ToString().c_str());
      std::exit(1);
    }
    const auto find = [&rows](const char* label) {
      for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].label == label) return i;
      }
      return rows.size();
    };
    const AdjacencySizeBits& bv = results[d][find("bv")].bits;
    const AdjacencySizeBits& bv6 = results[d][find("bv L=6")].bits;
    all_in[0] += graph_bits + offsets_bits;
    all_in[1] += PerLink(bv.Total(), m);
    all_in[2] += PerLink(bv6.Total(), m);
    std::printf(
        "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | "
        "%.2f |\n",
        directions[d], graph_bits, offsets_bits, graph_bits + offsets_bits,
        PerLink(8 * ours->graph.size(), m), PerLink(8 * ours->offsets.size(), m),
        PerLink(bv.refs + bv.deletes + bv.adds, m), PerLink(bv.tables, m), PerLink(bv.starts, m),
        PerLink(bv.Total(), m), PerLink(bv6.refs + bv6.deletes + bv6.adds, m),
        PerLink(bv6.Total(), m), import_seconds);
  }
  std::printf(
      "\nBoth directions all-in, bits/link: LAW %.2f (.graph + .offsets), bv %.2f, bv L=6 %.2f. "
      "A missing LAW file shows as -1.\n\n",
      all_in[0], all_in[1], all_in[2]);
}

int Run(const Flags& flags) {
  const Clock::time_point read_start = Clock::now();
  const AdjacencyLists outlinks = ReadArcs(flags.arcs);
  const AdjacencyLists inlinks = outlinks.Transpose();
  DegreePartitions partitions;
  const std::vector<uint32_t> new_id =
      PartitionFirstOrder(outlinks.view(), inlinks.view(), &partitions);
  const AdjacencyLists renumbered[2] = {outlinks.Renumber(new_id), inlinks.Renumber(new_id)};
  const AdjacencyLists* const original[2] = {&outlinks, &inlinks};
  const uint32_t n = outlinks.size();
  const uint64_t m = outlinks.arc_count();
  std::printf("graph: %s — %" PRIu32 " nodes, %" PRIu64 " arcs (%.2f per node), read in %.1f s\n",
              flags.arcs.c_str(), n, m, static_cast<double>(m) / n, Seconds(read_start));
  std::printf("degree partitions (paper 001 §2.2, max of in- and outdegree): high (> %" PRIu64
              ") %" PRIu32 ", medium (%" PRIu64 "..%" PRIu64 ") %" PRIu32 ", low %" PRIu32
              " nodes\n",
              kHighDegreeAbove, partitions.high, kLowDegreeBelow, kHighDegreeAbove,
              partitions.medium, n - partitions.high - partitions.medium);
  std::printf("timings: median of %d runs; random order from seed %" PRIu64 "\n\n",
              flags.repetitions, flags.seed);

  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(flags.seed);
  std::shuffle(order.begin(), order.end(), rng);

  const std::vector<Row> rows = {
      {"link1", "link1", false},
      {"link2-1part", "link2", false},
      {"link2 (3 partitions)", "link2", true},
      {"link3-1part", "link3", false},
      {"link3 (3 partitions)", "link3", true},
      {"link3+huff-1part", "link3+huff", false},
      {"link3+huff (3 partitions)", "link3+huff", true},
      {"bv", "bv", false},
      {"bv L=6", "bv", false, 6},
  };
  const char* directions[2] = {"outlinks", "inlinks"};
  std::vector<Measurement> results[2];
  for (int d = 0; d < 2; ++d) {
    std::printf("### %s\n\n", directions[d]);
    std::printf(
        "| codec | bits/link | starts | refs | deletes | adds | header + tables (bits) | "
        "encode s | seq ns/link | rand ns/link | SCC ms |\n");
    std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const Row& row : rows) {
      AdjacencyCodecOptions options;
      if (row.renumbered) options.partitions = partitions;
      options.max_chain = row.max_chain;
      const AdjacencyLists& graph = row.renumbered ? renumbered[d] : *original[d];
      const Measurement r = Measure(row, graph, options, order, flags.repetitions);
      const AdjacencySizeBits& b = r.bits;
      std::printf("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %" PRIu64
                  " | %.2f | %.2f | %.2f | %.1f |\n",
                  row.label.c_str(), PerLink(b.Total(), m), PerLink(b.starts, m),
                  PerLink(b.refs, m), PerLink(b.deletes, m), PerLink(b.adds, m),
                  b.header + b.tables, r.encode_seconds, r.sequential_ns, r.random_ns, r.scc_ms);
      std::fflush(stdout);
      results[d].push_back(r);
    }
    std::printf("\n");
  }

  // Agreement: the same SCCs everywhere, the same checksums within one numbering (renumbering
  // changes the sum of the ids).
  const graph::ComponentCounts scc = results[0][0].scc;
  bool scc_agree = true;
  for (int d = 0; d < 2; ++d) {
    for (size_t i = 0; i < rows.size(); ++i) {
      const Measurement& r = results[d][i];
      scc_agree = scc_agree && r.scc.components == scc.components && r.scc.largest == scc.largest;
      const Measurement& same_numbering = results[d][rows[i].renumbered ? 2 : 0];
      if (r.checksum != same_numbering.checksum) {
        std::printf("WARNING: %s %s: checksum differs\n", directions[d], rows[i].label.c_str());
      }
    }
  }
  std::printf(
      "SCC: %" PRIu64 " components, the largest of %" PRIu64 " nodes; %s\n\n", scc.components,
      scc.largest,
      scc_agree ? "the same for every codec and both directions" : "WARNING: codecs disagree");

  // Against the paper: its Link2 and Link3 rows are our 3-partition rows, as its ids are
  // partition-first; our rows with no paper row follow.
  const int ours_for_paper[] = {0, 2, 1, -1, 4, 6};
  const int ours_only[] = {3, 5};
  std::printf("### against paper 001, Table 2 (times over inlinks, as the paper's)\n\n");
  std::printf(
      "| row | inlinks bits/link: paper | ours | outlinks bits/link: paper | ours | "
      "seq ns/link: paper | ours | rand ns/link: paper | ours | SCC: paper s | ours ms |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (size_t p = 0; p < std::size(kPaper); ++p) {
    const PaperRow& paper = kPaper[p];
    const int i = ours_for_paper[p];
    if (i < 0) {
      std::printf("| %s | %s | not built | %s | not built | %s | | %s | | %s | |\n", paper.name,
                  paper.inlinks, paper.outlinks, paper.seq, paper.rand, paper.scc);
      continue;
    }
    const Measurement& in = results[1][i];
    const Measurement& out = results[0][i];
    std::printf("| %s = %s | %s | %.2f | %s | %.2f | %s | %.2f | %s | %.2f | %s | %.1f |\n",
                paper.name, rows[i].label.c_str(), paper.inlinks, PerLink(in.bits.Total(), m),
                paper.outlinks, PerLink(out.bits.Total(), m), paper.seq, in.sequential_ns,
                paper.rand, in.random_ns, paper.scc, in.scc_ms);
  }
  for (int i : ours_only) {
    const Measurement& in = results[1][i];
    const Measurement& out = results[0][i];
    std::printf("| (ours only) %s | | %.2f | | %.2f | | %.2f | | %.2f | | %.1f |\n",
                rows[i].label.c_str(), PerLink(in.bits.Total(), m), PerLink(out.bits.Total(), m),
                in.sequential_ns, in.random_ns, in.scc_ms);
  }
  std::printf("\n");

  // The ratio the issue asks about: link3 / link1, ours against the paper's.
  std::printf("### link3 / link1 size\n\n");
  std::printf(
      "| direction | paper (Table 2 as printed) | ours, link3 (3 partitions) | "
      "ours, link3-1part | ours ÷ paper (3 partitions) |\n");
  std::printf("|---|---:|---:|---:|---:|\n");
  const double paper_ratio[2] = {5.61 / 24.00, 5.66 / 34.00};
  for (int d = 0; d < 2; ++d) {
    const double link1 = static_cast<double>(results[d][0].bits.Total());
    const double three = results[d][4].bits.Total() / link1;
    const double one = results[d][3].bits.Total() / link1;
    std::printf("| %s | %.3f | %.3f | %.3f | %.2f |\n", directions[d], paper_ratio[d], three, one,
                three / paper_ratio[d]);
  }
  std::printf(
      "\nThe paper's Link1 outlinks figure, 24.00 bits/link, is below the 32 bits every "
      "Link1 link takes; with its inlinks figure, 34.00, the outlinks ratio would be "
      "%.3f.\n\n",
      5.61 / 34.00);

  // Why the ratio differs: link3 / link1 = (link2 / link1) × (link3 / link2), the single-list
  // stage then the interlist one, each ours against the paper's (3-partition rows, as its).
  std::printf("### link3 / link1 = (link2 / link1) × (link3 / link2), 3-partition rows\n\n");
  std::printf(
      "| direction | link1 bits/link: paper | ours | link2 ÷ link1: paper | ours | link3 ÷ link2: "
      "paper | ours | link3 ÷ link1: paper | ours | link2 data (gaps) bits/link, ours |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  const double paper_link1[2] = {24.00, 34.00};
  const double paper_link2[2] = {11.03, 8.90};
  const double paper_link3[2] = {5.61, 5.66};
  for (int d = 0; d < 2; ++d) {
    const double link1 = static_cast<double>(results[d][0].bits.Total());
    const double link2 = static_cast<double>(results[d][2].bits.Total());
    const double link3 = static_cast<double>(results[d][4].bits.Total());
    std::printf("| %s | %.2f | %.2f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f |\n",
                directions[d], paper_link1[d], link1 / m, paper_link2[d] / paper_link1[d],
                link2 / link1, paper_link3[d] / paper_link2[d], link3 / link2,
                paper_link3[d] / paper_link1[d], link3 / link1,
                PerLink(results[d][2].bits.adds, m));
  }
  std::printf("\n");
  PrintAgainstLaw(flags, original, rows, results);
  return 0;
}

bool ParseFlag(const char* arg, const char* name, std::string* value) {
  const size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=') return false;
  *value = arg + length + 1;
  return true;
}

}  // namespace
}  // namespace crawldb::codecs

int main(int argc, char** argv) {
  crawldb::codecs::Flags flags;
  for (int i = 1; i < argc; ++i) {
    std::string value;
    if (crawldb::codecs::ParseFlag(argv[i], "--arcs", &value)) {
      flags.arcs = value;
    } else if (crawldb::codecs::ParseFlag(argv[i], "--repetitions", &value)) {
      flags.repetitions = std::max(1, std::atoi(value.c_str()));
    } else if (crawldb::codecs::ParseFlag(argv[i], "--seed", &value)) {
      flags.seed = std::strtoull(value.c_str(), nullptr, 10);
    } else {
      std::fprintf(stderr, "usage: links_benchmark [--arcs=PATH] [--repetitions=N] [--seed=N]\n");
      return 2;
    }
  }
  return crawldb::codecs::Run(flags);
}
