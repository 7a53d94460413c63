#include "extension/urls/fingerprint_index.h"

#include <algorithm>

#include "absl/strings/string_view.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::urls {
namespace {

absl::StatusOr<uint64_t> FingerprintOfKey(absl::string_view key) {
  absl::StatusOr<identity::NormalizedUrl> url = identity::UrlFromCanonicalKey(key);
  if (!url.ok()) return absl::DataLossError(url.status().message());
  return identity::UrlFingerprint(url->text());
}

}  // namespace

void FingerprintIndex::Invalidate() {
  base_built_ = false;
  base_.clear();
  tail_indexed_ = 0;
  tail_.clear();
}

absl::Status FingerprintIndex::Refresh(UrlStore& store) {
  if (!base_built_) {
    base_.clear();
    base_.reserve(store.base().size());
    BlockKeys keys;
    for (size_t block = 0; block < store.base().block_count(); ++block) {
      if (absl::Status status = store.base().DecodeBlock(block, &keys); !status.ok()) {
        return status;
      }
      for (size_t i = 0; i < keys.size(); ++i) {
        absl::StatusOr<uint64_t> fp = FingerprintOfKey(keys[i]);
        if (!fp.ok()) return fp.status();
        base_.emplace_back(*fp, static_cast<int64_t>(block * kKeysPerBlock + i + 1));
      }
    }
    std::sort(base_.begin(), base_.end());
    base_built_ = true;
  }
  if (store.tail_rewinds() != tail_rewinds_) {
    tail_.clear();
    tail_indexed_ = 0;
    tail_rewinds_ = store.tail_rewinds();
  }
  // The ids given since the last refresh, a part at a time (each part read once), deleted ids
  // too (Find filters them): a rollback may bring one back.
  const int64_t indexed_max = static_cast<int64_t>(store.base().size() + tail_indexed_);
  const size_t old_size = tail_.size();
  if (store.tail_size() > tail_indexed_) {
    std::string key;
    for (size_t number = 0; number < kUrlParts; ++number) {
      absl::StatusOr<std::shared_ptr<LoadedPart>> held = store.Part(number);
      if (!held.ok()) return held.status();
      const LoadedPart& part = **held;
      for (size_t rank = 0; rank < part.run->size(); ++rank) {
        const int64_t id = part.run->IdAt(rank);
        if (id <= indexed_max) continue;
        if (absl::Status status = part.run->Get(rank, &key); !status.ok()) return status;
        absl::StatusOr<uint64_t> fp = FingerprintOfKey(key);
        if (!fp.ok()) return fp.status();
        tail_.emplace_back(*fp, id);
      }
      for (size_t i = 0; i < part.pending.size(); ++i) {
        if (part.pending.id(i) <= indexed_max) continue;
        absl::StatusOr<uint64_t> fp = FingerprintOfKey(part.pending.key(i));
        if (!fp.ok()) return fp.status();
        tail_.emplace_back(*fp, part.pending.id(i));
      }
    }
  }
  tail_indexed_ = store.tail_size();
  std::sort(tail_.begin() + static_cast<ptrdiff_t>(old_size), tail_.end());
  std::inplace_merge(tail_.begin(), tail_.begin() + static_cast<ptrdiff_t>(old_size), tail_.end());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> FingerprintIndex::Find(UrlStore& store, uint64_t fp) {
  if (absl::Status status = Refresh(store); !status.ok()) return status;
  std::vector<int64_t> ids;
  for (const std::vector<Entry>* part : {&base_, &tail_}) {
    auto it = std::lower_bound(part->begin(), part->end(), Entry{fp, 0});
    for (; it != part->end() && it->first == fp; ++it) {
      if (store.IsLive(it->second)) ids.push_back(it->second);
    }
  }
  return ids;
}

}  // namespace crawldb::urls
