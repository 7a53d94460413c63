// Reading SQL values as C++ text, in one place: the cast from sqlite3_value_text and the bridge
// between std::string_view (the stores) and absl::string_view (Abseil's functions; a distinct
// type in Debian's Abseil).
#pragma once

#include <cstddef>
#include <string_view>

#include "absl/strings/string_view.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// The value's text (UTF-8), valid until the value changes; empty for NULL.
inline std::string_view TextOfValue(sqlite3_value* value) {
  const unsigned char* text = sqlite3_value_text(value);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(value))};
}

inline absl::string_view ToAbsl(std::string_view text) { return {text.data(), text.size()}; }

}  // namespace crawldb
