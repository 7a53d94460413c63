#include "extension/identity/url_fast_path.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/strings/string_view.h"

namespace crawldb::identity {
namespace {

// What a byte is to the host scan: bits, so that one OR tells which kinds a host has.
enum HostClass : uint8_t {
  kHostOther = 0,
  kHostDigit = 1,
  kHostName = 2,   // a-z and '-'
  kHostUpper = 6,  // A-Z: kHostName and bit 4, "lower-case me"
  kHostDot = 8,
};

// What a byte is to the path and query scan. kPathLiteral bytes are kept as they are by the full
// path (unreserved but '.', sub-delims, ':', '@' and '/') and need no look at their neighbours.
enum PathClass : uint8_t {
  kPathDecline = 0,
  kPathLiteral,
  kPathQuestion,
  kPathDot,
  kPathPercent,
};

constexpr absl::string_view kLower = "abcdefghijklmnopqrstuvwxyz";
constexpr absl::string_view kUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
constexpr absl::string_view kDigits = "0123456789";

constexpr std::array<uint8_t, 256> MakeHostClasses() {
  std::array<uint8_t, 256> classes{};
  for (char c : kDigits) classes[static_cast<unsigned char>(c)] = kHostDigit;
  for (char c : kLower) classes[static_cast<unsigned char>(c)] = kHostName;
  for (char c : kUpper) classes[static_cast<unsigned char>(c)] = kHostUpper;
  classes['-'] = kHostName;
  classes['.'] = kHostDot;
  return classes;
}

constexpr std::array<uint8_t, 256> MakePathClasses() {
  std::array<uint8_t, 256> classes{};
  for (absl::string_view set : {kLower, kUpper, kDigits, absl::string_view("-_~!$&'()*+,;=:@/")}) {
    for (char c : set) classes[static_cast<unsigned char>(c)] = kPathLiteral;
  }
  classes['?'] = kPathQuestion;
  classes['.'] = kPathDot;
  classes['%'] = kPathPercent;
  return classes;
}

constexpr std::array<uint8_t, 256> kHostClasses = MakeHostClasses();
constexpr std::array<uint8_t, 256> kPathClasses = MakePathClasses();

// The value of an upper-case hex digit, or -1 (lower-case digits are declined: the full path
// upper-cases them).
int UpperHexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// True for ALPHA DIGIT - . _ ~, whose escapes the full path decodes.
bool IsUnreserved(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

bool EndsSegment(absl::string_view raw, size_t i) {
  return i == raw.size() || raw[i] == '/' || raw[i] == '?';
}

}  // namespace

bool NormalizeUrlFast(absl::string_view raw, size_t max_length, std::string* text,
                      FastUrlParts* parts) {
  const size_t n = raw.size();
  if (n > max_length || n < 8) return false;

  // The scheme: "http" or "https", any case, then "://". c | 0x20 maps exactly the two cases of a
  // letter to its lower case.
  const auto lower = [&raw](size_t i) { return static_cast<char>(raw[i] | 0x20); };
  if (lower(0) != 'h' || lower(1) != 't' || lower(2) != 't' || lower(3) != 'p') return false;
  bool https = false;
  size_t host_begin = 7;
  if (lower(4) == 's') {
    https = true;
    host_begin = 8;
  }
  if (raw.substr(host_begin - 3, 3) != "://") return false;

  // The host: non-empty labels of [A-Za-z0-9-] joined by single dots, not only digits.
  size_t i = host_begin;
  uint8_t seen = 0;  // the HostClass bits met
  for (; i < n; ++i) {
    const uint8_t c = kHostClasses[static_cast<unsigned char>(raw[i])];
    if (c == kHostOther) break;
    seen |= c;
    if (c == kHostDot && (i == host_begin || raw[i - 1] == '.')) return false;  // empty label
  }
  const size_t host_end = i;
  if (i == host_begin || raw[i - 1] == '.') return false;  // empty host, trailing dot
  if ((seen & kHostName) == 0) return false;               // IPv4 or IPv4-like
  if (i < n && raw[i] != ':' && raw[i] != '/' && raw[i] != '?') return false;

  // The port: 1 to 5 digits, no leading zero, at most 65535.
  unsigned port = 0;
  size_t port_digits_begin = 0, port_digits = 0;
  if (i < n && raw[i] == ':') {
    port_digits_begin = ++i;
    while (i < n && raw[i] >= '0' && raw[i] <= '9' && i - port_digits_begin < 6) {
      port = port * 10 + static_cast<unsigned>(raw[i] - '0');
      ++i;
    }
    port_digits = i - port_digits_begin;
    if (port_digits == 0 || port_digits > 5 || raw[port_digits_begin] == '0' || port > 65535) {
      return false;
    }
    if (i < n && raw[i] != '/' && raw[i] != '?') return false;
  }
  const bool keep_port = port_digits != 0 && port != (https ? 443u : 80u);

  // Path and query: bytes the full path keeps as they are, no dot segment in the path.
  const size_t path_begin_in = i;  // raw[i] is '/', '?' or the end
  size_t query_mark_in = n;        // the first '?'
  while (i < n) {
    if (kPathClasses[static_cast<unsigned char>(raw[i])] == kPathLiteral) {
      ++i;
      continue;
    }
    switch (kPathClasses[static_cast<unsigned char>(raw[i])]) {
      case kPathQuestion:
        if (query_mark_in == n) query_mark_in = i;
        ++i;
        break;
      case kPathDot:
        // The path starts with '/', so raw[i - 1] exists.
        if (query_mark_in == n && raw[i - 1] == '/') {
          const size_t after = i + 1 < n && raw[i + 1] == '.' ? i + 2 : i + 1;
          if (EndsSegment(raw, after)) return false;  // "." or ".."
        }
        ++i;
        break;
      case kPathPercent: {
        if (n - i < 3) return false;
        const int high = UpperHexValue(raw[i + 1]);
        const int low = UpperHexValue(raw[i + 2]);
        if (high < 0 || low < 0 || IsUnreserved(static_cast<unsigned char>(high * 16 + low))) {
          return false;
        }
        i += 3;
        break;
      }
      default:
        return false;
    }
  }

  // The layout of the result.
  const size_t prefix_length = host_begin;
  const size_t host_length = host_end - host_begin;
  const size_t port_length = keep_port ? 1 + port_digits : 0;
  const size_t path_length = query_mark_in - path_begin_in;       // 0: written as "/"
  const bool has_query = query_mark_in + 1 < n;                   // a lone '?' is dropped
  const size_t query_length = has_query ? n - query_mark_in : 0;  // with its '?'
  const size_t length = prefix_length + host_length + port_length +
                        (path_length == 0 ? 1 : path_length) + query_length;
  if (length > max_length) return false;

  text->resize(length);
  char* o = text->data();
  std::memcpy(o, https ? "https://" : "http://", prefix_length);
  o += prefix_length;
  if ((seen & kHostUpper) == kHostUpper) {
    for (size_t k = host_begin; k < host_end; ++k) {
      const auto c = static_cast<unsigned char>(raw[k]);
      *o++ = static_cast<char>(c | (static_cast<unsigned char>(c - 'A') < 26 ? 0x20 : 0));
    }
  } else {
    std::memcpy(o, raw.data() + host_begin, host_length);
    o += host_length;
  }
  if (keep_port) {
    *o++ = ':';
    std::memcpy(o, raw.data() + port_digits_begin, port_digits);
    o += port_digits;
  }
  const size_t path_begin = static_cast<size_t>(o - text->data());
  if (path_length == 0) {
    *o++ = '/';
  } else {
    std::memcpy(o, raw.data() + path_begin_in, path_length);
    o += path_length;
  }
  const size_t query_mark = has_query ? static_cast<size_t>(o - text->data()) : 0;
  if (has_query) std::memcpy(o, raw.data() + query_mark_in, query_length);

  parts->https = https;
  parts->host_begin = static_cast<uint32_t>(host_begin);
  parts->host_length = static_cast<uint32_t>(host_length);
  parts->port = keep_port ? static_cast<uint16_t>(port) : 0;
  parts->path_begin = static_cast<uint32_t>(path_begin);
  parts->query_mark = static_cast<uint32_t>(query_mark);
  return true;
}

}  // namespace crawldb::identity
