// NormalizeUrl's fast path (url_fast_path.h) against the full uriparser path: for every input the
// two give the same text, the same parts and the same refusals. Inputs: the real corpora (reddit
// 2005-2007 and phishstorm) and variants of them, a generated set of tricky URLs (case, ports,
// dots, escapes, userinfo, fragments, IP hosts, NUL bytes, very long URLs, max_length
// boundaries), and a table of what the fast path must accept and decline. Also prints the share
// of each corpus that takes the fast path and the cost per URL of both paths.
#include "extension/identity/url_fast_path.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "extension/identity/url_normalizer.h"
#include "gtest/gtest.h"
#include "tests/shared_data.h"

namespace crawldb::identity {
namespace {

using namespace std::literals;

constexpr NormalizeOptions kSlow{.fast_path = false};

// `input` with control bytes and bytes >= 0x80 as \xHH, for failure messages.
std::string Printable(absl::string_view input) {
  std::string shown;
  for (char c : input) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7F) {
      shown += "\\x";
      shown += "0123456789ABCDEF"[byte >> 4];
      shown += "0123456789ABCDEF"[byte & 15];
    } else {
      shown += c;
    }
  }
  return shown;
}

// Everything a result says: the text and every part with its offset, or the refusal.
std::string Describe(const absl::StatusOr<NormalizedUrl>& url) {
  if (!url.ok()) {
    return "refused (" + std::string(absl::StatusCodeToString(url.status().code())) +
           "): " + std::string(url.status().message());
  }
  const std::string& text = url->text();
  const auto offset = [&text](absl::string_view part) {
    return std::to_string(part.data() - text.data());
  };
  const absl::string_view query = url->query();
  return text + " | https=" + std::to_string(url->https()) +
         " scheme=" + std::string(url->scheme()) + " host@" + offset(url->host()) + "+" +
         std::to_string(url->host().size()) +
         " kind=" + std::to_string(static_cast<int>(url->host_kind())) +
         " port=" + std::to_string(url->port()) + " path@" + offset(url->path()) + "+" +
         std::to_string(url->path().size()) + " query" +
         (query.empty() ? std::string(" none")
                        : "@" + offset(query) + "+" + std::to_string(query.size()));
}

// True when the fast path takes `input` (and then checks it gives what NormalizeUrl gives).
bool TakesFastPath(absl::string_view input, size_t max_length = NormalizeOptions{}.max_length) {
  std::string text;
  FastUrlParts parts;
  return NormalizeUrlFast(input, max_length, &text, &parts);
}

// Expects the default NormalizeUrl (fast path first) to agree with the full path. Returns whether
// the fast path took the input. The input is read from a heap block of exactly its size, so that
// the sanitizers see any read past its end.
bool ExpectSameAsFullPath(absl::string_view text,
                          size_t max_length = NormalizeOptions{}.max_length) {
  const std::unique_ptr<char[]> exact(new char[text.size()]);
  std::copy(text.begin(), text.end(), exact.get());
  const absl::string_view input(exact.get(), text.size());
  NormalizeOptions fast;
  fast.max_length = max_length;
  NormalizeOptions slow = kSlow;
  slow.max_length = max_length;
  const std::string with_fast = Describe(NormalizeUrl(input, fast));
  const std::string full = Describe(NormalizeUrl(input, slow));
  EXPECT_EQ(with_fast, full) << "input: " << Printable(input) << " max_length " << max_length;
  return TakesFastPath(input, max_length);
}

// ----------------------------------------------------------------------------------------------
// What the fast path takes: these pin the language of url_fast_path.h, so that the differential
// tests below exercise it and not only the fallback.

