#include "extension/urls/shared_url_models.h"

#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>
#include <vector>

namespace crawldb::urls {
namespace {

// A model handed out, found again by its bytes while anyone holds it.
struct SharedModel {
  std::vector<uint8_t> bytes;
  std::weak_ptr<const codecs::UrlBlockModel> model;
};

struct Models {
  std::mutex mutex;
  std::vector<SharedModel> shared;
  // The kRetainedUrlModels asked for last, most recent first: kept alive by this.
  std::deque<std::shared_ptr<const codecs::UrlBlockModel>> recent;
};

Models& TheModels() {
  // Destroyed at the process's exit: the module stays loaded once loaded (entry.cc).
  static Models models;
  return models;
}

// Makes `model` the most recent; the one that falls out of the recent ones goes to *dropped, so
// that the caller frees it after releasing the mutex. Caller holds the mutex.
void MakeRecent(Models& models, const std::shared_ptr<const codecs::UrlBlockModel>& model,
                std::shared_ptr<const codecs::UrlBlockModel>* dropped) {
  std::erase(models.recent, model);
  models.recent.push_front(model);
  if (models.recent.size() > kRetainedUrlModels) {
    *dropped = std::move(models.recent.back());
    models.recent.pop_back();
  }
}

// The model of `bytes` when someone holds it, made the most recent; null if none. Caller holds
// the mutex.
std::shared_ptr<const codecs::UrlBlockModel> Find(
    Models& models, absl::Span<const uint8_t> bytes,
    std::shared_ptr<const codecs::UrlBlockModel>* dropped) {
  for (const SharedModel& entry : models.shared) {
    if (!std::equal(entry.bytes.begin(), entry.bytes.end(), bytes.begin(), bytes.end())) continue;
    std::shared_ptr<const codecs::UrlBlockModel> model = entry.model.lock();
    if (model != nullptr) MakeRecent(models, model, dropped);
    return model;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const codecs::UrlBlockModel>> SharedUrlModel(
    absl::Span<const uint8_t> bytes) {
  Models& models = TheModels();
  std::shared_ptr<const codecs::UrlBlockModel> dropped;  // freed after the lock, declared first
  {
    std::lock_guard<std::mutex> lock(models.mutex);
    if (auto model = Find(models, bytes, &dropped)) return model;
  }
  // Decoded outside the lock: another thread may decode the same bytes meanwhile; the first to
  // come back is kept and both use it.
  absl::StatusOr<codecs::UrlBlockModel> loaded = codecs::UrlBlockModel::Load(bytes);
  if (!loaded.ok()) return loaded.status();
  auto model = std::make_shared<const codecs::UrlBlockModel>(*std::move(loaded));
  std::lock_guard<std::mutex> lock(models.mutex);
  if (auto first = Find(models, bytes, &dropped)) return first;
  std::erase_if(models.shared, [](const SharedModel& entry) { return entry.model.expired(); });
  models.shared.push_back({std::vector<uint8_t>(bytes.begin(), bytes.end()), model});
  MakeRecent(models, model, &dropped);
  return model;
}

}  // namespace crawldb::urls
