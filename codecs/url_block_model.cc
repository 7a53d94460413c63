#include "codecs/url_block_model.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <numeric>
#include <tuple>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/huffman.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

// Sets the n = 2^k entries from `out` on to `entry`, four per 16-byte store from n = 4 on (gcc's
// std::fill_n took a store per entry): filling the decoding tables is most of what loading a
// model costs, which a fresh connection's first look-up pays (issue 18).
void FillEntries(uint32_t* out, uint32_t n, uint32_t entry) {
  if (n < 4) {
    for (uint32_t i = 0; i < n; ++i) out[i] = entry;
    return;
  }
  using Quad = uint32_t __attribute__((vector_size(16)));
  const Quad quad = {entry, entry, entry, entry};
  for (uint32_t i = 0; i < n; i += 4) std::memcpy(out + i, &quad, sizeof quad);
}

using Model = UrlBlockModel;
static_assert(Model::kNextTableMask == uint32_t{Model::kMaxClusters - 1} << Model::kCodeBits);

// Codewords per cluster left to symbols: a symbol that would only get one of the longest
// codewords saves little, and a full 2^12-entry code leaves the literals none of their own.
constexpr size_t kMaxSymbolCodewords = 3072;
// Rounds of (parse with the current codes, count, cluster, rebuild the codes) in training; on
// the reddit keys one round gives 15.22 bytes/key, two 15.17, three 15.15 for 20% more time.
constexpr int kTrainingRounds = 2;
constexpr int kClusteringIterations = 10;

absl::Status Corrupt(absl::string_view what) {
  return absl::DataLossError(absl::StrCat("url_block_model: ", what));
}

size_t CommonPrefix(absl::string_view a, absl::string_view b) {
  const size_t limit = std::min(a.size(), b.size());
  return static_cast<size_t>(std::mismatch(a.begin(), a.begin() + limit, b.begin()).first -
                             a.begin());
}

int ContextAt(absl::string_view key, size_t pos) {
  return pos == 0 ? Model::kStartContext : static_cast<uint8_t>(key[pos - 1]);
}

// The fewest-bits parse of key[from, end) into literals and symbols, for codes given as
// lengths[cluster][token] (0: no codeword). Backward dynamic programming: the context of every
// position is fixed by the key itself, so the cost of the rest from a position does not depend
// on how the key was cut before it.
void ParseOptimal(const SymbolTable& symbols, const std::array<uint8_t, Model::kContexts>& clusters,
                  const uint8_t* lengths, size_t token_count, absl::string_view key, size_t from,
                  std::vector<uint32_t>* tokens) {
  const size_t n = key.size() - from;
  std::vector<uint32_t> cost(n + 1, 0);  // Bits from position i to the end.
  std::vector<uint32_t> choice(n, 0);    // Token chosen at position i.
  std::vector<uint8_t> advance(n, 1);    // Its length in bytes.
  for (size_t i = n; i-- > 0;) {
    const size_t pos = from + i;
    const uint8_t* cluster_lengths = lengths + clusters[ContextAt(key, pos)] * token_count;
    const uint8_t byte = static_cast<uint8_t>(key[pos]);
    uint32_t best = cluster_lengths[byte] + cost[i + 1];
    choice[i] = byte;
    advance[i] = 1;
    symbols.ForEachMatch(key, pos, [&](size_t symbol, size_t length) {
      const uint32_t bits = cluster_lengths[Model::kFirstSymbolToken + symbol];
      if (bits == 0) return;
      if (bits + cost[i + length] < best) {
        best = bits + cost[i + length];
        choice[i] = Model::kFirstSymbolToken + static_cast<uint32_t>(symbol);
        advance[i] = static_cast<uint8_t>(length);
      }
    });
    cost[i] = best;
  }
  for (size_t i = 0; i < n; i += advance[i]) tokens->push_back(choice[i]);
}

// One sampled key: the part a block will code (after the shared prefix).
struct SampleKey {
  absl::string_view key;
  size_t shared;  // 0 for a block's first key.
};

// Token counts per context, [context × token_count + token].
using ContextCounts = std::vector<uint32_t>;

