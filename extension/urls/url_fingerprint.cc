#include "extension/urls/url_fingerprint.h"

#include <xxhash.h>

namespace crawldb::urls {

uint64_t UrlFingerprint(std::string_view normalised) {
  return XXH3_64bits(normalised.data(), normalised.size());
}

}  // namespace crawldb::urls
