// URL normalisation: the one text form of a URL that crawldb stores, hashes and compares.
//
// NormalizeUrl() turns what a crawler scraped into that form or refuses it. Two URLs that name the
// same resource by the rules below normalise to the same bytes; NormalizeUrl is idempotent
// (normalising its output returns the output unchanged). Parsing is done by uriparser
// (RFC 3986); this file adds the equivalences of RFC 3986 §6.2.2–6.2.3 and paper 001 §2.2.
// URLs that are already in normal form, or nearly (upper-case scheme or host, default port, lone
// '?', empty path), skip uriparser: url_fast_path.h lists the language that one scan accepts, with
// results identical to the full path's (text, parts and refusals; tests/stores pin it).
//
// The normalised form, always ASCII (so always valid UTF-8), never longer than max_length:
//
//   scheme "://" host [ ":" port ] path [ "?" query ]
//
// Rules, in the order they apply:
//   1. Input longer than NormalizeOptions::max_length bytes is refused, before anything else.
//      A NUL byte anywhere is refused ("embedded NUL byte").
//   2. Surrounding ASCII whitespace (space, \t, \n, \v, \f, \r) is trimmed. Nothing is left:
//      refused ("empty URL").
//   3. The fragment is dropped: everything from the first '#'.
//   4. Bytes that may not appear in a URI are percent-encoded with upper-case hex, as browsers do:
//      controls (0x00–0x20, 0x7F), space, every byte >= 0x80 (so UTF-8 text becomes its escaped
//      bytes), and  " < > \ ^ ` { | }. '[' and ']' outside the authority are encoded too.
//      A '%' not followed by two hex digits is encoded as "%25" (browsers do the same; we do not
//      refuse it). '\' is encoded, not read as '/' as browsers do: "http://a.com\x" has the host
//      "a.com\x" and is refused.
//   5. The scheme is lower-cased; only "http" and "https" are accepted ("unsupported scheme
//      'ftp'"). A string without a scheme is refused ("not a URL"); "http:" not followed by
//      "//" is refused ("empty host"): "http:example.com" is not guessed at.
//   6. Userinfo ("user:password@", up to the LAST '@' of the authority, as in browsers) is
//      DROPPED: it is not part of the resource's identity, credentials must not be stored, and a
//      phishing "http://bank.com@evil.net/" becomes the "http://evil.net/" it really is.
//   7. The host:
//      - IPv4 literal: kept as dotted decimal (uriparser accepts only canonical octets; a
//        registered name that reads as a canonical dotted quad once its trailing dot is removed,
//        "1.2.3.4.", is an IPv4 literal too). "01.2.3.4" and "0x7f.1" stay registered names.
//      - IPv6 literal: kept in brackets, rewritten in the RFC 5952 text form (lower-case hex,
//        no leading zeros, the longest run of two or more zero groups as "::", first run on a
//        tie; no dotted IPv4 tail). IPvFuture ("[v1.x]") is refused ("invalid host").
//      - Registered name: percent-escapes are decoded, ASCII is lower-cased; a name with bytes
//        >= 0x80 is taken as UTF-8 and converted to its IDNA A-label (punycode) by libidn2
//        (UTS #46 non-transitional processing with NFC, falling back to transitional like curl;
//        e.g. "Bücher.de" -> "xn--bcher-kva.de"). Trailing
//        dots are removed. The result must consist of [a-z0-9-._~] only, else it is refused
//        ("invalid host"): such a name cannot be looked up in DNS, and the restriction is what
//        keeps the canonical key (canonical_key.h) invertible and ordered. An ASCII name is not
//        checked by IDNA ("xn--zz.com" is kept although it is not valid punycode).
//      - Nothing left: refused ("empty host").
//   8. The port: leading zeros dropped; the default one (80 for http, 443 for https) and an empty
//      one ("http://a:/") removed. Not all digits, 0, or above 65535: refused ("invalid port").
//   9. Path and query, escape normalisation (RFC 3986 §6.2.2.2): an escape of an unreserved
//      character (ALPHA DIGIT - . _ ~) is decoded, every other escape has its hex upper-cased.
//      Escapes are never decoded to anything else, so bytes that are not valid UTF-8 once decoded
//      stay escaped and the text stays ASCII: nothing is refused for invalid UTF-8.
//  10. Path: dot segments removed (RFC 3986 §5.2.4, after step 9, so "%2E%2E" is ".."); empty
//      path -> "/" (paper 001's "trailing slash"; a slash is not added to other paths: "/a" and
//      "/a/" can be different resources). Empty segments ("//") are kept: they are not
//      equivalent.
//  11. Query: kept as is apart from step 9 (parameters are not reordered); a lone '?' is dropped.
//  12. The result longer than max_length bytes: refused.
//
// Refusals are absl::InvalidArgumentError, message "<reason>: <url>", where <url> is the input
// (after trimming) cut to at most kMessageUrlBytes bytes at a UTF-8 boundary with "…" appended
// when cut, and with control bytes and invalid UTF-8 shown as \xHH. <reason> starts with one of
// kRefusalReasons. An input that is empty once trimmed gives just "empty URL". The SQL layer adds
// its module prefix.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace crawldb::identity {

