// How the normaliser says why it refuses a URL: "<reason>: <the URL>", the URL shown safely.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace crawldb::identity {

// The URL as a refusal message shows it: at most kMessageUrlBytes (url_normalizer.h) bytes of
// it, cut at a character boundary and followed by "…" when cut; control bytes and invalid UTF-8
// as \xHH.
std::string UrlForMessage(absl::string_view url);

// InvalidArgumentError("<reason>: <UrlForMessage(url)>").
absl::Status RefuseUrl(absl::string_view reason, absl::string_view url);

}  // namespace crawldb::identity
