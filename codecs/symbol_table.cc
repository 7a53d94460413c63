#include "codecs/symbol_table.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <unordered_map>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace crawldb::codecs {
namespace {

// Generations of Learn: FSST's choice; the table settles after about four.
constexpr int kGenerations = 5;

// A string of at most kMaxSymbolBytes bytes as a hashable value.
struct ShortString {
  uint64_t low = 0, high = 0;
  uint8_t length = 0;

  explicit ShortString(absl::string_view text) : length(static_cast<uint8_t>(text.size())) {
    char bytes[16] = {};
    std::memcpy(bytes, text.data(), text.size());
    std::memcpy(&low, bytes, 8);
    std::memcpy(&high, bytes + 8, 8);
  }
  std::string ToString() const {
    char bytes[16];
    std::memcpy(bytes, &low, 8);
    std::memcpy(bytes + 8, &high, 8);
    return std::string(bytes, length);
  }
  bool operator==(const ShortString& other) const {
    return low == other.low && high == other.high && length == other.length;
  }
};

struct ShortStringHash {
  size_t operator()(const ShortString& s) const {
    uint64_t h = (s.low ^ (uint64_t{s.length} << 56)) * 0x9E3779B97F4A7C15ULL;
    h ^= (s.high + (h >> 29)) * 0xC2B2AE3D27D4EB4FULL;
    return static_cast<size_t>(h ^ (h >> 32));
  }
};

}  // namespace

SymbolTable::SymbolTable() : SymbolTable(std::vector<std::string>()) {}

SymbolTable::SymbolTable(std::vector<std::string> symbols) : symbols_(std::move(symbols)) {
  // Build a linked trie, each node's children kept in byte order (the root's in an array), then
  // lay it out breadth first so each node's children are adjacent. Equal symbols end at one
  // node, which names the last of them (FromSymbols refuses them unless told not to).
  struct BuildNode {
    int32_t symbol = -1;
    uint32_t first_child = 0;  // 0: none (the root is no one's child)
    uint32_t next_sibling = 0;
    uint8_t byte = 0;
  };
  std::vector<BuildNode> build(1);
  std::array<uint32_t, 256> root{};
  for (size_t i = 0; i < symbols_.size(); ++i) {
    const std::string& symbol = symbols_[i];
    uint32_t node = root[static_cast<uint8_t>(symbol[0])];
    if (node == 0) {
      node = root[static_cast<uint8_t>(symbol[0])] = static_cast<uint32_t>(build.size());
      build.push_back({.byte = static_cast<uint8_t>(symbol[0])});
    }
    for (size_t k = 1; k < symbol.size(); ++k) {
      const uint8_t byte = static_cast<uint8_t>(symbol[k]);
      uint32_t before = 0;
      uint32_t child = build[node].first_child;
      while (child != 0 && build[child].byte < byte) {
        before = child;
        child = build[child].next_sibling;
      }
      if (child == 0 || build[child].byte != byte) {
        const uint32_t added = static_cast<uint32_t>(build.size());
        build.push_back({.next_sibling = child, .byte = byte});
        (before == 0 ? build[node].first_child : build[before].next_sibling) = added;
        child = added;
      }
      node = child;
    }
    build[node].symbol = static_cast<int32_t>(i);
  }
  for (uint32_t byte = 0, last = 0; byte < 256; ++byte) {
    if (root[byte] == 0) continue;
    (last == 0 ? build[0].first_child : build[last].next_sibling) = root[byte];
    last = root[byte];
  }
  nodes_.assign(build.size(), Node{});
  edge_bytes_.reserve(build.size() - 1);
  edge_children_.reserve(build.size() - 1);
  // Breadth first: a node's position in the queue is its new index, the root's 0.
  std::vector<uint32_t> queue = {0};
  queue.reserve(build.size());
  for (size_t q = 0; q < queue.size(); ++q) {
    const BuildNode& from = build[queue[q]];
    Node& to = nodes_[q];
    to.symbol = from.symbol;
    to.first_edge = static_cast<uint32_t>(edge_bytes_.size());
    for (uint32_t child = from.first_child; child != 0; child = build[child].next_sibling) {
      edge_bytes_.push_back(build[child].byte);
      edge_children_.push_back(static_cast<uint32_t>(queue.size()));
      queue.push_back(child);
      ++to.edges;
    }
  }
  for (uint32_t e = 0; e < nodes_[0].edges; ++e) root_children_[edge_bytes_[e]] = edge_children_[e];
}