// Groups the contexts into at most `wanted` clusters of similar token distributions: k-means
// where a context's distance to a cluster is the bits its tokens would take under the
// cluster's (smoothed) distribution. Seeds are the most frequent contexts; contexts never seen
// join cluster 0. Returns the cluster of each context and the number of clusters (empty ones
// removed).
std::pair<std::array<uint8_t, Model::kContexts>, int> ClusterContexts(const ContextCounts& counts,
                                                                      size_t token_count,
                                                                      int wanted) {
  std::vector<uint64_t> totals(Model::kContexts, 0);
  for (int c = 0; c < Model::kContexts; ++c) {
    for (size_t t = 0; t < token_count; ++t) totals[c] += counts[c * token_count + t];
  }
  std::vector<int> order(Model::kContexts);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return totals[a] > totals[b]; });
  int active = 0;
  while (active < Model::kContexts && totals[order[active]] > 0) ++active;
  const int k_count = std::max(1, std::min(wanted, active));

  std::array<int, Model::kContexts> assignment;
  assignment.fill(0);
  for (int k = 0; k < k_count && k < active; ++k) assignment[order[k]] = k;
  // Seeds only in the first round: the others start unassigned (−1) and are placed by distance.
  for (int r = k_count; r < active; ++r) assignment[order[r]] = -1;

  // The tokens each context uses, with their counts: most contexts use few of the tokens.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> uses(Model::kContexts);
  for (int c = 0; c < Model::kContexts; ++c) {
    for (uint32_t t = 0; t < token_count; ++t) {
      if (const uint32_t n = counts[c * token_count + t]; n != 0) uses[c].emplace_back(t, n);
    }
  }
  constexpr double kSmoothing = 0.1;
  std::vector<double> cluster_counts(k_count * token_count);
  std::vector<double> cluster_totals(k_count);
  std::vector<double> bits(k_count * token_count);
  for (int iteration = 0; iteration < kClusteringIterations; ++iteration) {
    std::fill(cluster_counts.begin(), cluster_counts.end(), 0.0);
    std::fill(cluster_totals.begin(), cluster_totals.end(), 0.0);
    for (int c = 0; c < Model::kContexts; ++c) {
      if (assignment[c] < 0 || totals[c] == 0) continue;
      for (size_t t = 0; t < token_count; ++t) {
        cluster_counts[assignment[c] * token_count + t] += counts[c * token_count + t];
      }
      cluster_totals[assignment[c]] += static_cast<double>(totals[c]);
    }
    for (int k = 0; k < k_count; ++k) {
      const double denominator = cluster_totals[k] + kSmoothing * static_cast<double>(token_count);
      for (size_t t = 0; t < token_count; ++t) {
        bits[k * token_count + t] =
            -std::log2((cluster_counts[k * token_count + t] + kSmoothing) / denominator);
      }
    }
    bool changed = false;
    for (int r = 0; r < active; ++r) {
      const int c = order[r];
      int best_cluster = 0;
      double best_bits = 0;
      for (int k = 0; k < k_count; ++k) {
        double b = 0;
        for (const auto& [t, n] : uses[c]) b += n * bits[k * token_count + t];
        if (k == 0 || b < best_bits) {
          best_bits = b;
          best_cluster = k;
        }
      }
      changed |= assignment[c] != best_cluster;
      assignment[c] = best_cluster;
    }
    if (!changed) break;
  }
  // Renumber the clusters in use, in order of first context.
  std::array<int, Model::kMaxClusters> renumber;
  renumber.fill(-1);
  int used = 0;
  std::array<uint8_t, Model::kContexts> clusters{};
  for (int c = 0; c < Model::kContexts; ++c) {
    const int k = std::max(assignment[c], 0);
    if (renumber[k] < 0) renumber[k] = used++;
    clusters[c] = static_cast<uint8_t>(renumber[k]);
  }
  return {clusters, used};
}

