// The canonical key of a normalised URL: the string whose byte order is crawldb's canonical URL
// order (design.md §2), compact and exactly invertible, so the URL store can keep keys instead of
// URL texts and front-code them.
//
// Grammar (every byte is printable ASCII; no NUL):
//
//   key        = host-key mark [ port "/" ] rest
//   host-key   = label *( "," label )   a registered name's labels in REVERSE order, joined by ','
//                                       ("www.example.co.uk" -> "uk,co,example,www")
//              | dotted-quad            an IPv4 literal, as is ("192.0.2.1")
//              | "[" ipv6 "]"           an IPv6 literal, as is
//   mark       = "(" http, default port   | ")" https, default port
//              | "*" http, explicit port  | "+" https, explicit port
//   port       = the port's decimal digits (never the scheme's default, no leading zero)
//   rest       = the path and query WITHOUT the path's leading '/' when there is no port
//                (the mark already ends the host), the path and query as is after a port
//                (the '/' ends the digits)
//
//   "http://www.example.co.uk/a/b?q=1"  ->  "uk,co,example,www(a/b?q=1"   (7 bytes shorter)
//   "https://example.com/"              ->  "com,example)"                 (8 bytes shorter)
//   "http://[::1]:8080/x"               ->  "[::1]*8080/x"
//
// Why it orders well. A normalised registered name holds only [a-z0-9-._~] (url_normalizer.h,
// rule 7), all above ',' (0x2C); the marks '(' ')' '*' '+' (0x28-0x2B) sit below ','. Hence:
//   - every URL of one host H is the key range [ HostKey(H) "(" , HostKey(H) "," ), http before
//     https, explicit ports after;
//   - a host sorts before its subdomains, and a domain D with all its subdomains is the range
//     [ HostKey(D) "(" , HostKey(D) "-" ): "example.com", "www.example.com" and
//     "shop.example.com" sit together and "example-shop.com" does not land between them; so do
//     all hosts of one registrable domain (a registrable domain is a suffix of labels), and all
//     sites under one public suffix;
//   - within one host and mark, key order is the byte order of the path and query, i.e. of the
//     URL text: the key is order-preserving within a host.
// IPv4 keys are not reversed, so addresses of one /24 sit together; the '.' they contain never
// appears in a reversed name, which tells the two apart. IPv6 keys start with '['.
//
// Keys depend on nothing but the URL (no public suffix list): they are stable across releases.
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/identity/url_normalizer.h"

namespace crawldb::identity {

// The mark bytes, lowest to highest; any byte below kHostKeySeparator ends a host key.
inline constexpr char kKeyMarkHttp = '(';
inline constexpr char kKeyMarkHttps = ')';
inline constexpr char kKeyMarkHttpPort = '*';
inline constexpr char kKeyMarkHttpsPort = '+';
inline constexpr char kHostKeySeparator = ',';

// The canonical key of `url` (grammar above). Its size is url.text().size() - 7 for http,
// - 8 for https (explicit port or not).
std::string CanonicalKey(const NormalizedUrl& url);

// Appends CanonicalKey(url) to *key (for building many keys in one buffer).
void AppendCanonicalKey(const NormalizedUrl& url, std::string* key);

// The host-key part of a normalised host: reversed labels for a registered name, the host itself
// for IP literals. Use it to form the key ranges above.
std::string CanonicalHostKey(absl::string_view host);

// The normalised URL whose key `key` is: UrlFromCanonicalKey(CanonicalKey(u)).text() ==
// u.text(). Validates the structure (mark, host characters, port range, printable rest) and
// returns InvalidArgumentError "canonical key: <what>" for a key no normalised URL produces;
// it does not re-run NormalizeUrl. Cost: one allocation.
absl::StatusOr<NormalizedUrl> UrlFromCanonicalKey(absl::string_view key);

// UrlFromCanonicalKey(key).text() into *url_text (replacing its content, reusing its capacity),
// with the same checks and errors (*url_text is then unspecified): for a caller that needs only
// the text, without an allocation when *url_text is large enough.
absl::Status UrlTextFromCanonicalKey(absl::string_view key, std::string* url_text);

}  // namespace crawldb::identity
