// The decoding half of the URL block codec (url_block_codec.h), shared by its writer and reader
// sources: constants of the format, the bit source, and the token and entry decoders. Internal:
// not part of the codec's API.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "codecs/url_block_codec.h"

namespace crawldb::codecs::url_block_internal {

using Model = UrlBlockModel;
inline constexpr int kCodeBits = Model::kCodeBits;
// Shared-prefix values from kSharedEscape up go as the escape codeword plus γ(s − 254).
inline constexpr uint32_t kSharedEscape = 255;
// γ's unary part for the longest shared prefix, kMaxUrlKeyBytes: longer is corrupt.
inline constexpr int kMaxGammaZeros = std::bit_width(kMaxUrlKeyBytes - kSharedEscape + 1) - 1;
static_assert(2 * kMaxGammaZeros + 1 <= 56, "γ must fit the refilled buffer");
// Zero bits a decoder may read past the end before it stops (a valid stream reads none; the
// bits only pad table lookups near the end).
inline constexpr uint64_t kMaxPaddingBits = 128;

inline absl::Status Corrupt(size_t index, absl::string_view what) {
  return absl::DataLossError(absl::StrCat("url_block: key ", index, ": ", what));
}

inline size_t CommonPrefix(absl::string_view a, absl::string_view b) {
  const size_t limit = std::min(a.size(), b.size());
  return static_cast<size_t>(std::mismatch(a.begin(), a.begin() + limit, b.begin()).first -
                             a.begin());
}

// Reads a bit stream most significant bit first through a 64-bit buffer: bits_ holds count_
// valid bits at its top. Past the end the stream reads as zero bits, counted in padding_, so
// table lookups near the end need no special case; a decoder checks Overran() before trusting
// what it read. Never touches memory outside [begin, end).
class BitSource {
 public:
  BitSource(absl::Span<const uint8_t> bytes, uint64_t bit_position)
      : begin_(bytes.data()),
        p_(bytes.data() + bit_position / 8),
        end_(bytes.data() + bytes.size()) {
    Refill();
    Consume(static_cast<int>(bit_position % 8));
  }

  // Tops the buffer up to at least 56 bits; false once far past the end (corrupt input).
  bool Refill() {
    if (end_ - p_ >= 8) [[likely]] {
      uint64_t word;
      std::memcpy(&word, p_, 8);
      if constexpr (std::endian::native == std::endian::little) word = __builtin_bswap64(word);
      // Bits beyond count_ may already be set by an earlier load; they are the same bits.
      bits_ |= word >> count_;
      p_ += (63 - count_) >> 3;
      count_ |= 56;
      return true;
    }
    while (count_ <= 56) {
      uint64_t byte = 0;
      if (p_ < end_) {
        byte = *p_++;
      } else {
        padding_ += 8;
      }
      bits_ |= byte << (56 - count_);
      count_ += 8;
    }
    return padding_ <= kMaxPaddingBits;
  }

  int count() const { return count_; }
  uint64_t bits() const { return bits_; }
  uint32_t Peek() const { return static_cast<uint32_t>(bits_ >> (64 - kCodeBits)); }
  void Consume(int n) {
    bits_ <<= n;
    count_ -= n;
  }

  // True if bits past the end were consumed.
  bool Overran() const { return static_cast<uint64_t>(count_) < padding_; }

  // Bits consumed from the start of the span.
  uint64_t position() const {
    return static_cast<uint64_t>(p_ - begin_) * 8 + padding_ - static_cast<uint64_t>(count_);
  }

  // Null if the stream ends here: fewer than 8 bits left, all zero.
  const char* CheckEnd() {
    Refill();
    if (Overran()) return "the block ends inside a key";
    const uint64_t left = static_cast<uint64_t>(end_ - begin_) * 8 - position();
    if (left >= 8) return "bytes after the last key";
    if (left > 0 && (bits_ >> (64 - left)) != 0) return "nonzero padding bits";
    return nullptr;
  }

