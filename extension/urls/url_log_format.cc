#include "extension/urls/url_log_format.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/packed_bytes.h"
#include "codecs/varint.h"
#include "extension/urls/url_part.h"

namespace crawldb::urls {
namespace {

// Largest body of keys one row holds (SQLite's own limit on a blob is 1 GB).
constexpr size_t kMaxBodyBytes = size_t{1} << 30;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url log: ", what));
}

// Checks the version byte and reads the count; *p is left after it.
absl::StatusOr<uint64_t> ReadHeader(absl::Span<const uint8_t> blob, uint8_t version,
                                    const uint8_t** p) {
  const uint8_t* end = blob.data() + blob.size();
  if (blob.empty() || blob[0] != version) {
    return Corrupt(blob.empty() ? "empty entry" : absl::StrCat("unknown version ", blob[0]));
  }
  uint64_t count = 0;
  *p = codecs::ReadVarint(blob.data() + 1, end, &count);
  if (*p == nullptr) return Corrupt("bad count");
  return count;
}

}  // namespace

std::vector<uint8_t> EncodeLogKeys(absl::Span<const absl::string_view> keys,
                                   codecs::ZstdContexts* zstd) {
  std::string body;
  size_t size = 0;
  for (absl::string_view key : keys) size += codecs::VarintLength(key.size()) + key.size();
  body.reserve(size);
  for (absl::string_view key : keys) {
    codecs::AppendVarint(key.size(), &body);
    body.append(key.data(), key.size());
  }
  std::string blob(1, static_cast<char>(kLogKeysFormatVersion));
  codecs::AppendVarint(keys.size(), &blob);
  codecs::AppendPackedBytes(body, codecs::kFastZstdLevel, &blob, zstd);
  return {blob.begin(), blob.end()};
}

// The ids blob is sized first and written in place (no growth while encoding).
std::vector<uint8_t> EncodeLogIds(absl::Span<const int64_t> ids) {
  size_t size = 1 + codecs::VarintLength(ids.size());
  for (int64_t id : ids) size += codecs::VarintLength(static_cast<uint64_t>(id));
  std::vector<uint8_t> blob(size + codecs::kMaxVarintBytes);
  uint8_t* out = blob.data();
  *out++ = kLogFormatVersion;
  out += codecs::WriteVarint(ids.size(), out);
  for (int64_t id : ids) out += codecs::WriteVarint(static_cast<uint64_t>(id), out);
  blob.resize(size);
  return blob;
}

absl::StatusOr<std::vector<absl::string_view>> DecodeLogKeys(absl::Span<const uint8_t> blob,
                                                             std::string* scratch,
                                                             codecs::ZstdContexts* zstd) {
  const uint8_t* p = nullptr;
  absl::StatusOr<uint64_t> count = ReadHeader(blob, kLogKeysFormatVersion, &p);
  if (!count.ok()) return count.status();
  const uint8_t* end = blob.data() + blob.size();
  absl::Status read = codecs::ReadPackedBytes({p, static_cast<size_t>(end - p)}, kMaxBodyBytes,
                                              "url log", scratch, zstd);
  if (!read.ok()) return read;
  p = reinterpret_cast<const uint8_t*>(scratch->data());
  end = p + scratch->size();
  // Every key takes at least one byte, which bounds the count before anything is reserved.
  if (*count > static_cast<uint64_t>(end - p)) return Corrupt("bad count");
  std::vector<absl::string_view> keys;
  keys.reserve(*count);
  for (uint64_t i = 0; i < *count; ++i) {
    uint64_t length = 0;
    p = codecs::ReadVarint(p, end, &length);
    if (p == nullptr || length > static_cast<uint64_t>(end - p)) {
      return Corrupt(absl::StrCat("key ", i, " is truncated"));
    }
    keys.emplace_back(reinterpret_cast<const char*>(p), length);
    p += length;
  }
  if (p != end) return Corrupt("bytes after the last key");
  return keys;
}

