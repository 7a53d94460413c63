#include "extension/identity/canonical_key.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace crawldb::identity {
namespace {

// Appends the labels of `name` in reverse order, separated by `separator`. Empty labels are kept,
// so reversing twice gives `name` back. The result is as long as `name`: the label that ends at
// byte e of `name` starts at byte |name| − e of the result.
void AppendReversedLabels(absl::string_view name, char from, char separator, std::string* out) {
  const size_t n = name.size();
  const size_t base = out->size();
  out->resize(base + n);
  char* const reversed = out->data() + base;
  size_t start = 0;
  while (true) {
    const void* mark = std::memchr(name.data() + start, from, n - start);
    const size_t end =
        mark == nullptr ? n : static_cast<size_t>(static_cast<const char*>(mark) - name.data());
    std::memcpy(reversed + (n - end), name.data() + start, end - start);
    if (mark == nullptr) return;
    reversed[n - end - 1] = separator;
    start = end + 1;
  }
}

// The bytes of a reversed registered name (no '.': those became separators).
constexpr std::array<bool, 256> MakeNameKeyChars() {
  std::array<bool, 256> chars{};
  for (char c : absl::string_view("abcdefghijklmnopqrstuvwxyz0123456789-_~")) {
    chars[static_cast<unsigned char>(c)] = true;
  }
  chars[static_cast<unsigned char>(kHostKeySeparator)] = true;
  return chars;
}
constexpr std::array<bool, 256> kNameKeyChars = MakeNameKeyChars();

bool IsNameKeyChar(char c) { return kNameKeyChars[static_cast<unsigned char>(c)]; }

bool IsIpv6Char(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == ':'; }

// The bytes of a normalised path or query: pchar, '/', '?', and the '%' of an escape.
constexpr std::array<bool, 256> MakePathChars() {
  std::array<bool, 256> chars{};
  for (char c : absl::string_view("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                  "-._~!$&'()*+,;=:@/?%")) {
    chars[static_cast<unsigned char>(c)] = true;
  }
  return chars;
}
constexpr std::array<bool, 256> kPathChars = MakePathChars();

bool IsPathChar(char c) { return kPathChars[static_cast<unsigned char>(c)]; }

absl::Status BadKey(absl::string_view what) {
  std::string message = "canonical key: ";
  absl::StrAppend(&message, what);
  return absl::InvalidArgumentError(message);
}

}  // namespace

void AppendCanonicalKey(const NormalizedUrl& url, std::string* key) {
  if (url.host_kind() == HostKind::kName) {
    AppendReversedLabels(url.host(), '.', kHostKeySeparator, key);
  } else {
    absl::StrAppend(key, url.host());
  }
  if (url.port() == 0) {
    key->push_back(url.https() ? kKeyMarkHttps : kKeyMarkHttp);
    absl::string_view rest = url.path_and_query();
    if (!rest.empty()) rest.remove_prefix(1);  // the path's '/'
    key->append(rest.data(), rest.size());
  } else {
    key->push_back(url.https() ? kKeyMarkHttpsPort : kKeyMarkHttpPort);
    key->append(std::to_string(url.port()));
    absl::StrAppend(key, url.path_and_query());
  }
}

std::string CanonicalKey(const NormalizedUrl& url) {
  std::string key;
  key.reserve(url.text().size());
  AppendCanonicalKey(url, &key);
  return key;
}

std::string CanonicalHostKey(absl::string_view host) {
  std::string key;
  key.reserve(host.size());
  if (!host.empty() && host.front() != '[' && !IsIpv4Literal(host)) {
    AppendReversedLabels(host, '.', kHostKeySeparator, &key);
  } else {
    key.append(host.data(), host.size());
  }
  return key;
}

absl::StatusOr<NormalizedUrl> UrlFromCanonicalKey(absl::string_view key) {
  std::string text;
  if (absl::Status status = UrlTextFromCanonicalKey(key, &text); !status.ok()) return status;
  return NormalizedUrl::FromNormalizedText(std::move(text));
}

absl::Status UrlTextFromCanonicalKey(absl::string_view key, std::string* url_text) {
  size_t mark_at = 0;
  bool name_chars = true;  // whether every byte before the mark may be in a registered name's key
  while (mark_at < key.size() && static_cast<unsigned char>(key[mark_at]) >= kHostKeySeparator) {
    name_chars &= IsNameKeyChar(key[mark_at]);
    ++mark_at;
  }
  if (mark_at == key.size()) return BadKey("no scheme mark");
  const absl::string_view host_key = key.substr(0, mark_at);
  const char mark = key[mark_at];
  if (mark != kKeyMarkHttp && mark != kKeyMarkHttps && mark != kKeyMarkHttpPort &&
      mark != kKeyMarkHttpsPort) {
    return BadKey("unknown scheme mark");
  }
  const bool https = mark == kKeyMarkHttps || mark == kKeyMarkHttpsPort;
  const bool has_port = mark == kKeyMarkHttpPort || mark == kKeyMarkHttpsPort;
  if (host_key.empty()) return BadKey("empty host");

  std::string& text = *url_text;
  text.reserve(key.size() + 8);
  text = https ? "https://" : "http://";
  if (name_chars) {  // a registered name: IP literals hold '[' or '.'
    const size_t host_begin = text.size();
    AppendReversedLabels(host_key, kHostKeySeparator, '.', &text);
    const absl::string_view host = absl::string_view(text).substr(host_begin);
    // Names the normaliser never produces: a trailing dot, or one that reads as an IPv4 literal
    // (those keep their dots in the key).
    if (host.back() == '.' || IsIpv4Literal(host)) return BadKey("host not in normalised form");
  } else if (host_key.front() == '[') {
    if (host_key.size() < 4 || host_key.back() != ']') return BadKey("malformed IPv6 host");
    for (char c : host_key.substr(1, host_key.size() - 2)) {
      if (!IsIpv6Char(c)) return BadKey("malformed IPv6 host");
    }
    text.append(host_key.data(), host_key.size());
  } else if (host_key.find('.') != absl::string_view::npos) {
    if (!IsIpv4Literal(host_key)) return BadKey("malformed IPv4 host");
    text.append(host_key.data(), host_key.size());
  } else {
    return BadKey("invalid host character");
  }

  absl::string_view rest = key.substr(mark_at + 1);
  if (has_port) {
    const size_t slash = rest.find('/');
    const absl::string_view digits = rest.substr(0, slash);
    if (slash == absl::string_view::npos || digits.empty() || digits.size() > 5 ||
        digits.front() == '0') {
      return BadKey("malformed port");
    }
    unsigned port = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return BadKey("malformed port");
      port = port * 10 + static_cast<unsigned>(c - '0');
    }
    if (port > 65535 || port == (https ? 443u : 80u)) return BadKey("malformed port");
    text.push_back(':');
    text.append(digits.data(), digits.size());
    rest = rest.substr(slash);
  } else {
    text.push_back('/');
  }
  bool path_chars = true;
  for (char c : rest) path_chars &= IsPathChar(c);
  if (!path_chars) return BadKey("invalid path character");
  text.append(rest.data(), rest.size());
  return absl::OkStatus();
}

}  // namespace crawldb::identity
