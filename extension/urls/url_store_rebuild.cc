// UrlStore's passes over every live key in key order (ForEachLiveKey), and the base they
// rebuild (Rebuild): optimize's work.
#include <algorithm>
#include <functional>
#include <memory>
#include <vector>

#include "absl/strings/string_view.h"
#include "extension/urls/url_store.h"

namespace crawldb::urls {
namespace {

// The keys of a UrlBase in order, decoded a block at a time.
class KeyStream {
 public:
  explicit KeyStream(const UrlBase* keys) : keys_(keys) {}
  bool done() const { return rank_ >= keys_->size(); }
  size_t rank() const { return rank_; }
  absl::string_view key() const { return block_[rank_ % kKeysPerBlock]; }
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
    const std::function<absl::Status(absl::string_view key, int64_t id)>& visit) {
  // Streams: the base, then each part's run; the live pending keys sorted on their own.
  std::vector<std::shared_ptr<LoadedPart>> parts;  // held while the streams read them
  std::vector<KeyStream> streams;
  std::vector<const UrlPart*> stream_parts = {nullptr};
  streams.emplace_back(&base_);
  struct PendingKey {
    absl::string_view key;
    int64_t id;
  };
  std::vector<PendingKey> pending;
  for (size_t number = 0; number < kUrlParts; ++number) {
    absl::StatusOr<std::shared_ptr<LoadedPart>> held = Part(number);
    if (!held.ok()) return held.status();
    parts.push_back(*held);
    const LoadedPart& part = **held;
    if (part.run->size() > 0) {
      streams.emplace_back(&part.run->keys());
      stream_parts.push_back(part.run.get());
    }
    for (size_t i = 0; i < part.pending.size(); ++i) {
      if (!deleted_.contains(part.pending.id(i))) {
        pending.push_back({part.pending.key(i), part.pending.id(i)});
      }
    }
  }
  auto greater = [&](size_t a, size_t b) { return streams[a].key() > streams[b].key(); };
  std::vector<size_t> heap;
  for (size_t s = 0; s < streams.size(); ++s) {
    if (absl::Status status = streams[s].Advance(); !status.ok()) return status;
    if (!streams[s].done()) heap.push_back(s);
  }
  std::make_heap(heap.begin(), heap.end(), greater);
  std::sort(pending.begin(), pending.end(),
            [](const PendingKey& a, const PendingKey& b) { return a.key < b.key; });
  size_t next_pending = 0;
  while (!heap.empty() || next_pending < pending.size()) {
    if (heap.empty() || (next_pending < pending.size() &&
                         pending[next_pending].key < streams[heap.front()].key())) {
      const PendingKey& key = pending[next_pending++];
      if (absl::Status status = visit(key.key, key.id); !status.ok()) return status;
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

absl::StatusOr<UrlBase> UrlStore::Rebuild(std::vector<int64_t>* old_to_new) {
  // Pass 1: the model's training sample, spread over all the keys.
  UrlBaseSampler sampler;
  absl::Status sampled = ForEachLiveKey([&](absl::string_view key, int64_t) {
    sampler.Add(key);
    return absl::OkStatus();
  });
  if (!sampled.ok()) return sampled;
  // A base too small for the parts to share its model (PartsModel) may get one fitted to it.
  absl::StatusOr<codecs::UrlBlockModel> model = sampler.Train(
      sampler.keys_seen() < kMinBaseModelKeys ? ModelFit::kSmallest : ModelFit::kShared);
  if (!model.ok()) return model.status();
  // Pass 2: the blocks.
  UrlBaseBuilder builder(*std::move(model));
  if (old_to_new != nullptr) old_to_new->assign(static_cast<size_t>(max_id_) + 1, 0);
  int64_t new_id = 0;
  absl::Status built = ForEachLiveKey([&](absl::string_view key, int64_t id) {
    if (old_to_new != nullptr) (*old_to_new)[static_cast<size_t>(id)] = ++new_id;
    return builder.Add(key);
  });
  if (!built.ok()) return built;
  return builder.Finish();
}

}  // namespace crawldb::urls
