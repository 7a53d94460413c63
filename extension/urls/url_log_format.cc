#include "extension/urls/url_log_format.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"

namespace crawldb::urls {
namespace {

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url log: ", what));
}

// Checks the version byte and reads the count; *p is left after it.
absl::StatusOr<uint64_t> ReadHeader(absl::Span<const uint8_t> blob, const uint8_t** p) {
  const uint8_t* end = blob.data() + blob.size();
  if (blob.empty() || blob[0] != kLogFormatVersion) {
    return Corrupt(blob.empty() ? "empty entry" : absl::StrCat("unknown version ", blob[0]));
  }
  uint64_t count = 0;
  *p = codecs::ReadVarint(blob.data() + 1, end, &count);
  // Every entry takes at least one byte, which bounds the count before anything is reserved.
  if (*p == nullptr || count > static_cast<uint64_t>(end - *p)) return Corrupt("bad count");
  return count;
}

}  // namespace

// The blobs are sized first and written in place (no growth while encoding).
std::vector<uint8_t> EncodeLogKeys(absl::Span<const std::string_view> keys) {
  size_t size = 1 + codecs::VarintLength(keys.size());
  for (std::string_view key : keys) size += codecs::VarintLength(key.size()) + key.size();
  std::vector<uint8_t> blob(size + codecs::kMaxVarintBytes);  // WriteVarint's room
  uint8_t* out = blob.data();
  *out++ = kLogFormatVersion;
  out += codecs::WriteVarint(keys.size(), out);
  for (std::string_view key : keys) {
    out += codecs::WriteVarint(key.size(), out);
    std::copy(key.begin(), key.end(), out);
    out += key.size();
  }
  blob.resize(size);
  return blob;
}

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

absl::StatusOr<std::vector<std::string_view>> DecodeLogKeys(absl::Span<const uint8_t> blob) {
  const uint8_t* p = nullptr;
  absl::StatusOr<uint64_t> count = ReadHeader(blob, &p);
  if (!count.ok()) return count.status();
  const uint8_t* end = blob.data() + blob.size();
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
  absl::StatusOr<uint64_t> count = ReadHeader(blob, &p);
  if (!count.ok()) return count.status();
  const uint8_t* end = blob.data() + blob.size();
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
