// A change set of the frontier store: the post-images of the hosts and URL records one
// transaction touched (a row of <t>_log), or a part of the whole state (a row of <t>_snapshot).
//
// Blob grammar (little-endian; varint and zigzag as codecs/varint.h):
//
//   blob      = version:u8 (= kChangeFormatVersion) host-count:varint host{host-count}
//               url-count:varint url{url-count} checksum:u64
//   host      = id:varint name-length:varint name[name-length] delay_s:f64 budget:zigzag
//               blocked_until:f64 next_allowed:f64
//   url       = fp:u64 kind:u8 ( kind = 0 (delete)
//                              | kind = 1 (update) fields
//                              | kind = 2 (new) fields text-length:varint text[text-length] )
//   fields    = host:varint depth:varint priority:zigzag state:u8 attempts:u8 status:zigzag
//               due:f64 last_fetch:f64
//   checksum  = XXH3-64 of every byte before it
//   f64       = the IEEE-754 bits as u64; every time is finite
//
// Hosts come first, in id order, so that the URLs may name hosts the same set creates. Texts are
// sent only for new records (kind 2); updates keep the text the reader already holds. Decoding
// checks the version, the checksum (so a flipped bit or a cut blob is caught before any field is
// trusted), every length against the blob and every field's range, and returns DataLossError
// "frontier change set: <what>". FrontierStore::Apply checks what needs the state.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "extension/frontier/frontier_store.h"

namespace crawldb::frontier {

inline constexpr uint8_t kChangeFormatVersion = 1;
// Longest host name and URL text a change set carries.
inline constexpr size_t kMaxHostBytes = 1024;
inline constexpr size_t kMaxTextBytes = 1 << 20;

struct HostChange {
  uint32_t id = 0;
  std::string_view name;
  HostSettings settings;
};

enum class UrlChangeKind : uint8_t { kDelete = 0, kUpdate = 1, kNew = 2 };

struct UrlChange {
  uint64_t fp = 0;
  UrlChangeKind kind = UrlChangeKind::kDelete;
  UrlRecord record;       // kUpdate, kNew; text_offset is not stored
  std::string_view text;  // kNew: the normalised URL
};

struct ChangeSet {
  std::vector<HostChange> hosts;
  std::vector<UrlChange> urls;
  bool empty() const { return hosts.empty() && urls.empty(); }
};

// Replaces `*blob` with the encoding of `changes`. The buffer keeps its capacity, so that a
// caller that reuses one buffer does not allocate (and fault in) fresh memory for every blob.
void EncodeChangeSet(const ChangeSet& changes, std::string* blob);

inline absl::Span<const uint8_t> BytesOf(const std::string& blob) {
  return {reinterpret_cast<const uint8_t*>(blob.data()), blob.size()};
}

// The views of the result point into `blob`.
absl::StatusOr<ChangeSet> DecodeChangeSet(absl::Span<const uint8_t> blob);

}  // namespace crawldb::frontier
