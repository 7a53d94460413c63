#include "extension/urls/url_base.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"

namespace crawldb::urls {
namespace {

using codecs::FrontCodedBlockReader;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url base: ", what));
}

size_t Blocks(size_t keys) { return (keys + kKeysPerBlock - 1) / kKeysPerBlock; }
size_t PartsFor(size_t blocks) { return (blocks + kBlocksPerPart - 1) / kBlocksPerPart; }

}  // namespace

absl::Status UrlBaseBuilder::Add(std::string_view key) {
  if (absl::Status status = block_.Add(key); !status.ok()) return status;
  if (block_.count() == 1) head_.assign(key);
  ++base_.count_;
  if (block_.count() == kKeysPerBlock) FlushBlock();
  return absl::OkStatus();
}

void UrlBaseBuilder::FlushBlock() {
  if (block_.count() == 0) return;
  // Keys across blocks stay increasing: the next block starts after this one's last key.
  std::vector<uint8_t> block = block_.Finish();
  base_.AppendBlock(block, head_);
}

UrlBase UrlBaseBuilder::Finish() {
  FlushBlock();
  base_.blocks_.shrink_to_fit();
  base_.heads_.shrink_to_fit();
  base_.block_offsets_.shrink_to_fit();
  base_.head_offsets_.shrink_to_fit();
  return std::move(base_);
}

void UrlBase::AppendBlock(absl::Span<const uint8_t> block, std::string_view head) {
  blocks_.insert(blocks_.end(), block.begin(), block.end());
  block_offsets_.push_back(blocks_.size());
  heads_.append(head);
  head_offsets_.push_back(heads_.size());
}

absl::StatusOr<UrlBase> UrlBase::Load(absl::Span<const absl::Span<const uint8_t>> parts) {
  if (parts.empty()) return Corrupt("the header part is missing");
  const uint8_t* p = parts[0].data();
  const uint8_t* end = p + parts[0].size();
  if (p == end || *p != kBaseFormatVersion) {
    return Corrupt(p == end ? "empty header" : absl::StrCat("unknown format version ", *p));
  }
  uint64_t count = 0, keys_per_block = 0, blocks_per_part = 0;
  p = codecs::ReadVarint(p + 1, end, &count);
  if (p != nullptr) p = codecs::ReadVarint(p, end, &keys_per_block);
  if (p != nullptr) p = codecs::ReadVarint(p, end, &blocks_per_part);
  if (p != end) return Corrupt("malformed header");
  if (keys_per_block != kKeysPerBlock || blocks_per_part != kBlocksPerPart) {
    return Corrupt(absl::StrCat("blocks of ", keys_per_block, " keys, ", blocks_per_part,
                                " per part; this build writes ", kKeysPerBlock, " and ",
                                kBlocksPerPart));
  }
  if (count > (uint64_t{1} << 40) || PartsFor(Blocks(count)) != parts.size() - 1) {
    return Corrupt(absl::StrCat("the header says ", count, " keys but there are ",
                                parts.size() - 1, " parts"));
  }
  UrlBase base;
  base.count_ = count;
  size_t total = 0;
  for (size_t i = 1; i < parts.size(); ++i) total += parts[i].size();
  base.blocks_.reserve(total);
  std::string head;
  for (size_t part = 1; part < parts.size(); ++part) {
    const uint8_t* q = parts[part].data();
    const uint8_t* part_end = q + parts[part].size();
    uint64_t blocks = 0;
    q = codecs::ReadVarint(q, part_end, &blocks);
    size_t first_block = (part - 1) * kBlocksPerPart;
    size_t expected = std::min(kBlocksPerPart, Blocks(count) - first_block);
    if (q == nullptr || blocks != expected) {
      return Corrupt(absl::StrCat("part ", part, " holds ", blocks, " blocks, expected ", expected));
    }
    std::vector<uint64_t> sizes(blocks);
    for (uint64_t& size : sizes) {
      q = q == nullptr ? nullptr : codecs::ReadVarint(q, part_end, &size);
    }
    if (q == nullptr) return Corrupt(absl::StrCat("part ", part, " has a malformed block list"));
    for (size_t b = 0; b < blocks; ++b) {
      size_t block = first_block + b;
      if (sizes[b] > static_cast<uint64_t>(part_end - q)) {
        return Corrupt(absl::StrCat("block ", block, " runs past the end of part ", part));
      }
      absl::Span<const uint8_t> bytes(q, sizes[b]);
      q += sizes[b];
      absl::StatusOr<FrontCodedBlockReader> reader = FrontCodedBlockReader::Open(bytes);
      if (!reader.ok()) return Corrupt(absl::StrCat("block ", block, ": ", reader.status().message()));
      size_t keys = std::min(kKeysPerBlock, count - block * kKeysPerBlock);
      if (reader->size() != keys) {
        return Corrupt(absl::StrCat("block ", block, " holds ", reader->size(), " keys, expected ",
                                    keys));
      }
      absl::StatusOr<std::string> first = reader->Get(0);
      if (!first.ok()) return Corrupt(absl::StrCat("block ", block, ": ", first.status().message()));
      if (block > 0 && *first <= base.Head(block - 1)) {
        return Corrupt(absl::StrCat("block ", block, " is out of order"));
      }
      base.AppendBlock(bytes, *first);
    }
    if (q != part_end) return Corrupt(absl::StrCat("bytes after the last block of part ", part));
  }
  return base;
}

