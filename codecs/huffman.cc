#include "codecs/huffman.h"

#include <algorithm>
#include <iterator>
#include <numeric>

#include "absl/strings/str_cat.h"

namespace crawldb::codecs {

absl::StatusOr<std::vector<uint8_t>> HuffmanCodeLengths(absl::Span<const uint64_t> weights,
                                                        int max_length) {
  if (max_length < 1 || max_length > kMaxHuffmanCodeLength) {
    return absl::InvalidArgumentError(absl::StrCat("huffman: max_length ", max_length,
                                                   " is not in [1, ", kMaxHuffmanCodeLength, "]"));
  }
  std::vector<uint8_t> lengths(weights.size(), 0);
  std::vector<uint32_t> leaves;  // Symbols with weight, lightest first.
  for (uint32_t s = 0; s < weights.size(); ++s) {
    if (weights[s] != 0) leaves.push_back(s);
  }
  std::stable_sort(leaves.begin(), leaves.end(),
                   [&](uint32_t a, uint32_t b) { return weights[a] < weights[b]; });
  const size_t n = leaves.size();
  if (n == 0) return lengths;
  if (n == 1) {
    lengths[leaves[0]] = 1;
    return lengths;
  }
  if (n > (uint64_t{1} << max_length)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "huffman: ", n, " symbols do not fit in codewords of at most ", max_length, " bits"));
  }

  // Package-merge. Items 0..n−1 are the leaves; later items are packages of two items of the
  // level below. A list holds the items of one level, lightest first.
  struct Item {
    uint64_t weight;
    uint32_t left, right;  // Children of a package; unused for a leaf.
  };
  std::vector<Item> items;
  items.reserve(n * 2 * static_cast<size_t>(max_length));
  for (uint32_t s : leaves) items.push_back({weights[s], 0, 0});
  std::vector<uint32_t> leaf_items(n);
  std::iota(leaf_items.begin(), leaf_items.end(), 0);
  std::vector<uint32_t> level = leaf_items, packages, merged;
  for (int depth = 1; depth < max_length; ++depth) {
    packages.clear();
    for (size_t i = 0; i + 1 < level.size(); i += 2) {
      packages.push_back(static_cast<uint32_t>(items.size()));
      items.push_back(
          {items[level[i]].weight + items[level[i + 1]].weight, level[i], level[i + 1]});
    }
    merged.clear();
    std::merge(leaf_items.begin(), leaf_items.end(), packages.begin(), packages.end(),
               std::back_inserter(merged),
               [&](uint32_t a, uint32_t b) { return items[a].weight < items[b].weight; });
    level.swap(merged);
  }
  // The 2n − 2 lightest items of the last level: a leaf's length is the number of times it
  // appears in them, counting the leaves inside packages.
  std::vector<uint32_t> stack(level.begin(), level.begin() + static_cast<ptrdiff_t>(2 * n - 2));
  while (!stack.empty()) {
    const uint32_t item = stack.back();
    stack.pop_back();
    if (item < n) {
      ++lengths[leaves[item]];
    } else {
      stack.push_back(items[item].left);
      stack.push_back(items[item].right);
    }
  }
  return lengths;
}

absl::Status CheckCompleteCode(absl::Span<const uint8_t> lengths, int max_length) {
  if (max_length < 1 || max_length > kMaxHuffmanCodeLength) {
    return absl::DataLossError(absl::StrCat("huffman: max_length ", max_length, " out of range"));
  }
  uint64_t kraft = 0;  // Σ 2^(max_length − l): the code is complete iff it is 2^max_length.
  for (size_t s = 0; s < lengths.size(); ++s) {
    if (lengths[s] > max_length) {
      return absl::DataLossError(
          absl::StrCat("huffman: symbol ", s, " has length ", lengths[s], " above ", max_length));
    }
    if (lengths[s] != 0) kraft += uint64_t{1} << (max_length - lengths[s]);
  }
  if (kraft != uint64_t{1} << max_length) {
    return absl::DataLossError(
        absl::StrCat("huffman: the code lengths are not a complete prefix code",
                     kraft > (uint64_t{1} << max_length) ? " (oversubscribed)" : " (incomplete)"));
  }
  return absl::OkStatus();
}

std::vector<uint32_t> CanonicalCodes(absl::Span<const uint8_t> lengths) {
  std::vector<uint32_t> codes(lengths.size());
  CanonicalCodes(lengths, absl::MakeSpan(codes));
  return codes;
}

CodeLengthCounts FirstCanonicalCodes(const CodeLengthCounts& count) {
  CodeLengthCounts first = {};
  for (int l = 2; l <= kMaxHuffmanCodeLength; ++l) first[l] = (first[l - 1] + count[l - 1]) << 1;
  return first;
}

void CanonicalCodes(absl::Span<const uint8_t> lengths, absl::Span<uint32_t> codes) {
  CodeLengthCounts count = {};
  for (uint8_t l : lengths) ++count[l];
  CodeLengthCounts next = FirstCanonicalCodes(count);
  for (size_t s = 0; s < lengths.size(); ++s) {
    codes[s] = lengths[s] != 0 ? next[lengths[s]]++ : 0;
  }
}

}  // namespace crawldb::codecs
