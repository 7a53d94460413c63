#include "extension/links/link_graph_format.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "codecs/packed_bytes.h"
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
  codecs::AppendVarint(out.arc_count(), &parts[0]);
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
  const uint8_t version = *p;
  if (version != kGraphFormatVersion && version != kGraphFormatVersionWithoutArcs) {
    return absl::FailedPreconditionError(absl::StrCat(
        "links: the graph was written in format version ", version, "; this build reads versions ",
        kGraphFormatVersionWithoutArcs, " to ", kGraphFormatVersion));
  }
  ++p;
  uint64_t out_bytes = 0, in_bytes = 0, part_bytes = 0;
  codecs::AdjacencyLoadOptions options;  // Version 1: every list checked at load.
  if (!Next(&p, end, &out_bytes) || !Next(&p, end, &in_bytes) || !Next(&p, end, &part_bytes) ||
      (version == kGraphFormatVersion && !Next(&p, end, &options.arc_count.emplace())) ||
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
    // Every part's size is checked before the graph's bytes are reserved, so that a damaged
    // header cannot make the loader allocate what it says.
    for (size_t i = 0; i < count; ++i) {
      const uint64_t expected = std::min<uint64_t>(part_bytes, bytes - i * part_bytes);
      if (parts[next + i].size() != expected) {
        return Broken(absl::StrCat("graph part ", next + i, " holds ", parts[next + i].size(),
                                   " bytes, not ", expected));
      }
    }
    std::vector<uint8_t> joined;
    joined.reserve(bytes);
    for (size_t i = 0; i < count; ++i, ++next) {
      joined.insert(joined.end(), parts[next].begin(), parts[next].end());
    }
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> decoded =
        codecs::LoadAdjacency(joined, options);
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
  std::string body;
  body.reserve(changes.size() * 4);
  int64_t src = 0, dst = 0;
  for (const LinkChange& change : changes) {
    body.push_back(change.added ? 1 : 0);
    codecs::AppendSignedVarint(int64_t{change.src} - src, &body);
    codecs::AppendSignedVarint(int64_t{change.dst} - dst, &body);
    src = change.src;
    dst = change.dst;
  }
  std::string blob(1, static_cast<char>(kLogFormatVersion));
  codecs::AppendVarint(changes.size(), &blob);
  codecs::AppendPackedBytes(body, codecs::kFastZstdLevel, &blob);
  return {blob.begin(), blob.end()};
}

absl::StatusOr<std::vector<LinkChange>> DecodeLogChanges(absl::Span<const uint8_t> blob,
                                                         std::string* scratch) {
  const uint8_t version = blob.empty() ? 0 : blob[0];
  if (version != kLogFormatVersion && version != kPlainLogFormatVersion) {
    return Broken(blob.empty() ? "an empty log row"
                               : absl::StrCat("a log row in format version ", blob[0]));
  }
  const bool plain = version == kPlainLogFormatVersion;
  const uint8_t* p = blob.data() + 1;
  const uint8_t* end = blob.data() + blob.size();
  uint64_t count = 0;
  if (!Next(&p, end, &count)) return Broken("a log row's count is malformed");
  if (!plain) {
    absl::Status read = codecs::ReadPackedBytes({p, static_cast<size_t>(end - p)}, kMaxLogBodyBytes,
                                                "links: a log row", scratch);
    if (!read.ok()) return read;
    p = reinterpret_cast<const uint8_t*>(scratch->data());
    end = p + scratch->size();
  }
  // Each change takes at least 3 bytes: a count beyond that is a lie.
  if (count > static_cast<uint64_t>(end - p) / 3) return Broken("a log row's count is malformed");
  std::vector<LinkChange> changes;
  changes.reserve(count);
  int64_t src = 0, dst = 0;
  for (uint64_t i = 0; i < count; ++i) {
    if (p >= end || *p > 1) return Broken(absl::StrCat("log change ", i, " has a bad kind"));
    bool added = *p++ == 1;
    bool read = true;
    if (plain) {
      uint64_t s = 0, d = 0;
      read = Next(&p, end, &s) && Next(&p, end, &d) && s <= INT64_MAX && d <= INT64_MAX;
      src = static_cast<int64_t>(s);
      dst = static_cast<int64_t>(d);
    } else {
      int64_t ds = 0, dd = 0;
      const uint8_t* q = codecs::ReadSignedVarint(p, end, &ds);
      q = q == nullptr ? nullptr : codecs::ReadSignedVarint(q, end, &dd);
      // Two ids below 2^32 differ by less than 2^32: a larger delta is damage (and would
      // overflow the sum).
      constexpr int64_t kMaxDelta = UINT32_MAX;
      read = q != nullptr && ds >= -kMaxDelta && ds <= kMaxDelta && dd >= -kMaxDelta &&
             dd <= kMaxDelta;
      if (read) {
        p = q;
        src += ds;
        dst += dd;
      }
    }
    if (!read || src < 0 || dst < 0 || src > UINT32_MAX || dst > UINT32_MAX) {
      return Broken(absl::StrCat("log change ", i, " is malformed"));
    }
    changes.push_back(
        {.added = added, .src = static_cast<uint32_t>(src), .dst = static_cast<uint32_t>(dst)});
  }
  if (p != end) return Broken("a log row has bytes after its last change");
  return changes;
}

}  // namespace crawldb::links