// Code lengths of every cluster from the counts: literals and end-of-key always get a codeword;
// symbols need two uses in the cluster, and at most kMaxSymbolCodewords of them (the most used)
// get one.
std::vector<uint8_t> ClusterCodeLengths(const ContextCounts& counts, size_t token_count,
                                        const std::array<uint8_t, Model::kContexts>& clusters,
                                        int cluster_count) {
  std::vector<uint8_t> lengths(cluster_count * token_count, 0);
  std::vector<uint64_t> weights(token_count);
  for (int k = 0; k < cluster_count; ++k) {
    std::fill(weights.begin(), weights.end(), 0);
    for (int c = 0; c < Model::kContexts; ++c) {
      if (clusters[c] != k) continue;
      for (size_t t = 0; t < token_count; ++t) weights[t] += counts[c * token_count + t];
    }
    for (uint32_t t = 0; t <= Model::kEndOfKey; ++t) weights[t] += 1;
    std::vector<uint32_t> used_symbols;
    for (size_t t = Model::kFirstSymbolToken; t < token_count; ++t) {
      if (weights[t] < 2) {
        weights[t] = 0;
      } else {
        used_symbols.push_back(static_cast<uint32_t>(t));
      }
    }
    if (used_symbols.size() > kMaxSymbolCodewords) {
      std::stable_sort(used_symbols.begin(), used_symbols.end(),
                       [&](uint32_t a, uint32_t b) { return weights[a] > weights[b]; });
      for (size_t i = kMaxSymbolCodewords; i < used_symbols.size(); ++i)
        weights[used_symbols[i]] = 0;
    }
    // At most 257 + kMaxSymbolCodewords < 2^kCodeBits weights are nonzero: cannot fail.
    std::vector<uint8_t> cluster_lengths = *HuffmanCodeLengths(weights, Model::kCodeBits);
    std::copy(cluster_lengths.begin(), cluster_lengths.end(), lengths.begin() + k * token_count);
  }
  return lengths;
}

std::vector<uint8_t> SharedCodeLengths(const std::vector<uint64_t>& counts) {
  std::vector<uint64_t> weights(256);
  for (size_t v = 0; v < 256; ++v) weights[v] = counts[v] + 1;
  return *HuffmanCodeLengths(weights, Model::kCodeBits);  // 256 symbols fit in 12 bits.
}

void AppendNibbles(absl::Span<const uint8_t> lengths, std::vector<uint8_t>* out) {
  for (size_t i = 0; i < lengths.size(); i += 2) {
    const uint8_t low = i + 1 < lengths.size() ? lengths[i + 1] : 0;
    out->push_back(static_cast<uint8_t>(lengths[i] << 4 | low));
  }
}

// Reads `count` nibble-coded lengths; nullptr if the input is too short or the padding nibble
// is not zero.
const uint8_t* ReadNibbles(const uint8_t* p, const uint8_t* end, size_t count,
                           std::vector<uint8_t>* lengths) {
  const size_t bytes = (count + 1) / 2;
  if (static_cast<size_t>(end - p) < bytes) return nullptr;
  lengths->resize(count);
  uint8_t* const out = lengths->data();
  for (size_t i = 0; i < count / 2; ++i) {  // two per byte, the high nibble first
    out[2 * i] = p[i] >> 4;
    out[2 * i + 1] = p[i] & 15;
  }
  if (count % 2 == 1) {
    if ((p[bytes - 1] & 15) != 0) return nullptr;  // the padding nibble must be 0
    out[count - 1] = p[bytes - 1] >> 4;
  }
  return p + bytes;
}

}  // namespace

UrlBlockModel::UrlBlockModel()
    : UrlBlockModel(
          std::vector<std::string>(), 1, std::array<uint8_t, kContexts>{},
          [] {
            // Printable ASCII (what canonical URL keys are made of) 16 times as
            // likely as other bytes.
            std::vector<uint64_t> weights(kFirstSymbolToken, 1);
            for (int b = 0x20; b < 0x7F; ++b) weights[b] = 16;
            weights[kEndOfKey] = 16;
            return *HuffmanCodeLengths(weights, kCodeBits);
          }(),
          SharedCodeLengths(std::vector<uint64_t>(256, 0))) {}

