#include "extension/urls/url_log_format.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codecs/packed_bytes.h"
#include "codecs/varint.h"

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

std::vector<uint8_t> EncodeLogKeys(absl::Span<const std::string_view> keys) {
  std::string body;
  size_t size = 0;
  for (std::string_view key : keys) size += codecs::VarintLength(key.size()) + key.size();
  body.reserve(size);
  for (std::string_view key : keys) {
    codecs::AppendVarint(key.size(), &body);
    body.append(key);
  }
  std::string blob(1, static_cast<char>(kLogKeysFormatVersion));
  codecs::AppendVarint(keys.size(), &blob);
  codecs::AppendPackedBytes(body, codecs::kFastZstdLevel, &blob);
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

absl::StatusOr<std::vector<std::string_view>> DecodeLogKeys(absl::Span<const uint8_t> blob,
                                                            std::string* scratch) {
  const bool plain = !blob.empty() && blob[0] == kPlainLogKeysFormatVersion;
  const uint8_t* p = nullptr;
  absl::StatusOr<uint64_t> count =
      ReadHeader(blob, plain ? kPlainLogKeysFormatVersion : kLogKeysFormatVersion, &p);
  if (!count.ok()) return count.status();
  const uint8_t* end = blob.data() + blob.size();
  if (!plain) {
    absl::Status read = codecs::ReadPackedBytes({p, static_cast<size_t>(end - p)}, kMaxBodyBytes,
                                                "url log", scratch);
    if (!read.ok()) return read;
    p = reinterpret_cast<const uint8_t*>(scratch->data());
    end = p + scratch->size();
  }
  // Every key takes at least one byte, which bounds the count before anything is reserved.
  if (*count > static_cast<uint64_t>(end - p)) return Corrupt("bad count");
  std::vector<std::string_view> keys;
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

}  // namespace crawldb::urls
