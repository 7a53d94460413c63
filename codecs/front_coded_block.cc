#include "codecs/front_coded_block.h"

#include <algorithm>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/varint.h"

namespace crawldb::codecs {

absl::Status FrontCodedBlockBuilder::Add(absl::string_view key) {
  size_t shared = 0;
  if (count_ > 0) {
    if (key <= last_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "front_coded_block: key \"", absl::CHexEscape(key), "\" is not greater than \"",
          absl::CHexEscape(last_), "\"; add keys in strictly increasing byte order"));
    }
    const size_t limit = std::min(key.size(), last_.size());
    auto [key_end, last_end] = std::mismatch(key.begin(), key.begin() + limit, last_.begin());
    shared = static_cast<size_t>(key_end - key.begin());
    AppendVarint(shared, &body_);
  }
  AppendVarint(key.size() - shared, &body_);
  body_.insert(body_.end(), key.begin() + shared, key.end());
  last_.assign(key.data(), key.size());
  ++count_;
  return absl::OkStatus();
}

size_t FrontCodedBlockBuilder::encoded_size() const { return VarintLength(count_) + body_.size(); }

std::vector<uint8_t> FrontCodedBlockBuilder::Finish() {
  std::vector<uint8_t> block;
  block.reserve(encoded_size());
  AppendVarint(count_, &block);
  block.insert(block.end(), body_.begin(), body_.end());
  count_ = 0;
  last_.clear();
  body_.clear();
  return block;
}

bool FrontCodedBlockReader::Cursor::Corrupt(absl::string_view what) {
  status_ =
      absl::DataLossError(absl::StrCat("front_coded_block: string ", next_index_, ": ", what));
  position_ = nullptr;
  return false;
}

bool FrontCodedBlockReader::Cursor::Next() {
  if (position_ == nullptr) return false;
  if (next_index_ == count_) {
    if (position_ != end_) {
      status_ = absl::DataLossError(absl::StrCat("front_coded_block: ", end_ - position_,
                                                 " bytes after the last of ", count_, " strings"));
      position_ = nullptr;
    }
    return false;
  }
  uint64_t shared = 0;
  if (next_index_ > 0) {
    position_ = ReadVarint(position_, end_, &shared);
    if (position_ == nullptr) return Corrupt("truncated shared prefix length");
    if (shared > key_.size()) {
      return Corrupt(absl::StrCat("shared prefix length ", shared,
                                  " exceeds the previous string's length ", key_.size()));
    }
  }
  uint64_t length;
  position_ = ReadVarint(position_, end_, &length);
  if (position_ == nullptr) return Corrupt("truncated suffix length");
  if (length > static_cast<uint64_t>(end_ - position_)) {
    return Corrupt(absl::StrCat("suffix length ", length, " exceeds the ", end_ - position_,
                                " bytes left in the block"));
  }
  const absl::string_view suffix(reinterpret_cast<const char*>(position_), length);
  if (next_index_ > 0) {
    // One comparison checks both order and that `shared` is the whole common prefix.
    const bool greater =
        !suffix.empty() && (shared == key_.size() ||
                            static_cast<uint8_t>(suffix[0]) > static_cast<uint8_t>(key_[shared]));
    if (!greater) {
      return Corrupt("not greater than the previous string, or shared prefix not maximal");
    }
  }
  key_.resize(shared);
  key_.append(suffix.data(), suffix.size());
  position_ += length;
  ++next_index_;
  return true;
}

absl::StatusOr<FrontCodedBlockReader> FrontCodedBlockReader::Open(absl::Span<const uint8_t> block) {
  const uint8_t* const end = block.data() + block.size();
  uint64_t count;
  const uint8_t* entries = ReadVarint(block.data(), end, &count);
  if (entries == nullptr) return absl::DataLossError("front_coded_block: truncated count");
  // Every string takes at least one byte.
  if (count > static_cast<uint64_t>(end - entries)) {
    return absl::DataLossError(absl::StrCat("front_coded_block: count ", count,
                                            " exceeds the block's ", end - entries, " bytes"));
  }
  return FrontCodedBlockReader(entries, end, static_cast<size_t>(count));
}

absl::StatusOr<std::string> FrontCodedBlockReader::Get(size_t i) const {
  if (i >= count_) {
    return absl::OutOfRangeError(
        absl::StrCat("front_coded_block: index ", i, " is not below the count ", count_));
  }
  Cursor cursor = NewCursor();
  while (cursor.Next()) {
    if (cursor.index() == i) return std::string(cursor.key());
  }
  return cursor.status();
}

absl::StatusOr<std::optional<size_t>> FrontCodedBlockReader::Find(absl::string_view key) const {
  Cursor cursor = NewCursor();
  while (cursor.Next()) {
    const int order = cursor.key().compare(key);
    if (order == 0) return cursor.index();
    if (order > 0) return std::nullopt;
  }
  if (!cursor.status().ok()) return cursor.status();
  return std::nullopt;
}

absl::StatusOr<size_t> FrontCodedBlockReader::LowerBound(absl::string_view key) const {
  Cursor cursor = NewCursor();
  while (cursor.Next()) {
    if (cursor.key() >= key) return cursor.index();
  }
  if (!cursor.status().ok()) return cursor.status();
  return count_;
}

absl::Status FrontCodedBlockReader::Validate() const {
  Cursor cursor = NewCursor();
  while (cursor.Next()) {
  }
  return cursor.status();
}

}  // namespace crawldb::codecs
