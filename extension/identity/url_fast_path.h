// NormalizeUrl's fast path: URLs whose normal form can be written in one scan, without uriparser.
//
// Most URLs a crawler meets are already normalised, or nearly (an upper-case host, "HTTP:", the
// default port). For those, the full path (parse with uriparser, then rewrite every part) costs
// several hundred nanoseconds that this scan avoids. NormalizeUrlFast() accepts a conservative
// subset of inputs and gives, for each of them, exactly what the full path gives: the same text
// and the same parts. Everything else it declines, and NormalizeUrl runs the full path, which
// also produces every refusal: the fast path never refuses.
//
// The accepted language, over the whole input (there is no trimming and no fragment, so every
// byte of `raw` is one of the URL's):
//
//   scheme "://" host [ ":" port ] [ path ] [ "?" query ]
//
//   scheme  "http" or "https", any case.
//   host    labels of [A-Za-z0-9-]+ joined by single dots: no empty label, so no leading,
//           doubled or trailing dot. Not only digits and dots (IPv4 literals and names that look
//           like them, such as "01.2.3.4", are declined). No '%', no '@' (userinfo), no '[',
//           nothing >= 0x80. Written lower-cased.
//   port    1 to 5 digits, no leading zero, at most 65535. The scheme's default (80 for http,
//           443 for https) is dropped, any other is written as is. An empty port is declined.
//   path    "/" followed by pchar / "/": unreserved, sub-delims, ':' and '@' literally, and
//           escapes "%HH" whose two hex digits are upper-case and whose byte is not unreserved
//           (so "%2F", "%C3", "%00" are accepted; "%2f", "%41", "%7E", "%2E", "%zz" declined).
//           No segment is "." or "..". An empty path is written as "/".
//   query   the same bytes as the path plus '?', dot segments allowed. An empty query (a lone
//           '?') is dropped.
//
// Declined besides: anything longer than max_length bytes, in or out (the full path refuses it),
// and every byte the full path would escape or drop: controls, space, NUL, '#', '\', '"', '<',
// '>', '[', ']', '^', '`', '{', '|', '}', DEL and bytes >= 0x80.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"

namespace crawldb::identity {

// Where the parts of a fast-path result are; offsets and lengths in bytes into its text.
struct FastUrlParts {
  bool https = false;
  uint32_t host_begin = 0;   // byte offset of the host: 7 or 8, right after "://"
  uint32_t host_length = 0;  // bytes; the host is always a registered name (HostKind::kName)
  uint16_t port = 0;         // the explicit port, 0 when the default is meant
  uint32_t path_begin = 0;   // byte offset of the path's leading '/'
  uint32_t query_mark = 0;   // byte offset of '?', 0 when there is no query
};

// When `raw` is in the language above: writes its normalised form to *text (replacing what was
// there; one allocation at most), sets *parts and returns true. Otherwise returns false and
// leaves *text and *parts untouched; the caller runs the full path.
bool NormalizeUrlFast(absl::string_view raw, size_t max_length, std::string* text,
                      FastUrlParts* parts);

}  // namespace crawldb::identity