UrlBlockModel::UrlBlockModel(std::vector<std::string> symbols, int cluster_count,
                             std::array<uint8_t, kContexts> clusters,
                             std::vector<uint8_t> token_lengths,
                             std::vector<uint8_t> shared_lengths)
    : symbols_(std::move(symbols)),
      cluster_count_(cluster_count),
      token_count_(kFirstSymbolToken + symbols_.size()),
      context_cluster_(clusters),
      token_lengths_(std::move(token_lengths)),
      shared_lengths_(std::move(shared_lengths)) {
  token_bytes_.assign(16 * token_count_, 0);
  for (uint32_t b = 0; b < 256; ++b) token_bytes_[16 * b] = static_cast<char>(b);
  for (size_t i = 0; i < symbols_.size(); ++i) {
    std::memcpy(&token_bytes_[16 * (kFirstSymbolToken + i)], symbols_[i].data(),
                symbols_[i].size());
  }
  // Per token: its byte length and the cluster that applies after it.
  token_info_.resize(token_count_);
  for (uint32_t t = 0; t < token_count_; ++t) {
    uint32_t bytes = 1;
    uint8_t last = static_cast<uint8_t>(t);
    if (t == kEndOfKey) {
      bytes = 0;
      last = 0;
    } else if (t >= kFirstSymbolToken) {
      const absl::string_view symbol = symbols_[t - kFirstSymbolToken];
      bytes = static_cast<uint32_t>(symbol.size());
      last = static_cast<uint8_t>(symbol.back());
    }
    const uint32_t next_cluster = bytes == 0 ? 0 : context_cluster_[last];
    token_info_[t] = bytes << 6 | next_cluster << kCodeBits | t << 17;
  }
  // All decoding tables at once, so that connections (threads) can share the model.
  // Zeroed so that an entry no code wrote, were a code ever incomplete, reads as end-of-key
  // rather than as garbage.
  token_tables_ =
      ZeroedArray<uint32_t>::Prefaulted(static_cast<size_t>(cluster_count_) << kCodeBits);
  for (int k = 0; k < cluster_count_; ++k) BuildTokenTable(k);
  const std::vector<uint32_t> shared_codes = CanonicalCodes(shared_lengths_);
  shared_table_.assign(size_t{1} << kCodeBits, 0);
  for (uint32_t v = 0; v < 256; ++v) {
    const uint32_t first = shared_codes[v] << (kCodeBits - shared_lengths_[v]);
    std::fill_n(shared_table_.data() + first, uint32_t{1} << (kCodeBits - shared_lengths_[v]),
                static_cast<uint16_t>(shared_lengths_[v] | v << 4));
  }
}

