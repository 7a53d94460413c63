#include "extension/urls/url_store.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"

namespace crawldb::urls {

void UrlStore::Reset(UrlBase base) {
  base_ = std::move(base);
  tail_ = std::make_unique<UrlTail>();
  for (std::unique_ptr<UrlPart>& part : parts_) part.reset();
  own_parts_model_.reset();
  deleted_.clear();
  undo_.clear();
}

const UrlPart& UrlStore::part(size_t part) const {
  static const UrlPart empty;
  return parts_[part] != nullptr ? *parts_[part] : empty;
}

void UrlStore::SetPartsModel(std::shared_ptr<const codecs::UrlBlockModel> model) {
  own_parts_model_ = std::move(model);
}

absl::Status UrlStore::InstallPart(size_t part, UrlPart stored) {
  const int64_t base_size = static_cast<int64_t>(base_.size());
  if (stored.through_id() > max_id()) GrowTo(stored.through_id());
  for (size_t rank = 0; rank < stored.size(); ++rank) {
    const int64_t id = stored.IdAt(rank);
    if (id <= base_size) {
      return absl::DataLossError(absl::StrCat("url part ", part, ": id ", id, " is in the base"));
    }
  }
  UnlocatePart(part);
  tail_->ResolvePart(
      part, static_cast<size_t>(stored.through_id() - base_size), stored.size(),
      [&](size_t rank) { return static_cast<size_t>(stored.IdAt(rank) - base_size - 1); });
  parts_[part] = std::make_unique<UrlPart>(std::move(stored));
  return absl::OkStatus();
}

void UrlStore::GrowTo(int64_t id) {
  if (id > max_id()) tail_->Grow(static_cast<size_t>(id - static_cast<int64_t>(base_.size())));
}

absl::Status UrlStore::LoadPending(std::string_view key, int64_t id) {
  const int64_t index = id - static_cast<int64_t>(base_.size()) - 1;
  if (index < 0) return absl::DataLossError(absl::StrCat("url log: id ", id, " is in the base"));
  GrowTo(id);
  if (tail_->IsPending(static_cast<size_t>(index)) || tail_->Locate(static_cast<size_t>(index))) {
    return absl::DataLossError(absl::StrCat("url log: id ", id, " is stored twice"));
  }
  if (std::optional<size_t> old = tail_->Find(key)) tail_->Unindex(*old);
  tail_->SetPending(static_cast<size_t>(index), key);
  return absl::OkStatus();
}

std::shared_ptr<const codecs::UrlBlockModel> UrlStore::PartsModel() const {
  if (own_parts_model_ != nullptr) return own_parts_model_;
  if (base_.size() >= kMinBaseModelKeys) return base_.model();
  return nullptr;
}

absl::Status UrlStore::TrainPartsModel() {
  // Whole blocks of the pending keys in order, spread over all of them (UrlBaseSampler).
  std::vector<std::string_view> keys;
  keys.reserve(tail_->pending_count());
  for (size_t part = 0; part < kUrlParts; ++part) {
    for (uint32_t index : tail_->Pending(part)) keys.push_back(tail_->Key(index));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  UrlBaseSampler sampler(kPartsSampleBytes);
  for (std::string_view key : keys) sampler.Add(key);
  absl::StatusOr<codecs::UrlBlockModel> model = sampler.Train();
  if (!model.ok()) return model.status();
  own_parts_model_ = std::make_shared<const codecs::UrlBlockModel>(std::move(*model));
  return absl::OkStatus();
}

absl::Status UrlStore::MergePart(size_t part) {
  if (PartsModel() == nullptr) {
    if (absl::Status status = TrainPartsModel(); !status.ok()) return status;
  }
  const int64_t base_size = static_cast<int64_t>(base_.size());
  // The pending keys, live ones, sorted; then merged with the part's live keys.
  struct Keyed {
    std::string_view key;
    int64_t id;
  };
  std::vector<Keyed> pending;
  for (uint32_t index : tail_->Pending(part)) {
    const int64_t id = TailId(index);
    if (!deleted_.contains(id)) pending.push_back({tail_->Key(index), id});
  }
  std::sort(pending.begin(), pending.end(),
            [](const Keyed& a, const Keyed& b) { return a.key < b.key; });
  const UrlPart& old = this->part(part);
  BlockKeys old_keys;  // every key of the old part, decoded
  {
    BlockKeys block;
    for (size_t b = 0; b < old.keys().block_count(); ++b) {
      if (absl::Status status = old.keys().DecodeBlock(b, &block); !status.ok()) return status;
      for (size_t i = 0; i < block.size(); ++i) old_keys.Append(block[i]);
    }
  }
  std::vector<std::string_view> keys;
  std::vector<int64_t> ids;
  keys.reserve(old_keys.size() + pending.size());
  ids.reserve(keys.capacity());
  size_t next = 0;
  auto take_pending_below = [&](const std::string_view* limit) {
    while (next < pending.size() && (limit == nullptr || pending[next].key < *limit)) {
      keys.push_back(pending[next].key);
      ids.push_back(pending[next++].id);
    }
  };
  for (size_t rank = 0; rank < old_keys.size(); ++rank) {
    const int64_t id = old.IdAt(rank);
    if (deleted_.contains(id)) continue;
    const std::string_view key = old_keys[rank];
    take_pending_below(&key);
    keys.push_back(key);
    ids.push_back(id);
  }
  take_pending_below(nullptr);
  for (size_t i = 1; i < keys.size(); ++i) {
    if (keys[i] <= keys[i - 1]) {
      return absl::DataLossError(absl::StrCat("url part ", part, ": ids ", ids[i - 1], " and ",
                                              ids[i], " hold the same live URL"));
    }
  }
  absl::StatusOr<UrlPart> merged = UrlPart::Build(keys, ids, max_id(), PartsModel());
  if (!merged.ok()) return merged.status();
  UnlocatePart(part);
  tail_->ResolvePart(part, tail_->size(), merged->size(), [&](size_t rank) {
    return static_cast<size_t>(merged->IdAt(rank) - base_size - 1);
  });
  parts_[part] = std::make_unique<UrlPart>(*std::move(merged));
  return absl::OkStatus();
}

void UrlStore::UnlocatePart(size_t part) {
  // Ids the new part drops (deleted) must not point at its ranks.
  const UrlPart& old = this->part(part);
  const int64_t base_size = static_cast<int64_t>(base_.size());
  for (size_t rank = 0; rank < old.size(); ++rank) {
    tail_->Unlocate(static_cast<size_t>(old.IdAt(rank) - base_size - 1));
  }
}

size_t UrlStore::PartsStoredBytes() const {
  size_t bytes = 0;
  for (const std::unique_ptr<UrlPart>& part : parts_) bytes += part ? part->StoredBytes() : 0;
  return bytes;
}

size_t UrlStore::merged_count() const {
  size_t count = 0;
  for (const std::unique_ptr<UrlPart>& part : parts_) count += part ? part->size() : 0;
  return count;
}

bool UrlStore::IsLive(int64_t id) const {
  return id >= 1 && id <= max_id() && !deleted_.contains(id);
}

absl::StatusOr<std::optional<int64_t>> UrlStore::Find(std::string_view key) const {
  // Newest first: a URL deleted and added again has its live id in the newer place.
  if (std::optional<size_t> index = tail_->Find(key)) {
    int64_t id = TailId(*index);
    if (!deleted_.contains(id)) return std::optional<int64_t>(id);
  }
  const UrlPart& part = this->part(UrlPartOf(key));
  if (part.size() > 0) {
    absl::StatusOr<std::optional<size_t>> rank = part.Find(key);
    if (!rank.ok()) return rank.status();
    if (rank->has_value()) {
      int64_t id = part.IdAt(**rank);
      if (!deleted_.contains(id)) return std::optional<int64_t>(id);
    }
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
  absl::StatusOr<std::optional<std::string>> key = StoredKey(id);
  if (key.ok() && !key->has_value()) {
    return absl::DataLossError(absl::StrCat("url store: live id ", id, " has no URL"));
  }
  return key;
}

absl::StatusOr<std::optional<std::string>> UrlStore::StoredKey(int64_t id) const {
  if (id < 1 || id > max_id()) return std::optional<std::string>();
  std::string key;
  if (static_cast<size_t>(id) <= base_.size()) {
    if (absl::Status status = base_.Get(static_cast<size_t>(id - 1), &key); !status.ok()) {
      return status;
    }
    return std::optional<std::string>(std::move(key));
  }
  const size_t index = static_cast<size_t>(id) - base_.size() - 1;
  if (tail_->IsPending(index)) return std::optional<std::string>(tail_->Key(index));
  std::optional<UrlTail::Location> location = tail_->Locate(index);
  if (!location.has_value()) return std::optional<std::string>();
  if (absl::Status status = part(location->part).Get(location->rank, &key); !status.ok()) {
    return status;
  }
  return std::optional<std::string>(std::move(key));
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

namespace {

// The keys of a UrlBase in order, decoded a block at a time.
class KeyStream {
 public:
  explicit KeyStream(const UrlBase* keys) : keys_(keys) {}
  bool done() const { return rank_ >= keys_->size(); }
  size_t rank() const { return rank_; }
  std::string_view key() const { return block_[rank_ % kKeysPerBlock]; }
  // Moves to the first key (first call) or the next one.
  absl::Status Advance() {
    if (started_) ++rank_;
    started_ = true;
    if (done() || rank_ % kKeysPerBlock != 0) return absl::OkStatus();
    return keys_->DecodeBlock(rank_ / kKeysPerBlock, &block_);
  }

 private:
  const UrlBase* keys_;
  size_t rank_ = 0;
  bool started_ = false;
  BlockKeys block_;
};

}  // namespace

absl::Status UrlStore::ForEachLiveKey(
    const std::function<absl::Status(std::string_view key, int64_t id)>& visit) const {
  // Streams: the base, then each part; the live pending keys sorted on their own.
  std::vector<KeyStream> streams;
  std::vector<const UrlPart*> stream_parts = {nullptr};
  streams.emplace_back(&base_);
  for (const std::unique_ptr<UrlPart>& part : parts_) {
    if (part == nullptr) continue;
    streams.emplace_back(&part->keys());
    stream_parts.push_back(part.get());
  }
  auto greater = [&](size_t a, size_t b) { return streams[a].key() > streams[b].key(); };
  std::vector<size_t> heap;
  for (size_t s = 0; s < streams.size(); ++s) {
    if (absl::Status status = streams[s].Advance(); !status.ok()) return status;
    if (!streams[s].done()) heap.push_back(s);
  }
  std::make_heap(heap.begin(), heap.end(), greater);
  // The live pending entries in key order, as indices: 4 bytes each.
  std::vector<uint32_t> pending;
  for (size_t i = 0; i < tail_->size(); ++i) {
    if (tail_->IsPending(i) && !deleted_.contains(TailId(i))) {
      pending.push_back(static_cast<uint32_t>(i));
    }
  }
  std::sort(pending.begin(), pending.end(),
            [&](uint32_t a, uint32_t b) { return tail_->Key(a) < tail_->Key(b); });
  size_t next_pending = 0;
  while (!heap.empty() || next_pending < pending.size()) {
    if (heap.empty() || (next_pending < pending.size() &&
                         tail_->Key(pending[next_pending]) < streams[heap.front()].key())) {
      const uint32_t index = pending[next_pending++];
      if (absl::Status status = visit(tail_->Key(index), TailId(index)); !status.ok()) {
        return status;
      }
      continue;
    }
    std::pop_heap(heap.begin(), heap.end(), greater);
    const size_t s = heap.back();
    KeyStream& stream = streams[s];
    const int64_t id = stream_parts[s] == nullptr ? static_cast<int64_t>(stream.rank()) + 1
                                                  : stream_parts[s]->IdAt(stream.rank());
    if (!deleted_.contains(id)) {
      if (absl::Status status = visit(stream.key(), id); !status.ok()) return status;
    }
    if (absl::Status status = stream.Advance(); !status.ok()) return status;
    if (stream.done()) {
      heap.pop_back();
    } else {
      std::push_heap(heap.begin(), heap.end(), greater);
    }
  }
  return absl::OkStatus();
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
  size_t parts = 0;
  for (const std::unique_ptr<UrlPart>& part : parts_) parts += part ? part->MemoryBytes() : 0;
  if (own_parts_model_ != nullptr) parts += own_parts_model_->MemoryBytes();
  return base_.MemoryBytes() + tail_->MemoryBytes() + parts +
         parts_.capacity() * sizeof(parts_[0]) + deleted_.capacity() * (sizeof(int64_t) + 1) +
         undo_.capacity() * sizeof(UndoEntry);
}

}  // namespace crawldb::urls
