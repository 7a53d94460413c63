#include "extension/identity/url_fingerprint.h"

#include <xxhash.h>

#include "absl/strings/string_view.h"

namespace crawldb::identity {

uint64_t UrlFingerprint(absl::string_view normalised) {
  return XXH3_64bits(normalised.data(), normalised.size());
}

}  // namespace crawldb::identity
