// The frontier's parts: a URL's record belongs to the part of its host, one of kFrontierParts,
// so that a host's records, queue and timers are read, held and written together. The mapping
// is part of the on-disk format (frontier format 5): the part is the top 12 bits of the XXH3-64
// of the host name (identity::UrlFingerprint of the name's bytes), stable across builds.
#pragma once

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {

inline constexpr int kFrontierPartBits = 12;
inline constexpr size_t kFrontierParts = size_t{1} << kFrontierPartBits;

// The part of host `host` (a normalised host name).
inline size_t FrontierPartOf(absl::string_view host) {
  return static_cast<size_t>(identity::UrlFingerprint(host) >> (64 - kFrontierPartBits));
}

}  // namespace crawldb::frontier
