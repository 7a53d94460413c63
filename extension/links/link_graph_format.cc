#include "extension/links/link_graph_format.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"

namespace crawldb::links {
namespace {

absl::Status Broken(std::string what) { return absl::DataLossError(absl::StrCat("links: ", what)); }

// Reads one varint from *p; advances it. False when the bytes end or overflow.
bool Next(const uint8_t** p, const uint8_t* end, uint64_t* value) {
  const uint8_t* after = codecs::ReadVarint(*p, end, value);
  if (after == nullptr) return false;
  *p = after;
  return true;
}

size_t PartsFor(uint64_t bytes, uint64_t part_bytes) {
  return static_cast<size_t>((bytes + part_bytes - 1) / part_bytes);
}

}  // namespace

std::vector<std::vector<uint8_t>> GraphParts(const codecs::EncodedGraph& out,
                                             const codecs::EncodedGraph& in, size_t part_bytes) {
  std::vector<uint8_t> out_bytes = out.Serialize();
  std::vector<uint8_t> in_bytes = in.Serialize();
  std::vector<std::vector<uint8_t>> parts(1);
  parts[0].push_back(kGraphFormatVersion);
  codecs::AppendVarint(out_bytes.size(), &parts[0]);
  codecs::AppendVarint(in_bytes.size(), &parts[0]);
  codecs::AppendVarint(part_bytes, &parts[0]);
  for (const std::vector<uint8_t>* bytes : {&out_bytes, &in_bytes}) {
    for (size_t at = 0; at < bytes->size(); at += part_bytes) {
      size_t end = std::min(bytes->size(), at + part_bytes);
      parts.emplace_back(bytes->begin() + static_cast<ptrdiff_t>(at),
                         bytes->begin() + static_cast<ptrdiff_t>(end));
    }
  }
  return parts;
}

absl::StatusOr<LoadedGraph> LoadGraphParts(absl::Span<const absl::Span<const uint8_t>> parts) {
  if (parts.empty() || parts[0].empty()) return Broken("the graph header is missing");
  const uint8_t* p = parts[0].data();
  const uint8_t* end = p + parts[0].size();
  if (*p != kGraphFormatVersion) {
    return absl::FailedPreconditionError(
        absl::StrCat("links: the graph was written in format version ", *p,
                     "; this build reads version ", kGraphFormatVersion));
  }
  ++p;
  uint64_t out_bytes = 0, in_bytes = 0, part_bytes = 0;
  if (!Next(&p, end, &out_bytes) || !Next(&p, end, &in_bytes) || !Next(&p, end, &part_bytes) ||
      p != end) {
    return Broken("the graph header is malformed");
  }
  if (part_bytes == 0 || part_bytes > (uint64_t{1} << 30)) {
    return Broken(absl::StrCat("the graph header gives a part size of ", part_bytes));
  }
  const size_t out_parts = PartsFor(out_bytes, part_bytes);
  const size_t in_parts = PartsFor(in_bytes, part_bytes);
  if (parts.size() != 1 + out_parts + in_parts) {
    return Broken(absl::StrCat("the graph has ", parts.size() - 1, " parts, its header says ",
                               out_parts + in_parts));
  }
  LoadedGraph loaded;
  size_t next = 1;
  for (auto [bytes, count, graph] : {std::tuple{out_bytes, out_parts, &loaded.out},
                                     std::tuple{in_bytes, in_parts, &loaded.in}}) {
    std::vector<uint8_t> joined;
    joined.reserve(bytes);
    for (size_t i = 0; i < count; ++i, ++next) {
      uint64_t expected = std::min<uint64_t>(part_bytes, bytes - i * part_bytes);
      if (parts[next].size() != expected) {
        return Broken(absl::StrCat("graph part ", next, " holds ", parts[next].size(),
                                   " bytes, not ", expected));
      }
      joined.insert(joined.end(), parts[next].begin(), parts[next].end());
    }
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> decoded = codecs::LoadAdjacency(joined);
    if (!decoded.ok()) return Broken(std::string(decoded.status().message()));
    *graph = std::move(*decoded);
  }
  if (loaded.out->size() != loaded.in->size() ||
      loaded.out->arc_count() != loaded.in->arc_count()) {
    return Broken("the out and in graphs differ in nodes or arcs");
  }
  return loaded;
}

std::vector<uint8_t> EncodeLogChanges(absl::Span<const LinkChange> changes) {
  std::vector<uint8_t> blob;
  blob.reserve(2 + changes.size() * 7);
  blob.push_back(kLogFormatVersion);
  codecs::AppendVarint(changes.size(), &blob);
  for (const LinkChange& change : changes) {
    blob.push_back(change.added ? 1 : 0);
    codecs::AppendVarint(change.src, &blob);
    codecs::AppendVarint(change.dst, &blob);
  }
  return blob;
}

absl::StatusOr<std::vector<LinkChange>> DecodeLogChanges(absl::Span<const uint8_t> blob) {
  if (blob.empty() || blob[0] != kLogFormatVersion) {
    return Broken(blob.empty() ? "an empty log row"
                               : absl::StrCat("a log row in format version ", blob[0]));
  }
  const uint8_t* p = blob.data() + 1;
  const uint8_t* end = blob.data() + blob.size();
  uint64_t count = 0;
  // Each change takes at least 3 bytes: a count beyond that is a lie.
  if (!Next(&p, end, &count) || count > static_cast<uint64_t>(end - p) / 3) {
    return Broken("a log row's count is malformed");
  }
  std::vector<LinkChange> changes;
  changes.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t src = 0, dst = 0;
    if (p >= end || *p > 1) return Broken(absl::StrCat("log change ", i, " has a bad kind"));
    bool added = *p++ == 1;
    if (!Next(&p, end, &src) || !Next(&p, end, &dst) || src > UINT32_MAX || dst > UINT32_MAX) {
      return Broken(absl::StrCat("log change ", i, " is malformed"));
    }
    changes.push_back(
        {.added = added, .src = static_cast<uint32_t>(src), .dst = static_cast<uint32_t>(dst)});
  }
  if (p != end) return Broken("a log row has bytes after its last change");
  return changes;
}

}  // namespace crawldb::links
