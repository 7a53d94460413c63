// URLs and canonical keys the seeds of the fuzz targets are made of: a small crawl's worth,
// generated (hosts, subdomains, paths, queries, a port, an IPv6 literal), never read from
// ../shared/data.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_normalizer.h"

namespace crawldb::fuzz {

// `count` distinct raw URLs, some of them not in normal form (case, default port, dot segments,
// escapes, a fragment, non-ASCII), in a fixed order.
inline std::vector<std::string> SeedRawUrls(size_t count) {
  static const char* const kHosts[] = {"example.com",
                                       "www.example.com",
                                       "Docs.Example.COM:80",
                                       "news.site.org",
                                       "b\xC3\xBC"
                                       "cher.de",
                                       "[2001:DB8::1]",
                                       "10.0.0.1:8080",
                                       "a.b.c.d.example.net"};
  static const char* const kPaths[] = {"",
                                       "/",
                                       "/index.html",
                                       "/a/./b/../c",
                                       "/%7Euser/",
                                       "/q?x=1&y=2",
                                       "/p%2fq#frag",
                                       "/caf\xC3\xA9",
                                       "/2024/05/01/story-title-here.html"};
  std::vector<std::string> urls;
  for (size_t i = 0; urls.size() < count; ++i) {
    const char* scheme = i % 3 == 0 ? "HTTPS://" : "http://";
    urls.push_back(absl::StrCat(scheme, kHosts[i % std::size(kHosts)],
                                kPaths[(i / std::size(kHosts)) % std::size(kPaths)],
                                i < std::size(kHosts) * std::size(kPaths) ? "" : absl::StrCat(i)));
  }
  return urls;
}

// The canonical keys of SeedRawUrls(count) that normalise, sorted and distinct.
inline std::vector<std::string> SeedKeys(size_t count) {
  std::vector<std::string> keys;
  for (const std::string& raw : SeedRawUrls(count)) {
    absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(raw);
    if (url.ok()) keys.push_back(identity::CanonicalKey(*url));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

inline std::vector<absl::string_view> Views(const std::vector<std::string>& texts) {
  return std::vector<absl::string_view>(texts.begin(), texts.end());
}

}  // namespace crawldb::fuzz
