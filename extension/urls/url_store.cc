#include "extension/urls/url_store.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"

namespace crawldb::urls {

void UrlStore::Reset(UrlBase base) {
  base_ = std::move(base);
  tail_ = std::make_unique<UrlTail>();
  deleted_.clear();
  undo_.clear();
}

bool UrlStore::IsLive(int64_t id) const {
  return id >= 1 && id <= max_id() && !deleted_.contains(id);
}

absl::StatusOr<std::optional<int64_t>> UrlStore::Find(std::string_view key) const {
  // The tail first: a URL deleted from the base and added again lives in the tail.
  if (std::optional<size_t> index = tail_->Find(key)) {
    int64_t id = TailId(*index);
    if (!deleted_.contains(id)) return std::optional<int64_t>(id);
  }
  absl::StatusOr<std::optional<size_t>> rank = base_.Find(key);
  if (!rank.ok()) return rank.status();
  if (rank->has_value()) {
    int64_t id = static_cast<int64_t>(**rank) + 1;
    if (!deleted_.contains(id)) return std::optional<int64_t>(id);
  }
  return std::optional<int64_t>();
}

absl::StatusOr<std::optional<std::string>> UrlStore::KeyOf(int64_t id) const {
  if (!IsLive(id)) return std::optional<std::string>();
  if (static_cast<size_t>(id) <= base_.size()) {
    std::string key;
    if (absl::Status status = base_.Get(static_cast<size_t>(id - 1), &key); !status.ok()) {
      return status;
    }
    return std::optional<std::string>(std::move(key));
  }
  return std::optional<std::string>(tail_->Key(static_cast<size_t>(id) - base_.size() - 1));
}

int64_t UrlStore::Add(std::string_view key) {
  // A deleted copy in the tail stays indexed until now; the new entry replaces it.
  if (std::optional<size_t> old = tail_->Find(key)) {
    tail_->Unindex(*old);
    undo_.push_back({Op::kUnindex, static_cast<int64_t>(*old)});
  }
  size_t index = tail_->Append(key);
  undo_.push_back({Op::kAdd, static_cast<int64_t>(index)});
  return TailId(index);
}

bool UrlStore::Delete(int64_t id) {
  if (!IsLive(id)) return false;
  deleted_.insert(id);
  undo_.push_back({Op::kDelete, id});
  return true;
}

absl::Status UrlStore::ReplayAdd(std::string_view key, int64_t expected_id) {
  if (expected_id != max_id() + 1) {
    return absl::DataLossError(absl::StrCat("url log: id ", expected_id, " follows id ", max_id()));
  }
  absl::StatusOr<std::optional<int64_t>> existing = Find(key);
  if (!existing.ok()) return existing.status();
  if (existing->has_value()) {
    return absl::DataLossError(
        absl::StrCat("url log: id ", expected_id, " repeats the URL of id ", **existing));
  }
  Add(key);
  return absl::OkStatus();
}

absl::Status UrlStore::ReplayDelete(int64_t id) {
  if (!Delete(id)) {
    return absl::DataLossError(absl::StrCat("url log: deletes id ", id, ", which is not live"));
  }
  return absl::OkStatus();
}

void UrlStore::UndoTo(size_t mark) {
  while (undo_.size() > mark) {
    UndoEntry entry = undo_.back();
    undo_.pop_back();
    switch (entry.op) {
      case Op::kAdd:
        tail_->Truncate(static_cast<size_t>(entry.value));
        ++tail_rewinds_;
        break;
      case Op::kDelete:
        deleted_.erase(entry.value);
        break;
      case Op::kUnindex:
        tail_->Reindex(static_cast<size_t>(entry.value));
        break;
    }
  }
}

UrlStore::Pending UrlStore::PendingSince(size_t mark) const {
  Pending pending;
  for (size_t i = mark; i < undo_.size(); ++i) {
    const UndoEntry& entry = undo_[i];
    if (entry.op == Op::kAdd) {
      size_t index = static_cast<size_t>(entry.value);
      if (pending.added_keys.empty()) pending.first_added_id = TailId(index);
      pending.added_keys.push_back(tail_->Key(index));
    } else if (entry.op == Op::kDelete) {
      pending.deleted_ids.push_back(entry.value);
    }
  }
  return pending;
}

absl::Status UrlStore::ForEachLiveKey(
    const std::function<absl::Status(std::string_view key, int64_t id)>& visit) const {
  // The live tail entries in key order, as indices: 4 bytes each.
  std::vector<uint32_t> tail_order;
  for (size_t i = 0; i < tail_->size(); ++i) {
    if (!deleted_.contains(TailId(i))) tail_order.push_back(static_cast<uint32_t>(i));
  }
  std::sort(tail_order.begin(), tail_order.end(),
            [&](uint32_t a, uint32_t b) { return tail_->Key(a) < tail_->Key(b); });
  size_t next_tail = 0;
  auto visit_tail_below = [&](std::optional<std::string_view> limit) -> absl::Status {
    while (next_tail < tail_order.size() &&
           (!limit.has_value() || tail_->Key(tail_order[next_tail]) < *limit)) {
      const uint32_t index = tail_order[next_tail++];
      if (absl::Status status = visit(tail_->Key(index), TailId(index)); !status.ok()) {
        return status;
      }
    }
    return absl::OkStatus();
  };
  BlockKeys keys;
  for (size_t block = 0; block < base_.block_count(); ++block) {
    if (absl::Status status = base_.DecodeBlock(block, &keys); !status.ok()) return status;
    for (size_t i = 0; i < keys.size(); ++i) {
      const int64_t id = static_cast<int64_t>(block * kKeysPerBlock + i) + 1;
      if (deleted_.contains(id)) continue;
      if (absl::Status status = visit_tail_below(keys[i]); !status.ok()) return status;
      if (absl::Status status = visit(keys[i], id); !status.ok()) return status;
    }
  }
  return visit_tail_below(std::nullopt);
}

absl::StatusOr<UrlBase> UrlStore::Rebuild(std::vector<int64_t>* old_to_new) const {
  // Pass 1: the model's training sample, spread over all the keys.
  UrlBaseSampler sampler;
  absl::Status sampled = ForEachLiveKey([&](std::string_view key, int64_t) {
    sampler.Add(key);
    return absl::OkStatus();
  });
  if (!sampled.ok()) return sampled;
  absl::StatusOr<codecs::UrlBlockModel> model = sampler.Train();
  if (!model.ok()) return model.status();
  // Pass 2: the blocks.
  UrlBaseBuilder builder(*std::move(model));
  if (old_to_new != nullptr) old_to_new->assign(static_cast<size_t>(max_id()) + 1, 0);
  int64_t new_id = 0;
  absl::Status built = ForEachLiveKey([&](std::string_view key, int64_t id) {
    if (old_to_new != nullptr) (*old_to_new)[static_cast<size_t>(id)] = ++new_id;
    return builder.Add(key);
  });
  if (!built.ok()) return built;
  return builder.Finish();
}

void UrlStore::ClearUndo() {
  undo_.clear();
  if (undo_.capacity() > 4096) undo_.shrink_to_fit();
}

size_t UrlStore::MemoryBytes() const {
  return base_.MemoryBytes() + tail_->MemoryBytes() +
         deleted_.capacity() * (sizeof(int64_t) + 1) + undo_.capacity() * sizeof(UndoEntry);
}

}  // namespace crawldb::urls
