#include "codecs/bvgraph_files.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <iterator>
#include <tuple>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/bv_lists.h"
#include "codecs/elias_delta.h"
#include "codecs/elias_gamma.h"
#include "codecs/zeta.h"

namespace crawldb::codecs {
namespace {

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("bvgraph: ", what));
}

// One of WebGraph's instantaneous codes of the naturals.
struct Code {
  enum Kind { kGamma, kDelta, kUnary, kZeta } kind = kGamma;
  int k = 1;  // ζ_k.

  uint64_t Read(BitReader& in) const {
    switch (kind) {
      case kGamma:
        return ReadGamma(in);
      case kDelta:
        return ReadDelta(in);
      case kUnary:
        return in.ReadUnary();
      case kZeta:
        return ReadZeta(in, k);
    }
    return in.Fail();
  }
  void Write(uint64_t x, BitWriter& out) const {
    switch (kind) {
      case kGamma:
        return WriteGamma(out, x);
      case kDelta:
        return WriteDelta(out, x);
      case kUnary:
        return out.WriteUnary(x);
      case kZeta:
        return WriteZeta(out, x, k);
    }
  }
  uint64_t Length(uint64_t x) const {
    switch (kind) {
      case kGamma:
        return GammaLength(x);
      case kDelta:
        return DeltaLength(x);
      case kUnary:
        return x + 1;
      case kZeta:
        return ZetaLength(x, k);
    }
    return 0;
  }
};

// The code of each component (BvComponent order) and of the offsets.
struct Codes {
  std::array<Code, kBvComponents> component;
  Code offsets;

  const Code& operator[](BvComponent c) const { return component[static_cast<int>(c)]; }
};

Codes DefaultCodes(int zeta_k) {
  Codes codes;
  codes.component[static_cast<int>(BvComponent::kReference)].kind = Code::kUnary;
  Code& first = codes.component[static_cast<int>(BvComponent::kFirstResidual)];
  first = {Code::kZeta, zeta_k};
  codes.component[static_cast<int>(BvComponent::kResidual)] = first;
  return codes;
}

// Applies `compressionflags` to the default codes.
absl::StatusOr<Codes> ParseFlags(absl::string_view flags, int zeta_k) {
  Codes codes = DefaultCodes(zeta_k);
  for (absl::string_view token : absl::StrSplit(flags, '|', absl::SkipWhitespace())) {
    token = absl::StripAsciiWhitespace(token);
    const size_t cut = token.rfind('_');
    const absl::string_view what = token.substr(0, cut == absl::string_view::npos ? 0 : cut);
    const absl::string_view name = cut == absl::string_view::npos ? "" : token.substr(cut + 1);
    Code code;
    if (name == "GAMMA") {
      code.kind = Code::kGamma;
    } else if (name == "DELTA") {
      code.kind = Code::kDelta;
    } else if (name == "UNARY") {
      code.kind = Code::kUnary;
    } else if (name == "ZETA") {
      code = {Code::kZeta, zeta_k};
    } else {
      return Corrupt(absl::StrCat("unsupported compression flag '", token, "'"));
    }
    const auto set = [&codes, code](BvComponent c) { codes.component[static_cast<int>(c)] = code; };
    if (what == "OUTDEGREES") {
      set(BvComponent::kOutdegree);
    } else if (what == "REFERENCES") {
      set(BvComponent::kReference);
    } else if (what == "BLOCK_COUNT") {
      set(BvComponent::kBlockCount);
    } else if (what == "BLOCKS") {
      set(BvComponent::kBlock);
    } else if (what == "INTERVALS") {
      set(BvComponent::kIntervalLeft);
      set(BvComponent::kIntervalLength);
    } else if (what == "RESIDUALS") {
      set(BvComponent::kFirstResidual);
      set(BvComponent::kResidual);
    } else if (what == "OFFSETS") {
      codes.offsets = code;
    } else {
      return Corrupt(absl::StrCat("unsupported compression flag '", token, "'"));
    }
  }
  return codes;
}

// The properties the reader needs.
struct Properties {
  uint64_t nodes = 0;
  uint64_t arcs = 0;
  BvShape shape{};
  int zeta_k = 3;
  std::string flags;
};

