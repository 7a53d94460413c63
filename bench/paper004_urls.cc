#include "bench/paper004_urls.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace crawldb::bench {
namespace {

// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014): fixed output for a seed everywhere.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, bound) by multiply-shift (Lemire); the bias is below bound / 2^64.
  uint64_t Below(uint64_t bound) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }
  uint64_t Between(uint64_t low, uint64_t high) { return low + Below(high - low + 1); }

 private:
  uint64_t state_;
};

// The 128 weighted path characters of the header, as a table indexed by a 7-bit draw.
constexpr std::array<char, 128> PathCharacters() {
  std::array<char, 128> table{};
  size_t n = 0;
  for (char c = 'a'; c <= 'z'; ++c) {
    for (int i = 0; i < 3; ++i) table[n++] = c;
  }
  for (char c = 'A'; c <= 'Z'; ++c) table[n++] = c;
  for (int i = 0; i < 12; ++i) table[n++] = '/';
  for (int i = 0; i < 6; ++i) table[n++] = '-';
  for (int i = 0; i < 6; ++i) table[n++] = '_';
  return table;
}
constexpr std::array<char, 128> kPathCharacters = PathCharacters();
static_assert(kPathCharacters[127] == '_', "the weights must add up to exactly 128");

std::string RandomDomain(SplitMix64& rng) {
  std::string domain;
  const uint64_t labels = rng.Between(1, 3);
  for (uint64_t l = 0; l < labels; ++l) {
    const uint64_t length = rng.Between(2, 10);
    for (uint64_t i = 0; i < length; ++i) domain.push_back(static_cast<char>('a' + rng.Below(26)));
    domain.push_back('.');
  }
  absl::StrAppend(&domain, kPaper004TopLevel[rng.Below(kPaper004TopLevel.size())]);
  return domain;
}

// SplitMix64's finaliser: a bijection of 64-bit words that spreads every input bit.
uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// A URL's 128-bit fingerprint: two lanes over its 8-byte words (the length first), each word
// folded in through Mix, the lanes with different constants. Within one lane two URLs of one
// length that differ in a single word never collide (Mix is a bijection).
struct Fingerprint {
  uint64_t a = 0;
  uint64_t b = 0;
  bool operator==(const Fingerprint&) const = default;
  template <typename H>
  friend H AbslHashValue(H hash, const Fingerprint& print) {
    return H::combine(std::move(hash), print.a);
  }
};

Fingerprint FingerprintOf(absl::string_view url) {
  Fingerprint print{Mix(url.size()), Mix(url.size() ^ 0x5851F42D4C957F2Dull)};
  for (size_t i = 0; i < url.size(); i += 8) {
    uint64_t word = 0;
    std::memcpy(&word, url.data() + i, std::min<size_t>(8, url.size() - i));
    print.a = Mix(print.a ^ word);
    print.b = Mix(print.b + word * 0x9E3779B97F4A7C15ull);
  }
  return print;
}

// `options.domains` distinct domains, the first draws of `rng`.
std::vector<std::string> DrawDomains(SplitMix64& rng, const Paper004Options& options) {
  std::vector<std::string> domains;
  domains.reserve(options.domains);
  absl::flat_hash_set<std::string> seen_domains;
  while (domains.size() < options.domains) {
    std::string domain = RandomDomain(rng);
    if (seen_domains.insert(domain).second) domains.push_back(std::move(domain));
  }
  return domains;
}

void DrawUrl(SplitMix64& rng, const std::vector<std::string>& domains,
             const Paper004Options& options, std::string* url) {
  url->assign("http://");
  url->append(domains[rng.Below(domains.size())]);
  url->push_back('/');
  const uint64_t length = rng.Between(options.min_path, options.max_path);
  for (uint64_t i = 0; i < length; ++i) url->push_back(kPathCharacters[rng.Next() >> 57]);
}

}  // namespace

struct Paper004UrlStream::State {
  Paper004Options options;
  SplitMix64 rng;
  std::vector<std::string> domains;
  absl::flat_hash_set<Fingerprint> seen;
  std::string url;
};

Paper004UrlStream::Paper004UrlStream(const Paper004Options& options, size_t expected)
    : state_(new State{options, SplitMix64(options.seed), {}, {}, {}}) {
  state_->domains = DrawDomains(state_->rng, options);
  state_->seen.reserve(expected);
}

Paper004UrlStream::~Paper004UrlStream() = default;

const std::string& Paper004UrlStream::Next() {
  State& s = *state_;
  do {
    DrawUrl(s.rng, s.domains, s.options, &s.url);
  } while (!s.seen.insert(FingerprintOf(s.url)).second);
  return s.url;
}

std::vector<std::string> GeneratePaper004Urls(size_t count, const Paper004Options& options) {
  Paper004UrlStream stream(options, count);
  std::vector<std::string> urls;
  urls.reserve(count);
  while (urls.size() < count) urls.push_back(stream.Next());
  return urls;
}

Paper004UrlDraws::Paper004UrlDraws(const Paper004Options& options) : options_(options) {
  SplitMix64 rng(options.seed);
  domains_ = DrawDomains(rng, options);
}

void Paper004UrlDraws::UrlAt(uint64_t index, std::string* url) const {
  // Two SplitMix64 outputs as the seed: streams of nearby indexes do not overlap.
  SplitMix64 rng(SplitMix64(options_.seed).Next() ^ SplitMix64(index).Next());
  DrawUrl(rng, domains_, options_, url);
}

}  // namespace crawldb::bench
