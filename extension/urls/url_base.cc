#include "extension/urls/url_base.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codecs/front_coded_block.h"
#include "codecs/varint.h"

namespace crawldb::urls {
namespace {

using codecs::FrontCodedBlockBuilder;
using codecs::FrontCodedBlockReader;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url base: ", what));
}

size_t BlocksFor(size_t count) { return (count + kKeysPerBlock - 1) / kKeysPerBlock; }

}  // namespace

absl::StatusOr<UrlBase> UrlBase::Build(absl::Span<const std::string_view> sorted_keys) {
  UrlBase base;
  base.count_ = sorted_keys.size();
  FrontCodedBlockBuilder builder;
  for (size_t i = 0; i < sorted_keys.size(); ++i) {
    if (i % kKeysPerBlock == 0) {
      base.heads_.append(sorted_keys[i]);
      base.head_offsets_.push_back(base.heads_.size());
    }
    if (absl::Status status = builder.Add(sorted_keys[i]); !status.ok()) return status;
    if (builder.count() == kKeysPerBlock || i + 1 == sorted_keys.size()) {
      std::vector<uint8_t> block = builder.Finish();
      base.blocks_.insert(base.blocks_.end(), block.begin(), block.end());
      base.block_offsets_.push_back(base.blocks_.size());
    }
  }
  return base;
}

absl::StatusOr<UrlBase> UrlBase::Load(absl::Span<const absl::Span<const uint8_t>> parts) {
  if (parts.empty()) return Corrupt("the header part is missing");
  const uint8_t* p = parts[0].data();
  const uint8_t* end = p + parts[0].size();
  if (p == end || *p != kBaseFormatVersion) {
    return Corrupt(p == end ? "empty header" : absl::StrCat("unknown format version ", *p));
  }
  uint64_t count = 0;
  uint64_t keys_per_block = 0;
  p = codecs::ReadVarint(p + 1, end, &count);
  if (p != nullptr) p = codecs::ReadVarint(p, end, &keys_per_block);
  if (p != end) return Corrupt("malformed header");
  if (keys_per_block != kKeysPerBlock) {
    return Corrupt(absl::StrCat("blocks of ", keys_per_block, " keys, expected ", kKeysPerBlock));
  }
  if (count > (uint64_t{1} << 40) || BlocksFor(count) != parts.size() - 1) {
    return Corrupt(absl::StrCat("the header says ", count, " keys but there are ",
                                parts.size() - 1, " blocks"));
  }
  UrlBase base;
  base.count_ = count;
  for (size_t b = 1; b < parts.size(); ++b) {
    absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(parts[b]);
    if (!reader.ok()) return Corrupt(absl::StrCat("block ", b - 1, ": ", reader.status().message()));
    size_t expected = std::min(kKeysPerBlock, count - (b - 1) * kKeysPerBlock);
    if (reader->size() != expected) {
      return Corrupt(absl::StrCat("block ", b - 1, " holds ", reader->size(), " keys, expected ",
                                  expected));
    }
    absl::StatusOr<std::string> head = reader->Get(0);
    if (!head.ok()) return Corrupt(absl::StrCat("block ", b - 1, ": ", head.status().message()));
    if (b > 1 && *head <= base.Head(b - 2)) {
      return Corrupt(absl::StrCat("block ", b - 1, " is out of order"));
    }
    base.heads_.append(*head);
    base.head_offsets_.push_back(base.heads_.size());
    base.blocks_.insert(base.blocks_.end(), parts[b].begin(), parts[b].end());
    base.block_offsets_.push_back(base.blocks_.size());
  }
  return base;
}

std::vector<std::vector<uint8_t>> UrlBase::Parts() const {
  std::vector<std::vector<uint8_t>> parts(1);
  parts[0].push_back(kBaseFormatVersion);
  codecs::AppendVarint(count_, &parts[0]);
  codecs::AppendVarint(kKeysPerBlock, &parts[0]);
  for (size_t b = 0; b < block_count(); ++b) {
    absl::Span<const uint8_t> block = Block(b);
    parts.emplace_back(block.begin(), block.end());
  }
  return parts;
}

absl::Span<const uint8_t> UrlBase::Block(size_t block) const {
  return absl::Span<const uint8_t>(blocks_).subspan(
      block_offsets_[block], block_offsets_[block + 1] - block_offsets_[block]);
}

std::string_view UrlBase::Head(size_t block) const {
  return std::string_view(heads_).substr(head_offsets_[block],
                                         head_offsets_[block + 1] - head_offsets_[block]);
}

size_t UrlBase::BlockFor(std::string_view key) const {
  size_t low = 0;
  size_t high = block_count();  // invariant: Head(b) ≤ key for b < low; > key for b ≥ high
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if (Head(mid) <= key) {
      low = mid + 1;
    } else {
      high = mid;
    }
  }
  return low == 0 ? 0 : low - 1;
}

absl::StatusOr<std::optional<size_t>> UrlBase::Find(std::string_view key) const {
  if (count_ == 0) return std::optional<size_t>();
  size_t block = BlockFor(key);
  absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(Block(block));
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::optional<size_t>> index = reader->Find(key);
  if (!index.ok() || !index->has_value()) return index;
  return std::optional<size_t>(block * kKeysPerBlock + **index);
}

absl::StatusOr<size_t> UrlBase::LowerBound(std::string_view key) const {
  if (count_ == 0) return 0;
  size_t block = BlockFor(key);
  absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(Block(block));
  if (!reader.ok()) return reader.status();
  absl::StatusOr<size_t> index = reader->LowerBound(key);
  if (!index.ok()) return index.status();
  return block * kKeysPerBlock + *index;
}

absl::Status UrlBase::Get(size_t rank, std::string* key) const {
  if (rank >= count_) return absl::OutOfRangeError(absl::StrCat("url base: no rank ", rank));
  absl::StatusOr<FrontCodedBlockReader> reader =
      FrontCodedBlockReader::Open(Block(rank / kKeysPerBlock));
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::string> value = reader->Get(rank % kKeysPerBlock);
  if (!value.ok()) return value.status();
  *key = std::move(*value);
  return absl::OkStatus();
}

absl::Status UrlBase::DecodeBlock(size_t block, std::vector<std::string>* keys) const {
  absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(Block(block));
  if (!reader.ok()) return reader.status();
  auto cursor = reader->NewCursor();
  while (cursor.Next()) keys->emplace_back(cursor.key());
  return cursor.status();
}

size_t UrlBase::MemoryBytes() const {
  return blocks_.capacity() + heads_.capacity() +
         (block_offsets_.capacity() + head_offsets_.capacity()) * sizeof(uint64_t);
}

size_t UrlBase::StoredBytes() const {
  size_t bytes = 0;
  for (const std::vector<uint8_t>& part : Parts()) bytes += part.size();
  return bytes;
}

}  // namespace crawldb::urls