absl::StatusOr<Properties> ParseProperties(absl::string_view text) {
  std::vector<std::pair<std::string, std::string>> entries;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#' || line[0] == '!') continue;
    const size_t cut = line.find_first_of("=:");
    if (cut == absl::string_view::npos) continue;
    entries.emplace_back(std::string(absl::StripAsciiWhitespace(line.substr(0, cut))),
                         std::string(absl::StripAsciiWhitespace(line.substr(cut + 1))));
  }
  const auto find = [&entries](absl::string_view key) -> const std::string* {
    for (const auto& [k, v] : entries) {
      if (k == key) return &v;
    }
    return nullptr;
  };
  const auto number = [&find](absl::string_view key, uint64_t max,
                              uint64_t* value) -> absl::Status {
    const std::string* found = find(key);
    if (found == nullptr) return Corrupt(absl::StrCat("the properties have no ", key));
    if (!absl::SimpleAtoi(*found, value) || *value > max) {
      return Corrupt(
          absl::StrCat("the properties' ", key, " is '", *found, "'; expected 0 to ", max));
    }
    return absl::OkStatus();
  };
  Properties properties;
  uint64_t version = 0;
  uint64_t window = 0;
  uint64_t min_interval = 0;
  uint64_t zeta_k = 3;
  for (auto [key, max, value] : {std::tuple{"nodes", uint64_t{kMaxGraphNodes}, &properties.nodes},
                                 std::tuple{"arcs", UINT64_MAX, &properties.arcs},
                                 std::tuple{"windowsize", uint64_t{1} << 16, &window},
                                 std::tuple{"minintervallength", uint64_t{1} << 16, &min_interval},
                                 std::tuple{"version", UINT64_MAX, &version}}) {
    if (absl::Status status = number(key, max, value); !status.ok()) return status;
  }
  if (version != 0) return Corrupt(absl::StrCat("format version ", version, "; expected 0"));
  if (find("zetak") != nullptr) {
    if (absl::Status status = number("zetak", kMaxZetaK, &zeta_k); !status.ok()) return status;
    if (zeta_k < kMinZetaK) return Corrupt("the properties' zetak is 0; expected 1 to 7");
  }
  properties.shape = {static_cast<uint32_t>(window), static_cast<uint32_t>(min_interval)};
  properties.zeta_k = static_cast<int>(zeta_k);
  if (const std::string* flags = find("compressionflags")) properties.flags = *flags;
  return properties;
}

absl::StatusOr<std::vector<uint8_t>> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("bvgraph: cannot read ", path));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) return absl::NotFoundError(absl::StrCat("bvgraph: cannot read ", path));
  return bytes;
}

absl::Status WriteFile(const std::string& path, absl::Span<const uint8_t> bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("bvgraph: cannot write ", path));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<AdjacencyLists> ReadBvGraph(absl::string_view properties_text,
                                           absl::Span<const uint8_t> graph,
                                           std::optional<absl::Span<const uint8_t>> offsets) {
  absl::StatusOr<Properties> properties = ParseProperties(properties_text);
  if (!properties.ok()) return properties.status();
  absl::StatusOr<Codes> codes = ParseFlags(properties->flags, properties->zeta_k);
  if (!codes.ok()) return codes.status();
  const uint64_t n = properties->nodes;
  // Every list takes at least one bit: a node count beyond the bits is corrupt, and bounds what
  // is allocated before reading.
  if (n > uint64_t{graph.size()} * 8) {
    return Corrupt(absl::StrCat(n, " nodes in ", graph.size(), " bytes"));
  }
  const BvShape shape = properties->shape;
  BitReader in(graph);
  std::optional<BitReader> offsets_in;
  if (offsets.has_value()) {
    offsets_in.emplace(*offsets);
    if (codes->offsets.Read(*offsets_in) != 0 || !offsets_in->ok()) {
      return Corrupt("the offsets do not start at 0");
    }
  }
  // The lists read so far, laid out as AdjacencyListsView's: references read them there.
  std::vector<uint64_t> offsets_out(n + 1);
  std::vector<uint32_t> targets;
  std::vector<uint32_t> list;
  BvScratch scratch;
  const auto read = [&codes](BvComponent c, BitReader& bits, uint64_t) {
    return (*codes)[c].Read(bits);
  };
  for (uint64_t v = 0; v < n; ++v) {
    const uint64_t begin = in.position();
    const auto reference = [&](uint32_t r) {
      const uint64_t from = v - r;
      return absl::MakeConstSpan(targets).subspan(offsets_out[from],
                                                  offsets_out[from + 1] - offsets_out[from]);
    };
    uint32_t ref;
    if (!ReadBvList(in, static_cast<uint32_t>(v), static_cast<uint32_t>(n), shape, read, reference,
                    &scratch, &list, &ref)) {
      return Corrupt(absl::StrCat("the list of node ", v, " is corrupt"));
    }
    if (list.size() > properties->arcs - targets.size()) {
      return Corrupt(absl::StrCat("more arcs than the properties' ", properties->arcs));
    }
    targets.insert(targets.end(), list.begin(), list.end());
    offsets_out[v + 1] = targets.size();
    if (offsets_in.has_value()) {
      const uint64_t length = codes->offsets.Read(*offsets_in);
      if (!offsets_in->ok() || length != in.position() - begin) {
        return Corrupt(absl::StrCat("the offset of node ", v + 1, " is not where its list starts"));
      }
    }
  }
  if (targets.size() != properties->arcs) {
    return Corrupt(absl::StrCat(targets.size(), " arcs; the properties say ", properties->arcs));
  }
  // ReadBvList made every list an adjacency list; FromCsr checks it again.
  absl::StatusOr<AdjacencyLists> lists =
      AdjacencyLists::FromCsr(std::move(offsets_out), std::move(targets));
  if (!lists.ok()) return Corrupt(lists.status().message());
  return lists;
}