absl::StatusOr<std::vector<int64_t>> DecodeLogIds(absl::Span<const uint8_t> blob) {
  const uint8_t* p = nullptr;
  absl::StatusOr<uint64_t> count = ReadHeader(blob, kLogFormatVersion, &p);
  if (!count.ok()) return count.status();
  const uint8_t* end = blob.data() + blob.size();
  if (*count > static_cast<uint64_t>(end - p)) return Corrupt("bad count");  // a byte per id
  std::vector<int64_t> ids;
  ids.reserve(*count);
  for (uint64_t i = 0; i < *count; ++i) {
    uint64_t id = 0;
    p = codecs::ReadVarint(p, end, &id);
    if (p == nullptr || id == 0 || id > static_cast<uint64_t>(INT64_MAX)) {
      return Corrupt(absl::StrCat("id ", i, " is malformed"));
    }
    ids.push_back(static_cast<int64_t>(id));
  }
  if (p != end) return Corrupt("bytes after the last id");
  return ids;
}

std::vector<uint8_t> EncodeLogAdds(const LogAdds& adds, int64_t first_id,
                                   codecs::ZstdContexts* zstd) {
  std::string blob(1, static_cast<char>(kLogAddsFormatVersion));
  codecs::AppendVarint(static_cast<uint64_t>(adds.added_count), &blob);
  codecs::AppendVarint(adds.parts.size(), &blob);
  size_t previous = 0;
  for (size_t part : adds.parts) {
    codecs::AppendVarint(part - previous, &blob);
    previous = part;
  }
  codecs::AppendVarint(static_cast<uint64_t>(adds.folded.value_or(0)), &blob);
  if (!adds.has_adds()) return {blob.begin(), blob.end()};
  for (uint32_t size : adds.part_sizes) codecs::AppendVarint(size, &blob);
  size_t begin = 0;
  for (uint32_t size : adds.part_sizes) {
    for (size_t i = begin; i < begin + size; ++i) {
      const int64_t gap = i == begin ? adds.ids[i] - first_id : adds.ids[i] - adds.ids[i - 1] - 1;
      codecs::AppendVarint(static_cast<uint64_t>(gap), &blob);
    }
    begin += size;
  }
  const std::vector<uint8_t> keys = EncodeLogKeys(adds.keys, zstd);
  blob.append(keys.begin(), keys.end());
  return {blob.begin(), blob.end()};
}

