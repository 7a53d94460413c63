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
// string is working space: its size is kept ≥ *length + 16 so each token is one 16-byte copy.
// Returns null or what is wrong.
const char* DecodeTokens(const Model& model, BitSource& source, std::string* key, size_t* length) {
  // A local copy of the bit buffer stays in registers; `source` would be reloaded after every
  // store through `out`.
  BitSource in = source;
  size_t n = *length;
  const int context = n == 0 ? Model::kStartContext : static_cast<uint8_t>((*key)[n - 1]);
  const uint32_t* const tables = model.TokenTables();
  uint32_t table = static_cast<uint32_t>(model.Cluster(context)) << kCodeBits;
  if (key->size() < n + 16) key->resize(n + 64);
  char* out = key->data();
  size_t room = key->size() - 16;  // Largest n at which a 16-byte copy still fits.
  const char* error = nullptr;
  for (;;) {
    if (in.count() < kCodeBits && !in.Refill()) {
      error = "the block ends inside a key";
      break;
    }
    const uint32_t entry = tables[table | in.Peek()];
    in.Consume(static_cast<int>(entry & 63));
    const uint32_t bytes = (entry >> 6) & 31;
    if (bytes == 0) break;
    if (n > room) [[unlikely]] {
      if (n > kMaxUrlKeyBytes) {
        error = "key longer than the limit";
        break;
      }
      key->resize(std::min(2 * key->size(), kMaxUrlKeyBytes + 32));
      out = key->data();
      room = key->size() - 16;
    }
    std::memcpy(out + n, model.TokenBytes(entry >> 17), 16);
    n += bytes;
    table = entry & Model::kNextTableMask;
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
  if (i <= forward_count_) {
    key->assign(head_);
    size_t length = head_.size();
    BitSource in(forward_, 0);
    for (size_t k = 1; k <= i; ++k) {
      if (const char* error = DecodeEntry(*model_, in, false, key, &length)) {
        return Corrupt(k, error);
      }
    }
    key->resize(length);
    return absl::OkStatus();
  }
  if (absl::Status s = NeedNextHead(i); !s.ok()) return s;
  key->assign(*next_head_);
  size_t length = next_head_->size();
  BitSource in(backward_, 0);
  for (size_t k = count_ - 1; k >= i; --k) {
    if (const char* error = DecodeEntry(*model_, in, true, key, &length)) return Corrupt(k, error);
  }
  key->resize(length);
  return absl::OkStatus();
}

absl::StatusOr<size_t> UrlBlockReader::ScanForward(std::string_view key, std::string* scratch,
                                                   bool* equal) const {
  scratch->assign(head_);
  size_t length = head_.size();
  BitSource in(forward_, 0);
  for (size_t k = 1; k <= forward_count_; ++k) {
    if (const char* error = DecodeEntry(*model_, in, false, scratch, &length)) {
      return Corrupt(k, error);
    }
    if (const std::string_view found(scratch->data(), length); found >= key) {
      *equal = found == key;
      return k;
    }
  }
  *equal = false;
  return forward_count_ + 1;
}

absl::StatusOr<size_t> UrlBlockReader::ScanBackward(std::string_view key, std::string* scratch,
                                                    bool* equal) const {
  if (absl::Status s = NeedNextHead(forward_count_ + 1); !s.ok()) return s;
  scratch->assign(*next_head_);
  size_t length = next_head_->size();
  BitSource in(backward_, 0);
  *equal = false;
  for (size_t k = count_ - 1; k > forward_count_; --k) {
    if (const char* error = DecodeEntry(*model_, in, true, scratch, &length)) {
      return Corrupt(k, error);
    }
    const std::string_view found(scratch->data(), length);
    if (found < key) return k + 1;
    *equal = found == key;  // Key k is the lowest key ≥ `key` so far.
  }
  return forward_count_ + 1;
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
  if (forward_count_ == count_ - 1 || !next_head_.has_value() || !LikelyInSecondHalf(key)) {
    absl::StatusOr<size_t> index = ScanForward(key, scratch, equal);
    if (!index.ok() || *index <= forward_count_ || forward_count_ == count_ - 1) return index;
    return ScanBackward(key, scratch, equal);
  }
  absl::StatusOr<size_t> index = ScanBackward(key, scratch, equal);
  if (!index.ok() || *index > forward_count_ + 1) return index;
  // Every key of the second half is ≥ `key`: the answer is in the first half, or key f + 1.
  const bool equal_above = *equal;
  index = ScanForward(key, scratch, equal);
  if (index.ok() && *index > forward_count_) *equal = equal_above;
  return index;
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