TEST(NormalizeUrlFast, TakesUrlsInNormalOrNearlyNormalForm) {
  const std::vector<std::pair<std::string, std::string>> table = {
      {"http://example.com/", "http://example.com/"},
      {"https://example.com/a/b?x=1&y=2", "https://example.com/a/b?x=1&y=2"},
      {"HTTP://WWW.Example.COM/Path/File.HTML", "http://www.example.com/Path/File.HTML"},
      {"hTtPs://EXAMPLE.com", "https://example.com/"},
      {"http://example.com?x", "http://example.com/?x"},
      {"http://example.com/?", "http://example.com/"},
      {"http://example.com/x?", "http://example.com/x"},
      {"http://example.com??", "http://example.com/??"},
      {"http://example.com:80/a", "http://example.com/a"},
      {"https://example.com:443", "https://example.com/"},
      {"http://example.com:443/", "http://example.com:443/"},
      {"https://example.com:80/", "https://example.com:80/"},
      {"http://example.com:8080?q", "http://example.com:8080/?q"},
      {"http://example.com:65535/", "http://example.com:65535/"},
      {"http://example.com:1/", "http://example.com:1/"},
      {"http://a-b.c-d.e/", "http://a-b.c-d.e/"},
      {"http://-.x/", "http://-.x/"},
      {"http://0x7f.1/", "http://0x7f.1/"},
      {"http://1.2.3.a/", "http://1.2.3.a/"},
      {"http://xn--bcher-kva.de/", "http://xn--bcher-kva.de/"},
      {"http://localhost/", "http://localhost/"},
      {"http://example.com//a///b/", "http://example.com//a///b/"},
      {"http://example.com/.a/..b/a./b../.../", "http://example.com/.a/..b/a./b../.../"},
      {"http://example.com/a?/./../.", "http://example.com/a?/./../."},
      {"http://example.com/a%2Fb%3A%40%C3%A9%00%25%FF",
       "http://example.com/a%2Fb%3A%40%C3%A9%00%25%FF"},
      {"http://example.com/!$&'()*+,;=:@-._~", "http://example.com/!$&'()*+,;=:@-._~"},
      {"http://example.com/a@b:c?d@e:f", "http://example.com/a@b:c?d@e:f"},
  };
  for (const auto& [input, expected] : table) {
    std::string text;
    FastUrlParts parts;
    EXPECT_TRUE(NormalizeUrlFast(input, 8192, &text, &parts)) << input;
    EXPECT_EQ(text, expected) << input;
    EXPECT_TRUE(ExpectSameAsFullPath(input)) << input;
  }
}

