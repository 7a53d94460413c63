#include "extension/identity/url_normalizer.h"

#include <idn2.h>
#include <uriparser/Uri.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "extension/identity/url_fast_path.h"
#include "extension/identity/url_refusal.h"

namespace crawldb::identity {

// NormalizeUrl writes the text in place and records the offsets: the only writer of the fields.
struct NormalizedUrlAccess {
  static std::string& Text(NormalizedUrl& url) { return url.text_; }
  static void SetParts(NormalizedUrl& url, bool https, size_t host_begin, size_t host_length,
                       HostKind host_kind, uint16_t port, size_t path_begin, size_t query_mark) {
    url.https_ = https;
    url.host_begin_ = static_cast<uint32_t>(host_begin);
    url.host_length_ = static_cast<uint32_t>(host_length);
    url.host_kind_ = host_kind;
    url.port_ = port;
    url.path_begin_ = static_cast<uint32_t>(path_begin);
    url.query_mark_ = static_cast<uint32_t>(query_mark);
  }
};

namespace {

// ---------------------------------------------------------------------------------------------
// Character classes (RFC 3986 §2).

enum : uint8_t {
  kUnreservedBit = 1,  // ALPHA DIGIT - . _ ~
  kPathBit = 2,        // literal in path and query once escaped: unreserved, sub-delims, : @ / ?
  kAuthorityBit = 4,   // literal in the host and port once escaped: unreserved, sub-delims, : [ ]
  kHostBit = 8,        // a normalised registered name: a-z 0-9 - . _ ~
  kSchemeBit = 16,     // ALPHA DIGIT + - .
};

constexpr std::array<uint8_t, 256> MakeClasses() {
  std::array<uint8_t, 256> classes{};
  auto add = [&classes](absl::string_view chars, uint8_t bits) {
    for (char c : chars) classes[static_cast<unsigned char>(c)] |= bits;
  };
  constexpr absl::string_view kLower = "abcdefghijklmnopqrstuvwxyz";
  constexpr absl::string_view kUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  constexpr absl::string_view kDigits = "0123456789";
  constexpr absl::string_view kSubDelims = "!$&'()*+,;=";
  for (absl::string_view set : {kLower, kUpper, kDigits}) {
    add(set, kUnreservedBit | kPathBit | kAuthorityBit | kSchemeBit);
  }
  add("-._~", kUnreservedBit | kPathBit | kAuthorityBit);
  add(kSubDelims, kPathBit | kAuthorityBit);
  add(":@/?", kPathBit);
  add(":[]", kAuthorityBit);
  add("+-.", kSchemeBit);
  add(kLower, kHostBit);
  add(kDigits, kHostBit);
  add("-._~", kHostBit);
  return classes;
}

constexpr std::array<uint8_t, 256> kClasses = MakeClasses();

bool Has(unsigned char c, uint8_t bit) { return (kClasses[c] & bit) != 0; }

// The value of a hex digit, or -1.
int HexValue(unsigned char c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

constexpr char kUpperHex[] = "0123456789ABCDEF";

char AsciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// True when `s` lower-cased equals `lower`.
bool EqualsAsciiLower(absl::string_view s, absl::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    if (AsciiLower(s[i]) != lower[i]) return false;
  }
  return true;
}

bool IsAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

bool IsAsciiWhitespace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

// ---------------------------------------------------------------------------------------------
// uriparser's memory: a bump arena on the stack, so that parsing allocates nothing on the heap
// unless a URL has very many path segments. Every block carries its size in front (for realloc);
// blocks outside the arena come from malloc and go back to free.

class UriArena {
 public:
  UriArena() {
    manager_.malloc = &Malloc;
    manager_.calloc = &Calloc;
    manager_.realloc = &Realloc;
    manager_.reallocarray = &ReallocArray;
    manager_.free = &Free;
    manager_.userData = this;
  }
  UriArena(const UriArena&) = delete;
  UriArena& operator=(const UriArena&) = delete;

  UriMemoryManager* manager() { return &manager_; }

