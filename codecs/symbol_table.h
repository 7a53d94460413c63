// SymbolTable: a static dictionary of short byte strings ("symbols", 2 to 16 bytes) learned from
// a sample, in the manner of FSST's symbol table, and a trie that finds every symbol starting at
// a position of a text. The URL block codec (url_block_model.h) codes URL-key suffixes as a
// sequence of symbols and literal bytes.
//
// Learning (Learn). FSST's idea (Boncz, Neumann, Leis, "FSST: Fast Random Access String
// Compression", PVLDB 13(11), 2020, §4): start from an empty table and repeat a few generations
// of: cut every sample string greedily into tokens, each the longest symbol at the position or a
// single byte when none matches; count each token and each concatenation of two consecutive
// tokens (cut to 16 bytes); keep the max_symbols strings of at least 2 bytes with the largest gain
// = count × length (the bytes they would cover). Concatenation lets symbols grow over the
// generations; the gain keeps the ones that pay. Unlike FSST there is no 255-symbol limit and
// no single-byte symbol: the codec gives every byte its own literal code, and entropy-codes the
// tokens, so a large table is cheap to address. Deterministic: ties are broken by byte order.
//
// Matching (ForEachMatch) walks a trie: one array step at the root, then a binary search among
// a node's children per byte, so all matches at a position cost at most 16 steps.
//
// Caller's obligations: none beyond the documented ranges; symbols are arbitrary bytes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace crawldb::codecs {

inline constexpr size_t kMinSymbolBytes = 2;
inline constexpr size_t kMaxSymbolBytes = 16;
// Most symbols in a table (a format limit of url_block_model.h's token numbering).
inline constexpr size_t kMaxSymbols = 16384;

class SymbolTable {
 public:
  // The empty table.
  SymbolTable();

  // Whether FromSymbols refuses two equal symbols, or keeps both (matching then finds only the
  // last of them).
  enum class Repeats { kRefuse, kAllow };
  // A table holding `symbols` in this order (symbol i is symbols[i]). InvalidArgumentError
  // "symbol_table: <what>" if there are more than kMaxSymbols, one is shorter than
  // kMinSymbolBytes or longer than kMaxSymbolBytes, or (kRefuse) two are equal.
  static absl::StatusOr<SymbolTable> FromSymbols(std::vector<std::string> symbols,
                                                 Repeats repeats = Repeats::kRefuse);

  // Learns at most max_symbols (capped at kMaxSymbols) symbols from `sample` (see above).
  // Cost: five passes over the sample plus a hash map of its distinct token pairs.
  static SymbolTable Learn(absl::Span<const absl::string_view> sample, size_t max_symbols);

  size_t size() const { return symbols_.size(); }
  absl::string_view symbol(size_t i) const { return symbols_[i]; }
  const std::vector<std::string>& symbols() const { return symbols_; }

  // Calls visit(symbol index, length in bytes) for every symbol that text[pos, …) starts with,
  // shortest first. pos ≤ text.size().
  template <typename Visit>
  void ForEachMatch(absl::string_view text, size_t pos, Visit visit) const {
    if (pos >= text.size()) return;
    uint32_t node = root_children_[static_cast<uint8_t>(text[pos])];
    for (size_t length = 1; node != 0; ++length) {
      if (nodes_[node].symbol >= 0) visit(static_cast<size_t>(nodes_[node].symbol), length);
      if (pos + length >= text.size()) return;
      node = Child(node, static_cast<uint8_t>(text[pos + length]));
    }
  }

  // The longest symbol text[pos, …) starts with, as (index, length); length 0 when none does.
  std::pair<size_t, size_t> LongestMatch(absl::string_view text, size_t pos) const {
    std::pair<size_t, size_t> best(0, 0);
    ForEachMatch(text, pos, [&](size_t index, size_t length) { best = {index, length}; });
    return best;
  }

 private:
  struct Node {
    int32_t symbol = -1;      // Index of the symbol ending here, −1 if none.
    uint32_t first_edge = 0;  // This node's children: edges [first_edge, first_edge + edges).
    uint32_t edges = 0;
  };

  explicit SymbolTable(std::vector<std::string> symbols);
  uint32_t Child(uint32_t node, uint8_t byte) const;

  std::vector<std::string> symbols_;
  // Trie. Node 0 is the root; 0 also means "no child". Edges of one node are sorted by byte.
  std::vector<Node> nodes_;
  std::vector<uint8_t> edge_bytes_;
  std::vector<uint32_t> edge_children_;
  std::array<uint32_t, 256> root_children_{};
};

}  // namespace crawldb::codecs