TEST(NormalizeUrlFast, DeclinesEverythingElse) {
  const std::vector<std::string> declined = {
      // Not http(s)://, or refused.
      "",
      "http://",
      "https://",
      "ftp://example.com/",
      "http:/example.com/",
      "http:example.com",
      "httpx://a.com/",
      "htt://a.com/",
      "http//a.com/",
      " http://a.com/",
      "http://a.com/ ",
      "http://a.com/\n",
      "1http://a.com/",
      // Hosts: empty labels, trailing dots, IPv4-looking, IPv6, escapes, non-ASCII, userinfo,
      // characters the full path refuses or keeps but the fast path does not know.
      "http:///x",
      "http://./",
      "http://.a.com/",
      "http://a..com/",
      "http://a.com./",
      "http://a.com../",
      "http://1.2.3.4/",
      "http://1.2.3.4./",
      "http://01.2.3.4/",
      "http://1.2.3.256/",
      "http://12345/",
      "http://1.2/",
      "http://[::1]/",
      "http://[v1.x]/",
      "http://a%2Ecom/",
      "http://%65xample.com/",
      "http://b\xC3\xBC"
      "cher.de/",
      "http://user@a.com/",
      "http://@a.com/",
      "http://a@b@c.com/",
      "http://a_b.com/",
      "http://a~b.com/",
      "http://a,b.com/",
      "http://a b.com/",
      "http://a.com\\@b.com/",
      "http://a.com\\x/",
      "http://$x$/",
      "http://\"Self\"",
      // Ports: empty, zero, leading zeros, out of range, not digits.
      "http://a.com:/",
      "http://a.com:",
      "http://a.com:0/",
      "http://a.com:00/",
      "http://a.com:080/",
      "http://a.com:0080/",
      "http://a.com:65536/",
      "http://a.com:99999/",
      "http://a.com:123456/",
      "http://a.com:8x/",
      "http://a.com:-1/",
      "http://a.com:80:80/",
      // Paths: dot segments, escapes to decode or upper-case or encode, bytes to encode.
      "http://a.com/.",
      "http://a.com/..",
      "http://a.com/./",
      "http://a.com/../",
      "http://a.com/a/.",
      "http://a.com/a/..",
      "http://a.com/a/./b",
      "http://a.com/a/../b",
      "http://a.com/.?q",
      "http://a.com/..?q",
      "http://a.com/%2e",
      "http://a.com/%2E",
      "http://a.com/%41",
      "http://a.com/%7e",
      "http://a.com/%7E",
      "http://a.com/%5F",
      "http://a.com/%2f",
      "http://a.com/%c3%A9",
      "http://a.com/%zz",
      "http://a.com/%4",
      "http://a.com/%",
      "http://a.com/?%",
      "http://a.com/?%2",
      "http://a.com/?q=%7E",
      "http://a.com/a b",
      "http://a.com/a\tb",
      "http://a.com/\x7F",
      "http://a.com/\xC3\xA9",
      "http://a.com/\"",
      "http://a.com/<>",
      "http://a.com/\\",
      "http://a.com/^",
      "http://a.com/`",
      "http://a.com/{}",
      "http://a.com/|",
      "http://a.com/[x]",
      "http://a.com/?[y]",
      // Fragments and NUL bytes.
      "http://a.com/#",
      "http://a.com/x#f",
      "http://a.com#f",
      "http://a.com/\0"s,
      "http://a.com\0/"s,
  };
  for (const std::string& input : declined) {
    EXPECT_FALSE(TakesFastPath(input)) << Printable(input);
    ExpectSameAsFullPath(input);
  }
  // max_length, in and out: "http://a.com" is 12 bytes and normalises to 13.
  EXPECT_TRUE(TakesFastPath("http://a.com", 13));
  EXPECT_FALSE(TakesFastPath("http://a.com", 12));
  EXPECT_FALSE(TakesFastPath("http://a.com/", 12));
  EXPECT_TRUE(TakesFastPath("http://a.com/", 13));
  for (size_t max_length : {0, 1, 7, 11, 12, 13, 14}) {
    ExpectSameAsFullPath("http://a.com", max_length);
    ExpectSameAsFullPath("http://a.com/", max_length);
    ExpectSameAsFullPath("HTTP://A.COM:80/?", max_length);
  }
}

TEST(NormalizeUrlFast, LeavesItsOutputsAloneWhenItDeclines) {
  std::string text = "before";
  FastUrlParts parts;
  parts.host_length = 99;
  EXPECT_FALSE(NormalizeUrlFast("http://a.com/%7e", 8192, &text, &parts));
  EXPECT_EQ(text, "before");
  EXPECT_EQ(parts.host_length, 99u);
  EXPECT_TRUE(NormalizeUrlFast("https://A.com:8443/x?y", 8192, &text, &parts));
  EXPECT_EQ(text, "https://a.com:8443/x?y");
  EXPECT_TRUE(parts.https);
  EXPECT_EQ(parts.host_begin, 8u);
  EXPECT_EQ(parts.host_length, 5u);
  EXPECT_EQ(parts.port, 8443);
  EXPECT_EQ(parts.path_begin, 18u);
  EXPECT_EQ(parts.query_mark, 20u);
}

// ----------------------------------------------------------------------------------------------
// Generated tricky inputs: every combination of a few parts, then random splices and byte edits.

// The pieces of one part of a URL: those the fast path takes, and the others.
struct Pieces {
  std::vector<std::string> fast;
  std::vector<std::string> other;

  std::vector<std::string> All() const {
    std::vector<std::string> all = fast;
    all.insert(all.end(), other.begin(), other.end());
    return all;
  }
  // Seven times in eight one the fast path takes.
  const std::string& Pick(std::mt19937_64& random) const {
    const bool take_fast = other.empty() || (!fast.empty() && random() % 8 != 0);
    const std::vector<std::string>& from = take_fast ? fast : other;
    return from[random() % from.size()];
  }
};