uint32_t SymbolTable::Child(uint32_t node, uint8_t byte) const {
  const Node& n = nodes_[node];
  const uint8_t* begin = edge_bytes_.data() + n.first_edge;
  const uint8_t* end = begin + n.edges;
  const uint8_t* it = std::lower_bound(begin, end, byte);
  if (it == end || *it != byte) return 0;
  return edge_children_[n.first_edge + static_cast<uint32_t>(it - begin)];
}

absl::StatusOr<SymbolTable> SymbolTable::FromSymbols(std::vector<std::string> symbols,
                                                     Repeats repeats) {
  if (symbols.size() > kMaxSymbols) {
    return absl::InvalidArgumentError(
        absl::StrCat("symbol_table: ", symbols.size(), " symbols, more than ", kMaxSymbols));
  }
  for (const std::string& symbol : symbols) {
    if (symbol.size() < kMinSymbolBytes || symbol.size() > kMaxSymbolBytes) {
      return absl::InvalidArgumentError(absl::StrCat(
          "symbol_table: symbol \"", absl::CHexEscape(symbol), "\" has ", symbol.size(),
          " bytes, not in [", kMinSymbolBytes, ", ", kMaxSymbolBytes, "]"));
    }
  }
  SymbolTable table(std::move(symbols));
  if (repeats == Repeats::kAllow) return table;
  for (size_t i = 0; i < table.size(); ++i) {
    // Equal symbols end at one trie node, which names only one of them.
    const absl::string_view symbol = table.symbol(i);
    if (table.LongestMatch(symbol, 0) != std::pair<size_t, size_t>(i, symbol.size())) {
      return absl::InvalidArgumentError(absl::StrCat(
          "symbol_table: symbol \"",
          absl::CHexEscape(absl::string_view(symbol.data(), symbol.size())), "\" appears twice"));
    }
  }
  return table;
}

SymbolTable SymbolTable::Learn(absl::Span<const absl::string_view> sample, size_t max_symbols) {
  max_symbols = std::min(max_symbols, kMaxSymbols);
  SymbolTable table;
  if (max_symbols == 0) return table;
  size_t sample_bytes = 0;
  for (absl::string_view text : sample) sample_bytes += text.size();
  for (int generation = 0; generation < kGenerations; ++generation) {
    std::unordered_map<ShortString, uint64_t, ShortStringHash> counts;
    counts.reserve(sample_bytes / 8);  // About the distinct tokens and pairs of URL text.
    for (absl::string_view text : sample) {
      size_t previous_start = 0, previous_length = 0;  // The previous token; length 0: none.
      for (size_t pos = 0; pos < text.size();) {
        const size_t length = std::max<size_t>(table.LongestMatch(text, pos).second, 1);
        ++counts[ShortString(text.substr(pos, length))];
        if (previous_length != 0) {
          const size_t joined = std::min(previous_length + length, kMaxSymbolBytes);
          ++counts[ShortString(text.substr(previous_start, joined))];
        }
        previous_start = pos;
        previous_length = length;
        pos += length;
      }
    }
    struct Candidate {
      uint64_t gain;
      std::string text;
    };
    std::vector<Candidate> candidates;
    for (const auto& [text, count] : counts) {
      if (text.length >= kMinSymbolBytes)
        candidates.push_back({count * text.length, text.ToString()});
    }
    const size_t keep = std::min(max_symbols, candidates.size());
    std::partial_sort(candidates.begin(), candidates.begin() + static_cast<ptrdiff_t>(keep),
                      candidates.end(), [](const Candidate& a, const Candidate& b) {
                        return a.gain != b.gain ? a.gain > b.gain : a.text < b.text;
                      });
    std::vector<std::string> symbols;
    symbols.reserve(keep);
    for (size_t i = 0; i < keep; ++i) symbols.push_back(std::move(candidates[i].text));
    table = SymbolTable(std::move(symbols));
  }
  return table;
}

}  // namespace crawldb::codecs
