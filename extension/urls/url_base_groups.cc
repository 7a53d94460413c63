// UrlBase's groups of blocks: reading a group (its stored part, checked as url_base.h says),
// and decoding the heads, the groups' and each group's blocks', when they are needed.
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"
#include "extension/urls/url_base.h"

namespace crawldb::urls {
namespace {

using codecs::UrlBlockIndex;
using codecs::UrlBlockReader;

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("url base: ", what));
}

}  // namespace

absl::Status UrlBase::ReadGroup(size_t group) const {
  if (groups_[group].held) return absl::OkStatus();
  if (owner_ != nullptr) return InstallGroup(group, {});
  const size_t part = GroupPart(group);
  if (read_part_ == nullptr) return Corrupt(absl::StrCat("part ", part, " was never read"));
  absl::StatusOr<std::optional<std::vector<uint8_t>>> stored = read_part_(part);
  if (!stored.ok()) return stored.status();
  if (!stored->has_value()) return Corrupt(absl::StrCat("part ", part, " is missing"));
  return InstallGroup(group, **std::move(stored));
}

absl::Status UrlBase::InstallGroup(size_t group, std::vector<uint8_t> bytes) const {
  const size_t part = GroupPart(group);
  if (bytes.size() > std::numeric_limits<uint32_t>::max()) {
    return Corrupt(absl::StrCat("part ", part, " holds more than 4 GiB"));
  }
  Group held;
  if (owner_ != nullptr) held.in_owner = owner_parts_[group];
  const absl::Span<const uint8_t> stored =
      owner_ != nullptr ? GroupBytes(held) : absl::MakeConstSpan(bytes);
  const uint8_t* const begin = stored.data();
  const uint8_t* q = begin;
  const uint8_t* part_end = q + stored.size();
  uint64_t part_blocks = 0;
  q = codecs::ReadVarint(q, part_end, &part_blocks);
  const size_t first_block = group * kBlocksPerPart;
  const size_t expected = std::min(kBlocksPerPart, block_count() - first_block);
  if (q == nullptr || part_blocks != expected) {
    return Corrupt(
        absl::StrCat("part ", part, " holds ", part_blocks, " blocks, expected ", expected));
  }
  if (version2_heads_.has_value()) {
    if (absl::Status status =
            DecodeGroupHeads(group, *version2_heads_, first_block, part_blocks, &held);
        !status.ok()) {
      return status;
    }
  } else {
    uint64_t heads_bytes = 0;
    q = codecs::ReadVarint(q, part_end, &heads_bytes);
    if (q == nullptr || heads_bytes > static_cast<uint64_t>(part_end - q)) {
      return Corrupt(absl::StrCat("part ", part, " has a malformed head index"));
    }
    absl::StatusOr<UrlBlockIndex> heads =
        UrlBlockIndex::Load(*model_, absl::MakeConstSpan(q, heads_bytes));
    if (!heads.ok()) {
      return Corrupt(absl::StrCat("part ", part, " heads: ", heads.status().message()));
    }
    if (heads->size() != part_blocks) {
      return Corrupt(absl::StrCat("part ", part, " holds ", heads->size(), " heads for ",
                                  part_blocks, " blocks"));
    }
    held.coded_index = *std::move(heads);
    held.coded_heads = {static_cast<uint32_t>(q - begin),
                        static_cast<uint32_t>(q - begin + heads_bytes)};
    q += heads_bytes;
  }
  std::vector<uint64_t> sizes(part_blocks);
  for (uint64_t& size : sizes) {
    q = q == nullptr ? nullptr : codecs::ReadVarint(q, part_end, &size);
  }
  if (q == nullptr) return Corrupt(absl::StrCat("part ", part, " has a malformed block list"));
  std::vector<BlockSpan> spans(part_blocks);
  for (size_t b = 0; b < part_blocks; ++b) {
    const size_t block = first_block + b;
    if (sizes[b] > static_cast<uint64_t>(part_end - q)) {
      return Corrupt(absl::StrCat("block ", block, " runs past the end of part ", part));
    }
    const absl::Span<const uint8_t> block_bytes(q, sizes[b]);
    spans[b] = {static_cast<uint32_t>(q - begin), static_cast<uint32_t>(q - begin + sizes[b])};
    q += sizes[b];
    // The header only: the heads are not needed to read it.
    const bool last = block + 1 == block_count();
    absl::StatusOr<UrlBlockReader> reader = UrlBlockReader::Open(
        *model_, "", last ? std::nullopt : std::optional<absl::string_view>(""), block_bytes);
    if (!reader.ok()) {
      return Corrupt(absl::StrCat("block ", block, ": ", reader.status().message()));
    }
    const size_t keys = std::min(kKeysPerBlock, count_ - block * kKeysPerBlock);
    if (reader->size() != keys || reader->forward_count() != ForwardCount(block)) {
      return Corrupt(absl::StrCat("block ", block, " holds ", reader->size(), " keys (",
                                  reader->forward_count(), " coded forward), expected ", keys, " (",
                                  ForwardCount(block), ")"));
    }
  }
  if (q != part_end) return Corrupt(absl::StrCat("bytes after the last block of part ", part));
  held.bytes = std::move(bytes);
  held.spans = std::move(spans);
  held.held = true;
  coded_groups_ += held.coded_index.has_value();
  groups_[group] = std::move(held);
  if (++groups_held_ == groups_.size()) version2_heads_.reset();
  return absl::OkStatus();
}

