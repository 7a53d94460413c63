#include "extension/frontier/frontier_changes.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include <xxhash.h>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"

namespace crawldb::frontier {
namespace {

absl::Status Corrupt(std::string_view what) {
  return absl::DataLossError(
      absl::StrCat("frontier change set: ", absl::string_view(what.data(), what.size())));
}

void AppendU64(uint64_t value, std::string* out) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}
void AppendF64(double value, std::string* out) { AppendU64(std::bit_cast<uint64_t>(value), out); }

void AppendFields(const UrlRecord& record, std::string* out) {
  codecs::AppendVarint(record.host, out);
  codecs::AppendVarint(record.depth, out);
  codecs::AppendSignedVarint(record.priority, out);
  out->push_back(static_cast<char>(record.state));
  out->push_back(static_cast<char>(record.attempts));
  codecs::AppendSignedVarint(record.status, out);
  AppendF64(record.due, out);
  AppendF64(record.last_fetch, out);
}

// A bounded reader over the blob; every Read fails (returns false) past the end.
class Reader {
 public:
  Reader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  bool Varint(uint64_t* out) {
    const uint8_t* next = codecs::ReadVarint(p_, end_, out);
    if (next == nullptr) return false;
    p_ = next;
    return true;
  }
  bool Signed(int64_t* out) {
    const uint8_t* next = codecs::ReadSignedVarint(p_, end_, out);
    if (next == nullptr) return false;
    p_ = next;
    return true;
  }
  bool U8(uint8_t* out) {
    if (p_ >= end_) return false;
    *out = *p_++;
    return true;
  }
  bool U64(uint64_t* out) {
    if (end_ - p_ < 8) return false;
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value |= uint64_t{p_[i]} << (8 * i);
    p_ += 8;
    *out = value;
    return true;
  }
  bool Time(double* out) {  // a finite f64
    uint64_t bits;
    if (!U64(&bits)) return false;
    *out = std::bit_cast<double>(bits);
    return std::isfinite(*out);
  }
  bool Bytes(size_t max, std::string_view* out) {
    uint64_t length;
    if (!Varint(&length) || length > max || length > static_cast<uint64_t>(end_ - p_)) return false;
    *out = std::string_view(reinterpret_cast<const char*>(p_), length);
    p_ += length;
    return true;
  }
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  bool done() const { return p_ == end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

bool ReadFields(Reader* in, UrlRecord* record) {
  uint64_t host, depth;
  int64_t priority, status;
  uint8_t state, attempts;
  if (!in->Varint(&host) || !in->Varint(&depth) || !in->Signed(&priority) || !in->U8(&state) ||
      !in->U8(&attempts) || !in->Signed(&status) || !in->Time(&record->due) ||
      !in->Time(&record->last_fetch)) {
    return false;
  }
  if (host > UINT32_MAX || depth < 1 || depth > UINT16_MAX || priority < INT32_MIN ||
      priority > INT32_MAX || state >= kUrlStateCount || status < INT32_MIN || status > INT32_MAX) {
    return false;
  }
  record->host = static_cast<uint32_t>(host);
  record->depth = static_cast<uint16_t>(depth);
  record->priority = static_cast<int32_t>(priority);
  record->state = static_cast<UrlState>(state);
  record->attempts = attempts;
  record->status = static_cast<int32_t>(status);
  return true;
}

}  // namespace

void EncodeChangeSet(const ChangeSet& changes, std::string* blob) {
  std::string& out = *blob;
  out.clear();
  out.push_back(static_cast<char>(kChangeFormatVersion));
  codecs::AppendVarint(changes.hosts.size(), &out);
  for (const HostChange& host : changes.hosts) {
    codecs::AppendVarint(host.id, &out);
    codecs::AppendVarint(host.name.size(), &out);
    out.append(host.name);
    AppendF64(host.settings.delay_s, &out);
    codecs::AppendSignedVarint(host.settings.budget, &out);
    AppendF64(host.settings.blocked_until, &out);
    AppendF64(host.settings.next_allowed, &out);
  }
  codecs::AppendVarint(changes.urls.size(), &out);
  for (const UrlChange& url : changes.urls) {
    AppendU64(url.fp, &out);
    out.push_back(static_cast<char>(url.kind));
    if (url.kind == UrlChangeKind::kDelete) continue;
    AppendFields(url.record, &out);
    if (url.kind == UrlChangeKind::kNew) {
      codecs::AppendVarint(url.text.size(), &out);
      out.append(url.text);
    }
  }
  AppendU64(XXH3_64bits(out.data(), out.size()), &out);
}

absl::StatusOr<ChangeSet> DecodeChangeSet(absl::Span<const uint8_t> blob) {
  if (blob.size() < 1 + 2 + 8) return Corrupt(absl::StrCat("blob of ", blob.size(), " bytes"));
  if (blob[0] != kChangeFormatVersion) return Corrupt(absl::StrCat("unknown version ", blob[0]));
  const size_t body = blob.size() - 8;
  uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= uint64_t{blob[body + i]} << (8 * i);
  if (XXH3_64bits(blob.data(), body) != stored) return Corrupt("checksum mismatch");

  Reader in(blob.data() + 1, blob.data() + body);
  ChangeSet changes;
  uint64_t count;
  // Every entry takes at least one byte, which bounds a count before anything is reserved.
  if (!in.Varint(&count) || count > in.left()) return Corrupt("bad host count");
  changes.hosts.resize(count);
  for (HostChange& host : changes.hosts) {
    uint64_t id;
    if (!in.Varint(&id) || id > UINT32_MAX || !in.Bytes(kMaxHostBytes, &host.name) ||
        host.name.empty() || !in.Time(&host.settings.delay_s) ||
        !in.Signed(&host.settings.budget) || !in.Time(&host.settings.blocked_until) ||
        !in.Time(&host.settings.next_allowed)) {
      return Corrupt("bad host entry");
    }
    host.id = static_cast<uint32_t>(id);
  }
  for (size_t i = 1; i < changes.hosts.size(); ++i) {
    if (changes.hosts[i].id <= changes.hosts[i - 1].id) return Corrupt("hosts out of order");
  }
  if (!in.Varint(&count) || count > in.left()) return Corrupt("bad URL count");
  changes.urls.resize(count);
  for (UrlChange& url : changes.urls) {
    uint8_t kind;
    if (!in.U64(&url.fp) || !in.U8(&kind) || kind > 2) return Corrupt("bad URL entry");
    url.kind = static_cast<UrlChangeKind>(kind);
    if (url.kind == UrlChangeKind::kDelete) continue;
    if (!ReadFields(&in, &url.record)) return Corrupt("bad URL fields");
    if (url.kind == UrlChangeKind::kNew &&
        (!in.Bytes(kMaxTextBytes, &url.text) || url.text.empty())) {
      return Corrupt("bad URL text");
    }
  }
  if (!in.done()) return Corrupt("trailing bytes");
  return changes;
}

}  // namespace crawldb::frontier