std::vector<std::vector<uint8_t>> UrlBase::Parts() const {
  std::vector<std::vector<uint8_t>> parts(1);
  parts[0].push_back(kBaseFormatVersion);
  codecs::AppendVarint(count_, &parts[0]);
  codecs::AppendVarint(kKeysPerBlock, &parts[0]);
  codecs::AppendVarint(kBlocksPerPart, &parts[0]);
  for (size_t first = 0; first < block_count(); first += kBlocksPerPart) {
    size_t last = std::min(block_count(), first + kBlocksPerPart);
    std::vector<uint8_t>& part = parts.emplace_back();
    codecs::AppendVarint(last - first, &part);
    for (size_t b = first; b < last; ++b) {
      codecs::AppendVarint(block_offsets_[b + 1] - block_offsets_[b], &part);
    }
    part.insert(part.end(), blocks_.begin() + static_cast<ptrdiff_t>(block_offsets_[first]),
                blocks_.begin() + static_cast<ptrdiff_t>(block_offsets_[last]));
  }
  return parts;
}

absl::StatusOr<FrontCodedBlockReader> UrlBase::Reader(size_t block) const {
  return FrontCodedBlockReader::Open(absl::Span<const uint8_t>(blocks_).subspan(
      block_offsets_[block], block_offsets_[block + 1] - block_offsets_[block]));
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
  absl::StatusOr<FrontCodedBlockReader> reader = Reader(block);
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::optional<size_t>> index = reader->Find(key);
  if (!index.ok() || !index->has_value()) return index;
  return std::optional<size_t>(block * kKeysPerBlock + **index);
}

absl::StatusOr<size_t> UrlBase::LowerBound(std::string_view key) const {
  if (count_ == 0) return 0;
  size_t block = BlockFor(key);
  absl::StatusOr<FrontCodedBlockReader> reader = Reader(block);
  if (!reader.ok()) return reader.status();
  absl::StatusOr<size_t> index = reader->LowerBound(key);
  if (!index.ok()) return index.status();
  return block * kKeysPerBlock + *index;
}

absl::Status UrlBase::Get(size_t rank, std::string* key) const {
  if (rank >= count_) return absl::OutOfRangeError(absl::StrCat("url base: no rank ", rank));
  absl::StatusOr<FrontCodedBlockReader> reader = Reader(rank / kKeysPerBlock);
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::string> value = reader->Get(rank % kKeysPerBlock);
  if (!value.ok()) return value.status();
  *key = std::move(*value);
  return absl::OkStatus();
}

absl::Status UrlBase::DecodeBlock(size_t block, BlockKeys* keys) const {
  keys->Clear();
  absl::StatusOr<FrontCodedBlockReader> reader = Reader(block);
  if (!reader.ok()) return reader.status();
  auto cursor = reader->NewCursor();
  while (cursor.Next()) keys->Append(cursor.key());
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