absl::StatusOr<UrlBlockModel> UrlBlockModel::Train(absl::Span<const absl::string_view> keys,
                                                   const UrlBlockModelOptions& options) {
  if (options.block_keys == 0) {
    return absl::InvalidArgumentError("url_block_model: block_keys must be at least 1");
  }
  if (options.clusters < 1 || options.clusters > kMaxClusters) {
    return absl::InvalidArgumentError(absl::StrCat("url_block_model: clusters ", options.clusters,
                                                   " is not in [1, ", kMaxClusters, "]"));
  }
  if (options.max_symbols > kMaxSymbols) {
    return absl::InvalidArgumentError(absl::StrCat("url_block_model: max_symbols ",
                                                   options.max_symbols, " is above ", kMaxSymbols));
  }
  // The sample: every stride-th key, with the shared prefix its block will give it.
  uint64_t total_bytes = 0;
  for (absl::string_view key : keys) total_bytes += key.size();
  const uint64_t budget = std::max<size_t>(options.max_sample_bytes, 1);
  const size_t stride = std::max<uint64_t>(1, (total_bytes + budget - 1) / budget);
  std::vector<SampleKey> sample;
  std::vector<absl::string_view> suffixes;
  std::vector<uint64_t> shared_counts(256, 0);
  for (size_t i = 0; i < keys.size(); i += stride) {
    const size_t shared = i % options.block_keys == 0 ? 0 : CommonPrefix(keys[i - 1], keys[i]);
    sample.push_back({keys[i], shared});
    suffixes.push_back(keys[i].substr(shared));
    if (i % options.block_keys != 0) ++shared_counts[std::min<size_t>(shared, 255)];
  }

  SymbolTable symbols = SymbolTable::Learn(suffixes, options.max_symbols);
  size_t token_count = kFirstSymbolToken + symbols.size();

  // Tokens of every sample key (end-of-key included), first by greedy longest match (there are
  // no codes yet), then by the optimal parse under the codes of the previous round.
  std::vector<uint32_t> tokens;
  std::vector<size_t> starts;
  auto parse = [&](const std::vector<uint8_t>* lengths,
                   const std::array<uint8_t, kContexts>& clusters) {
    tokens.clear();
    starts.assign(1, 0);
    for (const SampleKey& s : sample) {
      if (lengths == nullptr) {
        for (size_t pos = s.shared; pos < s.key.size();) {
          const auto [symbol, length] = symbols.LongestMatch(s.key, pos);
          tokens.push_back(length == 0 ? static_cast<uint8_t>(s.key[pos])
                                       : kFirstSymbolToken + static_cast<uint32_t>(symbol));
          pos += std::max<size_t>(length, 1);
        }
      } else {
        ParseOptimal(symbols, clusters, lengths->data(), token_count, s.key, s.shared, &tokens);
      }
      tokens.push_back(kEndOfKey);
      starts.push_back(tokens.size());
    }
  };
  std::array<uint8_t, kContexts> clusters{};
  int cluster_count = 1;
  std::vector<uint8_t> lengths;
  for (int round = 0; round <= kTrainingRounds; ++round) {
    parse(round == 0 ? nullptr : &lengths, clusters);
    // Byte positions advance by token lengths: count with the symbol sizes known here.
    ContextCounts counts(size_t{kContexts} * token_count, 0);
    for (size_t k = 0; k < sample.size(); ++k) {
      size_t pos = sample[k].shared;
      for (size_t t = starts[k]; t < starts[k + 1]; ++t) {
        const uint32_t token = tokens[t];
        ++counts[ContextAt(sample[k].key, pos) * token_count + token];
        if (token < kEndOfKey) {
          pos += 1;
        } else if (token >= kFirstSymbolToken) {
          pos += symbols.symbol(token - kFirstSymbolToken).size();
        }
      }
    }
    std::tie(clusters, cluster_count) = ClusterContexts(counts, token_count, options.clusters);
    lengths = ClusterCodeLengths(counts, token_count, clusters, cluster_count);
  }

  // Drop the symbols no cluster gives a codeword.
  std::vector<std::string> kept;
  std::vector<size_t> kept_tokens;
  for (size_t i = 0; i < symbols.size(); ++i) {
    const size_t token = kFirstSymbolToken + i;
    for (int k = 0; k < cluster_count; ++k) {
      if (lengths[k * token_count + token] != 0) {
        kept.emplace_back(symbols.symbol(i));
        kept_tokens.push_back(token);
        break;
      }
    }
  }
  const size_t kept_count = kFirstSymbolToken + kept.size();
  std::vector<uint8_t> kept_lengths(cluster_count * kept_count);
  for (int k = 0; k < cluster_count; ++k) {
    const uint8_t* from = lengths.data() + k * token_count;
    uint8_t* to = kept_lengths.data() + k * kept_count;
    std::copy(from, from + kFirstSymbolToken, to);
    for (size_t i = 0; i < kept_tokens.size(); ++i)
      to[kFirstSymbolToken + i] = from[kept_tokens[i]];
  }
  return UrlBlockModel(std::move(kept), cluster_count, clusters, std::move(kept_lengths),
                       SharedCodeLengths(shared_counts));
}