absl::Status UrlBase::DecodeHeldHeads(size_t group) const {
  Group& held = groups_[group];
  if (!held.coded_index.has_value()) return absl::OkStatus();
  if (absl::Status status =
          DecodeGroupHeads(group, *held.coded_index, 0, held.coded_index->size(), &held);
      !status.ok()) {
    held.heads.Clear();
    held.head_prefixes.clear();
    return status;
  }
  held.coded_index.reset();
  --coded_groups_;
  return absl::OkStatus();
}

absl::Status UrlBase::ReadGroupOf(size_t block) const {
  if (absl::Status status = ReadGroup(block / kBlocksPerPart); !status.ok()) return status;
  return DecodeHeldHeads(block / kBlocksPerPart);
}

absl::StatusOr<bool> UrlBase::CodedHeadsInUse(size_t group) const {
  Group& held = groups_[group];
  if (!held.coded_index.has_value()) return false;
  if (++held.coded_uses < kLazyBlockHeadUses) return true;
  if (absl::Status status = DecodeHeldHeads(group); !status.ok()) return status;
  return false;
}

absl::Status UrlBase::DecodeGroupHeads(size_t group, const UrlBlockIndex& coded, size_t first,
                                       size_t count, Group* into) const {
  // The group's head bounds its heads from below, the next group's from above.
  std::string bound;
  if (absl::Status status = GroupHead(group, &bound); !status.ok()) return status;
  std::string head;
  for (size_t i = 0; i < count; ++i) {
    const size_t block = group * kBlocksPerPart + i;
    if (absl::Status status = coded.Head(first + i, &head); !status.ok()) {
      return Corrupt(absl::StrCat("head of block ", block, ": ", status.message()));
    }
    if (i == 0 ? head != bound : head <= into->heads[i - 1]) {
      return Corrupt(absl::StrCat("head of block ", block,
                                  i == 0 ? " is not its group's head" : " is not above the last"));
    }
    if (head.size() > std::numeric_limits<uint32_t>::max() - into->heads.byte_size()) {
      return Corrupt("a group's heads hold more than 4 GiB");
    }
    into->heads.Append(head);
    into->head_prefixes.push_back(HeadPrefix(head));
  }
  if (group + 1 < groups_.size()) {
    if (absl::Status status = GroupHead(group + 1, &bound); !status.ok()) return status;
    if (count > 0 && into->heads[count - 1] >= bound) {
      return Corrupt(absl::StrCat("head of block ", group * kBlocksPerPart + count - 1,
                                  " is not below the next group's"));
    }
  }
  into->heads.ShrinkToFit();
  return absl::OkStatus();
}

absl::Status UrlBase::ReadAll() const {
  for (size_t group = 0; group < groups_.size(); ++group) {
    if (absl::Status status = ReadGroup(group); !status.ok()) return status;
    if (absl::Status status = DecodeHeldHeads(group); !status.ok()) return status;
  }
  return heads_decoded() ? absl::OkStatus() : DecodeHeads();
}

absl::Status UrlBase::DecodeHeads() const {
  BlockKeys heads;
  std::vector<uint64_t> prefixes;
  prefixes.reserve(groups_.size());
  std::string head;
  for (size_t g = 0; g < groups_.size(); ++g) {
    if (absl::Status status = coded_heads_->Head(g, &head); !status.ok()) {
      return Corrupt(absl::StrCat("head of group ", g, ": ", status.message()));
    }
    if (g > 0 && head <= heads[g - 1]) {
      return Corrupt(absl::StrCat("head of group ", g, " is not above group ", g - 1, "'s"));
    }
    if (head.size() > std::numeric_limits<uint32_t>::max() - heads.byte_size()) {
      return Corrupt("the heads hold more than 4 GiB");
    }
    heads.Append(head);
    prefixes.push_back(HeadPrefix(head));
  }
  heads.ShrinkToFit();
  heads_ = std::move(heads);
  head_prefixes_ = std::move(prefixes);
  coded_heads_.reset();  // HeadIndexPart codes the plain heads again
  return absl::OkStatus();
}

absl::Status UrlBase::DecodeHeadsWhenBusy() const {
  if (heads_decoded() || head_decodes_ <= groups_.size() / kLazyHeadShare) return absl::OkStatus();
  return DecodeHeads();
}

absl::Status UrlBase::GroupHead(size_t group, std::string* head) const {
  if (heads_decoded()) {
    head->assign(heads_[group].data(), heads_[group].size());
    return absl::OkStatus();
  }
  ++head_decodes_;
  if (absl::Status status = coded_heads_->Head(group, head); !status.ok()) {
    return Corrupt(absl::StrCat("head of group ", group, ": ", status.message()));
  }
  return absl::OkStatus();
}

}  // namespace crawldb::urls