 private:
  static constexpr size_t kAlign = alignof(std::max_align_t);
  static constexpr size_t kCapacity = 4096;

  static UriArena& Of(UriMemoryManager* manager) {
    return *static_cast<UriArena*>(manager->userData);
  }
  bool Owns(const void* p) const {
    const auto address = reinterpret_cast<uintptr_t>(p);
    const auto begin = reinterpret_cast<uintptr_t>(buffer_);
    return address >= begin && address < begin + kCapacity;
  }
  void* Allocate(size_t size) {
    const size_t rounded = (size + kAlign - 1) / kAlign * kAlign;
    if (size <= kCapacity && rounded + kAlign <= kCapacity - used_) {
      unsigned char* block = buffer_ + used_;
      std::memcpy(block, &size, sizeof(size));
      used_ += rounded + kAlign;
      return block + kAlign;
    }
    return std::malloc(size == 0 ? 1 : size);
  }
  void* Resize(void* p, size_t size) {
    if (p == nullptr) return Allocate(size);
    if (!Owns(p)) return std::realloc(p, size == 0 ? 1 : size);
    size_t old_size;
    std::memcpy(&old_size, static_cast<unsigned char*>(p) - kAlign, sizeof(old_size));
    void* moved = Allocate(size);
    if (moved != nullptr) std::memcpy(moved, p, std::min(old_size, size));
    return moved;
  }

  static void* Malloc(UriMemoryManager* m, size_t size) { return Of(m).Allocate(size); }
  static void* Calloc(UriMemoryManager* m, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return nullptr;
    void* p = Of(m).Allocate(count * size);
    if (p != nullptr) std::memset(p, 0, count * size);
    return p;
  }
  static void* Realloc(UriMemoryManager* m, void* p, size_t size) { return Of(m).Resize(p, size); }
  static void* ReallocArray(UriMemoryManager* m, void* p, size_t count, size_t size) {
    if (size != 0 && count > SIZE_MAX / size) return nullptr;
    return Of(m).Resize(p, count * size);
  }
  static void Free(UriMemoryManager* m, void* p) {
    if (p != nullptr && !Of(m).Owns(p)) std::free(p);
  }

  UriMemoryManager manager_{};
  size_t used_ = 0;
  alignas(std::max_align_t) unsigned char buffer_[kCapacity];
};

// Frees what uriparser allocated for a successfully parsed URI.
class ParsedUri {
 public:
  explicit ParsedUri(UriArena& arena) : arena_(arena) {}
  ~ParsedUri() {
    if (parsed_) uriFreeUriMembersMmA(&uri_, arena_.manager());
  }
  ParsedUri(const ParsedUri&) = delete;
  ParsedUri& operator=(const ParsedUri&) = delete;

  // Parses [first, last); returns uriparser's code and sets *error_at on failure.
  int Parse(const char* first, const char* last, const char** error_at) {
    const int rc = uriParseSingleUriExMmA(&uri_, first, last, error_at, arena_.manager());
    parsed_ = rc == URI_SUCCESS;
    return rc;
  }
  const UriUriA& uri() const { return uri_; }