const UrlBlockModel::Encoder& UrlBlockModel::encoder() const {
  // Once built, one load: Tokenize asks for every key it parses.
  if (lazy_encoder_->built.load(std::memory_order_acquire)) return lazy_encoder_->encoder;
  std::call_once(lazy_encoder_->once, [this] {
    Encoder& encoder = lazy_encoder_->encoder;
    encoder.token_count_ = token_count_;
    // Load, Train and the untrained model keep to the count and the lengths, the only refusals
    // left.
    encoder.symbols_ = *SymbolTable::FromSymbols(symbols_, SymbolTable::Repeats::kAllow);
    encoder.token_codes_.resize(token_lengths_.size());
    for (int k = 0; k < cluster_count_; ++k) {
      const size_t first = static_cast<size_t>(k) * token_count_;
      CanonicalCodes(absl::MakeConstSpan(token_lengths_).subspan(first, token_count_),
                     absl::MakeSpan(encoder.token_codes_).subspan(first, token_count_));
    }
    encoder.shared_codes_ = CanonicalCodes(shared_lengths_);
    lazy_encoder_->built.store(true, std::memory_order_release);
  });
  return lazy_encoder_->encoder;
}

void UrlBlockModel::Tokenize(absl::string_view key, size_t from,
                             std::vector<uint32_t>* tokens) const {
  ParseOptimal(encoder().symbols_, context_cluster_, token_lengths_.data(), token_count_, key, from,
               tokens);
}

size_t UrlBlockModel::MemoryBytes() const {
  size_t bytes = sizeof(*this) + sizeof(LazyEncoder) + token_lengths_.capacity() +
                 shared_lengths_.capacity() +
                 (token_info_.capacity() + (static_cast<size_t>(cluster_count_) << kCodeBits)) *
                     sizeof(uint32_t) +
                 shared_table_.capacity() * sizeof(uint16_t) + token_bytes_.capacity();
  const bool encoder_built = lazy_encoder_->built.load(std::memory_order_acquire);
  for (const std::string& symbol : symbols_) {
    const size_t text = sizeof(std::string) + (symbol.size() > 15 ? symbol.size() + 1 : 0);
    bytes += encoder_built ? 2 * text + 24 : text;  // The encoder's copy and its trie.
  }
  if (encoder_built) {
    const Encoder& encoder = lazy_encoder_->encoder;
    bytes +=
        (encoder.token_codes_.capacity() + encoder.shared_codes_.capacity()) * sizeof(uint32_t);
  }
  return bytes;
}

void UrlBlockModel::BuildTokenTable(int cluster) {
  const uint8_t* const lengths = token_lengths_.data() + cluster * token_count_;
  // The canonical codewords (CanonicalCodes), assigned as the tokens come: one pass fewer.
  CodeLengthCounts count = {};
  for (size_t t = 0; t < token_count_; ++t) ++count[lengths[t]];
  CodeLengthCounts next_code = FirstCanonicalCodes(count);
  uint32_t* const entries = token_tables_.data() + (static_cast<size_t>(cluster) << kCodeBits);
  for (uint32_t t = 0; t < token_count_; ++t) {
    const int length = lengths[t];
    if (length == 0) continue;
    const uint32_t first = next_code[length]++ << (kCodeBits - length);
    FillEntries(entries + first, uint32_t{1} << (kCodeBits - length),
                static_cast<uint32_t>(length) | token_info_[t]);
  }
}

std::vector<uint8_t> UrlBlockModel::Serialize() const {
  std::vector<uint8_t> out;
  out.reserve(1 + kMaxVarintBytes + symbols_.size() * (1 + kMaxSymbolBytes) + 1 + kContexts +
              cluster_count_ * (token_count_ + 1) / 2 + 128);
  out.push_back(kVersion);
  AppendVarint(symbols_.size(), &out);
  for (const std::string& symbol : symbols_) {
    out.push_back(static_cast<uint8_t>(symbol.size()));
    out.insert(out.end(), symbol.begin(), symbol.end());
  }
  out.push_back(static_cast<uint8_t>(cluster_count_));
  out.insert(out.end(), context_cluster_.begin(), context_cluster_.end());
  for (int k = 0; k < cluster_count_; ++k) {
    AppendNibbles(absl::MakeConstSpan(token_lengths_.data() + k * token_count_, token_count_),
                  &out);
  }
  AppendNibbles(shared_lengths_, &out);
  return out;
}

