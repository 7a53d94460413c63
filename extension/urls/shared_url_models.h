// SharedUrlModel: the URL block models (codecs/url_block_model.h) that a process has loaded,
// shared by its connections. A model is decoded from its stored bytes (5 to 60 KB) into up to
// 700 KB of codes and decoding tables: 0.8 M instructions for cnr-2000's, 1.7 M for Wikispeedia's,
// a quarter to a third of a new connection's first join of urls with outlinks. The same bytes
// always make the same model, so a model
// is found again by its bytes alone, whatever file or table holds them, and needs no
// invalidation; a model never changes once made (UrlBlockModel), so connections on any thread
// may use one at once.
//
// Memory: the models in use, plus the kRetainedUrlModels most recently asked for, kept after
// their last user closes so that the next connection to the same file finds them (at most
// about 3 MB), until the module is unloaded: SQLite unloads it when the last connection that
// loaded it closes, so the models serve connections that overlap (a pool, several tables,
// a server's connections), and a process that opens one connection at a time decodes its model
// at each.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "codecs/url_block_model.h"

namespace crawldb::urls {

inline constexpr size_t kRetainedUrlModels = 4;

// The model serialized as `bytes`: one this process holds already, or UrlBlockModel::Load's
// (and its error: a corrupt model is not kept).
absl::StatusOr<std::shared_ptr<const codecs::UrlBlockModel>> SharedUrlModel(
    absl::Span<const uint8_t> bytes);

}  // namespace crawldb::urls
