// The URL fingerprint `fp` (design.md §2): XXH3-64 (xxHash 0.8, XXH3_64bits, seed 0, no secret)
// of the bytes of the normalised URL text, nothing added (no length, no terminator).
//
// Stable by construction: XXH3's output is frozen since xxHash 0.8.0 and does not depend on the
// platform, the build or the process, unlike std::hash or absl::Hash. It is the key users keep in
// their own tables, so it never changes. Reproduce it with the xxhash command line tool:
//   printf '%s' 'http://example.com/' | xxhsum -H3   ->  b97a010e03af1e2b
//
// SQL has signed 64-bit integers only: the SQL value is the same 64 bits read as int64_t
// (FingerprintToSql), e.g. 0xb97a010e03af1e2b -> -5081748069831205333.
#pragma once

#include <bit>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace crawldb::identity {

// XXH3-64 of `normalised` (pass NormalizedUrl::text(); any bytes are accepted).
uint64_t UrlFingerprint(absl::string_view normalised);

// The fingerprint as SQL stores it: the same bits, as a signed integer.
constexpr int64_t FingerprintToSql(uint64_t fingerprint) {
  return std::bit_cast<int64_t>(fingerprint);
}
constexpr uint64_t FingerprintFromSql(int64_t value) { return std::bit_cast<uint64_t>(value); }

}  // namespace crawldb::identity
