#include "codecs/url_block_index.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("url_block_index: ", what));
}

}  // namespace

absl::StatusOr<UrlBlockIndex> UrlBlockIndex::Load(const UrlBlockModel& model,
                                                  absl::Span<const uint8_t> bytes) {
  const uint8_t* p = bytes.data();
  const uint8_t* const end = p + bytes.size();
  uint64_t count;
  p = ReadVarint(p, end, &count);
  if (p == nullptr) return Corrupt("truncated head count");
  // Each head takes at least one length byte and one coded byte.
  if (count > static_cast<uint64_t>(end - p) / 2) {
    return Corrupt(absl::StrCat("head count ", count, " does not fit ", bytes.size(), " bytes"));
  }
  UrlBlockIndex index(model);
  index.ends_.reserve(count);
  uint64_t total = 0;
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t length;
    p = ReadVarint(p, end, &length);
    if (p == nullptr) return Corrupt(absl::StrCat("truncated length of head ", i));
    if (length == 0) return Corrupt(absl::StrCat("head ", i, " has length 0"));
    total += length;
    if (total > static_cast<uint64_t>(end - p)) {
      return Corrupt(absl::StrCat("head ", i, " ends past the index"));
    }
    index.ends_.push_back(static_cast<uint32_t>(total));
  }
  if (total != static_cast<uint64_t>(end - p)) {
    return Corrupt(
        absl::StrCat(static_cast<uint64_t>(end - p) - total, " bytes after the last head"));
  }
  index.bytes_.assign(p, end);
  return index;
}

std::vector<uint8_t> UrlBlockIndex::Serialize() const {
  std::vector<uint8_t> out;
  AppendVarint(ends_.size(), &out);
  for (size_t b = 0; b < ends_.size(); ++b) AppendVarint(CodedHead(b).size(), &out);
  out.insert(out.end(), bytes_.begin(), bytes_.end());
  return out;
}

absl::Status UrlBlockIndex::Append(absl::string_view head) {
  if (!ends_.empty()) {
    absl::StatusOr<int> order = CompareUrlKey(*model_, CodedHead(ends_.size() - 1), head);
    if (!order.ok()) return order.status();
    if (*order >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("url_block_index: head of block ", ends_.size(),
                       " is not greater than the previous head; append heads in increasing order"));
    }
  }
  const size_t before = bytes_.size();
  if (absl::Status s = AppendEncodedUrlKey(*model_, head, &bytes_); !s.ok()) return s;
  if (bytes_.size() > std::numeric_limits<uint32_t>::max()) {
    bytes_.resize(before);
    return absl::ResourceExhaustedError("url_block_index: more than 4 GiB of heads");
  }
  ends_.push_back(static_cast<uint32_t>(bytes_.size()));
  return absl::OkStatus();
}

absl::Status UrlBlockIndex::Head(size_t block, std::string* head) const {
  if (block >= ends_.size()) {
    return absl::OutOfRangeError(
        absl::StrCat("url_block_index: block ", block, " is not below the count ", ends_.size()));
  }
  return DecodeUrlKey(*model_, CodedHead(block), head);
}

absl::StatusOr<std::optional<size_t>> UrlBlockIndex::FindBlock(absl::string_view key) const {
  // Invariant: heads of blocks < low are ≤ key, heads of blocks ≥ high are > key.
  size_t low = 0, high = ends_.size();
  while (low < high) {
    const size_t middle = low + (high - low) / 2;
    absl::StatusOr<int> order = CompareUrlKey(*model_, CodedHead(middle), key);
    if (!order.ok()) return order.status();
    if (*order <= 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  if (low == 0) return std::nullopt;
  return low - 1;
}

absl::Status UrlBlockIndex::Validate() const {
  std::string previous, head;
  for (size_t b = 0; b < ends_.size(); ++b) {
    if (absl::Status s = DecodeUrlKey(*model_, CodedHead(b), &head); !s.ok()) {
      return Corrupt(absl::StrCat("head ", b, ": ", s.message()));
    }
    if (b > 0 && head <= previous) {
      return Corrupt(absl::StrCat("head ", b, " is not greater than head ", b - 1));
    }
    previous.swap(head);
  }
  return absl::OkStatus();
}

UrlBlockIndex UrlBlockIndex::EveryNth(size_t stride) const {
  stride = std::max<size_t>(stride, 1);  // 0 would never advance
  UrlBlockIndex sampled(*model_);
  for (size_t b = 0; b < ends_.size(); b += stride) {
    const absl::Span<const uint8_t> head = CodedHead(b);
    sampled.bytes_.insert(sampled.bytes_.end(), head.begin(), head.end());
    sampled.ends_.push_back(static_cast<uint32_t>(sampled.bytes_.size()));
  }
  return sampled;
}

}  // namespace crawldb::codecs