TEST(NormalizeUrlFast, AgreesWithTheFullPathOnTrickyVariants) {
  const Pieces schemes = {
      {"http://", "https://", "HTTP://", "hTtPs://", "httpS://"},
      {"http:/", "http:", "htp://", "https:/", "ftp://", " http://", "http//", "httpss://"}};
  const Pieces hosts = {{"example.com", "EXAMPLE.COM", "Ex-Ample.Co.UK", "a", "A", "a.b", "0x7f.1",
                         "1a.2b", "1.2.3.a", "-a-.b", "xn--zz.com", std::string(300, 'a') + ".com",
                         std::string(63, 'a') + "." + std::string(63, 'B')},
                        {"a..b",
                         "a.",
                         "a..",
                         ".a",
                         ".",
                         "",
                         "1.2.3.4",
                         "1.2.3.4.",
                         "01.2.3.4",
                         "1.2.3.256",
                         "255.255.255.255",
                         "1.2.3",
                         "12345",
                         "a_b.com",
                         "a~b",
                         "[::1]",
                         "[2001:DB8::1]",
                         "[v1.x]",
                         "[::1",
                         "a%41.com",
                         "a%2e.com",
                         "A%2Ecom",
                         "%65x.com",
                         "a%zz.com",
                         "a%20b",
                         "b\xC3\xBC"
                         "cher.de",
                         "\xFF.com",
                         "user@a.com",
                         "u:p@A.COM",
                         "a@b@c.com",
                         "@a.com",
                         "a.com\\@b.com",
                         "a\\b",
                         "a b",
                         "a,b",
                         "$x$"}};
  const Pieces ports = {{"", ":80", ":443", ":8080", ":1", ":65535", ":8443"},
                        {":", ":0", ":00", ":080", ":0080", ":0443", ":65536", ":99999", ":100000",
                         ":8x", ":-1", ":80:80", ": 80", ":+80"}};
  const Pieces paths = {{"",
                         "/",
                         "/a",
                         "/A/b.html",
                         "//",
                         "//a///b/",
                         "/.a",
                         "/..a",
                         "/a.",
                         "/a..",
                         "/...",
                         "/%2F",
                         "/%C3%A9",
                         "/%00",
                         "/%FF",
                         "/%25",
                         "/a@b",
                         "/a:b",
                         "/!$&'()*+,;=",
                         "/~user/",
                         "/a?b",
                         "/" + std::string(1100, 'p')},
                        {"/.",         "/..",
                         "/./",        "/../",
                         "/a/.",       "/a/..",
                         "/a/./b",     "/a/../b",
                         "/%2e",       "/%2E",
                         "/%2e%2E",    "/.%2e",
                         "/%41",       "/%61",
                         "/%7e",       "/%7E",
                         "/%5f",       "/%2D",
                         "/%30",       "/%zz",
                         "/%4",        "/%",
                         "/%%41",      "/%2f",
                         "/%c3%a9",    "/%c3%A9",
                         "/a b",       "/a\\b",
                         "/\xC3\xA9",  "/[x]",
                         "/{}|^`\"<>", "/\x7F",
                         "/\x01",      std::string(1100, 'p')}};
  const Pieces queries = {
      {"", "?", "??", "?a=1&b=2", "?/../", "?.", "?%3D", "?@:/?", "?a=/./"},
      {"?%2e", "?%41", "?%7E", "?%zz", "?%3d", "?a b", "?[y]", "?%", "?\xC3\xA9"}};
  const Pieces tails = {{""}, {"#", "#frag", "#a b", "#\xC3\xA9", " ", "\t\n", "\0"s, "#\0"s}};

  size_t inputs = 0, fast = 0;
  const auto check = [&inputs, &fast](absl::string_view input, size_t max_length = 8192) {
    fast += ExpectSameAsFullPath(input, max_length);
    ++inputs;
  };
  // Every scheme x host x port with three paths; every path x query x tail after two
  // authorities.
  for (const std::string& scheme : schemes.All()) {
    for (const std::string& host : hosts.All()) {
      for (const std::string& port : ports.All()) {
        for (const char* path : {"", "/a?b", "?"}) check(scheme + host + port + path);
      }
    }
  }
  for (const std::string& path : paths.All()) {
    for (const std::string& query : queries.All()) {
      for (const std::string& tail : tails.All()) {
        for (const char* authority : {"http://a.com", "HTTPS://A.b:8443"}) {
          check(authority + path + query + tail);
        }
      }
    }
  }

  // Random splices, with case flips, inserted and deleted bytes, and every max_length around the
  // input's and the output's length.
  std::mt19937_64 random(20240917);
  constexpr char kBytes[] = "/?#%.:@[]\\ \t\0aAzZ09-_~eE2";
  const absl::string_view bytes(kBytes, sizeof(kBytes) - 1);
  for (int round = 0; round < 100000 && !HasFailure(); ++round) {
    std::string input = schemes.Pick(random) + hosts.Pick(random) + ports.Pick(random) +
                        paths.Pick(random) + paths.Pick(random) + queries.Pick(random) +
                        tails.Pick(random);
    for (int edits = static_cast<int>(random() % 4) - 1; edits > 0 && !input.empty(); --edits) {
      const size_t at = random() % input.size();
      switch (random() % 3) {
        case 0:
          input[at] = static_cast<char>(input[at] ^ 0x20);
          break;
        case 1:
          input.insert(input.begin() + static_cast<std::ptrdiff_t>(at),
                       bytes[random() % bytes.size()]);
          break;
        default:
          input.erase(at, 1);
          break;
      }
    }
    check(input);
    if (round % 16 != 0) continue;
    std::vector<size_t> limits = {input.size() + 1, input.size()};
    if (!input.empty()) limits.push_back(input.size() - 1);
    if (const absl::StatusOr<NormalizedUrl> url = NormalizeUrl(input, kSlow); url.ok()) {
      const size_t out = url->text().size();
      limits.insert(limits.end(), {out + 1, out, out - 1});
    }
    for (size_t max_length : limits) check(input, max_length);
  }

  // Very long URLs, around the default max_length of 8192 bytes.
  for (size_t length : {8190, 8191, 8192, 8193}) {
    for (const std::string& prefix : {"http://a.com/"s, "http://a.com"s, "HTTP://A.COM:80/"s}) {
      check(prefix + std::string(length - prefix.size(), 'x'));
      check(prefix + "?" + std::string(length - prefix.size() - 1, 'q'));
    }
  }
  std::printf("tricky variants: %zu inputs, %zu (%.1f%%) took the fast path\n", inputs, fast,
              100.0 * static_cast<double>(fast) / static_cast<double>(inputs));
  // Both paths must be exercised, else the comparison proves little.
  EXPECT_GT(fast, inputs / 10);
  EXPECT_LT(fast, inputs - inputs / 10);
}

