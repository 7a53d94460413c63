// Helpers shared by the codec tests: value sets that cover every code's length boundaries,
// bit strings written as '0'/'1' text for golden codewords, and exact-size heap copies for
// over-read checks under AddressSanitizer. Header-only; each test file names the helpers it
// uses with using-declarations.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace crawldb::codecs::testing {

// 0..1023, then 2^k − 1, 2^k and 2^k + 1 for every k that fits, then UINT64_MAX − 1 and
// UINT64_MAX.
inline std::vector<uint64_t> TestValues() {
  std::vector<uint64_t> values;
  for (uint64_t v = 0; v < 1024; ++v) values.push_back(v);
  for (int k = 1; k < 64; ++k) {
    const uint64_t power = uint64_t{1} << k;
    values.insert(values.end(), {power - 1, power, power + 1});
  }
  values.insert(values.end(), {UINT64_MAX - 1, UINT64_MAX});
  return values;
}

// −1024..1024, then 2^k − 1, 2^k, 2^k + 1 and their negations for k = 1..62, then INT64_MAX,
// INT64_MAX − 1, INT64_MIN and INT64_MIN + 1.
inline std::vector<int64_t> SignedTestValues() {
  std::vector<int64_t> values;
  for (int64_t v = -1024; v <= 1024; ++v) values.push_back(v);
  for (int k = 1; k < 63; ++k) {
    const int64_t power = int64_t{1} << k;
    values.insert(values.end(), {power - 1, power, power + 1, -power + 1, -power, -power - 1});
  }
  values.insert(values.end(), {INT64_MAX, INT64_MAX - 1, INT64_MIN, INT64_MIN + 1});
  return values;
}

// The low `count` bits of `value` as '0'/'1', most significant first.
inline std::string Binary(unsigned __int128 value, int count) {
  std::string bits;
  for (int i = count - 1; i >= 0; --i) bits += ((value >> i) & 1) ? '1' : '0';
  return bits;
}

// floor(log2 y), y ≥ 1.
inline int Log2(unsigned __int128 y) {
  int m = 0;
  while (y >>= 1) ++m;
  return m;
}

// The first `bit_count` bits of `bytes` as '0'/'1', most significant bit of each byte first.
inline std::string BitString(const std::vector<uint8_t>& bytes, uint64_t bit_count) {
  std::string bits;
  for (uint64_t i = 0; i < bit_count; ++i) {
    bits += ((bytes[i / 8] >> (7 - i % 8)) & 1) ? '1' : '0';
  }
  return bits;
}

// Bytes holding '0'/'1' bits (the inverse of BitString), the last byte padded with zeros.
inline std::vector<uint8_t> FromBitString(const std::string& bits) {
  std::vector<uint8_t> bytes((bits.size() + 7) / 8, 0);
  for (size_t i = 0; i < bits.size(); ++i) {
    if (bits[i] == '1') bytes[i / 8] |= static_cast<uint8_t>(0x80 >> (i % 8));
  }
  return bytes;
}

// A heap copy with no slack after the last byte, so AddressSanitizer catches any over-read.
inline std::unique_ptr<uint8_t[]> ExactCopy(const std::vector<uint8_t>& bytes) {
  auto copy = std::make_unique<uint8_t[]>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), copy.get());
  return copy;
}

}  // namespace crawldb::codecs::testing
