// The registry of adjacency codecs and the envelope of their serialized form (adjacency_codec.h).
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/adjacency_codec.h"
#include "codecs/bv.h"
#include "codecs/link1.h"
#include "codecs/link2.h"
#include "codecs/link3.h"
#include "codecs/link3_huff.h"

namespace crawldb::codecs {
namespace {

// One line per codec.
constexpr AdjacencyCodec kCodecs[] = {
    {"link1", &EncodeLink1, &LoadLink1, nullptr, nullptr},
    {"link2", &EncodeLink2, &LoadLink2, nullptr, nullptr},
    {"link3", &EncodeLink3, &LoadLink3, &LoadLink3Deferred, &LoadLink3Paged},
    {"link3+huff", &EncodeLink3Huff, &LoadLink3Huff, &LoadLink3HuffDeferred, &LoadLink3HuffPaged},
    {"bv", &EncodeBv, &LoadBv, nullptr, nullptr},
};

}  // namespace

std::vector<uint8_t> EncodedGraph::Serialize() const {
  const absl::string_view name = codec();
  std::vector<uint8_t> out;
  out.push_back(kAdjacencyFormatVersion);
  out.push_back(static_cast<uint8_t>(name.size()));
  for (char c : name) out.push_back(static_cast<uint8_t>(c));
  AppendBody(&out);
  return out;
}

absl::Status EncodedGraph::status() const {
  if (!corrupt_.load(std::memory_order_acquire)) return ReadFailure();
  std::lock_guard<std::mutex> lock(problem_mutex_);
  return absl::DataLossError(problem_);
}

void EncodedGraph::ReportCorrupt(std::string problem) const {
  std::lock_guard<std::mutex> lock(problem_mutex_);
  if (corrupt_.load(std::memory_order_relaxed)) return;
  problem_ = std::move(problem);
  corrupt_.store(true, std::memory_order_release);
}

uint64_t EnvelopeBits(absl::string_view codec) { return 8 * (2 + uint64_t{codec.size()}); }

absl::Span<const AdjacencyCodec> AdjacencyCodecs() { return kCodecs; }

const AdjacencyCodec* FindAdjacencyCodec(absl::string_view name) {
  for (const AdjacencyCodec& codec : kCodecs) {
    if (codec.name == name) return &codec;
  }
  return nullptr;
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> EncodeAdjacency(
    absl::string_view codec, AdjacencyListsView graph, const AdjacencyCodecOptions& options) {
  const AdjacencyCodec* found = FindAdjacencyCodec(codec);
  if (found == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("adjacency_codec: unknown codec '", codec, "'"));
  }
  if (absl::Status status = CheckAdjacencyLists(graph); !status.ok()) return status;
  return found->encode(graph, options);
}

namespace {

// The codec an envelope names and where its body begins; `bytes` holds at least the envelope
// when it is well formed.
absl::StatusOr<std::pair<const AdjacencyCodec*, size_t>> ReadEnvelope(
    absl::Span<const uint8_t> bytes) {
  if (bytes.size() < 2) return absl::DataLossError("adjacency_codec: truncated envelope");
  if (bytes[0] != kAdjacencyFormatVersion) {
    return absl::DataLossError(absl::StrCat("adjacency_codec: format version ", int{bytes[0]},
                                            "; expected ", int{kAdjacencyFormatVersion}));
  }
  const size_t name_length = bytes[1];
  if (bytes.size() < 2 + name_length) {
    return absl::DataLossError("adjacency_codec: truncated codec name");
  }
  const absl::string_view name(reinterpret_cast<const char*>(bytes.data() + 2), name_length);
  const AdjacencyCodec* codec = FindAdjacencyCodec(name);
  if (codec == nullptr) {
    // The name is untrusted bytes: show it escaped.
    return absl::DataLossError(
        absl::StrCat("adjacency_codec: unknown codec '", absl::CHexEscape(name), "'"));
  }
  return std::pair{codec, 2 + name_length};
}

}  // namespace

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadAdjacency(absl::Span<const uint8_t> bytes,
                                                            const AdjacencyLoadOptions& options) {
  absl::StatusOr<std::pair<const AdjacencyCodec*, size_t>> envelope = ReadEnvelope(bytes);
  if (!envelope.ok()) return envelope.status();
  const AdjacencyCodec* codec = envelope->first;
  const absl::string_view name = codec->name;
  const absl::Span<const uint8_t> body = bytes.subspan(envelope->second);
  if (options.arc_count.has_value() && codec->load_deferred != nullptr) {
    return codec->load_deferred(body, *options.arc_count);
  }
  absl::StatusOr<std::unique_ptr<EncodedGraph>> graph = codec->load(body);
  if (graph.ok() && options.arc_count.has_value() && (*graph)->arc_count() != *options.arc_count) {
    return absl::DataLossError(absl::StrCat(name, ": the lists hold ", (*graph)->arc_count(),
                                            " arcs; ", *options.arc_count, " were recorded"));
  }
  return graph;
}

absl::StatusOr<std::unique_ptr<EncodedGraph>> LoadPagedAdjacency(
    std::shared_ptr<const PagedBytes> pages, uint64_t arc_count) {
  // The envelope: two bytes and a name of at most 255.
  if (!pages->Ensure(0, 2 + 255)) return pages->failure();
  absl::StatusOr<std::pair<const AdjacencyCodec*, size_t>> envelope =
      ReadEnvelope(pages->bytes().subspan(0, std::min<uint64_t>(pages->size(), 2 + 255)));
  if (!envelope.ok()) return envelope.status();
  if (envelope->first->load_paged != nullptr) {
    return envelope->first->load_paged(std::move(pages), envelope->second, arc_count);
  }
  if (!pages->EnsureAll()) return pages->failure();
  return LoadAdjacency(pages->bytes(), {.arc_count = arc_count});
}

}  // namespace crawldb::codecs