// ----------------------------------------------------------------------------------------------
// The real corpora.

using ::crawldb::testing::ReadXzLines;
using ::crawldb::testing::SharedDataPath;

// Variants of a real URL the fast path should also get right: upper-cased scheme and host, the
// default port spelled out, a lone '?', a trailing dot on the host, all upper case.
std::vector<std::string> VariantsOf(const std::string& line) {
  std::vector<std::string> variants;
  const size_t mark = line.find("://");
  if (mark == std::string::npos) return variants;
  size_t host_end = line.find_first_of("/?#", mark + 3);
  if (host_end == std::string::npos) host_end = line.size();
  std::string upper_host = line;
  for (size_t i = 0; i < host_end; ++i) {
    if (upper_host[i] >= 'a' && upper_host[i] <= 'z')
      upper_host[i] = static_cast<char>(upper_host[i] - 32);
  }
  variants.push_back(upper_host);
  const bool https = line.compare(0, mark, "https") == 0;
  variants.push_back(line.substr(0, host_end) + (https ? ":443" : ":80") + line.substr(host_end));
  variants.push_back(line.substr(0, host_end) + "." + line.substr(host_end));
  variants.push_back(line + (line.find('?') == std::string::npos ? "?" : "&"));
  std::string upper = line;
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 32);
  }
  variants.push_back(upper);
  return variants;
}