 private:
  UriArena& arena_;
  UriUriA uri_{};
  bool parsed_ = false;
};

// ---------------------------------------------------------------------------------------------
// Step 4: the escaped copy that uriparser reads.

// Appends `in` to `w`, percent-encoding every byte that may not appear literally (bit `allowed`)
// and every '%' that does not start a valid escape. Returns the new end.
char* EscapeInto(char* w, absl::string_view in, uint8_t allowed) {
  const char* p = in.data();
  const char* const end = p + in.size();
  while (p < end) {
    // Copy the run of bytes that stay as they are ('%' is not in any class).
    const char* run = p;
    while (p < end && Has(static_cast<unsigned char>(*p), allowed)) ++p;
    std::memcpy(w, run, static_cast<size_t>(p - run));
    w += p - run;
    if (p == end) break;
    const auto c = static_cast<unsigned char>(*p);
    if (c == '%' && end - p >= 3 && HexValue(p[1]) >= 0 && HexValue(p[2]) >= 0) {
      std::memcpy(w, p, 3);
      w += 3;
      p += 3;
      continue;
    }
    *w++ = '%';
    *w++ = kUpperHex[c >> 4];
    *w++ = kUpperHex[c & 15];
    ++p;
  }
  return w;
}

// Writes [first, last) to `o` with escapes normalised (step 9): escapes of unreserved
// characters decoded, the others upper-cased. Every '%' in the range starts a valid escape
// (EscapeInto made sure of it). Writes at most last - first bytes; returns the new end.
char* WriteNormalizedEscapes(char* o, const char* first, const char* last) {
  while (first < last) {
    const auto* percent = static_cast<const char*>(std::memchr(first, '%', last - first));
    const char* literal_end = percent == nullptr ? last : percent;
    std::memcpy(o, first, literal_end - first);
    o += literal_end - first;
    if (percent == nullptr || last - percent < 3) {
      if (percent != nullptr) {  // unreachable after EscapeInto; copied as is
        std::memcpy(o, percent, last - percent);
        o += last - percent;
      }
      return o;
    }
    const int high = HexValue(percent[1]);
    const int low = HexValue(percent[2]);
    const auto decoded = static_cast<unsigned char>(high * 16 + low);
    if (Has(decoded, kUnreservedBit)) {
      *o++ = static_cast<char>(decoded);
    } else {
      *o++ = '%';
      *o++ = kUpperHex[high];
      *o++ = kUpperHex[low];
    }
    first = percent + 3;
  }
  return o;
}

char* WriteDecimal(char* o, unsigned value) {
  char digits[10];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) *o++ = digits[--n];
  return o;
}

// ---------------------------------------------------------------------------------------------
// Hosts (step 7).

// Writes "[" RFC 5952 text "]" (at most 41 bytes).
char* WriteIpv6(char* o, const unsigned char* bytes) {
  uint16_t groups[8];
  for (int k = 0; k < 8; ++k)
    groups[k] = static_cast<uint16_t>(bytes[2 * k] << 8 | bytes[2 * k + 1]);
  int best_start = -1, best_length = 1;  // a run must be at least 2 groups long
  for (int k = 0; k < 8;) {
    if (groups[k] != 0) {
      ++k;
      continue;
    }
    int end = k;
    while (end < 8 && groups[end] == 0) ++end;
    if (end - k > best_length) {
      best_start = k;
      best_length = end - k;
    }
    k = end;
  }
  *o++ = '[';
  for (int k = 0; k < 8;) {
    if (k == best_start) {
      *o++ = ':';
      *o++ = ':';
      k += best_length;
      continue;
    }
    if (k > 0 && k != best_start + best_length) *o++ = ':';
    char digits[4];
    int n = 0;
    uint16_t g = groups[k];
    do {
      digits[n++] = "0123456789abcdef"[g & 15];
      g >>= 4;
    } while (g != 0);
    while (n > 0) *o++ = digits[--n];
    ++k;
  }
  *o++ = ']';
  return o;
}

// The A-label form of a UTF-8 name, or false when libidn2 refuses it.
bool ToAsciiHost(absl::string_view name, std::string* ascii) {
  const std::string terminated(name);  // libidn2 reads a NUL-terminated string
  char* converted = nullptr;
  const auto* input = reinterpret_cast<const uint8_t*>(terminated.c_str());
  auto** output = reinterpret_cast<uint8_t**>(&converted);
  int rc = idn2_lookup_u8(input, output, IDN2_NFC_INPUT | IDN2_NONTRANSITIONAL);
  if (rc == IDN2_DISALLOWED) {
    rc = idn2_lookup_u8(input, output, IDN2_NFC_INPUT | IDN2_TRANSITIONAL);
  }
  if (rc != IDN2_OK) return false;
  ascii->assign(converted);
  idn2_free(converted);
  return true;
}

enum class HostResult { kOk, kInvalid, kNonAscii };

// Writes the registered name [first, last) to `o` with escapes decoded and ASCII lower-cased
// (at most last - first bytes); *end is set to the new end. kNonAscii when a byte >= 0x80 was
// met (the caller converts the name with IDNA), kInvalid at an ASCII byte outside [a-z0-9-._~].
HostResult WriteRegisteredName(char* o, const char* first, const char* last, char** end) {
  bool non_ascii = false;
  for (const char* p = first; p < last; ++p) {
    auto c = static_cast<unsigned char>(*p);
    if (c == '%' && last - p >= 3) {
      c = static_cast<unsigned char>(HexValue(p[1]) * 16 + HexValue(p[2]));
      p += 2;
    }
    if (c >= 0x80) {
      non_ascii = true;
    } else {
      c = static_cast<unsigned char>(AsciiLower(static_cast<char>(c)));
      if (!Has(c, kHostBit)) return HostResult::kInvalid;
    }
    *o++ = static_cast<char>(c);
  }
  *end = o;
  return non_ascii ? HostResult::kNonAscii : HostResult::kOk;
}

// Why uriparser refused the escaped copy: only the authority can fail once step 4 ran, so it is
// the port when the port text is not all digits, else the host.
absl::string_view ClassifyAuthorityError(absl::string_view host_port) {
  absl::string_view port;
  if (!host_port.empty() && host_port.front() == '[') {
    const size_t close = host_port.find(']');
    if (close == absl::string_view::npos) return "invalid host";
    const absl::string_view after = host_port.substr(close + 1);
    if (after.empty() || after.front() != ':') return "invalid host";
    port = after.substr(1);
  } else {
    const size_t colon = host_port.find(':');
    if (colon == absl::string_view::npos) return "invalid host";
    port = host_port.substr(colon + 1);
  }
  for (char c : port) {
    if (c < '0' || c > '9') return "invalid port";
  }
  return "invalid host";
}

// Step 10, for the segment just written at [segment_begin, o) after its '/': "." and ".." are
// removed (".." with the segment before it, never past path_begin). Returns the new end and sets
// *was_dot.
char* RemoveDotSegment(char* path_begin, char* segment_begin, char* o, bool* was_dot) {
  const ptrdiff_t length = o - segment_begin;
  *was_dot = (length == 1 && segment_begin[0] == '.') ||
             (length == 2 && segment_begin[0] == '.' && segment_begin[1] == '.');
  if (!*was_dot) return o;
  o = segment_begin - 1;
  if (length == 2) {
    char* p = o;
    while (p > path_begin && p[-1] != '/') --p;
    if (p > path_begin) o = p - 1;
  }
  return o;
}

// Room for the escaped copy of short URLs; longer ones use the heap.
constexpr size_t kStackCopyBytes = 1024;

}  // namespace

