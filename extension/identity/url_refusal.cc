#include "extension/identity/url_refusal.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/identity/url_normalizer.h"

namespace crawldb::identity {
namespace {

constexpr char kUpperHex[] = "0123456789ABCDEF";

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one.
size_t Utf8SequenceLength(absl::string_view s, size_t i) {
  const auto byte = [&s](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return 1;
  size_t length;
  unsigned char low = 0x80, high = 0xBF;  // range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (size_t k = 2; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return length;
}

}  // namespace

// The URL as a refusal message shows it: at most kMessageUrlBytes bytes of it, cut at a character
// boundary and followed by "…" when cut; control bytes and invalid UTF-8 as \xHH.
std::string UrlForMessage(absl::string_view url) {
  std::string shown;
  size_t i = 0;
  while (i < url.size()) {
    const auto c = static_cast<unsigned char>(url[i]);
    size_t length = Utf8SequenceLength(url, i);
    const bool escape = c < 0x20 || c == 0x7F || length == 0;
    if (escape) length = 1;
    if (i + length > kMessageUrlBytes) {
      shown += "…";
      break;
    }
    if (escape) {
      shown += "\\x";
      shown += kUpperHex[c >> 4];
      shown += kUpperHex[c & 15];
    } else {
      absl::StrAppend(&shown, url.substr(i, length));
    }
    i += length;
  }
  return shown;
}

absl::Status RefuseUrl(absl::string_view reason, absl::string_view url) {
  std::string message(reason);
  message += ": ";
  message += UrlForMessage(url);
  return absl::InvalidArgumentError(message);
}

}  // namespace crawldb::identity