struct Share {
  size_t lines = 0;
  size_t fast = 0;
};

Share CheckCorpus(const std::vector<std::string>& lines) {
  Share share;
  for (const std::string& line : lines) {
    ++share.lines;
    share.fast += ExpectSameAsFullPath(line);
    for (const std::string& variant : VariantsOf(line)) ExpectSameAsFullPath(variant);
    if (::testing::Test::HasFailure()) break;
  }
  return share;
}

// Kept out of line so that `valgrind --tool=callgrind --toggle-collect=*NormalizeAll*` counts
// exactly the normalisation of a corpus.
[[gnu::noinline]] size_t NormalizeAll(const std::vector<std::string>& lines,
                                      const NormalizeOptions& options) {
  size_t sink = 0;
  for (const std::string& line : lines) {
    absl::StatusOr<NormalizedUrl> url = NormalizeUrl(line, options);
    sink += url.ok() ? url->text().size() : 1;
  }
  return sink;
}

[[gnu::noinline]] size_t NormalizeAllFast(const std::vector<std::string>& lines) {
  return NormalizeAll(lines, NormalizeOptions{});
}
[[gnu::noinline]] size_t NormalizeAllSlow(const std::vector<std::string>& lines) {
  return NormalizeAll(lines, kSlow);
}

// Best of three passes, in ns per URL.
double BestNanosPerUrl(const std::vector<std::string>& lines,
                       size_t (*normalize_all)(const std::vector<std::string>&)) {
  double best = 1e300;
  for (int pass = 0; pass < 3; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    const size_t sink = normalize_all(lines);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    EXPECT_GT(sink, 0u);
    best = std::min(best, std::chrono::duration<double, std::nano>(elapsed).count() /
                              static_cast<double>(lines.size()));
  }
  return best;
}

void Report(const char* corpus, const std::vector<std::string>& lines, const Share& share) {
  const double fast_ns = BestNanosPerUrl(lines, &NormalizeAllFast);
  const double slow_ns = BestNanosPerUrl(lines, &NormalizeAllSlow);
  std::printf(
      "%s: %zu lines, %zu (%.2f%%) take the fast path; NormalizeUrl %.0f ns/URL with it, "
      "%.0f ns/URL without (best of 3)\n",
      corpus, share.lines, share.fast,
      100.0 * static_cast<double>(share.fast) / static_cast<double>(share.lines), fast_ns, slow_ns);
}

TEST(NormalizeUrlFastCorpus, RedditUrls) {
  const std::vector<std::string> lines =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"));
  ASSERT_EQ(lines.size(), 208526u);
  const Share share = CheckCorpus(lines);
  Report("reddit", lines, share);
  // Observed: 98.5% take the fast path; most of the others have a fragment (1.1%) or escapes to
  // rewrite (0.3%).
  EXPECT_GE(share.fast * 100, share.lines * 95);
}

TEST(NormalizeUrlFastCorpus, PhishstormUrls) {
  const std::vector<std::string> lines =
      ReadXzLines(SharedDataPath("phish/phishstorm-urls.txt.xz"));
  ASSERT_EQ(lines.size(), 96017u);
  const Share share = CheckCorpus(lines);
  Report("phishstorm", lines, share);
  // Observed: 98.4% take the fast path; the others mostly have a fragment or an IPv4 host.
  EXPECT_GE(share.fast * 100, share.lines * 95);
}

// 20,000 reddit URLs (every tenth line) through each path once, for callgrind:
//   valgrind --tool=callgrind --toggle-collect='*NormalizeAllFast*' ... and '*NormalizeAllSlow*'
TEST(NormalizeUrlFastCorpus, CallgrindSample) {
  const std::vector<std::string> lines =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"));
  std::vector<std::string> sample;
  for (size_t i = 0; i < lines.size() && sample.size() < 20000; i += 10) sample.push_back(lines[i]);
  ASSERT_EQ(sample.size(), 20000u);
  EXPECT_EQ(NormalizeAllFast(sample), NormalizeAllSlow(sample));
}

}  // namespace
}  // namespace crawldb::identity
