#include "extension/frontier/frontier_changes.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include <xxhash.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/packed_bytes.h"
#include "codecs/varint.h"

namespace crawldb::frontier {
namespace {

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(
      absl::StrCat("frontier change set: ", absl::string_view(what.data(), what.size())));
}

void AppendU64(uint64_t value, std::string* out) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>(value >> (8 * i)));
}
void AppendF64(double value, std::string* out) { AppendU64(std::bit_cast<uint64_t>(value), out); }

// Times as the grammar says: 0, whole milliseconds, or f64.
constexpr uint64_t kF64Time = 2;
void AppendTime(double seconds, std::string* out) {
  if (seconds == 0) {
    out->push_back(0);
    return;
  }
  const double ms = std::round(seconds * 1000);
  if (std::abs(ms) < 0x1p52 && ms / 1000 == seconds) {
    const uint64_t zigzag = codecs::ZigZagEncode(static_cast<int64_t>(ms));
    codecs::AppendVarint(zigzag * 2 + 1, out);
    return;
  }
  codecs::AppendVarint(kF64Time, out);
  AppendF64(seconds, out);
}

void AppendFields(const UrlRecord& record, std::string* out) {
  codecs::AppendVarint(record.host, out);
  codecs::AppendVarint(record.depth, out);
  codecs::AppendSignedVarint(record.priority, out);
  out->push_back(static_cast<char>(record.state));
  out->push_back(static_cast<char>(record.attempts));
  codecs::AppendVarint(record.status == kNoStatus ? 0 : codecs::ZigZagEncode(record.status) + 1,
                       out);
  AppendTime(record.due, out);
  AppendTime(record.last_fetch, out);
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
  bool F64(double* out) {  // a finite f64
    uint64_t bits;
    if (!U64(&bits)) return false;
    *out = std::bit_cast<double>(bits);
    return std::isfinite(*out);
  }
  bool Time(double* out) {  // AppendTime's form
    uint64_t t;
    if (!Varint(&t)) return false;
    if (t == kF64Time) return F64(out);
    if (t != 0 && t % 2 == 0) return false;
    const int64_t ms = t == 0 ? 0 : codecs::ZigZagDecode((t - 1) / 2);
    if (std::abs(ms) >= (int64_t{1} << 52)) return false;
    *out = static_cast<double>(ms) / 1000;
    return true;
  }
  bool Bytes(size_t max, absl::string_view* out) {
    uint64_t length;
    if (!Varint(&length) || length > max || length > static_cast<uint64_t>(end_ - p_)) return false;
    *out = absl::string_view(reinterpret_cast<const char*>(p_), length);
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
      !in->U8(&attempts)) {
    return false;
  }
  uint64_t stored;
  if (!in->Varint(&stored) || stored > (uint64_t{1} << 32) || !in->Time(&record->due) ||
      !in->Time(&record->last_fetch)) {
    return false;
  }
  status = stored == 0 ? kNoStatus : codecs::ZigZagDecode(stored - 1);
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

bool ReadSummary(Reader* in, HostSummary* summary) {
  uint64_t depth;
  int64_t priority;
  if (!in->Varint(&summary->size) || !in->Varint(&summary->queued) || !in->Varint(&depth) ||
      depth > UINT16_MAX || !in->Signed(&priority) || priority < INT32_MIN ||
      priority > INT32_MAX || !in->U64(&summary->best.fp) || !in->Varint(&summary->timed) ||
      !in->Time(&summary->first_due)) {
    return false;
  }
  summary->best.depth = static_cast<uint16_t>(depth);
  summary->best.priority = static_cast<int32_t>(priority);
  return summary->queued + summary->timed <= summary->size;
}

}  // namespace

void EncodeChangeSet(const ChangeSet& changes, std::string* body, std::string* blob,
                     codecs::ZstdContexts* zstd) {
  std::string& out = *body;
  out.clear();
  codecs::AppendVarint(changes.hosts.size(), &out);
  for (const HostChange& host : changes.hosts) {
    codecs::AppendVarint(host.id, &out);
    codecs::AppendVarint(host.name.size(), &out);
    out.append(host.name.data(), host.name.size());
    AppendF64(host.settings.delay_s, &out);
    codecs::AppendSignedVarint(host.settings.budget, &out);
    AppendF64(host.settings.blocked_until, &out);
    AppendF64(host.settings.next_allowed, &out);
    const HostSummary& summary = host.summary;
    codecs::AppendVarint(summary.size, &out);
    codecs::AppendVarint(summary.queued, &out);
    codecs::AppendVarint(summary.best.depth, &out);
    codecs::AppendSignedVarint(summary.best.priority, &out);
    AppendU64(summary.best.fp, &out);
    codecs::AppendVarint(summary.timed, &out);
    AppendTime(summary.first_due, &out);
  }
  codecs::AppendVarint(changes.urls.size(), &out);
  for (const UrlChange& url : changes.urls) {
    AppendU64(url.fp, &out);
    out.push_back(static_cast<char>(url.kind));
    if (url.kind == UrlChangeKind::kDelete) {
      codecs::AppendVarint(url.record.host, &out);
      continue;
    }
    AppendFields(url.record, &out);
    if (url.kind == UrlChangeKind::kNew) codecs::AppendVarint(url.record.url_id, &out);
  }
  codecs::AppendVarint(changes.parts.size(), &out);
  for (uint32_t part : changes.parts) codecs::AppendVarint(part, &out);
  codecs::AppendVarint(changes.host_ids.size(), &out);
  uint32_t previous = 0;
  for (uint32_t id : changes.host_ids) {
    codecs::AppendVarint(id - previous, &out);
    previous = id + 1;
  }
  out.push_back(changes.counts.has_value() ? 1 : 0);
  if (changes.counts.has_value()) {
    for (uint64_t count : *changes.counts) codecs::AppendVarint(count, &out);
  }
  out.push_back(changes.folded.has_value() ? 1 : 0);
  if (changes.folded.has_value())
    codecs::AppendVarint(static_cast<uint64_t>(*changes.folded), &out);
  blob->clear();
  blob->push_back(static_cast<char>(kChangeFormatVersion));
  codecs::AppendPackedBytes(*body, codecs::kFastZstdLevel, blob, zstd);
  AppendU64(XXH3_64bits(blob->data(), blob->size()), blob);
}

