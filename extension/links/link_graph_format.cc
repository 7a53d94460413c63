#include "extension/links/link_graph_format.h"

#include <algorithm>
#include <string>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "codecs/packed_bytes.h"
#include "codecs/paged_bytes.h"
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

absl::StatusOr<GraphHeader> ReadGraphHeader(absl::Span<const uint8_t> part0) {
  if (part0.empty()) return Broken("the graph header is missing");
  const uint8_t* p = part0.data();
  const uint8_t* end = p + part0.size();
  GraphHeader header;
  header.version = *p;
  if (header.version != kGraphFormatVersion && header.version != kGraphFormatVersionWithoutArcs) {
    return absl::FailedPreconditionError(
        absl::StrCat("links: the graph was written in format version ", header.version,
                     "; this build reads versions ", kGraphFormatVersionWithoutArcs, " to ",
                     kGraphFormatVersion));
  }
  ++p;
  if (!Next(&p, end, &header.out_bytes) || !Next(&p, end, &header.in_bytes) ||
      !Next(&p, end, &header.part_bytes) ||
      (header.version == kGraphFormatVersion && !Next(&p, end, &header.arc_count.emplace())) ||
      p != end) {
    return Broken("the graph header is malformed");
  }
  if (header.part_bytes == 0 || header.part_bytes > (uint64_t{1} << 30)) {
    return Broken(absl::StrCat("the graph header gives a part size of ", header.part_bytes));
  }
  header.out_parts = PartsFor(header.out_bytes, header.part_bytes);
  header.in_parts = PartsFor(header.in_bytes, header.part_bytes);
  return header;
}

absl::Status PartProblem(size_t part, std::optional<size_t> stored_bytes, size_t expected) {
  if (!stored_bytes.has_value()) return Broken(absl::StrCat("graph part ", part, " is missing"));
  return Broken(
      absl::StrCat("graph part ", part, " holds ", *stored_bytes, " bytes, not ", expected));
}

namespace {

absl::Status PartCountProblem(const GraphHeader& header, size_t parts) {
  return Broken(absl::StrCat("the graph has ", parts, " parts, its header says ",
                             header.out_parts + header.in_parts));
}

absl::Status CheckSameGraph(const LoadedGraph& loaded) {
  if (loaded.out->size() != loaded.in->size() ||
      loaded.out->arc_count() != loaded.in->arc_count()) {
    return Broken("the out and in graphs differ in nodes or arcs");
  }
  return absl::OkStatus();
}

// A codec's error with the links prefix; a fetch's failure as it is.
absl::Status LoadProblem(const absl::Status& status) {
  if (status.code() != absl::StatusCode::kDataLoss ||
      absl::StartsWith(status.message(), "links:")) {
    return status;
  }
  return Broken(std::string(status.message()));
}

}  // namespace

absl::StatusOr<LoadedGraph> LoadGraphParts(absl::Span<const absl::Span<const uint8_t>> parts) {
  if (parts.empty()) return Broken("the graph header is missing");
  absl::StatusOr<GraphHeader> header = ReadGraphHeader(parts[0]);
  if (!header.ok()) return header.status();
  codecs::AdjacencyLoadOptions options;  // Version 1: every list checked at load.
  options.arc_count = header->arc_count;
  if (parts.size() != 1 + header->out_parts + header->in_parts) {
    return PartCountProblem(*header, parts.size() - 1);
  }
  LoadedGraph loaded;
  size_t next = 1;
  for (auto [bytes, count, graph] : {std::tuple{header->out_bytes, header->out_parts, &loaded.out},
                                     std::tuple{header->in_bytes, header->in_parts, &loaded.in}}) {
    // Every part's size is checked before the graph's bytes are reserved, so that a damaged
    // header cannot make the loader allocate what it says.
    for (size_t i = 0; i < count; ++i) {
      const uint64_t expected =
          std::min<uint64_t>(header->part_bytes, bytes - i * header->part_bytes);
      if (parts[next + i].size() != expected) {
        return PartProblem(next + i, parts[next + i].size(), expected);
      }
    }
    std::vector<uint8_t> joined;
    joined.reserve(bytes);
    for (size_t i = 0; i < count; ++i, ++next) {
      joined.insert(joined.end(), parts[next].begin(), parts[next].end());
    }
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> decoded =
        codecs::LoadAdjacency(joined, options);
    if (!decoded.ok()) return LoadProblem(decoded.status());
    *graph = std::move(*decoded);
  }
  if (absl::Status same = CheckSameGraph(loaded); !same.ok()) return same;
  return loaded;
}

absl::Status CheckPartCount(const GraphHeader& header, int64_t last_part) {
  if (last_part == static_cast<int64_t>(header.out_parts + header.in_parts)) {
    return absl::OkStatus();
  }
  return PartCountProblem(header, static_cast<size_t>(std::max<int64_t>(last_part, 0)));
}

absl::StatusOr<LoadedGraph> LoadPagedGraph(const GraphHeader& header, ReadGraphPart read) {
  if (!header.arc_count.has_value()) return Broken("a version-1 graph is not read paged");
  LoadedGraph loaded;
  size_t first = 1;
  for (auto [bytes, count, graph] : {std::tuple{header.out_bytes, header.out_parts, &loaded.out},
                                     std::tuple{header.in_bytes, header.in_parts, &loaded.in}}) {
    auto pages = std::make_shared<codecs::PagedBytes>(
        bytes, header.part_bytes,
        [read, first](size_t part, absl::Span<uint8_t> into) { return read(first + part, into); });
    absl::StatusOr<std::unique_ptr<codecs::EncodedGraph>> decoded =
        codecs::LoadPagedAdjacency(std::move(pages), *header.arc_count);
    if (!decoded.ok()) return LoadProblem(decoded.status());
    *graph = std::move(*decoded);
    first += count;
  }
  if (absl::Status same = CheckSameGraph(loaded); !same.ok()) return same;
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