struct NormalizedUrlAccess;

struct NormalizeOptions {
  // Largest accepted input and output, in bytes.
  size_t max_length = 8192;
  // false: every URL takes the full uriparser path, never the fast path of url_fast_path.h. The
  // results are the same either way; this is for the tests and benchmarks that compare the two.
  bool fast_path = true;
};

// How a normalised host is written.
enum class HostKind : uint8_t {
  kName,  // registered name: [a-z0-9-._~]+, no trailing dot
  kIpv4,  // dotted decimal, canonical octets
  kIpv6,  // "[" RFC 5952 text "]"
};

// The reasons a URL is refused: every refusal message starts with one of these.
inline constexpr std::array<absl::string_view, 8> kRefusalReasons = {
    "empty URL",          "embedded NUL byte", "longer than",  "not a URL",
    "unsupported scheme", "empty host",        "invalid host", "invalid port",
};

// Most bytes of the URL quoted in a refusal message.
inline constexpr size_t kMessageUrlBytes = 100;

// A normalised URL and where its parts are. All offsets and lengths are in bytes into text();
// copying or moving keeps them valid (they are not pointers).
class NormalizedUrl {
 public:
  NormalizedUrl() = default;

  // The whole normalised URL.
  const std::string& text() const { return text_; }
  // "http" or "https".
  absl::string_view scheme() const { return absl::string_view(text_).substr(0, https_ ? 5 : 4); }
  bool https() const { return https_; }
  // The host as written in text(): IPv6 literals with their brackets.
  absl::string_view host() const {
    return absl::string_view(text_).substr(host_begin_, host_length_);
  }
  HostKind host_kind() const { return host_kind_; }
  // The explicit port, 0 when the scheme's default is meant (and nothing is written).
  uint16_t port() const { return port_; }
  // The path, starting with '/'.
  absl::string_view path() const {
    return absl::string_view(text_).substr(path_begin_, PathEnd() - path_begin_);
  }
  // The query without its '?'; empty when there is none (an empty query is never kept).
  absl::string_view query() const {
    return PathEnd() == text_.size() ? absl::string_view()
                                     : absl::string_view(text_).substr(PathEnd() + 1);
  }
  // Path and query as written: everything from the path's '/'.
  absl::string_view path_and_query() const { return absl::string_view(text_).substr(path_begin_); }

  // Takes `text` that is already in normalised form (NormalizeUrl's output, e.g. read back from
  // a store) and finds its parts without normalising again. Checks the shape only: "http://" or
  // "https://", a non-empty host, an optional port in 1..65535 that is not the default, a path
  // starting with '/'. Anything else: InvalidArgumentError "not a normalised URL: <url>".
  static absl::StatusOr<NormalizedUrl> FromNormalizedText(std::string text);

 private:
  friend struct NormalizedUrlAccess;  // NormalizeUrl's writer (url_normalizer.cc)
  size_t PathEnd() const { return query_mark_ == 0 ? text_.size() : query_mark_; }

  std::string text_;
  uint32_t host_begin_ = 0;   // byte offset of the host
  uint32_t host_length_ = 0;  // bytes
  uint32_t path_begin_ = 0;   // byte offset of the path's leading '/'
  uint32_t query_mark_ = 0;   // byte offset of '?', 0 when there is no query
  uint16_t port_ = 0;
  HostKind host_kind_ = HostKind::kName;
  bool https_ = false;
};

// Normalises `raw` by the rules at the top of this file, or refuses it (InvalidArgumentError).
// Cost: one allocation (the result's text) for ASCII hosts; uriparser works in a stack arena.
// URLs in the fast path's language (url_fast_path.h, most real ones) take one scan and no parser.
absl::StatusOr<NormalizedUrl> NormalizeUrl(absl::string_view raw,
                                           const NormalizeOptions& options = {});

// NormalizeUrl into *url, reusing its text's capacity: no allocation on the fast path once the
// text has grown to the URL's size (a look-up normalising one URL per statement keeps one).
// On error *url is unspecified.
absl::Status NormalizeUrlInto(absl::string_view raw, const NormalizeOptions& options,
                              NormalizedUrl* url);

// The host of a normalised URL text (a view into `normalised`); empty when `normalised` does not
// have the normalised form's "scheme://host" shape. Not a validator: pass NormalizeUrl's output.
absl::string_view UrlHost(absl::string_view normalised);

// True when `host` is a canonical dotted-decimal IPv4 address ("1.2.3.4"; no leading zeros,
// octets <= 255).
bool IsIpv4Literal(absl::string_view host);

}  // namespace crawldb::identity
