#include "codecs/arc_run.h"

#include <algorithm>
#include <utility>

#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

// The key coded at *p after `previous` (arc_run.h, "Format"); *p moves past it. The bytes were
// written by ArcRun::Builder in this process, so they end where the run says.
uint64_t ReadKey(const uint8_t** p, const uint8_t* end, uint64_t previous) {
  uint64_t major_gap = 0;
  *p = ReadVarint(*p, end, &major_gap);
  const uint32_t major = ArcMajor(previous) + static_cast<uint32_t>(major_gap);
  if (major_gap == 0) {
    uint64_t gap = 0;
    *p = ReadVarint(*p, end, &gap);
    return ArcKey(major, ArcMinor(previous) + static_cast<uint32_t>(gap) + 1);
  }
  int64_t difference = 0;
  *p = ReadSignedVarint(*p, end, &difference);
  return ArcKey(major, static_cast<uint32_t>(ArcMinor(previous) + difference));
}

}  // namespace

void ArcRun::Builder::Append(uint64_t key) {
  if (size_ % kBlockKeys == 0) {
    heads_.push_back(key);
    offsets_.push_back(bytes_.size());
  } else {
    const uint32_t major_gap = ArcMajor(key) - ArcMajor(previous_);
    AppendVarint(major_gap, &bytes_);
    if (major_gap == 0) {
      AppendVarint(ArcMinor(key) - ArcMinor(previous_) - 1, &bytes_);
    } else {
      AppendSignedVarint(int64_t{ArcMinor(key)} - int64_t{ArcMinor(previous_)}, &bytes_);
    }
  }
  previous_ = key;
  ++size_;
}

ArcRun ArcRun::Builder::Finish() && {
  ArcRun run;
  run.heads_ = std::move(heads_);
  run.offsets_ = std::move(offsets_);
  run.bytes_ = std::move(bytes_);
  run.heads_.shrink_to_fit();
  run.offsets_.shrink_to_fit();
  run.bytes_.shrink_to_fit();
  run.size_ = size_;
  return run;
}

ArcRun& ArcRun::operator=(ArcRun&& other) noexcept {
  if (this == &other) return *this;
  heads_ = std::move(other.heads_);
  offsets_ = std::move(other.offsets_);
  bytes_ = std::move(other.bytes_);
  size_ = std::exchange(other.size_, 0);
  cached_block_ = SIZE_MAX;
  cached_keys_ = std::move(other.cached_keys_);
  other.heads_.clear();
  other.offsets_.clear();
  other.bytes_.clear();
  other.cached_block_ = SIZE_MAX;
  return *this;
}

size_t ArcRun::BlockSize(size_t block) const {
  return block + 1 < heads_.size() ? kBlockKeys : size_ - block * kBlockKeys;
}

size_t ArcRun::BlockAtMost(uint64_t key) const {
  if (cached_block_ < heads_.size() && heads_[cached_block_] <= key &&
      (cached_block_ + 1 == heads_.size() || heads_[cached_block_ + 1] > key)) {
    return cached_block_;
  }
  auto after = std::upper_bound(heads_.begin(), heads_.end(), key);
  return after == heads_.begin() ? 0 : static_cast<size_t>(after - heads_.begin()) - 1;
}

const std::vector<uint64_t>& ArcRun::Decoded(size_t block) const {
  if (cached_block_ != block) {
    cached_keys_.resize(BlockSize(block));
    const uint8_t* p = bytes_.data() + offsets_[block];
    const uint8_t* end = bytes_.data() + bytes_.size();
    uint64_t key = heads_[block];
    cached_keys_[0] = key;
    for (size_t i = 1; i < cached_keys_.size(); ++i) cached_keys_[i] = key = ReadKey(&p, end, key);
    cached_block_ = block;
  }
  return cached_keys_;
}

bool ArcRun::Contains(uint64_t key) const {
  if (size_ == 0 || key < heads_[0]) return false;
  const std::vector<uint64_t>& keys = Decoded(BlockAtMost(key));
  return std::binary_search(keys.begin(), keys.end(), key);
}

template <typename Visit>
void ArcRun::VisitMinors(uint32_t major, Visit visit) const {
  const uint64_t first = ArcKey(major, 0);
  const uint64_t last = ArcKey(major, UINT32_MAX);
  if (size_ == 0 || last < heads_[0]) return;
  for (size_t block = BlockAtMost(first); block < heads_.size() && heads_[block] <= last; ++block) {
    const std::vector<uint64_t>& keys = Decoded(block);
    for (auto at = std::lower_bound(keys.begin(), keys.end(), first);
         at != keys.end() && *at <= last; ++at) {
      visit(ArcMinor(*at));
    }
  }
}

void ArcRun::AppendMinors(uint32_t major, std::vector<uint32_t>* minors) const {
  VisitMinors(major, [&](uint32_t minor) { minors->push_back(minor); });
}

size_t ArcRun::CountMinors(uint32_t major) const {
  size_t count = 0;
  VisitMinors(major, [&](uint32_t) { ++count; });
  return count;
}

size_t ArcRun::MemoryBytes() const {
  return heads_.capacity() * sizeof(uint64_t) + offsets_.capacity() * sizeof(uint64_t) +
         bytes_.capacity() + cached_keys_.capacity() * sizeof(uint64_t);
}

bool ArcRun::Reader::Next(uint64_t* key) {
  if (read_ == run_->size_) return false;
  if (read_ % kBlockKeys == 0) {
    const size_t block = read_ / kBlockKeys;
    at_ = run_->bytes_.data() + run_->offsets_[block];
    previous_ = run_->heads_[block];
  } else {
    previous_ = ReadKey(&at_, run_->bytes_.data() + run_->bytes_.size(), previous_);
  }
  ++read_;
  *key = previous_;
  return true;
}

}  // namespace crawldb::codecs
