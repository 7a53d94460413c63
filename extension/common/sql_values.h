// Reading SQL values as C++ text, in one place: the cast from sqlite3_value_text. Text is
// absl::string_view throughout the project (scripts/check_format.sh says why and checks it).
#pragma once

#include <cstddef>

#include "absl/strings/string_view.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// The value's text (UTF-8), valid until the value changes; empty for NULL.
inline absl::string_view TextOfValue(sqlite3_value* value) {
  const unsigned char* text = sqlite3_value_text(value);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(value))};
}

}  // namespace crawldb