bool IsIpv4Literal(absl::string_view host) {
  int parts = 0;
  size_t i = 0;
  while (true) {
    const size_t start = i;
    unsigned value = 0;
    while (i < host.size() && host[i] >= '0' && host[i] <= '9' && i - start < 3) {
      value = value * 10 + static_cast<unsigned>(host[i] - '0');
      ++i;
    }
    const size_t digits = i - start;
    if (digits == 0 || value > 255 || (digits > 1 && host[start] == '0')) return false;
    if (++parts == 4) return i == host.size();
    if (i >= host.size() || host[i] != '.') return false;
    ++i;
  }
}

absl::string_view UrlHost(absl::string_view normalised) {
  const size_t mark = normalised.find("://");
  if (mark == absl::string_view::npos) return {};
  const size_t begin = mark + 3;
  size_t end;
  if (begin < normalised.size() && normalised[begin] == '[') {
    end = normalised.find(']', begin);
    end = end == absl::string_view::npos ? normalised.size() : end + 1;
  } else {
    end = normalised.find_first_of(":/?", begin);
    if (end == absl::string_view::npos) end = normalised.size();
  }
  return normalised.substr(begin, end - begin);
}

absl::StatusOr<NormalizedUrl> NormalizedUrl::FromNormalizedText(std::string text) {
  const auto not_normalised = [&text] { return RefuseUrl("not a normalised URL", text); };
  NormalizedUrl url;
  absl::string_view view(text);
  size_t host_begin;
  if (view.substr(0, 8) == "https://") {
    url.https_ = true;
    host_begin = 8;
  } else if (view.substr(0, 7) == "http://") {
    host_begin = 7;
  } else {
    return not_normalised();
  }
  size_t host_end;
  if (host_begin < view.size() && view[host_begin] == '[') {
    host_end = view.find(']', host_begin);
    if (host_end == absl::string_view::npos) return not_normalised();
    ++host_end;
    url.host_kind_ = HostKind::kIpv6;
  } else {
    host_end = view.find_first_of(":/", host_begin);
    if (host_end == absl::string_view::npos || host_end == host_begin) return not_normalised();
    if (IsIpv4Literal(view.substr(host_begin, host_end - host_begin))) {
      url.host_kind_ = HostKind::kIpv4;
    }
  }
  size_t path_begin = host_end;
  if (path_begin < view.size() && view[path_begin] == ':') {
    unsigned value = 0;
    size_t digits = 0;
    for (++path_begin; path_begin < view.size() && view[path_begin] >= '0' &&
                       view[path_begin] <= '9' && digits <= 5;
         ++path_begin, ++digits) {
      value = value * 10 + static_cast<unsigned>(view[path_begin] - '0');
    }
    if (digits == 0 || digits > 5 || view[host_end + 1] == '0' || value > 65535 ||
        value == (url.https_ ? 443u : 80u)) {
      return not_normalised();
    }
    url.port_ = static_cast<uint16_t>(value);
  }
  if (path_begin >= view.size() || view[path_begin] != '/') return not_normalised();
  const size_t question = view.find('?', path_begin);
  url.host_begin_ = static_cast<uint32_t>(host_begin);
  url.host_length_ = static_cast<uint32_t>(host_end - host_begin);
  url.path_begin_ = static_cast<uint32_t>(path_begin);
  url.query_mark_ = static_cast<uint32_t>(question == absl::string_view::npos ? 0 : question);
  url.text_ = std::move(text);
  return url;
}

