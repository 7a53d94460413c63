// Fuzz target: URL identity (extension/identity/): the normaliser, its fast path, and the
// canonical key's inverse, which reads keys back from storage.
//
// Input: any bytes, taken both as a raw URL and as a canonical key.
// Properties: nothing crashes; the full path and the fast path give the same result (text and
// parts, or the same refusal), refusals are InvalidArgumentErrors starting with a refusal
// reason; a normalised URL normalises to itself with the same parts, reads back from its text
// (FromNormalizedText) and from its canonical key; a key that UrlFromCanonicalKey accepts is
// the canonical key of the URL it gives, and UrlTextFromCanonicalKey agrees.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_fast_path.h"
#include "extension/identity/url_normalizer.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_urls.h"

namespace crawldb::fuzz {
namespace {

using identity::NormalizedUrl;

bool SameParts(const NormalizedUrl& a, const NormalizedUrl& b) {
  return a.text() == b.text() && a.https() == b.https() && a.host() == b.host() &&
         a.host_kind() == b.host_kind() && a.port() == b.port() && a.path() == b.path() &&
         a.query() == b.query();
}

void CheckRefusal(const absl::Status& status) {
  FUZZ_CHECK(absl::IsInvalidArgument(status));
  bool known = false;
  for (absl::string_view reason : identity::kRefusalReasons) {
    known = known ||
            absl::StartsWith(status.message(), absl::string_view(reason.data(), reason.size()));
  }
  FUZZ_CHECK(known);
}

void CheckNormalize(absl::string_view raw) {
  absl::StatusOr<NormalizedUrl> url = identity::NormalizeUrl(raw);
  absl::StatusOr<NormalizedUrl> slow = identity::NormalizeUrl(raw, {.fast_path = false});
  FUZZ_CHECK(url.ok() == slow.ok());
  if (!url.ok()) {
    FUZZ_CHECK(url.status() == slow.status());
    CheckRefusal(url.status());
    return;
  }
  FUZZ_CHECK(SameParts(*url, *slow));
  std::string fast_text;
  identity::FastUrlParts fast_parts;
  if (identity::NormalizeUrlFast(raw, identity::NormalizeOptions().max_length, &fast_text,
                                 &fast_parts)) {
    FUZZ_CHECK(fast_text == url->text());
  }
  for (bool fast_path : {true, false}) {
    absl::StatusOr<NormalizedUrl> again =
        identity::NormalizeUrl(url->text(), {.fast_path = fast_path});
    FUZZ_CHECK(again.ok() && SameParts(*again, *url));
  }
  absl::StatusOr<NormalizedUrl> from_text = NormalizedUrl::FromNormalizedText(url->text());
  FUZZ_CHECK(from_text.ok() && SameParts(*from_text, *url));
  absl::StatusOr<NormalizedUrl> from_key =
      identity::UrlFromCanonicalKey(identity::CanonicalKey(*url));
  FUZZ_CHECK(from_key.ok() && SameParts(*from_key, *url));
}

void CheckKey(absl::string_view key) {
  absl::StatusOr<NormalizedUrl> url = identity::UrlFromCanonicalKey(key);
  std::string text = "stale";
  absl::Status text_status = identity::UrlTextFromCanonicalKey(key, &text);
  FUZZ_CHECK(url.ok() == text_status.ok());
  if (!url.ok()) {
    FUZZ_CHECK(absl::IsInvalidArgument(url.status()));
    return;
  }
  FUZZ_CHECK(identity::CanonicalKey(*url) == key);
  FUZZ_CHECK(text == url->text());
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  std::vector<Seed> seeds;
  std::vector<std::string> inputs = SeedRawUrls(72);
  for (absl::string_view extra :
       {"  HTTP://User:Pw@Example.COM:0080/a/../b/%7e%41%2f?#x", "https://[::FFFF:1.2.3.4]:443/",
        "http://bank.com@evil.net/", "http://1.2.3.4./x?", "https://xn--zz.com./%zz%",
        "ftp://example.com/", "http:example.com", "http://a.com:99999/", "http://exa mple.com/",
        "https://\xE4\xBE\x8B\xE5\xAD\x90.\xE6\xB5\x8B\xE8\xAF\x95/\xFF", "http://[v1.x]/"}) {
    inputs.emplace_back(extra);
  }
  for (const std::string& key : SeedKeys(40)) inputs.push_back(key);
  for (size_t i = 0; i < inputs.size(); ++i) {
    seeds.push_back(
        {absl::StrCat("input_", i), std::vector<uint8_t>(inputs[i].begin(), inputs[i].end())});
  }
  return seeds;
}

void TestOneInput(FuzzInput input) {
  const absl::Span<const uint8_t> data = input.Rest();
  const absl::string_view text = TextOf(data);
  CheckNormalize(text);
  CheckKey(text);
}

}  // namespace crawldb::fuzz
