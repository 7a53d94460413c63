// Change sets of the frontier (extension/frontier/frontier_changes.h) for the seeds of the
// frontier fuzz targets, and the blob framing those targets share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <xxhash.h>

#include "codecs/packed_bytes.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_parts.h"
#include "tests/fuzz/fuzz_target.h"

namespace crawldb::fuzz {

// A change-set blob as a fuzz input gives it: sealed:u8 then bytes. With sealed bit 0 clear, the
// bytes are the blob. With it set they are a body: the target packs them and appends the
// checksum, with version byte kChangeFormatVersion, or kUnfoldedChangeVersion when bit 1 is
// set — so that the fuzzer reaches the body's grammar past the checksum and zstd.
inline std::vector<uint8_t> ChangeSetBlob(uint8_t sealed, absl::Span<const uint8_t> bytes) {
  if ((sealed & 1) == 0) return {bytes.begin(), bytes.end()};
  std::string blob(1, static_cast<char>((sealed & 2) != 0 ? frontier::kUnfoldedChangeVersion
                                                          : frontier::kChangeFormatVersion));
  codecs::AppendPackedBytes(TextOf(bytes), codecs::kFastZstdLevel, &blob);
  const uint64_t checksum = XXH3_64bits(blob.data(), blob.size());
  for (int i = 0; i < 8; ++i) blob.push_back(static_cast<char>(checksum >> (8 * i)));
  return {blob.begin(), blob.end()};
}

// The bytes of `changes` for ChangeSetBlob: its blob (`body` false, sealed 0) or its body
// (`body` true, sealed 1).
inline std::vector<uint8_t> ChangeSetBytes(const frontier::ChangeSet& changes, bool body) {
  std::string body_bytes, blob;
  frontier::EncodeChangeSet(changes, &body_bytes, &blob);
  const std::string& bytes = body ? body_bytes : blob;
  return {bytes.begin(), bytes.end()};
}

// Host names whose parts are known: hosts i of SeedHosts() live in part FrontierPartOf(name).
inline std::vector<std::string> SeedHostNames() {
  return {"example.com", "www.example.com", "news.site.org", "xn--bcher-kva.de", "10.0.0.1"};
}

// Hosts 0..n−1 with settings and summaries of `records` (queued, then timed) each.
inline std::vector<frontier::HostChange> SeedHosts(const std::vector<std::string>& names,
                                                   uint64_t queued, uint64_t timed) {
  std::vector<frontier::HostChange> hosts;
  for (uint32_t id = 0; id < names.size(); ++id) {
    frontier::HostChange host;
    host.id = id;
    host.name = names[id];
    host.settings = {.delay_s = id * 0.5,
                     .budget = id == 2 ? 100 : -1,
                     .blocked_until = id == 3 ? 1.7e9 : 0,
                     .next_allowed = 1.6e9 + id};
    host.summary.size = queued + timed;
    host.summary.queued = queued;
    host.summary.timed = timed;
    hosts.push_back(host);
  }
  return hosts;
}

// Records of host `host`: `queued` queued ones, then `timed` leased ones, every field used.
inline std::vector<frontier::UrlChange> SeedRecords(uint32_t host, uint64_t queued,
                                                    uint64_t timed) {
  std::vector<frontier::UrlChange> urls;
  for (uint64_t i = 0; i < queued + timed; ++i) {
    frontier::UrlChange change;
    change.fp = 0x9E3779B97F4A7C15ull * (host * 1000 + i + 1);
    change.kind = frontier::UrlChangeKind::kNew;
    frontier::UrlRecord& record = change.record;
    record.url_id = static_cast<int64_t>(host * 1000 + i + 1);
    record.host = host;
    record.depth = static_cast<uint16_t>(1 + i % 3);
    record.priority = static_cast<int32_t>(i % 5) - 2;
    if (i >= queued) {
      record.state = frontier::UrlState::kLeased;
      record.due = 1.6e9 + 30 + static_cast<double>(i) / 3;
      record.attempts = 1;
      record.status = 503;
      record.last_fetch = 1.6e9 - 0.25;
    }
    urls.push_back(change);
  }
  return urls;
}

}  // namespace crawldb::fuzz
