// Small helpers for the JSON that crawldb_stats() and the import functions return.
#pragma once

#include <string>

#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace crawldb {

// `text` as a JSON string literal, quotes included.
inline std::string JsonString(absl::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      absl::StrAppendFormat(&out, "\\u%04x", c);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace crawldb
