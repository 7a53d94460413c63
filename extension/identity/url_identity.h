// URL identity (design.md §2), everything crawldb derives from a URL's text, SQLite-free:
//
//   NormalizeUrl()          url_normalizer.h      the one text form, or a refusal naming the reason
//   UrlHost()               url_normalizer.h      the host of a normalised URL
//   RegistrableDomain()     registrable_domain.h  eTLD+1 by the Public Suffix List (libpsl)
//   UrlFingerprint()        url_fingerprint.h     fp: XXH3-64 of the normalised text, stable
//   CanonicalKey()          canonical_key.h       the host-grouped sort key the URL store keeps,
//   UrlFromCanonicalKey()                         and its exact inverse
//
// Typical use on insert:
//   absl::StatusOr<NormalizedUrl> url = NormalizeUrl(raw);      // refused: url.status()
//   uint64_t fp = UrlFingerprint(url->text());
//   std::string key = CanonicalKey(*url);
#pragma once

#include "extension/identity/canonical_key.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"
