// What crawldb_version() must look like: MAJOR.MINOR.PATCH+<12 hex digits of the commit> or
// +unknown when built outside a git checkout. (No std::regex: GCC 12 warns inside it under ASan.)
#pragma once

#include <cctype>
#include <string>

namespace crawldb::testing {

inline bool IsVersionText(const std::string& text) {
  size_t i = 0;
  for (int part = 0; part < 3; ++part) {
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    if (i == start) return false;
    char separator = part < 2 ? '.' : '+';
    if (i >= text.size() || text[i] != separator) return false;
    ++i;
  }
  std::string commit = text.substr(i);
  if (commit == "unknown") return true;
  if (commit.size() != 12) return false;
  for (char c : commit) {
    if (!std::isdigit(static_cast<unsigned char>(c)) && (c < 'a' || c > 'f')) return false;
  }
  return true;
}

}  // namespace crawldb::testing
