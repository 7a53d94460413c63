// SharedUrlModel: the URL block models (codecs/url_block_model.h) that a process has loaded,
// shared by its connections. A model is decoded from its stored bytes (4 to 60 KB) into up to
// about 520 KB of decoding tables (16 clusters; up to twice that with 32), 0.7 M instructions
// for cnr-2000's, a fifth of a new connection's first join of urls with outlinks; its encoder,
// about 470 KB more, is built at its first encode. The same bytes always make the same model,
// so a model is found again by its bytes alone, whatever file or table holds them, and needs
// no invalidation; a model changes only by building its encoder, under std::call_once
// (UrlBlockModel), so connections on any thread may use one at once.
//
// Memory: every model in use, found again while anyone holds it, plus the kRetainedUrlModels
// most recently asked for, kept after their last user closes so that the next connection to the
// same file finds them (with a urls table's two models, base and parts, the last two files;
// at most about 3 MB with 16 clusters). They stay for the life of the process: the module stays
// loaded once loaded (entry.cc), so the models serve connections that overlap (a pool, a
// server's connections) and a process that opens one connection at a time alike, as they do a
// host that links crawldb in (crawldb-node).
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
