#include "codecs/huffman.h"

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

uint64_t Cost(const std::vector<uint64_t>& weights, const std::vector<uint8_t>& lengths) {
  uint64_t cost = 0;
  for (size_t s = 0; s < weights.size(); ++s) cost += weights[s] * lengths[s];
  return cost;
}

// Σ w·l of an unconstrained Huffman code, by the textbook merge of the two lightest weights:
// each merge adds its weight once per level it sits under.
uint64_t HuffmanCost(const std::vector<uint64_t>& weights) {
  std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> heap;
  for (uint64_t w : weights) {
    if (w != 0) heap.push(w);
  }
  if (heap.size() == 1) return heap.top();
  uint64_t cost = 0;
  while (heap.size() > 1) {
    const uint64_t a = heap.top();
    heap.pop();
    const uint64_t b = heap.top();
    heap.pop();
    cost += a + b;
    heap.push(a + b);
  }
  return cost;
}

TEST(Huffman, DocumentedExample) {
  const std::vector<uint64_t> weights = {5, 2, 1, 1};
  absl::StatusOr<std::vector<uint8_t>> lengths = HuffmanCodeLengths(weights, 8);
  ASSERT_TRUE(lengths.ok()) << lengths.status();
  EXPECT_EQ(*lengths, (std::vector<uint8_t>{1, 2, 3, 3}));
  EXPECT_EQ(CanonicalCodes(*lengths), (std::vector<uint32_t>{0b0, 0b10, 0b110, 0b111}));
  EXPECT_TRUE(CheckCompleteCode(*lengths, 8).ok());
  // By length: one codeword of 1 bit, one of 2, two of 3; each length's first codeword.
  CodeLengthCounts count = {};
  count[1] = 1;
  count[2] = 1;
  count[3] = 2;
  const CodeLengthCounts first = FirstCanonicalCodes(count);
  EXPECT_EQ(first[1], 0b0u);
  EXPECT_EQ(first[2], 0b10u);
  EXPECT_EQ(first[3], 0b110u);
  EXPECT_EQ(first[4], 0b10000u);  // past the last: where a longer codeword would start
}

TEST(Huffman, ZeroWeightsGetNoCodeword) {
  absl::StatusOr<std::vector<uint8_t>> lengths = HuffmanCodeLengths({0, 3, 0, 3, 0}, 4);
  ASSERT_TRUE(lengths.ok());
  EXPECT_EQ(*lengths, (std::vector<uint8_t>{0, 1, 0, 1, 0}));
  EXPECT_EQ(CanonicalCodes(*lengths), (std::vector<uint32_t>{0, 0, 0, 1, 0}));
}

TEST(Huffman, OneOrNoSymbol) {
  EXPECT_EQ(*HuffmanCodeLengths({0, 0}, 3), (std::vector<uint8_t>{0, 0}));
  EXPECT_EQ(*HuffmanCodeLengths({0, 7}, 3), (std::vector<uint8_t>{0, 1}));
  // One codeword of length 1 leaves half the code space unused.
  EXPECT_FALSE(CheckCompleteCode({0, 1}, 3).ok());
}

