// A change set of the frontier store: URL changes to one part (a row of <t>_pending: what the
// commits folded since the part's snapshot did to it), the records of a part (a row of
// <t>_snapshot), or what one transaction committed (a row of <t>_log: the post-images of the
// hosts it touched, its URL changes, the parts it changed, the state counts after it and the
// newest commit folded into the other tables). frontier_table.h says which table holds what.
//
// Blob grammar (little-endian; varint and zigzag as codecs/varint.h):
//
//   blob      = version:u8 (= kChangeFormatVersion) packed checksum:u64
//   packed      the body, zstd-compressed once large enough (codecs/packed_bytes.h)
//   body      = host-count:varint host{host-count} url-count:varint url{url-count}
//               part-count:varint part:varint{part-count}
//               host-id-count:varint host-id-gap:varint{host-id-count}
//               has-counts:u8 (0 | 1 count:varint{6})
//               has-folded:u8 (0 | 1 folded:varint)       (absent in version 3)
//   host      = id:varint name-length:varint name[name-length] delay_s:f64 budget:zigzag
//               blocked_until:f64 next_allowed:f64 summary
//   summary   = size:varint queued:varint best-depth:varint best-priority:zigzag best-fp:u64
//               timed:varint first-due:time          (HostSummary, frontier_store.h)
//   url       = fp:u64 kind:u8 ( kind = 0 (delete) host:varint  (no host in version 3)
//                              | kind = 1 (update) fields
//                              | kind = 2 (new) fields url-id:varint )
//   fields    = host:varint depth:varint priority:zigzag state:u8 attempts:u8 status:varint
//               due:time last_fetch:time
//   status    = 0 when the URL was never confirmed (kNoStatus), else zigzag(status) + 1
//   time      = t:varint [f64 when t = 2]   (below)
//   host-id-gap   ids increase: each is the previous id + 1 + its gap (the first: 0 + its gap)
//   count       the number of records in each UrlState, in enum order
//   checksum  = XXH3-64 of every byte before it (of the stored, compressed bytes)
//   f64       = the IEEE-754 bits as u64; every time is finite
//
// A time is one varint t: t = 0 is 0 s (a record that was never due or fetched: most of them);
// t odd is a whole number of milliseconds, zigzag((t − 1) / 2) of them; t = 2 is followed by the
// time as f64 (a time that is no whole number of ms). So a queued URL costs about 20 bytes of
// body; compressed, about 11 (the fingerprint's 8 bytes hardly compress).
//
// Hosts come first, in id order, so that the URLs may name hosts the same set creates. Only new
// records (kind 2) carry the URL's id in `urls`; updates keep the id the reader already holds.
//
// Version 3 (frontier format 5) had no `folded`: its log rows named the hosts whose rows they
// rewrote (host ids) and left the URL changes to <t>_pending, so every commit was folded at once.
// It is read as such. Versions 1 and 2 (frontier formats 3 and 4) had no summaries, parts or
// counts: those formats are refused as a whole (frontier_table.cc).
//
// Decoding checks the version, the checksum (so a flipped bit or a cut blob is caught before any
// field is trusted), every length against the blob and every field's range, and returns
// DataLossError "frontier change set: <what>". FrontierStore checks what needs the state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/packed_bytes.h"
#include "extension/frontier/frontier_store.h"

namespace crawldb::frontier {

inline constexpr uint8_t kChangeFormatVersion = 4;
// The version before `folded` (frontier format 5), still read.
inline constexpr uint8_t kUnfoldedChangeVersion = 3;
// Longest host name a change set carries.
inline constexpr size_t kMaxHostBytes = 1024;
// Largest body a change set holds (SQLite's own limit on a blob is 1 GB).
inline constexpr size_t kMaxBodyBytes = size_t{1} << 30;

struct HostChange {
  uint32_t id = 0;
  absl::string_view name;
  HostSettings settings;
  HostSummary summary;
};

enum class UrlChangeKind : uint8_t { kDelete = 0, kUpdate = 1, kNew = 2 };

struct UrlChange {
  uint64_t fp = 0;
  UrlChangeKind kind = UrlChangeKind::kDelete;
  UrlRecord record;  // kUpdate, kNew; url_id is stored for kNew only
};

struct ChangeSet {
  std::vector<HostChange> hosts;
  std::vector<UrlChange> urls;
  std::vector<uint32_t> parts;        // a log row: the parts the transaction changed
  std::vector<uint32_t> host_ids;     // a log row of version 3: the hosts whose rows it rewrote
  std::optional<StateCounts> counts;  // a log row: the state counts after it
  // A log row of version 4: the newest commit whose changes <t>_hosts, <t>_snapshot and
  // <t>_pending hold (its own seq when it folded the log); nullopt in version 3.
  std::optional<int64_t> folded;
  // A decoded blob's body, which the names above point into (shared by copies).
  std::shared_ptr<const std::string> body = nullptr;
  bool empty() const { return hosts.empty() && urls.empty() && parts.empty() && host_ids.empty(); }
  // Empties the hosts, URL changes, parts and counts (what a writer fills), keeping capacity.
  void Clear() {
    hosts.clear();
    urls.clear();
    parts.clear();
    counts.reset();
  }
};

// The changes one commit of another connection made to one part (a row of <t>_pending).
struct CommittedPart {
  uint32_t part = 0;
  ChangeSet changes;
};

// Replaces `*blob` with the encoding of `changes`, built in `*body` first. The buffers keep their
// capacity, so that a caller that reuses them does not allocate (and fault in) fresh memory for
// every blob. `zstd`, when given, is used and kept for the next call (codecs/packed_bytes.h).
void EncodeChangeSet(const ChangeSet& changes, std::string* body, std::string* blob,
                     codecs::ZstdContexts* zstd = nullptr);

inline absl::Span<const uint8_t> BytesOf(const std::string& blob) {
  return {reinterpret_cast<const uint8_t*>(blob.data()), blob.size()};
}

// The views of the result point into the result's `body`.
absl::StatusOr<ChangeSet> DecodeChangeSet(absl::Span<const uint8_t> blob,
                                          codecs::ZstdContexts* zstd = nullptr);

}  // namespace crawldb::frontier
