#include "codecs/canonical_huffman.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"

namespace crawldb::codecs {
namespace {

// Optimal code lengths for the used symbols of `frequencies` (Huffman's algorithm over a heap),
// unbounded.
std::vector<uint8_t> UnlimitedLengths(absl::Span<const uint64_t> frequencies) {
  std::vector<uint8_t> lengths(frequencies.size(), 0);
  std::vector<uint32_t> symbols;  // Leaf i is symbol symbols[i].
  for (uint32_t s = 0; s < frequencies.size(); ++s) {
    if (frequencies[s] != 0) symbols.push_back(s);
  }
  if (symbols.size() == 1) lengths[symbols[0]] = 1;
  if (symbols.size() < 2) return lengths;
  // Nodes: leaves 0 … m − 1, then the merged ones; parent[] links each node to its merge.
  const size_t m = symbols.size();
  std::vector<uint32_t> parent(2 * m - 1, 0);
  using Entry = std::pair<uint64_t, uint32_t>;  // (weight, node)
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap;
  for (uint32_t i = 0; i < m; ++i) heap.push({frequencies[symbols[i]], i});
  for (uint32_t next = static_cast<uint32_t>(m); heap.size() > 1; ++next) {
    const Entry a = heap.top();
    heap.pop();
    const Entry b = heap.top();
    heap.pop();
    parent[a.second] = parent[b.second] = next;
    heap.push({a.first + b.first, next});
  }
  // Merged nodes come after their children, so depths fill from the root (the last) down.
  std::vector<uint32_t> depth(2 * m - 1, 0);
  for (size_t node = 2 * m - 2; node-- > 0;) depth[node] = depth[parent[node]] + 1;
  for (size_t i = 0; i < m; ++i) {
    lengths[symbols[i]] = static_cast<uint8_t>(std::min<uint32_t>(depth[i], 255));
  }
  return lengths;
}

absl::Status Corrupt(const std::string& what) {
  return absl::DataLossError(absl::StrCat("canonical_huffman: ", what));
}

}  // namespace

std::vector<uint8_t> HuffmanCode::Lengths(absl::Span<const uint64_t> frequencies) {
  std::vector<uint64_t> scaled(frequencies.begin(), frequencies.end());
  for (;;) {
    std::vector<uint8_t> lengths = UnlimitedLengths(scaled);
    if (lengths.empty() || *std::max_element(lengths.begin(), lengths.end()) <= kMaxLength) {
      return lengths;
    }
    for (uint64_t& f : scaled) {
      if (f != 0) f = f / 2 + 1;
    }
  }
}

absl::StatusOr<HuffmanCode> HuffmanCode::FromLengths(std::vector<uint8_t> lengths) {
  if (lengths.size() >= (uint64_t{1} << (32 - kLengthBits))) {
    return absl::InvalidArgumentError("canonical_huffman: alphabet of 2^27 symbols or more");
  }
  HuffmanCode code;
  for (uint32_t s = 0; s < lengths.size(); ++s) {
    if (lengths[s] > kMaxLength) {
      return absl::InvalidArgumentError(
          absl::StrCat("canonical_huffman: symbol ", s, " has length ", int{lengths[s]}));
    }
    if (lengths[s] != 0) ++code.count_[lengths[s]];
  }
  // Kraft: at each length, the codewords not yet taken must cover the symbols of that length.
  uint64_t open = 1;
  uint32_t codeword = 0;
  uint32_t index = 0;
  for (int l = 1; l <= kMaxLength; ++l) {
    open <<= 1;
    codeword <<= 1;
    if (code.count_[l] > open) {
      return absl::InvalidArgumentError("canonical_huffman: lengths over-subscribe the code");
    }
    open -= code.count_[l];
    code.first_code_[l] = codeword;
    code.first_index_[l] = index;
    codeword += code.count_[l];
    index += code.count_[l];
  }
  code.sorted_.resize(index);
  code.codewords_.assign(lengths.size(), 0);
  std::array<uint32_t, kMaxLength + 1> next = code.first_index_;
  for (uint32_t s = 0; s < lengths.size(); ++s) {
    if (lengths[s] == 0) continue;
    const int l = lengths[s];
    const uint32_t rank = next[l]++;
    code.sorted_[rank] = s;
    code.codewords_[s] = code.first_code_[l] + (rank - code.first_index_[l]);
    if (l <= kFastBits) {
      const uint32_t first = code.codewords_[s] << (kFastBits - l);
      const uint32_t entry = (s << kLengthBits) | static_cast<uint32_t>(l);
      std::fill(code.fast_.begin() + first, code.fast_.begin() + first + (1u << (kFastBits - l)),
                entry);
    }
  }
  code.lengths_ = std::move(lengths);
  return code;
}

uint32_t HuffmanCode::ReadLong(BitReader& in, uint64_t bits) const {
  for (int l = kFastBits + 1; l <= kMaxLength; ++l) {
    const uint64_t offset = (bits >> (kMaxLength - l)) - first_code_[l];
    if (offset < count_[l]) {  // Unsigned: also false below the first codeword.
      in.SkipBits(static_cast<uint64_t>(l));
      return sorted_[first_index_[l] + offset];
    }
  }
  in.Fail();
  return 0;
}

void HuffmanCode::AppendTo(std::vector<uint8_t>* out) const {
  AppendVarint(lengths_.size(), out);
  AppendVarint(sorted_.size(), out);
  uint64_t next = 0;  // One past the previous used symbol.
  for (uint32_t s = 0; s < lengths_.size(); ++s) {
    if (lengths_[s] == 0) continue;
    AppendVarint(s - next, out);
    out->push_back(lengths_[s]);
    next = uint64_t{s} + 1;
  }
}

uint64_t HuffmanCode::TableBits() const {
  uint64_t bytes = VarintLength(lengths_.size()) + VarintLength(sorted_.size());
  uint64_t next = 0;
  for (uint32_t s = 0; s < lengths_.size(); ++s) {
    if (lengths_[s] == 0) continue;
    bytes += VarintLength(s - next) + 1;
    next = uint64_t{s} + 1;
  }
  return 8 * bytes;
}

absl::StatusOr<HuffmanCode> HuffmanCode::Parse(LittleEndianReader* in, uint32_t max_alphabet) {
  uint64_t alphabet;
  uint64_t used;
  if (!in->ReadVarint(&alphabet) || !in->ReadVarint(&used)) return Corrupt("truncated table");
  if (alphabet > max_alphabet || used > alphabet) {
    return Corrupt(absl::StrCat("a table of ", used, " of ", alphabet, " symbols; at most ",
                                max_alphabet, " are possible"));
  }
  // Every used symbol takes two bytes at least: refuse counts the input cannot hold before
  // allocating the alphabet.
  if (used > in->remaining() / 2) return Corrupt("truncated table");
  std::vector<uint8_t> lengths(alphabet, 0);
  uint64_t next = 0;
  for (uint64_t i = 0; i < used; ++i) {
    uint64_t gap;
    uint8_t length;
    if (!in->ReadVarint(&gap) || !in->Read(&length)) return Corrupt("truncated table");
    if (gap >= alphabet - next) return Corrupt("a symbol outside the alphabet");
    if (length < 1 || length > kMaxLength) {
      return Corrupt(absl::StrCat("a length of ", int{length}, " bits"));
    }
    lengths[next + gap] = length;
    next += gap + 1;
  }
  absl::StatusOr<HuffmanCode> code = FromLengths(std::move(lengths));
  if (!code.ok()) return Corrupt("lengths over-subscribe the code");
  return code;
}

}  // namespace crawldb::codecs
