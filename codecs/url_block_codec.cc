#include "codecs/url_block_codec.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codecs/bit_writer.h"
#include "codecs/elias_gamma.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

using Model = UrlBlockModel;
constexpr int kCodeBits = Model::kCodeBits;
// Shared-prefix values from kSharedEscape up go as the escape codeword plus γ(s − 254).
constexpr uint32_t kSharedEscape = 255;
// γ's unary part for the longest shared prefix, kMaxUrlKeyBytes: longer is corrupt.
constexpr int kMaxGammaZeros = std::bit_width(kMaxUrlKeyBytes - kSharedEscape + 1) - 1;
static_assert(2 * kMaxGammaZeros + 1 <= 56, "γ must fit the refilled buffer");
// Zero bits a decoder may read past the end before it stops (a valid stream reads none; the
// bits only pad table lookups near the end).
constexpr uint64_t kMaxPaddingBits = 128;

absl::Status Corrupt(size_t index, absl::string_view what) {
  return absl::DataLossError(absl::StrCat("url_block: key ", index, ": ", what));
}

size_t CommonPrefix(std::string_view a, std::string_view b) {
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
constexpr int kGroupTokens = 4;
static_assert(kGroupTokens * kCodeBits <= 56, "a group must fit one refill");
constexpr size_t kGroupBytes = kGroupTokens * 16;
const char* DecodeTokens(const Model& model, BitSource& source, std::string* key, size_t* length) {
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
const char* DecodeEntry(const Model& model, BitSource& in, bool backward, std::string* key,
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

// Writes key[from, end) as tokens and end-of-key under `model`.
void EncodeTokens(const Model& model, std::string_view key, size_t from,
                  std::vector<uint32_t>* tokens, BitWriter& out) {
  tokens->clear();
  model.Tokenize(key, from, tokens);
  size_t pos = from;
  auto cluster_at = [&](size_t p) {
    return model.Cluster(p == 0 ? Model::kStartContext : static_cast<uint8_t>(key[p - 1]));
  };
  for (uint32_t token : *tokens) {
    const int cluster = cluster_at(pos);
    out.WriteBits(model.TokenCode(cluster, token), model.TokenLength(cluster, token));
    pos += token < Model::kEndOfKey
               ? 1
               : model.symbols().symbol(token - Model::kFirstSymbolToken).size();
  }
  const int cluster = cluster_at(pos);
  out.WriteBits(model.TokenCode(cluster, Model::kEndOfKey),
                model.TokenLength(cluster, Model::kEndOfKey));
}

// Writes the entry of `key` against its neighbour.
void EncodeEntry(const Model& model, std::string_view neighbour, std::string_view key,
                 std::vector<uint32_t>* tokens, BitWriter& out) {
  const size_t shared = CommonPrefix(neighbour, key);
  if (shared < kSharedEscape) {
    out.WriteBits(model.SharedCode(static_cast<uint32_t>(shared)),
                  model.SharedLength(static_cast<uint32_t>(shared)));
  } else {
    out.WriteBits(model.SharedCode(kSharedEscape), model.SharedLength(kSharedEscape));
    WriteGamma(out, shared - kSharedEscape);
  }
  EncodeTokens(model, key, shared, tokens, out);
}

absl::Status CheckKeyLength(std::string_view key, size_t index) {
  if (key.size() <= kMaxUrlKeyBytes) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("url_block: key ", index, " has ", key.size(),
                                                 " bytes, more than ", kMaxUrlKeyBytes));
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> EncodeUrlBlock(const UrlBlockModel& model,
                                                    absl::Span<const std::string_view> keys,
                                                    std::optional<std::string_view> next_head) {
  if (keys.empty()) return absl::InvalidArgumentError("url_block: a block needs at least one key");
  for (size_t i = 0; i < keys.size(); ++i) {
    if (absl::Status s = CheckKeyLength(keys[i], i); !s.ok()) return s;
    if (i > 0 && keys[i] <= keys[i - 1]) {
      return absl::InvalidArgumentError(
          absl::StrCat("url_block: key ", i, " is not greater than key ", i - 1,
                       "; give keys in strictly increasing byte order"));
    }
  }
  if (next_head.has_value()) {
    if (absl::Status s = CheckKeyLength(*next_head, keys.size()); !s.ok()) return s;
    if (*next_head <= keys.back()) {
      return absl::InvalidArgumentError(
          "url_block: the next head is not greater than the block's last key");
    }
  }
  const size_t count = keys.size();
  const bool backward = next_head.has_value() && count >= 2;
  const size_t forward_count = backward ? (count - 1) / 2 : count - 1;
  std::vector<uint32_t> tokens;
  BitWriter forward;
  for (size_t i = 1; i <= forward_count; ++i) {
    EncodeEntry(model, keys[i - 1], keys[i], &tokens, forward);
  }
  const std::vector<uint8_t> forward_bytes = forward.Finish();
  std::vector<uint8_t> block;
  AppendVarint(uint64_t{count} * 2 + (backward ? 1 : 0), &block);
  if (backward) AppendVarint(forward_bytes.size(), &block);
  block.insert(block.end(), forward_bytes.begin(), forward_bytes.end());
  if (backward) {
    BitWriter second_half;
    for (size_t k = count - 1; k > forward_count; --k) {
      EncodeEntry(model, k == count - 1 ? *next_head : keys[k + 1], keys[k], &tokens, second_half);
    }
    const std::vector<uint8_t> backward_bytes = second_half.Finish();
    block.insert(block.end(), backward_bytes.begin(), backward_bytes.end());
  }
  return block;
}

absl::Status AppendEncodedUrlKey(const UrlBlockModel& model, std::string_view key,
                                 std::vector<uint8_t>* out) {
  if (absl::Status s = CheckKeyLength(key, 0); !s.ok()) return s;
  BitWriter bits;
  std::vector<uint32_t> tokens;
  EncodeTokens(model, key, 0, &tokens, bits);
  const std::vector<uint8_t> coded = bits.Finish();
  out->insert(out->end(), coded.begin(), coded.end());
  return absl::OkStatus();
}

absl::Status DecodeUrlKey(const UrlBlockModel& model, absl::Span<const uint8_t> bytes,
                          std::string* key) {
  BitSource in(bytes, 0);
  size_t length = 0;
  const char* error = DecodeTokens(model, in, key, &length);
  if (error == nullptr) error = in.CheckEnd();
  if (error != nullptr) return absl::DataLossError(absl::StrCat("url_block: coded key: ", error));
  key->resize(length);
  return absl::OkStatus();
}

absl::StatusOr<int> CompareUrlKey(const UrlBlockModel& model, absl::Span<const uint8_t> bytes,
                                  std::string_view key) {
  // DecodeTokens' loop, comparing each token's bytes as they come.
  BitSource in(bytes, 0);
  const uint32_t* const tables = model.TokenTables();
  uint32_t table = static_cast<uint32_t>(model.Cluster(Model::kStartContext)) << kCodeBits;
  size_t n = 0;
  for (;;) {
    if (in.count() < kCodeBits && !in.Refill()) break;
    const uint32_t entry = tables[table | in.Peek()];
    in.Consume(static_cast<int>(entry & 63));
    const size_t bytes_in_token = (entry >> 6) & 31;
    if (bytes_in_token == 0) {
      if (in.Overran()) break;
      return n == key.size() ? 0 : -1;
    }
    if (in.Overran()) break;
    if (n == key.size()) return 1;  // `key` is a proper prefix of the coded key.
    const size_t comparable = std::min(bytes_in_token, key.size() - n);
    if (const int order = std::memcmp(model.TokenBytes(entry >> 17), key.data() + n, comparable);
        order != 0) {
      return order;
    }
    if (comparable < bytes_in_token) return 1;
    n += bytes_in_token;
    table = entry & Model::kNextTableMask;
  }
  return absl::DataLossError("url_block: coded key: truncated");
}

absl::StatusOr<UrlBlockReader> UrlBlockReader::Open(const UrlBlockModel& model,
                                                    std::string_view head,
                                                    std::optional<std::string_view> next_head,
                                                    absl::Span<const uint8_t> block) {
  const uint8_t* const end = block.data() + block.size();
  uint64_t header;
  const uint8_t* p = ReadVarint(block.data(), end, &header);
  if (p == nullptr) return absl::DataLossError("url_block: truncated key count");
  const uint64_t count = header >> 1;
  const bool backward = (header & 1) != 0;
  if (count == 0 || (backward && count < 2)) {
    return absl::DataLossError(absl::StrCat("url_block: bad header: ", count, " keys",
                                            backward ? " with a backward part" : ""));
  }
  uint64_t forward_size = static_cast<uint64_t>(end - p);
  if (backward) {
    p = ReadVarint(p, end, &forward_size);
    if (p == nullptr) return absl::DataLossError("url_block: truncated forward part size");
    if (forward_size > static_cast<uint64_t>(end - p)) {
      return absl::DataLossError(absl::StrCat("url_block: forward part of ", forward_size,
                                              " bytes does not fit the block"));
    }
  }
  const auto forward = absl::MakeConstSpan(p, static_cast<size_t>(forward_size));
  const auto second =
      absl::MakeConstSpan(p + forward_size, static_cast<size_t>(end - p - forward_size));
  // Every entry takes at least 2 bits (a shared codeword and end-of-key).
  const uint64_t forward_count = backward ? (count - 1) / 2 : count - 1;
  if (forward_count > uint64_t{forward.size()} * 4 ||
      count - 1 - forward_count > uint64_t{second.size()} * 4) {
    return absl::DataLossError(absl::StrCat("url_block: key count ", count,
                                            " does not fit a block of ", block.size(), " bytes"));
  }
  if (head.size() > kMaxUrlKeyBytes || (next_head && next_head->size() > kMaxUrlKeyBytes)) {
    return absl::InvalidArgumentError("url_block: head longer than the key limit");
  }
  return UrlBlockReader(model, head, next_head, forward, second, static_cast<size_t>(count),
                        static_cast<size_t>(forward_count));
}

absl::Status UrlBlockReader::NeedNextHead(size_t i) const {
  if (next_head_.has_value()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "url_block: key ", i, " is coded against the next block's head; open the reader with it"));
}

absl::Status UrlBlockReader::Get(size_t i, std::string* key) const {
  if (i >= count_) {
    return absl::OutOfRangeError(
        absl::StrCat("url_block: index ", i, " is not below the count ", count_));
  }
  const UrlBlockLandmarks* const marks = landmarks_;
  const bool backward = i > forward_count_;
  // From the nearer head, or from the landmark between it and key i.
  size_t k = 0;
  uint64_t bits = 0;
  std::string_view start = head_;
  if (!backward) {
    if (marks != nullptr && marks->forward_index != 0 && i >= marks->forward_index) {
      k = marks->forward_index;
      bits = marks->forward_bits;
      start = marks->forward_key;
    }
  } else {
    if (absl::Status s = NeedNextHead(i); !s.ok()) return s;
    k = count_;
    start = *next_head_;
    if (marks != nullptr && marks->backward_index != 0 && i == forward_count_ + 1) {
      k = i;
      start = marks->first_backward_key;
    } else if (marks != nullptr && marks->backward_index != 0 && i <= marks->backward_index) {
      k = marks->backward_index;
      bits = marks->backward_bits;
      start = marks->backward_key;
    }
  }
  key->assign(start);
  size_t length = start.size();
  BitSource in(backward ? backward_ : forward_, bits);
  while (k != i) {
    k = backward ? k - 1 : k + 1;
    if (const char* error = DecodeEntry(*model_, in, backward, key, &length)) {
      return Corrupt(k, error);
    }
  }
  key->resize(length);
  return absl::OkStatus();
}

absl::StatusOr<size_t> UrlBlockReader::ScanForward(std::string_view start_key, size_t start,
                                                   uint64_t bits, size_t last, std::string_view key,
                                                   std::string* scratch, bool* equal) const {
  scratch->assign(start_key);
  size_t length = start_key.size();
  BitSource in(forward_, bits);
  for (size_t k = start + 1; k <= last; ++k) {
    if (const char* error = DecodeEntry(*model_, in, false, scratch, &length)) {
      return Corrupt(k, error);
    }
    if (const std::string_view found(scratch->data(), length); found >= key) {
      *equal = found == key;
      return k;
    }
  }
  *equal = false;
  return last + 1;
}

absl::StatusOr<size_t> UrlBlockReader::ScanBackward(std::string_view start_key, size_t start,
                                                    uint64_t bits, size_t lowest,
                                                    std::string_view key, std::string* scratch,
                                                    bool* equal) const {
  if (absl::Status s = NeedNextHead(lowest); !s.ok()) return s;
  scratch->assign(start_key);
  size_t length = start_key.size();
  BitSource in(backward_, bits);
  *equal = start < count_ && start_key == key;  // The next head is not in the block.
  for (size_t k = start - 1; k >= lowest; --k) {
    if (const char* error = DecodeEntry(*model_, in, true, scratch, &length)) {
      return Corrupt(k, error);
    }
    const std::string_view found(scratch->data(), length);
    if (found < key) return k + 1;
    *equal = found == key;  // Key k is the lowest key ≥ `key` so far.
  }
  return std::min(lowest, start);
}

// Whether `key` (head ≤ key < next head) more likely falls in the second half: where it sits
// between the two heads at their first difference, read as a 16-bit number.
bool UrlBlockReader::LikelyInSecondHalf(std::string_view key) const {
  const std::string_view next = *next_head_;
  const size_t at = CommonPrefix(head_, next);
  auto value = [at](std::string_view s) {
    uint32_t v = 0;
    for (size_t i = at; i < at + 2; ++i)
      v = v * 257 + (i < s.size() ? static_cast<uint8_t>(s[i]) + 1u : 0u);
    return v;
  };
  const uint32_t low = value(head_), high = value(next), middle = value(key);
  return middle - low > (high - low) / 2;
}

absl::StatusOr<size_t> UrlBlockReader::Search(std::string_view key, std::string* scratch,
                                              bool* equal) const {
  if (head_ >= key) {
    *equal = head_ == key;
    return 0;
  }
  if (landmarks_ != nullptr) return SearchFromLandmarks(key, scratch, equal);
  const size_t f = forward_count_;
  if (f == count_ - 1 || !next_head_.has_value() || !LikelyInSecondHalf(key)) {
    absl::StatusOr<size_t> index = ScanForward(head_, 0, 0, f, key, scratch, equal);
    if (!index.ok() || *index <= f || f == count_ - 1) return index;
    return ScanBackward(*next_head_, count_, 0, f + 1, key, scratch, equal);
  }
  absl::StatusOr<size_t> index = ScanBackward(*next_head_, count_, 0, f + 1, key, scratch, equal);
  if (!index.ok() || *index > f + 1) return index;
  // Every key of the second half is ≥ `key`: the answer is in the first half, or key f + 1.
  const bool equal_above = *equal;
  index = ScanForward(head_, 0, 0, f, key, scratch, equal);
  if (index.ok() && *index > f) *equal = equal_above;
  return index;
}

absl::StatusOr<size_t> UrlBlockReader::SearchFromLandmarks(std::string_view key,
                                                           std::string* scratch,
                                                           bool* equal) const {
  // head < key < next head. Each case below decodes the keys between two known keys, the
  // lower one < key and the upper one ≥ key.
  const UrlBlockLandmarks& marks = *landmarks_;
  const size_t f = forward_count_;
  if (marks.backward_index != 0) {
    const size_t top = marks.backward_index;
    if (key == marks.first_backward_key) {
      *equal = true;
      return f + 1;
    }
    if (key > marks.first_backward_key) {
      if (key < marks.backward_key) {
        return ScanBackward(marks.backward_key, top, marks.backward_bits, f + 2, key, scratch,
                            equal);
      }
      if (key == marks.backward_key) {
        *equal = true;
        return top;
      }
      return ScanBackward(*next_head_, count_, 0, top + 1, key, scratch, equal);
    }
    // key < key f + 1: the answer is in the forward part, or f + 1.
  }
  absl::StatusOr<size_t> index;
  if (marks.forward_index != 0) {
    const size_t middle = marks.forward_index;
    if (key < marks.forward_key) {
      return ScanForward(head_, 0, 0, middle - 1, key, scratch, equal);
    }
    if (key == marks.forward_key) {
      *equal = true;
      return middle;
    }
    index = ScanForward(marks.forward_key, middle, marks.forward_bits, f, key, scratch, equal);
  } else {
    index = ScanForward(head_, 0, 0, f, key, scratch, equal);
  }
  if (!index.ok() || *index <= f || f == count_ - 1 || marks.backward_index != 0) return index;
  // A backward part without landmarks (fewer than two keys).
  return ScanBackward(*next_head_, count_, 0, f + 1, key, scratch, equal);
}

namespace {

// Decodes a whole part (`name`: "forward" or "backward") whose first entry is coded against the
// key in (*key)[0, *length) and holds key index `first`, the others following downward when
// `backward`, and checks its end; the last key decoded is left in *key. On passing key index
// `mark`, appends it to *marks and sets *mark_bits and *mark_length.
absl::Status DecodeWholePart(const Model& model, absl::Span<const uint8_t> part, bool backward,
                             size_t first, size_t entries, size_t mark, std::string* key,
                             size_t* length, std::string* marks, uint64_t* mark_bits,
                             size_t* mark_length) {
  BitSource in(part, 0);
  for (size_t e = 0; e < entries; ++e) {
    const size_t k = backward ? first - e : first + e;
    if (const char* error = DecodeEntry(model, in, backward, key, length)) {
      return Corrupt(k, error);
    }
    if (k == mark) {
      *mark_bits = in.position();
      marks->append(key->data(), *length);
      *mark_length = *length;
    }
  }
  if (const char* error = in.CheckEnd()) {
    return absl::DataLossError(
        absl::StrCat("url_block: ", backward ? "backward" : "forward", " part: ", error));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<UrlBlockLandmarks> UrlBlockReader::FindLandmarks(std::string* keys) const {
  UrlBlockLandmarks marks;
  const size_t f = forward_count_;
  const size_t b = count_ - 1 - f;
  if (f >= 2) marks.forward_index = (f + 1) / 2;
  if (b >= 2) marks.backward_index = count_ - (b + 1) / 2;
  keys->clear();
  size_t forward_length = 0;
  std::string key(head_);
  size_t length = key.size();
  if (absl::Status s = DecodeWholePart(*model_, forward_, false, 1, f, marks.forward_index, &key,
                                       &length, keys, &marks.forward_bits, &forward_length);
      !s.ok()) {
    return s;
  }
  if (b == 0) {
    marks.forward_key = std::string_view(*keys).substr(0, forward_length);
    return marks;
  }
  if (absl::Status s = NeedNextHead(f + 1); !s.ok()) return s;
  const std::string last_forward(key.data(), length);
  key.assign(*next_head_);
  length = key.size();
  size_t backward_length = 0;
  if (absl::Status s =
          DecodeWholePart(*model_, backward_, true, count_ - 1, b, marks.backward_index, &key,
                          &length, keys, &marks.backward_bits, &backward_length);
      !s.ok()) {
    return s;
  }
  // Each half is ordered within itself; the step between them is checked here.
  if (std::string_view(last_forward) >= std::string_view(key.data(), length)) {
    return Corrupt(f + 1, "key not above the previous key");
  }
  keys->append(key.data(), length);
  const std::string_view all(*keys);
  marks.forward_key = all.substr(0, forward_length);
  marks.backward_key = all.substr(forward_length, backward_length);
  marks.first_backward_key = all.substr(forward_length + backward_length);
  return marks;
}

absl::StatusOr<size_t> UrlBlockReader::LowerBound(std::string_view key,
                                                  std::string* scratch) const {
  bool equal;
  return Search(key, scratch, &equal);
}

absl::StatusOr<std::optional<size_t>> UrlBlockReader::Find(std::string_view key,
                                                           std::string* scratch) const {
  bool equal;
  absl::StatusOr<size_t> index = Search(key, scratch, &equal);
  if (!index.ok()) return index.status();
  if (!equal) return std::nullopt;
  return *index;
}

absl::Status UrlBlockReader::Validate() const {
  Cursor cursor = NewCursor();
  while (cursor.Next()) {
  }
  return cursor.status();
}

bool UrlBlockReader::Cursor::Fail(absl::Status status) {
  done_ = true;
  status_ = std::move(status);
  return false;
}

bool UrlBlockReader::Cursor::Next() {
  if (done_) return false;
  const UrlBlockReader& r = *reader_;
  const size_t i = next_index_;
  if (i == 0) {
    buffer_.assign(r.head_);
    length_ = r.head_.size();
  } else if (i <= r.forward_count_) {
    BitSource in(r.forward_, bit_position_);
    if (const char* error = DecodeEntry(*r.model_, in, false, &buffer_, &length_)) {
      return Fail(Corrupt(i, error));
    }
    bit_position_ = in.position();
  } else if (i == r.forward_count_ + 1) {
    BitSource in(r.forward_, bit_position_);
    if (const char* error = in.CheckEnd()) {
      return Fail(absl::DataLossError(absl::StrCat("url_block: forward part: ", error)));
    }
    if (i == r.count_) return Fail(absl::OkStatus());
    if (!DecodeSecondHalf()) return false;
  } else if (i == r.count_) {
    return Fail(absl::OkStatus());
  }
  if (i <= r.forward_count_) {
    key_ = std::string_view(buffer_.data(), length_);
  } else {
    // The second half was decoded from its top down: key i is entry count − 1 − i.
    const size_t slot = r.count_ - 1 - i;
    const size_t begin = slot == 0 ? 0 : second_half_ends_[slot - 1];
    key_ = std::string_view(second_half_).substr(begin, second_half_ends_[slot] - begin);
  }
  ++next_index_;
  return true;
}

bool UrlBlockReader::Cursor::DecodeSecondHalf() {
  const UrlBlockReader& r = *reader_;
  if (absl::Status s = r.NeedNextHead(r.forward_count_ + 1); !s.ok()) return Fail(s);
  std::string key(*r.next_head_);
  size_t length = key.size();
  BitSource in(r.backward_, 0);
  second_half_.clear();
  second_half_ends_.clear();
  for (size_t k = r.count_ - 1; k > r.forward_count_; --k) {
    if (const char* error = DecodeEntry(*r.model_, in, true, &key, &length)) {
      return Fail(Corrupt(k, error));
    }
    second_half_.append(key.data(), length);
    second_half_ends_.push_back(second_half_.size());
  }
  if (const char* error = in.CheckEnd()) {
    return Fail(absl::DataLossError(absl::StrCat("url_block: backward part: ", error)));
  }
  // Each half is ordered within itself; the step between them is checked here.
  if (std::string_view(buffer_.data(), length_) >= std::string_view(key.data(), length)) {
    return Fail(Corrupt(r.forward_count_ + 1, "key not above the previous key"));
  }
  return true;
}

}  // namespace crawldb::codecs
