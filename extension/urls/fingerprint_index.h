// fp → id for a UrlStore, built when first asked for (the `fp = ?` plan and url lookups by fp)
// and kept in memory only: fingerprints are computable from the URLs, so nothing is stored.
// Memory when built: 16 bytes per URL. The base part is rebuilt after an optimize or reload;
// the tail part grows with the ids given since, read a part at a time, and is rebuilt after a
// rollback removed ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "extension/urls/url_store.h"

namespace crawldb::urls {

class FingerprintIndex {
 public:
  // Forgets everything (the store was reloaded or rebuilt).
  void Invalidate();

  // The live ids whose URL has fingerprint `fp` (one, unless two URLs collide).
  absl::StatusOr<std::vector<int64_t>> Find(UrlStore& store, uint64_t fp);

  // Bytes of memory held (0 until the first Find).
  size_t MemoryBytes() const { return (base_.capacity() + tail_.capacity()) * sizeof(Entry); }

 private:
  using Entry = std::pair<uint64_t, int64_t>;  // (fp, id), sorted
  absl::Status Refresh(UrlStore& store);

  bool base_built_ = false;
  std::vector<Entry> base_;
  size_t tail_indexed_ = 0;    // the ids base + 1 .. base + tail_indexed_ are in tail_
  uint64_t tail_rewinds_ = 0;  // store.tail_rewinds() when tail_ was built
  std::vector<Entry> tail_;
};

}  // namespace crawldb::urls
