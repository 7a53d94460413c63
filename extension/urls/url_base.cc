#include "extension/urls/url_base.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/varint.h"
#include "extension/urls/shared_url_models.h"

namespace crawldb::urls {
namespace {

using codecs::UrlBlockIndex;
using codecs::UrlBlockModel;
using codecs::UrlBlockReader;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url base: ", what));
}

size_t Blocks(size_t keys) { return (keys + kKeysPerBlock - 1) / kKeysPerBlock; }
size_t PartsFor(size_t blocks) { return (blocks + kBlocksPerPart - 1) / kBlocksPerPart; }

// Parts before the first group of blocks, the model part left out: header, heads.
constexpr size_t kFirstBlockPart = 2;

// The number of heads ≤ key among `heads` (increasing), `prefixes` their HeadPrefix and
// `prefix` the key's.
size_t HeadsAtMost(const BlockKeys& heads, absl::Span<const uint64_t> prefixes,
                   absl::string_view key, uint64_t prefix) {
  size_t low = 0;
  size_t high = prefixes.size();  // invariant: head b ≤ key for b < low; > key for b ≥ high
  while (low < high) {
    const size_t middle = low + (high - low) / 2;
    const uint64_t head_prefix = prefixes[middle];
    if (head_prefix < prefix || (head_prefix == prefix && heads[middle] <= key)) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  return low;
}

}  // namespace

uint64_t UrlBase::HeadPrefix(absl::string_view key) {
  if (key.size() >= 8) {
    uint64_t word;
    std::memcpy(&word, key.data(), 8);
    return std::endian::native == std::endian::little ? __builtin_bswap64(word) : word;
  }
  uint64_t prefix = 0;
  const size_t n = std::min<size_t>(key.size(), 8);
  for (size_t i = 0; i < n; ++i) prefix |= uint64_t{static_cast<uint8_t>(key[i])} << (56 - 8 * i);
  return prefix;
}

// ---------------------------------------------------------------------------------------------
// Loading and storing.

absl::StatusOr<UrlBase> UrlBase::Load(absl::Span<const absl::Span<const uint8_t>> parts) {
  return LoadStored(parts, nullptr);
}

absl::StatusOr<UrlBase> UrlBase::Open(absl::Span<const absl::Span<const uint8_t>> first_parts,
                                      PartReader read_part) {
  return LoadStored(first_parts, std::move(read_part));
}

absl::StatusOr<UrlBase> UrlBase::LoadStored(absl::Span<const absl::Span<const uint8_t>> parts,
                                            PartReader read_part) {
  if (parts.size() < 2) {
    return LoadWithModel(parts, nullptr, 0, 0, read_part, nullptr);  // empty, or refused
  }
  absl::StatusOr<std::shared_ptr<const UrlBlockModel>> model = SharedUrlModel(parts[1]);
  if (!model.ok()) {
    // A header of another version says more than its model would.
    absl::StatusOr<UrlBase> header_only =
        LoadWithModel(parts.subspan(0, 1), nullptr, 0, 0, nullptr, nullptr);
    if (!header_only.ok() && header_only.status().code() != absl::StatusCode::kDataLoss) {
      return header_only.status();
    }
    return Corrupt(absl::StrCat("model: ", model.status().message()));
  }
  std::vector<absl::Span<const uint8_t>> rest(parts.begin(), parts.end());
  rest.erase(rest.begin() + 1);
  return LoadWithModel(rest, *std::move(model), parts[1].size(), 1, std::move(read_part), nullptr);
}

absl::StatusOr<UrlBase> UrlBase::OpenKeys(absl::Span<const absl::Span<const uint8_t>> parts,
                                          std::shared_ptr<const UrlBlockModel> model,
                                          std::shared_ptr<const std::vector<uint8_t>> owner) {
  return LoadWithModel(parts, std::move(model), 0, 0, nullptr, std::move(owner));
}

absl::StatusOr<UrlBase> UrlBase::LoadWithModel(absl::Span<const absl::Span<const uint8_t>> parts,
                                               std::shared_ptr<const UrlBlockModel> model,
                                               size_t model_bytes, size_t model_parts,
                                               PartReader read_part,
                                               std::shared_ptr<const std::vector<uint8_t>> owner) {
  if (parts.empty()) return Corrupt("the header part is missing");
  const uint8_t* p = parts[0].data();
  const uint8_t* end = p + parts[0].size();
  if (p == end) return Corrupt("empty header");
  if (*p == 1) {
    return absl::FailedPreconditionError(absl::StrCat(
        "url base: format version 1 (plain front-coded blocks) is no longer read, this build "
        "reads versions ",
        kOldestBaseFormatVersion, " and ", kBaseFormatVersion,
        "; export the URLs with the crawldb that wrote the table, then create it again and "
        "insert them"));
  }
  const uint8_t version = *p;
  if (version < kOldestBaseFormatVersion || version > kBaseFormatVersion) {
    return Corrupt(absl::StrCat("unknown format version ", version));
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
  // Parts given, the model part left out: header and heads, then the groups unless read later.
  const size_t groups = count == 0 ? 0 : PartsFor(Blocks(count));
  const size_t front_parts = count == 0 ? 1 : kFirstBlockPart;
  const size_t expected_parts = front_parts + (read_part == nullptr ? groups : 0);
  if (count > (uint64_t{1} << 40) || parts.size() != expected_parts) {
    return Corrupt(absl::StrCat("the header says ", count, " keys but there are ",
                                parts.size() + model_parts, " parts"));
  }
  if (count != 0 && model == nullptr) return Corrupt("the model is missing");
  UrlBase base;
  if (count == 0) return base;
  base.count_ = count;
  const size_t blocks = Blocks(count);
  base.model_ = std::move(model);
  base.model_bytes_ = model_bytes;
  base.model_parts_ = model_parts;

  absl::StatusOr<UrlBlockIndex> heads = UrlBlockIndex::Load(*base.model_, parts[1]);
  if (!heads.ok()) return Corrupt(absl::StrCat("heads: ", heads.status().message()));
  const bool every_block_head = version == kOldestBaseFormatVersion;
  const size_t expected_heads = every_block_head ? blocks : groups;
  if (heads->size() != expected_heads) {
    return Corrupt(
        absl::StrCat("the head index holds ", heads->size(), " heads, expected ", expected_heads));
  }
  if (every_block_head) {
    base.coded_heads_ = heads->EveryNth(kBlocksPerPart);
    base.version2_heads_ = *std::move(heads);
  } else {
    base.coded_heads_ = *std::move(heads);
  }
  base.groups_.resize(groups);
  if (read_part != nullptr) {
    base.read_part_ = std::move(read_part);
    return base;
  }
  if (owner != nullptr) {
    const uint8_t* const begin = owner->data();
    if (owner->size() > std::numeric_limits<uint32_t>::max()) {
      return Corrupt("a stored row of more than 4 GiB");
    }
    for (size_t group = 0; group < groups; ++group) {
      const absl::Span<const uint8_t> stored = parts[kFirstBlockPart + group];
      // The parts must lie in *owner (OpenKeys' contract): where, as offsets.
      if (stored.data() < begin || stored.data() + stored.size() > begin + owner->size()) {
        return absl::InvalidArgumentError("url base: a part outside the row given");
      }
      base.owner_parts_.push_back({static_cast<uint32_t>(stored.data() - begin),
                                   static_cast<uint32_t>(stored.data() - begin + stored.size())});
    }
    base.owner_ = std::move(owner);
    return base;
  }
  // The group heads first: reading each group checks its heads against them.
  if (absl::Status status = base.DecodeHeads(); !status.ok()) return status;
  for (size_t group = 0; group < groups; ++group) {
    const absl::Span<const uint8_t> stored = parts[kFirstBlockPart + group];
    if (absl::Status status =
            base.InstallGroup(group, std::vector<uint8_t>(stored.begin(), stored.end()));
        !status.ok()) {
      return status;
    }
    if (absl::Status status = base.DecodeHeldHeads(group); !status.ok()) return status;
  }
  return base;
}

std::vector<uint8_t> UrlBase::HeaderPart() const {
  std::vector<uint8_t> header = {kBaseFormatVersion};
  codecs::AppendVarint(count_, &header);
  codecs::AppendVarint(kKeysPerBlock, &header);
  codecs::AppendVarint(kBlocksPerPart, &header);
  return header;
}

std::vector<std::vector<uint8_t>> UrlBase::Parts() const {
  std::vector<std::vector<uint8_t>> parts = KeyParts();
  if (count_ > 0) parts.insert(parts.begin() + 1, model_->Serialize());
  return parts;
}

std::vector<std::vector<uint8_t>> UrlBase::KeyParts() const {
  std::vector<std::vector<uint8_t>> parts = {HeaderPart()};
  if (count_ == 0) return parts;
  absl::StatusOr<std::vector<uint8_t>> group_heads = HeadIndexPart();
  // Heads were coded once already, as their blocks' neighbours, and are increasing.
  parts.push_back(group_heads.ok() ? *std::move(group_heads) : std::vector<uint8_t>());
  for (size_t first = 0; first < block_count(); first += kBlocksPerPart) {
    const size_t last = std::min(block_count(), first + kBlocksPerPart);
    std::vector<uint8_t>& part = parts.emplace_back();
    codecs::AppendVarint(last - first, &part);
    // As above: coding fails only on heads out of order, and they were checked in order when
    // built or read.
    absl::StatusOr<std::vector<uint8_t>> heads = GroupHeadsPart(first / kBlocksPerPart);
    if (!heads.ok()) heads = std::vector<uint8_t>();
    codecs::AppendVarint(heads->size(), &part);
    part.insert(part.end(), heads->begin(), heads->end());
    for (size_t b = first; b < last; ++b) {
      codecs::AppendVarint(HeldBlockSize(b), &part);
    }
    for (size_t b = first; b < last; ++b) {
      const absl::Span<const uint8_t> block = HeldBlock(b);
      part.insert(part.end(), block.begin(), block.end());
    }
  }
  return parts;
}

absl::StatusOr<std::vector<uint8_t>> UrlBase::HeadIndexPart() const {
  if (coded_heads_.has_value()) return coded_heads_->Serialize();
  UrlBlockIndex index(*model_);
  for (size_t g = 0; g < heads_.size(); ++g) {
    if (absl::Status status = index.Append(heads_[g]); !status.ok()) return status;
  }
  return index.Serialize();
}

absl::StatusOr<std::vector<uint8_t>> UrlBase::GroupHeadsPart(size_t group) const {
  const Group& held = groups_[group];
  if (held.coded_heads.end > held.coded_heads.begin) {
    const absl::Span<const uint8_t> bytes = GroupBytes(held);
    return std::vector<uint8_t>(bytes.begin() + held.coded_heads.begin,
                                bytes.begin() + held.coded_heads.end);
  }
  const BlockKeys& heads = held.heads;
  UrlBlockIndex index(*model_);
  for (size_t i = 0; i < heads.size(); ++i) {
    if (absl::Status status = index.Append(heads[i]); !status.ok()) return status;
  }
  return index.Serialize();
}

// ---------------------------------------------------------------------------------------------
// Look-ups.

size_t UrlBase::ForwardCount(size_t block) const {
  // The last block is coded forward only; the others, full, half each way (url_block_codec.h).
  if (block + 1 == Blocks(count_)) return count_ - 1 - block * kKeysPerBlock;
  return (kKeysPerBlock - 1) / 2;
}

absl::StatusOr<absl::Span<const uint8_t>> UrlBase::Block(size_t block) const {
  if (absl::Status status = ReadGroup(block / kBlocksPerPart); !status.ok()) return status;
  return HeldBlock(block);
}

absl::StatusOr<UrlBlockReader> UrlBase::Reader(size_t block) const {
  absl::StatusOr<absl::Span<const uint8_t>> bytes = Block(block);
  if (!bytes.ok()) return bytes.status();
  absl::StatusOr<bool> coded = CodedHeadsInUse(block / kBlocksPerPart);
  if (!coded.ok()) return coded.status();
  const Group& group = groups_[block / kBlocksPerPart];
  const size_t index = block % kBlocksPerPart;
  const size_t group_blocks = *coded ? group.coded_index->size() : group.heads.size();
  absl::string_view head;
  if (*coded) {
    if (absl::Status status = group.coded_index->Head(index, &block_head_); !status.ok()) {
      return Corrupt(absl::StrCat("head of block ", block, ": ", status.message()));
    }
    head = block_head_;
  } else {
    head = group.heads[index];
  }
  std::optional<absl::string_view> next_head;
  if (index + 1 < group_blocks) {
    if (*coded) {
      if (absl::Status status = group.coded_index->Head(index + 1, &next_head_); !status.ok()) {
        return Corrupt(absl::StrCat("head of block ", block + 1, ": ", status.message()));
      }
      if (next_head_ <= block_head_) {
        return Corrupt(absl::StrCat("head of block ", block + 1, " is not above the last"));
      }
      next_head = next_head_;
    } else {
      next_head = group.heads[index + 1];
    }
  } else if (block + 1 < block_count()) {  // the group's last block: the next group's head
    const size_t next_group = block / kBlocksPerPart + 1;
    if (heads_decoded()) {
      next_head = heads_[next_group];
    } else {
      if (absl::Status status = GroupHead(next_group, &next_head_); !status.ok()) return status;
      next_head = next_head_;
    }
  }
  return UrlBlockReader::Open(*model_, head, next_head, *bytes);
}

static_assert(kKeysPerBlock <= 255, "UrlBase::Landmarks keeps key indices in bytes");

absl::StatusOr<UrlBlockReader> UrlBase::LookupReader(size_t block,
                                                     codecs::UrlBlockLandmarks* landmarks) const {
  absl::StatusOr<UrlBlockReader> reader = Reader(block);
  if (!reader.ok()) return reader;
  if (landmark_slots_.empty()) landmark_slots_ = codecs::ZeroedArray<uint32_t>(block_count());
  uint32_t slot = landmark_slots_[block];
  if (slot == kNotLookedUp || slot >= kLookedUpMost) {
    // Learning them decodes the whole block (31 keys), where a Get from the heads decodes 7.5
    // and a Find about 12, and from landmarks 3.5: a block looked up fewer than
    // kLandmarkLookUp times (a statement's few ids → URL in it) does without.
    const uint32_t before = slot == kNotLookedUp ? 0 : kLookedUpOnce - slot + 1;
    if (before + 1 < kLandmarkLookUp) {
      landmark_slots_[block] = kLookedUpOnce - before;
      return reader;
    }
    absl::StatusOr<codecs::UrlBlockLandmarks> found = reader->FindLandmarks(&landmark_scratch_);
    if (!found.ok()) return found.status();
    constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();
    if (landmark_keys_.size() + landmark_scratch_.size() > kMax32 ||
        std::max(found->forward_bits, found->backward_bits) > kMax32) {
      *landmarks = *found;  // no room to keep them (4 GiB of keys): use them this once
      reader->UseLandmarks(landmarks);
      return reader;
    }
    landmarks_.push_back(
        {static_cast<uint32_t>(landmark_keys_.size()),
         static_cast<uint32_t>(found->forward_key.size()),
         static_cast<uint32_t>(found->backward_key.size()),
         static_cast<uint32_t>(found->first_backward_key.size()),
         static_cast<uint32_t>(found->forward_bits), static_cast<uint32_t>(found->backward_bits),
         static_cast<uint8_t>(found->forward_index), static_cast<uint8_t>(found->backward_index)});
    landmark_keys_.append(landmark_scratch_);
    slot = static_cast<uint32_t>(landmarks_.size());
    landmark_slots_[block] = slot;
  }
  const Landmarks& stored = landmarks_[slot - 1];
  const absl::string_view keys(
      landmark_keys_.data() + stored.keys_offset,
      size_t{stored.forward_length} + stored.backward_length + stored.first_backward_length);
  landmarks->forward_index = stored.forward_index;
  landmarks->forward_bits = stored.forward_bits;
  landmarks->forward_key = keys.substr(0, stored.forward_length);
  landmarks->backward_index = stored.backward_index;
  landmarks->backward_bits = stored.backward_bits;
  landmarks->backward_key = keys.substr(stored.forward_length, stored.backward_length);
  landmarks->first_backward_key =
      keys.substr(size_t{stored.forward_length} + stored.backward_length);
  reader->UseLandmarks(landmarks);
  return reader;
}

absl::StatusOr<std::optional<size_t>> UrlBase::FindGroup(absl::string_view key) const {
  if (absl::Status status = DecodeHeadsWhenBusy(); !status.ok()) return status;
  if (!heads_decoded()) {
    // Each step decodes a head up to its first difference from the key.
    head_decodes_ += static_cast<size_t>(std::bit_width(groups_.size()));
    absl::StatusOr<std::optional<size_t>> group = coded_heads_->FindBlock(key);
    if (!group.ok()) return Corrupt(absl::StrCat("heads: ", group.status().message()));
    return group;
  }
  const size_t at_most = HeadsAtMost(heads_, head_prefixes_, key, HeadPrefix(key));
  if (at_most == 0) return std::optional<size_t>();
  return std::optional<size_t>(at_most - 1);
}

absl::StatusOr<std::optional<size_t>> UrlBase::FindBlock(absl::string_view key) const {
  absl::StatusOr<std::optional<size_t>> group = FindGroup(key);
  if (!group.ok() || !group->has_value()) return group;
  if (absl::Status status = ReadGroup(**group); !status.ok()) return status;
  const Group& held = groups_[**group];
  if (held.coded_index.has_value()) {  // the call's reader counts the use (CodedHeadsInUse)
    absl::StatusOr<std::optional<size_t>> block = held.coded_index->FindBlock(key);
    if (!block.ok()) {
      return Corrupt(absl::StrCat("group ", **group, ": ", block.status().message()));
    }
    // Sound heads start with the group's head, ≤ key; damaged ones are found when decoded.
    return std::optional<size_t>(**group * kBlocksPerPart + block->value_or(0));
  }
  // At least the first: it is the group's head, ≤ key.
  const size_t at_most = HeadsAtMost(held.heads, held.head_prefixes, key, HeadPrefix(key));
  return std::optional<size_t>(**group * kBlocksPerPart + at_most - 1);
}

absl::StatusOr<std::optional<size_t>> UrlBase::Find(absl::string_view key) const {
  if (count_ == 0) return std::optional<size_t>();
  absl::StatusOr<std::optional<size_t>> block = FindBlock(key);
  if (!block.ok()) return block.status();
  if (!block->has_value()) return std::optional<size_t>();
  codecs::UrlBlockLandmarks landmarks;
  absl::StatusOr<UrlBlockReader> reader = LookupReader(**block, &landmarks);
  if (!reader.ok()) return reader.status();
  absl::StatusOr<std::optional<size_t>> index = reader->Find(key, &scratch_);
  if (!index.ok() || !index->has_value()) return index;
  return std::optional<size_t>(**block * kKeysPerBlock + **index);
}

absl::StatusOr<size_t> UrlBase::LowerBound(absl::string_view key) const {
  if (count_ == 0) return 0;
  absl::StatusOr<std::optional<size_t>> block = FindBlock(key);
  if (!block.ok()) return block.status();
  if (!block->has_value()) return 0;  // below the first key
  codecs::UrlBlockLandmarks landmarks;
  absl::StatusOr<UrlBlockReader> reader = LookupReader(**block, &landmarks);
  if (!reader.ok()) return reader.status();
  absl::StatusOr<size_t> index = reader->LowerBound(key, &scratch_);
  if (!index.ok()) return index.status();
  return **block * kKeysPerBlock + *index;
}

absl::Status UrlBase::Get(size_t rank, std::string* key) const {
  if (rank >= count_) return absl::OutOfRangeError(absl::StrCat("url base: no rank ", rank));
  if (absl::Status status = DecodeHeadsWhenBusy(); !status.ok()) return status;
  codecs::UrlBlockLandmarks landmarks;
  absl::StatusOr<UrlBlockReader> reader = LookupReader(rank / kKeysPerBlock, &landmarks);
  if (!reader.ok()) return reader.status();
  return reader->Get(rank % kKeysPerBlock, key);
}

absl::Status UrlBase::DecodeBlock(size_t block, BlockKeys* keys) const {
  keys->Clear();
  if (absl::Status status = DecodeHeadsWhenBusy(); !status.ok()) return status;
  // A whole block is decoded for a pass (a check, a merge, an optimize): its group's heads are
  // decoded, and checked, first.
  if (absl::Status status = ReadGroupOf(block); !status.ok()) return status;
  absl::StatusOr<UrlBlockReader> reader = Reader(block);
  if (!reader.ok()) return reader.status();
  auto cursor = reader->NewCursor();
  while (cursor.Next()) keys->Append(cursor.key());
  return cursor.status();
}

size_t UrlBase::HeadIndexBytes() const {
  if (count_ == 0) return 0;
  if (head_index_bytes_ == 0) {
    absl::StatusOr<std::vector<uint8_t>> heads = HeadIndexPart();
    size_t bytes = heads.ok() ? heads->size() : 0;
    for (size_t g = 0; g < groups_.size(); ++g) bytes += GroupHeadsBytes(g);
    if (!whole()) return bytes;  // kept once it counts every group's heads
    head_index_bytes_ = bytes;
  }
  return head_index_bytes_;
}

size_t UrlBase::GroupHeadsBytes(size_t group) const {
  const BlockSpan stored = groups_[group].coded_heads;
  if (stored.end > stored.begin) return stored.end - stored.begin;
  absl::StatusOr<std::vector<uint8_t>> heads = GroupHeadsPart(group);
  return heads.ok() ? heads->size() : 0;
}

size_t UrlBase::BlockBytes() const {
  size_t bytes = 0;
  for (const Group& group : groups_) {
    for (const BlockSpan& span : group.spans) bytes += span.end - span.begin;
  }
  return bytes;
}

size_t UrlBase::StoredPartCount() const {
  return count_ == 0 ? 1 : kFirstGroupPart + groups_.size();
}

size_t UrlBase::MemoryBytes() const {
  return (model_ ? model_->MemoryBytes() : 0) + KeysMemoryBytes();
}

size_t UrlBase::KeysMemoryBytes() const {
  size_t groups = groups_.capacity() * sizeof(Group);
  for (const Group& group : groups_) {
    groups += group.bytes.capacity() + group.spans.capacity() * sizeof(BlockSpan) +
              group.heads.MemoryBytes() + group.head_prefixes.capacity() * sizeof(uint64_t) +
              (group.coded_index.has_value() ? group.coded_index->byte_size() : 0);
  }
  return groups + (coded_heads_.has_value() ? coded_heads_->byte_size() : 0) +
         (version2_heads_.has_value() ? version2_heads_->byte_size() : 0) + heads_.MemoryBytes() +
         head_prefixes_.capacity() * sizeof(uint64_t) + next_head_.capacity() +
         block_head_.capacity() + scratch_.capacity() +
         owner_parts_.capacity() * sizeof(BlockSpan) + landmark_slots_.MemoryBytes() +
         landmarks_.capacity() * sizeof(Landmarks) + landmark_keys_.capacity() +
         landmark_scratch_.capacity();
}

size_t UrlBase::StoredBytes() const {
  if (stored_bytes_ != 0) return stored_bytes_;
  // What Parts() would hold, without copying the blocks.
  size_t bytes = HeaderPart().size();
  if (count_ == 0) return bytes;
  bytes += model_bytes_ + HeadIndexBytes() + BlockBytes();
  for (size_t first = 0; first < block_count(); first += kBlocksPerPart) {
    const size_t last = std::min(block_count(), first + kBlocksPerPart);
    bytes += codecs::VarintLength(last - first) +
             codecs::VarintLength(GroupHeadsBytes(first / kBlocksPerPart));
    for (size_t b = first; b < last; ++b) {
      bytes += codecs::VarintLength(groups_[b / kBlocksPerPart].held ? HeldBlockSize(b) : 0);
    }
  }
  if (whole()) stored_bytes_ = bytes;  // kept once it counts every group
  return bytes;
}

}  // namespace crawldb::urls