absl::StatusOr<BvGraphFiles> WriteBvGraph(AdjacencyListsView graph,
                                          const BvGraphParameters& parameters) {
  if (parameters.window_size > (1u << 16) || parameters.max_ref_count > 255 ||
      parameters.min_interval_length > (1u << 16) || parameters.zeta_k < kMinZetaK ||
      parameters.zeta_k > kMaxZetaK) {
    return absl::InvalidArgumentError(absl::StrCat(
        "bvgraph: windowsize ", parameters.window_size, ", maxrefcount ", parameters.max_ref_count,
        ", minintervallength ", parameters.min_interval_length, ", zetak ", parameters.zeta_k,
        "; expected at most 65536, 255 and 65536, and 1 to 7"));
  }
  if (absl::Status status = CheckAdjacencyLists(graph); !status.ok()) return status;
  const Codes codes = DefaultCodes(parameters.zeta_k);
  const BvShape shape{parameters.window_size, parameters.min_interval_length};
  const uint32_t n = graph.size();
  BitWriter out;
  BitWriter offsets;
  codes.offsets.Write(0, offsets);
  BvReferenceChooser chooser(shape, parameters.max_ref_count, n);
  for (uint32_t v = 0; v < n; ++v) {
    const uint32_t degree = static_cast<uint32_t>(graph.list(v).size());
    const uint32_t ref = chooser.Choose(graph, v, [&](uint32_t r, const BvParts& parts) {
      uint64_t total = 0;
      VisitBvList(v, degree, r, shape, parts,
                  [&](BvComponent c, uint64_t x, uint64_t) { total += codes[c].Length(x); });
      return total;
    });
    const uint64_t begin = out.bit_length();
    VisitBvList(v, degree, ref, shape, chooser.parts(),
                [&](BvComponent c, uint64_t x, uint64_t) { codes[c].Write(x, out); });
    codes.offsets.Write(out.bit_length() - begin, offsets);
  }
  BvGraphFiles files;
  const double bits_per_link =
      graph.arc_count() == 0 ? 0 : double(out.bit_length()) / graph.arc_count();
  files.properties = absl::StrCat(
      "#BVGraph properties\n#written by crawldb\ngraphclass=it.unimi.dsi.webgraph.BVGraph\n",
      "version=0\nnodes=", n, "\narcs=", graph.arc_count(), "\nwindowsize=", parameters.window_size,
      "\nmaxrefcount=", parameters.max_ref_count,
      "\nminintervallength=", parameters.min_interval_length, "\nzetak=", parameters.zeta_k,
      "\ncompressionflags=\n", "bitsperlink=", bits_per_link, "\n");
  files.graph = out.Finish();
  files.offsets = offsets.Finish();
  return files;
}

absl::StatusOr<AdjacencyLists> ReadBvGraphFiles(const std::string& basename) {
  absl::StatusOr<std::vector<uint8_t>> properties = ReadFile(basename + ".properties");
  if (!properties.ok()) return properties.status();
  absl::StatusOr<std::vector<uint8_t>> graph = ReadFile(basename + ".graph");
  if (!graph.ok()) return graph.status();
  std::optional<std::vector<uint8_t>> offsets;
  if (std::ifstream(basename + ".offsets").good()) {
    absl::StatusOr<std::vector<uint8_t>> read = ReadFile(basename + ".offsets");
    if (!read.ok()) return read.status();
    offsets = *std::move(read);
  }
  return ReadBvGraph(
      absl::string_view(reinterpret_cast<const char*>(properties->data()), properties->size()),
      *graph,
      offsets.has_value() ? std::optional<absl::Span<const uint8_t>>(*offsets) : std::nullopt);
}

absl::Status WriteBvGraphFiles(const BvGraphFiles& files, const std::string& basename) {
  const std::vector<uint8_t> properties(files.properties.begin(), files.properties.end());
  for (auto [suffix, bytes] :
       {std::pair{".properties", &properties}, std::pair{".graph", &files.graph},
        std::pair{".offsets", &files.offsets}}) {
    if (absl::Status status = WriteFile(basename + suffix, *bytes); !status.ok()) return status;
  }
  return absl::OkStatus();
}

}  // namespace crawldb::codecs