 private:
  const uint8_t* begin_;
  const uint8_t* p_;  // Next byte to load.
  const uint8_t* end_;
  uint64_t bits_ = 0;
  int count_ = 0;         // Valid bits at the top of bits_, in [0, 64].
  uint64_t padding_ = 0;  // Zero bits appended past the end.
};

// Decodes tokens up to end-of-key, appending their bytes to the key in (*key)[0, *length). The
// string is working space: its size is kept ≥ *length + kGroupBytes, so each token is one
// 16-byte copy. Returns null or what is wrong.
//
// Tokens go in groups of kGroupTokens: one refill leaves at least 56 bits, enough for
// kGroupTokens codewords of at most kCodeBits, and one room check covers the group's copies.
inline constexpr int kGroupTokens = 4;
static_assert(kGroupTokens * kCodeBits <= 56, "a group must fit one refill");
inline constexpr size_t kGroupBytes = kGroupTokens * 16;
inline const char* DecodeTokens(const Model& model, BitSource& source, std::string* key,
                                size_t* length) {
  // A local copy of the bit buffer stays in registers; `source` would be reloaded after every
  // store through `out`.
  BitSource in = source;
  size_t n = *length;
  const int context = n == 0 ? Model::kStartContext : static_cast<uint8_t>((*key)[n - 1]);
  const uint32_t* const tables = model.TokenTables();
  const char* const token_bytes = model.TokenBytes(0);
  uint32_t table = static_cast<uint32_t>(model.Cluster(context)) << kCodeBits;
  if (key->size() < n + kGroupBytes) key->resize(n + 2 * kGroupBytes);
  char* out = key->data();
  size_t room = key->size() - kGroupBytes;  // Largest n at which a group's copies still fit.
  // One token: false at end-of-key.
  const auto token = [&]() {
    const uint32_t entry = tables[table | in.Peek()];
    in.Consume(static_cast<int>(entry & 63));
    const uint32_t bytes = (entry >> 6) & 31;
    if (bytes == 0) return false;
    std::memcpy(out + n, token_bytes + 16 * size_t{entry >> 17}, 16);
    n += bytes;
    table = entry & Model::kNextTableMask;
    return true;
  };
  static_assert(kGroupTokens == 4, "the group below is written out");
  const char* error = nullptr;
  for (;;) {
    if (in.count() < kGroupTokens * kCodeBits && !in.Refill()) {
      error = "the block ends inside a key";
      break;
    }
    if (n > room) [[unlikely]] {
      if (n > kMaxUrlKeyBytes) {
        error = "key longer than the limit";
        break;
      }
      key->resize(std::min(2 * key->size(), kMaxUrlKeyBytes + 2 * kGroupBytes));
      out = key->data();
      room = key->size() - kGroupBytes;
    }
    if (!token() || !token() || !token() || !token()) break;
  }
  source = in;
  if (error != nullptr) return error;
  if (n > kMaxUrlKeyBytes) return "key longer than the limit";
  if (in.Overran()) return "the block ends inside a key";
  *length = n;
  return nullptr;
}

// Decodes the entry coded against the neighbouring key in (*key)[0, *length) (the key before
// it, or after it when `backward`), replacing it. Null or what is wrong.
inline const char* DecodeEntry(const Model& model, BitSource& in, bool backward, std::string* key,
                               size_t* length) {
  if (in.count() < 48 && !in.Refill()) return "the block ends inside a key";
  const uint16_t entry = model.SharedTable()[in.Peek()];
  in.Consume(entry & 15);
  size_t shared = entry >> 4;
  if (shared == kSharedEscape) {
    // γ(shared − 254): m zeros, then m + 1 bits, at most 2·kMaxGammaZeros + 1 = 39 bits, within
    // the 56 a refill leaves in the buffer (rare: shared prefixes of 255 bytes and more).
    if (!in.Refill()) return "the block ends inside a key";
    const int zeros = std::countl_zero(in.bits());
    if (zeros > kMaxGammaZeros) return "shared prefix length out of range";
    const int bits = 2 * zeros + 1;
    shared = kSharedEscape - 1 + static_cast<size_t>(in.bits() >> (64 - bits));
    in.Consume(bits);
  }
  const size_t neighbour_length = *length;
  if (shared > neighbour_length) return "shared prefix longer than the neighbouring key";
  const int neighbour_byte = shared < neighbour_length ? static_cast<uint8_t>((*key)[shared]) : -1;
  *length = shared;
  if (const char* error = DecodeTokens(model, in, key, length)) return error;
  // The first byte after the shared prefix orders the key against its neighbour, and shows that
  // the shared prefix is the whole common prefix.
  if (!backward) {
    if (*length == shared || static_cast<uint8_t>((*key)[shared]) <= neighbour_byte) {
      return "key not above the previous key, or shared prefix not maximal";
    }
  } else if (neighbour_byte < 0 ||
             (*length > shared && static_cast<uint8_t>((*key)[shared]) >= neighbour_byte)) {
    return "key not below the next key, or shared prefix not maximal";
  }
  return nullptr;
}

}  // namespace crawldb::codecs::url_block_internal
