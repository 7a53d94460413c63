// The frontier's change sets as format 3 wrote them (change-set version 1, frontier_changes.h:
// new records carry the URL's text, times are f64, status zigzag), for the tests that make
// format-3 data and check that this build still reads it.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include <xxhash.h>

#include "codecs/varint.h"
#include "extension/frontier/frontier_changes.h"

namespace crawldb::testing {

inline std::string EncodeVersionOneChangeSet(const frontier::ChangeSet& changes) {
  std::string out(1, static_cast<char>(frontier::kTextChangeFormatVersion));
  auto u64 = [&](uint64_t value) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
  };
  auto f64 = [&](double value) { u64(std::bit_cast<uint64_t>(value)); };
  codecs::AppendVarint(changes.hosts.size(), &out);
  for (const frontier::HostChange& host : changes.hosts) {
    codecs::AppendVarint(host.id, &out);
    codecs::AppendVarint(host.name.size(), &out);
    out.append(host.name);
    f64(host.settings.delay_s);
    codecs::AppendSignedVarint(host.settings.budget, &out);
    f64(host.settings.blocked_until);
    f64(host.settings.next_allowed);
  }
  codecs::AppendVarint(changes.urls.size(), &out);
  for (const frontier::UrlChange& url : changes.urls) {
    u64(url.fp);
    out.push_back(static_cast<char>(url.kind));
    if (url.kind == frontier::UrlChangeKind::kDelete) continue;
    const frontier::UrlRecord& record = url.record;
    codecs::AppendVarint(record.host, &out);
    codecs::AppendVarint(record.depth, &out);
    codecs::AppendSignedVarint(record.priority, &out);
    out.push_back(static_cast<char>(record.state));
    out.push_back(static_cast<char>(record.attempts));
    codecs::AppendSignedVarint(record.status, &out);
    f64(record.due);
    f64(record.last_fetch);
    if (url.kind == frontier::UrlChangeKind::kNew) {
      codecs::AppendVarint(url.text.size(), &out);
      out.append(url.text);
    }
  }
  u64(XXH3_64bits(out.data(), out.size()));
  return out;
}

}  // namespace crawldb::testing