absl::StatusOr<ChangeSet> DecodeChangeSet(absl::Span<const uint8_t> blob,
                                          codecs::ZstdContexts* zstd) {
  if (blob.size() < 1 + 2 + 8) return Corrupt(absl::StrCat("blob of ", blob.size(), " bytes"));
  const uint8_t version = blob[0];
  if (version != kChangeFormatVersion && version != kUnfoldedChangeVersion) {
    return Corrupt(absl::StrCat("unknown version ", version));
  }
  const size_t body = blob.size() - 8;
  uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= uint64_t{blob[body + i]} << (8 * i);
  if (XXH3_64bits(blob.data(), body) != stored) return Corrupt("checksum mismatch");

  ChangeSet changes;
  auto bytes = std::make_shared<std::string>();
  absl::Status read = codecs::ReadPackedBytes({blob.data() + 1, body - 1}, kMaxBodyBytes,
                                              "frontier change set", bytes.get(), zstd);
  if (!read.ok()) return read;
  const uint8_t* begin = reinterpret_cast<const uint8_t*>(bytes->data());
  Reader in(begin, begin + bytes->size());
  changes.body = std::move(bytes);
  uint64_t count;
  // Every entry takes at least one byte, which bounds a count before anything is reserved.
  if (!in.Varint(&count) || count > in.left()) return Corrupt("bad host count");
  changes.hosts.resize(count);
  for (HostChange& host : changes.hosts) {
    uint64_t id;
    if (!in.Varint(&id) || id > UINT32_MAX || !in.Bytes(kMaxHostBytes, &host.name) ||
        host.name.empty() || !in.F64(&host.settings.delay_s) || !in.Signed(&host.settings.budget) ||
        !in.F64(&host.settings.blocked_until) || !in.F64(&host.settings.next_allowed)) {
      return Corrupt("bad host entry");
    }
    host.id = static_cast<uint32_t>(id);
    if (!ReadSummary(&in, &host.summary)) {
      return Corrupt("bad host summary");
    }
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
    if (url.kind == UrlChangeKind::kDelete) {
      uint64_t host = 0;
      if (version == kChangeFormatVersion && (!in.Varint(&host) || host > UINT32_MAX)) {
        return Corrupt("bad URL entry");
      }
      url.record.host = static_cast<uint32_t>(host);
      continue;
    }
    if (!ReadFields(&in, &url.record)) return Corrupt("bad URL fields");
    if (url.kind != UrlChangeKind::kNew) continue;
    uint64_t url_id;
    if (!in.Varint(&url_id) || url_id > INT64_MAX) return Corrupt("bad URL id");
    url.record.url_id = static_cast<int64_t>(url_id);
  }
  if (!in.Varint(&count) || count > in.left()) return Corrupt("bad part count");
  changes.parts.resize(count);
  for (uint32_t& part : changes.parts) {
    uint64_t value;
    if (!in.Varint(&value) || value >= kFrontierParts) return Corrupt("bad part");
    part = static_cast<uint32_t>(value);
  }
  if (!in.Varint(&count) || count > in.left()) return Corrupt("bad host id count");
  changes.host_ids.resize(count);
  uint64_t next = 0;
  for (uint32_t& id : changes.host_ids) {
    uint64_t gap;
    if (!in.Varint(&gap) || gap > UINT32_MAX || next + gap > UINT32_MAX) {
      return Corrupt("bad host id");
    }
    id = static_cast<uint32_t>(next + gap);
    next = uint64_t{id} + 1;
  }
  uint8_t has_counts;
  if (!in.U8(&has_counts) || has_counts > 1) return Corrupt("bad counts flag");
  if (has_counts == 1) {
    changes.counts.emplace();
    for (uint64_t& state_count : *changes.counts) {
      if (!in.Varint(&state_count)) return Corrupt("bad state count");
    }
  }
  if (version == kChangeFormatVersion) {
    uint8_t has_folded;
    if (!in.U8(&has_folded) || has_folded > 1) return Corrupt("bad folded flag");
    uint64_t folded;
    if (has_folded == 1) {
      if (!in.Varint(&folded) || folded > INT64_MAX) return Corrupt("bad folded seq");
      changes.folded = static_cast<int64_t>(folded);
    }
  }
  if (!in.done()) return Corrupt("trailing bytes");
  return changes;
}

}  // namespace crawldb::frontier
