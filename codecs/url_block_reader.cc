#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "codecs/url_block_decoding.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

using url_block_internal::BitSource;
using url_block_internal::CommonPrefix;
using url_block_internal::Corrupt;
using url_block_internal::DecodeEntry;
using url_block_internal::DecodeTokens;
using url_block_internal::kCodeBits;
using url_block_internal::kMaxPaddingBits;
using url_block_internal::kSharedEscape;
using url_block_internal::Model;

}  // namespace

absl::StatusOr<UrlBlockReader> UrlBlockReader::Open(const UrlBlockModel& model,
                                                    absl::string_view head,
                                                    std::optional<absl::string_view> next_head,
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
  absl::string_view start = head_;
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
  key->assign(start.data(), start.size());
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

absl::StatusOr<size_t> UrlBlockReader::ScanForward(absl::string_view start_key, size_t start,
                                                   uint64_t bits, size_t last,
                                                   absl::string_view key, std::string* scratch,
                                                   bool* equal) const {
  scratch->assign(start_key.data(), start_key.size());
  size_t length = start_key.size();
  BitSource in(forward_, bits);
  for (size_t k = start + 1; k <= last; ++k) {
    if (const char* error = DecodeEntry(*model_, in, false, scratch, &length)) {
      return Corrupt(k, error);
    }
    if (const absl::string_view found(scratch->data(), length); found >= key) {
      *equal = found == key;
      return k;
    }
  }
  *equal = false;
  return last + 1;
}

absl::StatusOr<size_t> UrlBlockReader::ScanBackward(absl::string_view start_key, size_t start,
                                                    uint64_t bits, size_t lowest,
                                                    absl::string_view key, std::string* scratch,
                                                    bool* equal) const {
  if (absl::Status s = NeedNextHead(lowest); !s.ok()) return s;
  scratch->assign(start_key.data(), start_key.size());
  size_t length = start_key.size();
  BitSource in(backward_, bits);
  *equal = start < count_ && start_key == key;  // The next head is not in the block.
  for (size_t k = start - 1; k >= lowest; --k) {
    if (const char* error = DecodeEntry(*model_, in, true, scratch, &length)) {
      return Corrupt(k, error);
    }
    const absl::string_view found(scratch->data(), length);
    if (found < key) return k + 1;
    *equal = found == key;  // Key k is the lowest key ≥ `key` so far.
  }
  return std::min(lowest, start);
}

// Whether `key` (head ≤ key < next head) more likely falls in the second half: where it sits
// between the two heads at their first difference, read as a 16-bit number.
bool UrlBlockReader::LikelyInSecondHalf(absl::string_view key) const {
  const absl::string_view next = *next_head_;
  const size_t at = CommonPrefix(head_, next);
  auto value = [at](absl::string_view s) {
    uint32_t v = 0;
    for (size_t i = at; i < at + 2; ++i)
      v = v * 257 + (i < s.size() ? static_cast<uint8_t>(s[i]) + 1u : 0u);
    return v;
  };
  const uint32_t low = value(head_), high = value(next), middle = value(key);
  return middle - low > (high - low) / 2;
}

absl::StatusOr<size_t> UrlBlockReader::Search(absl::string_view key, std::string* scratch,
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

absl::StatusOr<size_t> UrlBlockReader::SearchFromLandmarks(absl::string_view key,
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
    marks.forward_key = absl::string_view(*keys).substr(0, forward_length);
    return marks;
  }
  if (absl::Status s = NeedNextHead(f + 1); !s.ok()) return s;
  const std::string last_forward(key.data(), length);
  key.assign(next_head_->data(), next_head_->size());
  length = key.size();
  size_t backward_length = 0;
  if (absl::Status s =
          DecodeWholePart(*model_, backward_, true, count_ - 1, b, marks.backward_index, &key,
                          &length, keys, &marks.backward_bits, &backward_length);
      !s.ok()) {
    return s;
  }
  // Each half is ordered within itself; the step between them is checked here.
  if (absl::string_view(last_forward) >= absl::string_view(key.data(), length)) {
    return Corrupt(f + 1, "key not above the previous key");
  }
  keys->append(key.data(), length);
  const absl::string_view all(*keys);
  marks.forward_key = all.substr(0, forward_length);
  marks.backward_key = all.substr(forward_length, backward_length);
  marks.first_backward_key = all.substr(forward_length + backward_length);
  return marks;
}

absl::StatusOr<size_t> UrlBlockReader::LowerBound(absl::string_view key,
                                                  std::string* scratch) const {
  bool equal;
  return Search(key, scratch, &equal);
}

absl::StatusOr<std::optional<size_t>> UrlBlockReader::Find(absl::string_view key,
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
    buffer_.assign(r.head_.data(), r.head_.size());
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
    key_ = absl::string_view(buffer_.data(), length_);
  } else {
    // The second half was decoded from its top down: key i is entry count − 1 − i.
    const size_t slot = r.count_ - 1 - i;
    const size_t begin = slot == 0 ? 0 : second_half_ends_[slot - 1];
    key_ = absl::string_view(second_half_).substr(begin, second_half_ends_[slot] - begin);
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
  if (absl::string_view(buffer_.data(), length_) >= absl::string_view(key.data(), length)) {
    return Fail(Corrupt(r.forward_count_ + 1, "key not above the previous key"));
  }
  return true;
}

}  // namespace crawldb::codecs
