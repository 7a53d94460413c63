// How the benchmark programs write their figures, the same way in every table: counts with
// thousands separators, target verdicts, elapsed wall-clock seconds.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/strings/str_format.h"

namespace crawldb::bench {

// 1234567 -> "1,234,567".
inline std::string Grouped(uint64_t n) {
  std::string digits = absl::StrFormat("%d", n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
    out.push_back(digits[i]);
  }
  return out;
}

// A target's verdict as the tables print it.
inline std::string Verdict(bool met) { return met ? "met" : "MISSED"; }

// Wall-clock seconds since `start`.
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace crawldb::bench