namespace {

// The full path: every rule, every refusal, parsing by uriparser.
absl::StatusOr<NormalizedUrl> NormalizeWithUriparser(absl::string_view raw,
                                                     const NormalizeOptions& options) {
  // Steps 1-3.
  if (raw.size() > options.max_length) {
    return RefuseUrl("longer than " + std::to_string(options.max_length) + " bytes", raw);
  }
  // An empty view may have no data (SQLite's text of a value it could not allocate).
  if (!raw.empty() && std::memchr(raw.data(), '\0', raw.size()) != nullptr) {
    return RefuseUrl("embedded NUL byte", raw);
  }
  size_t begin = 0, end = raw.size();
  while (begin < end && IsAsciiWhitespace(raw[begin])) ++begin;
  while (end > begin && IsAsciiWhitespace(raw[end - 1])) --end;
  const absl::string_view trimmed = raw.substr(begin, end - begin);
  if (trimmed.empty()) return absl::InvalidArgumentError("empty URL");
  absl::string_view url = trimmed.substr(0, trimmed.find('#'));

  // Step 5: the scheme, and where the authority is.
  size_t colon = 0;
  while (colon < url.size() && Has(static_cast<unsigned char>(url[colon]), kSchemeBit)) ++colon;
  if (colon == 0 || colon == url.size() || url[colon] != ':' || !IsAsciiAlpha(url[0])) {
    return RefuseUrl("not a URL", trimmed);
  }
  const absl::string_view scheme = url.substr(0, colon);
  bool https;
  if (EqualsAsciiLower(scheme, "http")) {
    https = false;
  } else if (EqualsAsciiLower(scheme, "https")) {
    https = true;
  } else {
    std::string shown(scheme.substr(0, 32));
    for (char& c : shown) c = AsciiLower(c);
    return RefuseUrl("unsupported scheme '" + shown + (scheme.size() > 32 ? "…'" : "'"), trimmed);
  }
  if (url.substr(colon + 1, 2) != "//") return RefuseUrl("empty host", trimmed);
  const size_t authority_begin = colon + 3;
  size_t authority_end = authority_begin;
  while (authority_end < url.size() && url[authority_end] != '/' && url[authority_end] != '?') {
    ++authority_end;
  }
  absl::string_view host_port = url.substr(authority_begin, authority_end - authority_begin);
  // Step 6: userinfo ends at the last '@' and is dropped.
  if (const size_t at = host_port.rfind('@'); at != absl::string_view::npos) {
    host_port = host_port.substr(at + 1);
  }
  const absl::string_view rest = url.substr(authority_end);

  // Step 4: the escaped copy "scheme://host-port rest".
  char stack_copy[kStackCopyBytes];
  std::string heap_copy;
  const size_t copy_bound = 8 + 3 * (host_port.size() + rest.size());
  char* copy = stack_copy;
  if (copy_bound > kStackCopyBytes) {
    heap_copy.resize(copy_bound);
    copy = heap_copy.data();
  }
  char* w = copy;
  const absl::string_view prefix = https ? "https://" : "http://";
  w = std::copy(prefix.begin(), prefix.end(), w);
  char* const host_port_begin = w;
  w = EscapeInto(w, host_port, kAuthorityBit);
  const absl::string_view escaped_host_port(host_port_begin,
                                            static_cast<size_t>(w - host_port_begin));
  w = EscapeInto(w, rest, kPathBit);

  UriArena arena;
  ParsedUri parsed(arena);
  const char* error_at = nullptr;
  if (parsed.Parse(copy, w, &error_at) != URI_SUCCESS) {
    if (error_at != nullptr && error_at > host_port_begin + escaped_host_port.size()) {
      return RefuseUrl("not a URL", trimmed);
    }
    return RefuseUrl(ClassifyAuthorityError(escaped_host_port), trimmed);
  }
  const UriUriA& uri = parsed.uri();

  // The text is written through a pointer into a string sized for the worst case: decoding only
  // shrinks, an IPv6 literal grows to at most 41 bytes, an empty path gains its '/'. Only an
  // IDNA conversion can need more, and grows it.
  NormalizedUrl result;
  std::string& out = NormalizedUrlAccess::Text(result);
  const size_t room_after_host = static_cast<size_t>(w - host_port_begin) + 48;
  out.resize(prefix.size() + room_after_host);
  char* o = std::copy(prefix.begin(), prefix.end(), out.data());

  // Step 7: the host.
  const size_t host_begin = prefix.size();
  HostKind host_kind = HostKind::kName;
  if (uri.hostData.ip4 != nullptr) {
    const unsigned char* octets = uri.hostData.ip4->data;
    for (int k = 0; k < 4; ++k) {
      if (k > 0) *o++ = '.';
      o = WriteDecimal(o, octets[k]);
    }
    host_kind = HostKind::kIpv4;
  } else if (uri.hostData.ip6 != nullptr) {
    o = WriteIpv6(o, uri.hostData.ip6->data);
    host_kind = HostKind::kIpv6;
  } else if (uri.hostData.ipFuture.first != nullptr) {
    return RefuseUrl("invalid host", trimmed);
  } else {
    const HostResult written =
        WriteRegisteredName(o, uri.hostText.first, uri.hostText.afterLast, &o);
    if (written == HostResult::kInvalid) return RefuseUrl("invalid host", trimmed);
    if (written == HostResult::kNonAscii) {
      std::string ascii;
      const absl::string_view name(out.data() + host_begin, o - (out.data() + host_begin));
      if (!ToAsciiHost(name, &ascii)) return RefuseUrl("invalid host", trimmed);
      for (char& c : ascii) {
        c = AsciiLower(c);
        if (!Has(static_cast<unsigned char>(c), kHostBit))
          return RefuseUrl("invalid host", trimmed);
      }
      out.resize(host_begin + ascii.size() + room_after_host);
      o = std::copy(ascii.begin(), ascii.end(), out.data() + host_begin);
    }
    while (o > out.data() + host_begin && o[-1] == '.') --o;
    if (o == out.data() + host_begin) return RefuseUrl("empty host", trimmed);
    if (IsIpv4Literal(absl::string_view(out.data() + host_begin, o - (out.data() + host_begin)))) {
      host_kind = HostKind::kIpv4;
    }
  }
  const size_t host_length = static_cast<size_t>(o - out.data()) - host_begin;

  // Step 8: the port. uriparser guarantees digits.
  uint16_t port = 0;
  if (uri.portText.first != nullptr && uri.portText.first != uri.portText.afterLast) {
    const char* p = uri.portText.first;
    while (p < uri.portText.afterLast && *p == '0') ++p;
    if (uri.portText.afterLast - p > 5) return RefuseUrl("invalid port", trimmed);
    unsigned value = 0;
    for (; p < uri.portText.afterLast; ++p) value = value * 10 + static_cast<unsigned>(*p - '0');
    if (value == 0 || value > 65535) return RefuseUrl("invalid port", trimmed);
    if (value != (https ? 443u : 80u)) {
      port = static_cast<uint16_t>(value);
      *o++ = ':';
      o = WriteDecimal(o, value);
    }
  }

  // Steps 9-10: the path.
  char* const path_begin = o;
  bool ends_in_dot_segment = false;
  for (const UriPathSegmentA* segment = uri.pathHead; segment != nullptr; segment = segment->next) {
    *o++ = '/';
    char* const segment_begin = o;
    o = WriteNormalizedEscapes(o, segment->text.first, segment->text.afterLast);
    o = RemoveDotSegment(path_begin, segment_begin, o, &ends_in_dot_segment);
  }
  if (ends_in_dot_segment || o == path_begin) *o++ = '/';

  // Step 11: the query.
  char* query_mark = nullptr;
  if (uri.query.first != nullptr && uri.query.first != uri.query.afterLast) {
    query_mark = o;
    *o++ = '?';
    o = WriteNormalizedEscapes(o, uri.query.first, uri.query.afterLast);
  }
  assert(o <= out.data() + out.size());  // the bound above
  const size_t path_offset = static_cast<size_t>(path_begin - out.data());
  const size_t query_offset =
      query_mark == nullptr ? 0 : static_cast<size_t>(query_mark - out.data());
  out.resize(static_cast<size_t>(o - out.data()));

  // Step 12.
  if (out.size() > options.max_length) {
    return RefuseUrl("longer than " + std::to_string(options.max_length) + " bytes once normalised",
                     trimmed);
  }
  NormalizedUrlAccess::SetParts(result, https, host_begin, host_length, host_kind, port,
                                path_offset, query_offset);
  return result;
}

}  // namespace

absl::StatusOr<NormalizedUrl> NormalizeUrl(absl::string_view raw, const NormalizeOptions& options) {
  NormalizedUrl result;
  if (absl::Status status = NormalizeUrlInto(raw, options, &result); !status.ok()) return status;
  return result;
}

absl::Status NormalizeUrlInto(absl::string_view raw, const NormalizeOptions& options,
                              NormalizedUrl* url) {
  if (options.fast_path) {
    FastUrlParts parts;
    if (NormalizeUrlFast(raw, options.max_length, &NormalizedUrlAccess::Text(*url), &parts)) {
      NormalizedUrlAccess::SetParts(*url, parts.https, parts.host_begin, parts.host_length,
                                    HostKind::kName, parts.port, parts.path_begin,
                                    parts.query_mark);
      return absl::OkStatus();
    }
  }
  absl::StatusOr<NormalizedUrl> full = NormalizeWithUriparser(raw, options);
  if (!full.ok()) return full.status();
  *url = std::move(*full);
  return absl::OkStatus();
}

}  // namespace crawldb::identity
