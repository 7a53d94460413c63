// A change set of the frontier store: the post-images of the hosts and URL records one
// transaction touched (a row of <t>_log), or a part of the whole state (a row of <t>_snapshot).
//
// Blob grammar (little-endian; varint and zigzag as codecs/varint.h):
//
//   blob      = version:u8 (= kChangeFormatVersion) packed checksum:u64
//   packed      the body, zstd-compressed once large enough (codecs/packed_bytes.h)
//   body      = host-count:varint host{host-count} url-count:varint url{url-count}
//   host      = id:varint name-length:varint name[name-length] delay_s:f64 budget:zigzag
//               blocked_until:f64 next_allowed:f64
//   url       = fp:u64 kind:u8 ( kind = 0 (delete)
//                              | kind = 1 (update) fields
//                              | kind = 2 (new) fields url-id:varint )
//   fields    = host:varint depth:varint priority:zigzag state:u8 attempts:u8 status:varint
//               due:time last_fetch:time
//   status    = 0 when the URL was never confirmed (kNoStatus), else zigzag(status) + 1
//   time      = t:varint [f64 when t = 2]   (below)
//   checksum  = XXH3-64 of every byte before it (of the stored, compressed bytes)
//   f64       = the IEEE-754 bits as u64; every time is finite
//
// A time is one varint t: t = 0 is 0 s (a record that was never due or fetched: most of them);
// t odd is a whole number of milliseconds, zigzag((t − 1) / 2) of them; t = 2 is followed by the
// time as f64 (a time that is no whole number of ms). So a queued URL costs about 20 bytes of
// body; compressed, the snapshot of bench/scale.sh's crawl takes 10.8 bytes per URL at 1 M URLs
// (the fingerprint's 8 bytes hardly compress).
//
// Hosts come first, in id order, so that the URLs may name hosts the same set creates. Only new
// records (kind 2) carry the URL's id in `urls`; updates keep the id the reader already holds.
//
// Version 1 (frontier format 3) stored the body uncompressed (blob = version body checksum) and
// sent the URL's text instead of its id, and times and status as f64 and zigzag: it is still
// read (UrlChange::text set, url_id kNoUrlId), and the table looks the texts up in `urls`
// (frontier_snapshot.cc).
//
// Decoding checks the version, the checksum (so a flipped bit or a cut blob is caught before any
// field is trusted), every length against the blob and every field's range, and returns
// DataLossError "frontier change set: <what>". FrontierStore::Apply checks what needs the state.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/packed_bytes.h"
#include "extension/frontier/frontier_store.h"

namespace crawldb::frontier {

inline constexpr uint8_t kChangeFormatVersion = 2;
// The version that carried URL texts, still read.
inline constexpr uint8_t kTextChangeFormatVersion = 1;
// Longest host name and URL text a change set carries.
inline constexpr size_t kMaxHostBytes = 1024;
inline constexpr size_t kMaxTextBytes = 1 << 20;
// Largest body a change set holds (SQLite's own limit on a blob is 1 GB).
inline constexpr size_t kMaxBodyBytes = size_t{1} << 30;

struct HostChange {
  uint32_t id = 0;
  std::string_view name;
  HostSettings settings;
};

enum class UrlChangeKind : uint8_t { kDelete = 0, kUpdate = 1, kNew = 2 };

struct UrlChange {
  uint64_t fp = 0;
  UrlChangeKind kind = UrlChangeKind::kDelete;
  UrlRecord record;       // kUpdate, kNew; url_id is stored for kNew only
  std::string_view text;  // kNew read from a version-1 blob: the normalised URL
};

struct ChangeSet {
  std::vector<HostChange> hosts;
  std::vector<UrlChange> urls;
  bool has_texts = false;  // read from a version-1 blob: the new records carry texts, no ids
  // A decoded blob's body, which the names and texts above point into (shared by copies).
  std::shared_ptr<const std::string> body = nullptr;
  bool empty() const { return hosts.empty() && urls.empty(); }
};

// Replaces `*blob` with the encoding of `changes`, built in `*body` first. The buffers keep their
// capacity, so that a caller that reuses them does not allocate (and fault in) fresh memory for
// every blob. `zstd`, when given, is used and kept for the next call (codecs/packed_bytes.h).
void EncodeChangeSet(const ChangeSet& changes, std::string* body, std::string* blob,
                     codecs::ZstdContexts* zstd = nullptr);

inline absl::Span<const uint8_t> BytesOf(const std::string& blob) {
  return {reinterpret_cast<const uint8_t*>(blob.data()), blob.size()};
}

// The views of the result point into `blob` (version 1) or the result's `body`.
absl::StatusOr<ChangeSet> DecodeChangeSet(absl::Span<const uint8_t> blob,
                                          codecs::ZstdContexts* zstd = nullptr);

}  // namespace crawldb::frontier
