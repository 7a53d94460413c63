#include "extension/urls/shared_url_models.h"

#include <algorithm>
#include <list>
#include <mutex>
#include <utility>
#include <vector>

namespace crawldb::urls {
namespace {

struct RetainedModel {
  std::vector<uint8_t> bytes;
  std::shared_ptr<const codecs::UrlBlockModel> model;
};

// Most recently asked for first; at most kRetainedUrlModels.
struct Retained {
  std::mutex mutex;
  std::list<RetainedModel> models;
};

Retained& Models() {
  // Destroyed when the module is unloaded (SQLite unloads it with the last connection that
  // loaded it), so that loading it again does not leave these behind.
  static Retained retained;
  return retained;
}

// The retained model of `bytes`, moved to the front; null if none. Caller holds the mutex.
std::shared_ptr<const codecs::UrlBlockModel> Find(Retained& retained,
                                                  absl::Span<const uint8_t> bytes) {
  const auto found =
      std::find_if(retained.models.begin(), retained.models.end(), [&](const RetainedModel& m) {
        return std::equal(m.bytes.begin(), m.bytes.end(), bytes.begin(), bytes.end());
      });
  if (found == retained.models.end()) return nullptr;
  retained.models.splice(retained.models.begin(), retained.models, found);
  return found->model;
}

}  // namespace

absl::StatusOr<std::shared_ptr<const codecs::UrlBlockModel>> SharedUrlModel(
    absl::Span<const uint8_t> bytes) {
  Retained& retained = Models();
  {
    std::lock_guard<std::mutex> lock(retained.mutex);
    if (std::shared_ptr<const codecs::UrlBlockModel> model = Find(retained, bytes)) return model;
  }
  // Decoded outside the lock: another thread may decode the same bytes meanwhile; the first to
  // come back is kept and both use it.
  absl::StatusOr<codecs::UrlBlockModel> loaded = codecs::UrlBlockModel::Load(bytes);
  if (!loaded.ok()) return loaded.status();
  auto model = std::make_shared<const codecs::UrlBlockModel>(*std::move(loaded));
  std::lock_guard<std::mutex> lock(retained.mutex);
  if (std::shared_ptr<const codecs::UrlBlockModel> first = Find(retained, bytes)) return first;
  retained.models.push_front({std::vector<uint8_t>(bytes.begin(), bytes.end()), model});
  if (retained.models.size() > kRetainedUrlModels) retained.models.pop_back();
  return model;
}

}  // namespace crawldb::urls