absl::StatusOr<LogAdds> DecodeLogAdds(absl::Span<const uint8_t> blob, int64_t first_id,
                                      std::string* scratch, codecs::ZstdContexts* zstd) {
  const bool old = !blob.empty() && blob[0] == kLogPartsFormatVersion;
  const uint8_t* p = nullptr;
  absl::StatusOr<uint64_t> added =
      ReadHeader(blob, old ? kLogPartsFormatVersion : kLogAddsFormatVersion, &p);
  if (!added.ok()) return added.status();
  const uint8_t* end = blob.data() + blob.size();
  uint64_t count = 0;
  p = codecs::ReadVarint(p, end, &count);
  if (p == nullptr || count > kUrlParts || *added > static_cast<uint64_t>(INT64_MAX)) {
    return Corrupt("bad part count");
  }
  LogAdds adds;
  adds.added_count = static_cast<int64_t>(*added);
  uint64_t part = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t gap = 0;
    p = codecs::ReadVarint(p, end, &gap);
    if (p == nullptr || (i > 0 && gap == 0) || gap >= kUrlParts || part + gap >= kUrlParts) {
      return Corrupt(absl::StrCat("part ", i, " is malformed"));
    }
    part += gap;
    adds.parts.push_back(static_cast<size_t>(part));
  }
  if (old) {
    if (p != end) return Corrupt("bytes after the last part");
    return adds;
  }
  uint64_t folded = 0;
  p = codecs::ReadVarint(p, end, &folded);
  if (p == nullptr || folded > static_cast<uint64_t>(INT64_MAX)) return Corrupt("bad folded seq");
  adds.folded = static_cast<int64_t>(folded);
  if (p == end) return adds;
  // The adds: a byte at least per part size and per id bounds the counts before any allocation.
  if (count == 0 || *added > static_cast<uint64_t>(end - p) || first_id < 1 ||
      *added > static_cast<uint64_t>(INT64_MAX - first_id)) {
    return Corrupt("bad adds");
  }
  uint64_t total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    p = codecs::ReadVarint(p, end, &size);
    if (p == nullptr || size == 0 || size > *added - total) {
      return Corrupt(absl::StrCat("part ", i, "'s add count is malformed"));
    }
    total += size;
    adds.part_sizes.push_back(static_cast<uint32_t>(size));
  }
  if (total != *added) return Corrupt("the parts' add counts do not sum to the count");
  std::vector<bool> seen(total);
  adds.ids.reserve(total);
  for (uint32_t size : adds.part_sizes) {
    uint64_t offset = 0;
    for (uint32_t i = 0; i < size; ++i) {
      uint64_t gap = 0;
      p = codecs::ReadVarint(p, end, &gap);
      const uint64_t next = i == 0 ? gap : offset + gap + 1;
      if (p == nullptr || gap >= total || next >= total || seen[next]) {
        return Corrupt(absl::StrCat("id ", adds.ids.size(), " is malformed"));
      }
      seen[next] = true;
      offset = next;
      adds.ids.push_back(first_id + static_cast<int64_t>(offset));
    }
  }
  absl::StatusOr<std::vector<absl::string_view>> keys =
      DecodeLogKeys({p, static_cast<size_t>(end - p)}, scratch, zstd);
  if (!keys.ok()) return keys.status();
  if (keys->size() != total) return Corrupt("the keys do not match the ids");
  adds.keys = *std::move(keys);
  return adds;
}

std::vector<uint8_t> EncodeIdGaps(absl::Span<const int64_t> ids) {
  std::string blob(1, static_cast<char>(kIdGapsFormatVersion));
  codecs::AppendVarint(ids.size(), &blob);
  for (size_t i = 0; i < ids.size(); ++i) {
    codecs::AppendVarint(static_cast<uint64_t>(i == 0 ? ids[0] : ids[i] - ids[i - 1] - 1), &blob);
  }
  return {blob.begin(), blob.end()};
}

absl::StatusOr<std::vector<int64_t>> DecodeIdGaps(absl::Span<const uint8_t> blob) {
  const uint8_t* p = nullptr;
  absl::StatusOr<uint64_t> count = ReadHeader(blob, kIdGapsFormatVersion, &p);
  if (!count.ok()) return count.status();
  const uint8_t* end = blob.data() + blob.size();
  if (*count > static_cast<uint64_t>(end - p)) return Corrupt("bad count");  // a byte per id
  std::vector<int64_t> ids;
  ids.reserve(*count);
  uint64_t id = 0;
  for (uint64_t i = 0; i < *count; ++i) {
    uint64_t gap = 0;
    p = codecs::ReadVarint(p, end, &gap);
    // The next id, id + gap + 1, must not pass INT64_MAX (nor wrap around to a repeated id).
    const uint64_t limit = static_cast<uint64_t>(INT64_MAX);
    const bool fits = i == 0 ? gap <= limit : gap < limit - id;
    if (p == nullptr || !fits || (i == 0 && gap == 0)) {
      return Corrupt(absl::StrCat("id ", i, " is malformed"));
    }
    const uint64_t next = i == 0 ? gap : id + gap + 1;
    id = next;
    ids.push_back(static_cast<int64_t>(id));
  }
  if (p != end) return Corrupt("bytes after the last id");
  return ids;
}

}  // namespace crawldb::urls