TEST(Huffman, RefusesMoreSymbolsThanTheLimitAllows) {
  const std::vector<uint64_t> nine(9, 1);
  absl::StatusOr<std::vector<uint8_t>> lengths = HuffmanCodeLengths(nine, 3);
  EXPECT_EQ(lengths.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(lengths.status().message(),
            "huffman: 9 symbols do not fit in codewords of at most 3 bits");
  EXPECT_EQ(*HuffmanCodeLengths(std::vector<uint64_t>(8, 1), 3), std::vector<uint8_t>(8, 3));
  EXPECT_FALSE(HuffmanCodeLengths(nine, 0).ok());
  EXPECT_FALSE(HuffmanCodeLengths(nine, 32).ok());
}

TEST(Huffman, LimitBindsOnFibonacciWeights) {
  // Fibonacci weights make the unconstrained code as deep as there are symbols.
  std::vector<uint64_t> weights = {1, 1};
  while (weights.size() < 20)
    weights.push_back(weights[weights.size() - 1] + weights[weights.size() - 2]);
  for (int limit = 5; limit <= 20; ++limit) {
    absl::StatusOr<std::vector<uint8_t>> lengths = HuffmanCodeLengths(weights, limit);
    ASSERT_TRUE(lengths.ok());
    for (uint8_t l : *lengths) EXPECT_LE(l, limit);
    EXPECT_TRUE(CheckCompleteCode(*lengths, limit).ok()) << limit;
    if (limit >= 19) {
      EXPECT_EQ(Cost(weights, *lengths), HuffmanCost(weights)) << limit;
    }
  }
}

// The smallest Σ w·l over every assignment of lengths in [1, limit] with Kraft sum ≤ 1, by
// exhaustive search (tiny inputs only).
uint64_t BestLimitedCost(const std::vector<uint64_t>& weights, int limit) {
  const size_t n = weights.size();
  std::vector<uint8_t> lengths(n, 1);
  uint64_t best = UINT64_MAX;
  std::function<void(size_t, uint64_t)> search = [&](size_t i, uint64_t kraft) {
    if (kraft > (uint64_t{1} << limit)) return;
    if (i == n) {
      best = std::min(best, Cost(weights, lengths));
      return;
    }
    for (int l = 1; l <= limit; ++l) {
      lengths[i] = static_cast<uint8_t>(l);
      search(i + 1, kraft + (uint64_t{1} << (limit - l)));
    }
  };
  search(0, 0);
  return best;
}

TEST(Huffman, OptimalAgainstExhaustiveSearch) {
  std::mt19937_64 rng(5);
  for (int round = 0; round < 200; ++round) {
    const size_t n = 2 + rng() % 5;
    const int limit = 3 + static_cast<int>(rng() % 2);
    std::vector<uint64_t> weights(n);
    for (uint64_t& w : weights) w = 1 + rng() % (round % 2 == 0 ? 5 : 1000);
    absl::StatusOr<std::vector<uint8_t>> lengths = HuffmanCodeLengths(weights, limit);
    ASSERT_TRUE(lengths.ok());
    EXPECT_EQ(Cost(weights, *lengths), BestLimitedCost(weights, limit));
    EXPECT_TRUE(CheckCompleteCode(*lengths, limit).ok());
  }
}

TEST(Huffman, LargeAlphabetsAreCompleteAndOptimalWhenUnconstrained) {
  std::mt19937_64 rng(9);
  for (int round = 0; round < 20; ++round) {
    std::vector<uint64_t> weights(300 + rng() % 4000);
    for (uint64_t& w : weights) w = rng() % 3 == 0 ? 0 : 1 + rng() % (1 + rng() % 100000);
    absl::StatusOr<std::vector<uint8_t>> limited = HuffmanCodeLengths(weights, 12);
    ASSERT_TRUE(limited.ok());
    EXPECT_TRUE(CheckCompleteCode(*limited, 12).ok());
    absl::StatusOr<std::vector<uint8_t>> free = HuffmanCodeLengths(weights, 31);
    ASSERT_TRUE(free.ok());
    EXPECT_EQ(Cost(weights, *free), HuffmanCost(weights));
    EXPECT_GE(Cost(weights, *limited), Cost(weights, *free));
  }
}

TEST(Huffman, CanonicalCodesArePrefixFreeAndOrdered) {
  const std::vector<uint8_t> lengths = {3, 0, 2, 3, 2, 2};
  const std::vector<uint32_t> codes = CanonicalCodes(lengths);
  // Length 2: symbols 2, 4, 5 → 00, 01, 10; length 3: symbols 0, 3 → 110, 111.
  EXPECT_EQ(codes, (std::vector<uint32_t>{0b110, 0, 0b00, 0b111, 0b01, 0b10}));
}

TEST(Huffman, CheckCompleteCodeMessages) {
  EXPECT_EQ(CheckCompleteCode({1, 1, 1}, 4).message(),
            "huffman: the code lengths are not a complete prefix code (oversubscribed)");
  EXPECT_EQ(CheckCompleteCode({1, 2}, 4).message(),
            "huffman: the code lengths are not a complete prefix code (incomplete)");
  EXPECT_EQ(CheckCompleteCode({1, 5, 5}, 4).message(), "huffman: symbol 1 has length 5 above 4");
  EXPECT_EQ(CheckCompleteCode({1, 1}, 4).code(), absl::StatusCode::kOk);
  EXPECT_EQ(CheckCompleteCode({}, 4).code(), absl::StatusCode::kDataLoss);
}

}  // namespace
}  // namespace crawldb::codecs