absl::StatusOr<UrlBlockModel> UrlBlockModel::Load(absl::Span<const uint8_t> bytes) {
  const uint8_t* p = bytes.data();
  const uint8_t* const end = p + bytes.size();
  if (p == end) return Corrupt("empty model");
  if (*p != kVersion) {
    return Corrupt(absl::StrCat("unknown version ", *p, "; this build reads version ", kVersion));
  }
  ++p;
  uint64_t symbol_count;
  p = ReadVarint(p, end, &symbol_count);
  if (p == nullptr) return Corrupt("truncated symbol count");
  if (symbol_count > kMaxSymbols) {
    return Corrupt(absl::StrCat("symbol count ", symbol_count, " above ", kMaxSymbols));
  }
  std::vector<std::string> symbol_list;
  symbol_list.reserve(symbol_count);
  for (uint64_t i = 0; i < symbol_count; ++i) {
    if (p == end) return Corrupt(absl::StrCat("truncated at symbol ", i));
    const size_t length = *p++;
    if (static_cast<size_t>(end - p) < length) return Corrupt(absl::StrCat("truncated symbol ", i));
    const absl::string_view symbol(reinterpret_cast<const char*>(p), length);
    if (length < kMinSymbolBytes || length > kMaxSymbolBytes) {
      return Corrupt(absl::StrCat("symbol ", i, " \"", absl::CHexEscape(symbol), "\" has ", length,
                                  " bytes, not in [", kMinSymbolBytes, ", ", kMaxSymbolBytes, "]"));
    }
    symbol_list.emplace_back(symbol);
    p += length;
  }
  if (p == end) return Corrupt("truncated cluster count");
  const int cluster_count = *p++;
  if (cluster_count < 1 || cluster_count > kMaxClusters) {
    return Corrupt(
        absl::StrCat("cluster count ", cluster_count, " not in [1, ", kMaxClusters, "]"));
  }
  if (end - p < kContexts) return Corrupt("truncated context map");
  std::array<uint8_t, kContexts> clusters;
  std::copy(p, p + kContexts, clusters.begin());
  p += kContexts;
  for (int c = 0; c < kContexts; ++c) {
    if (clusters[c] >= cluster_count) {
      return Corrupt(
          absl::StrCat("context ", c, " maps to cluster ", clusters[c], " of ", cluster_count));
    }
  }
  const size_t token_count = kFirstSymbolToken + symbol_count;
  std::vector<uint8_t> token_lengths;
  token_lengths.reserve(cluster_count * token_count);
  std::vector<uint8_t> lengths;
  for (int k = 0; k < cluster_count; ++k) {
    p = ReadNibbles(p, end, token_count, &lengths);
    if (p == nullptr) return Corrupt(absl::StrCat("truncated or badly padded code of cluster ", k));
    if (absl::Status s = CheckCompleteCode(lengths, kCodeBits); !s.ok()) {
      return Corrupt(absl::StrCat("cluster ", k, ": ", s.message()));
    }
    for (uint32_t t = 0; t <= kEndOfKey; ++t) {
      if (lengths[t] == 0) {
        return Corrupt(absl::StrCat("cluster ", k, " has no codeword for token ", t));
      }
    }
    token_lengths.insert(token_lengths.end(), lengths.begin(), lengths.end());
  }
  std::vector<uint8_t> shared_lengths;
  p = ReadNibbles(p, end, 256, &shared_lengths);
  if (p == nullptr) return Corrupt("truncated shared-length code");
  if (absl::Status s = CheckCompleteCode(shared_lengths, kCodeBits); !s.ok()) {
    return Corrupt(absl::StrCat("shared-length code: ", s.message()));
  }
  for (uint32_t v = 0; v < 256; ++v) {
    if (shared_lengths[v] == 0) return Corrupt(absl::StrCat("no codeword for shared length ", v));
  }
  if (p != end) return Corrupt(absl::StrCat(end - p, " bytes after the model"));
  return UrlBlockModel(std::move(symbol_list), cluster_count, clusters, std::move(token_lengths),
                       std::move(shared_lengths));
}

}  // namespace crawldb::codecs
