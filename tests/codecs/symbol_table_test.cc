#include "codecs/symbol_table.h"

#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

using Matches = std::vector<std::pair<size_t, size_t>>;
using std::string_literals::operator""s;

Matches AllMatches(const SymbolTable& table, absl::string_view text, size_t pos) {
  Matches matches;
  table.ForEachMatch(text, pos,
                     [&](size_t index, size_t length) { matches.emplace_back(index, length); });
  return matches;
}

// What ForEachMatch must report, by brute force.
Matches BruteForceMatches(const std::vector<std::string>& symbols, absl::string_view text,
                          size_t pos) {
  Matches matches;
  for (size_t i = 0; i < symbols.size(); ++i) {
    if (absl::StartsWith(text.substr(pos), symbols[i])) matches.emplace_back(i, symbols[i].size());
  }
  std::sort(matches.begin(), matches.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  return matches;
}

TEST(SymbolTable, FindsEveryPrefixSymbolShortestFirst) {
  const std::vector<std::string> symbols = {"http", "ht", "https", "www.", "tp", "\xff\x00"s};
  absl::StatusOr<SymbolTable> table = SymbolTable::FromSymbols(symbols);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(AllMatches(*table, "https://www.", 0), (Matches{{1, 2}, {0, 4}, {2, 5}}));
  EXPECT_EQ(AllMatches(*table, "https://www.", 2), (Matches{{4, 2}}));
  EXPECT_EQ(AllMatches(*table, "https://www.", 8), (Matches{{3, 4}}));
  EXPECT_EQ(AllMatches(*table, "https://www.", 9), Matches{});
  EXPECT_EQ(AllMatches(*table, "https://www.", 12), Matches{});
  EXPECT_EQ(AllMatches(*table, "h", 0), Matches{});
  EXPECT_EQ(AllMatches(*table, "a\xff\x00"s, 1), (Matches{{5, 2}}));
  EXPECT_EQ(table->LongestMatch("https", 0), std::make_pair(size_t{2}, size_t{5}));
  EXPECT_EQ(table->LongestMatch("x", 0), std::make_pair(size_t{0}, size_t{0}));
}

TEST(SymbolTable, MatchesAgreeWithBruteForce) {
  std::mt19937_64 rng(3);
  const std::string alphabet = "ab/.\x00\xff"s;
  auto random_string = [&](size_t min, size_t max) {
    std::string s(min + rng() % (max - min + 1), 'a');
    for (char& c : s) c = alphabet[rng() % alphabet.size()];
    return s;
  };
  for (int round = 0; round < 50; ++round) {
    std::vector<std::string> symbols;
    for (int i = 0; i < 60; ++i) {
      std::string s = random_string(kMinSymbolBytes, kMaxSymbolBytes);
      if (std::find(symbols.begin(), symbols.end(), s) == symbols.end()) symbols.push_back(s);
    }
    absl::StatusOr<SymbolTable> table = SymbolTable::FromSymbols(symbols);
    ASSERT_TRUE(table.ok());
    for (int t = 0; t < 50; ++t) {
      const std::string text = random_string(0, 40);
      for (size_t pos = 0; pos <= text.size(); ++pos) {
        ASSERT_EQ(AllMatches(*table, text, pos), BruteForceMatches(symbols, text, pos));
      }
    }
  }
}

TEST(SymbolTable, FromSymbolsRefusesBadTables) {
  EXPECT_EQ(SymbolTable::FromSymbols({"a"}).status().message(),
            "symbol_table: symbol \"a\" has 1 bytes, not in [2, 16]");
  EXPECT_EQ(SymbolTable::FromSymbols({std::string(17, 'x')}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(SymbolTable::FromSymbols({"ab", "cd", "ab"}).status().message(),
            "symbol_table: symbol \"ab\" appears twice");
  // Allowed, a repeat is kept and matching finds the last of the twins.
  absl::StatusOr<SymbolTable> repeats =
      SymbolTable::FromSymbols({"ab", "cd", "ab"}, SymbolTable::Repeats::kAllow);
  ASSERT_TRUE(repeats.ok());
  EXPECT_EQ(repeats->size(), 3u);
  EXPECT_EQ(repeats->LongestMatch("xabx", 1), (std::pair<size_t, size_t>(2, 2)));
  std::vector<std::string> too_many;
  for (size_t i = 0; i <= kMaxSymbols; ++i) too_many.push_back("s" + std::to_string(i));
  EXPECT_FALSE(SymbolTable::FromSymbols(too_many).ok());
  EXPECT_TRUE(SymbolTable::FromSymbols({}).ok());
}

TEST(SymbolTable, LearnsFrequentSubstrings) {
  std::vector<std::string> texts;
  for (int i = 0; i < 500; ++i) {
    texts.push_back("www.example.com/articles/" + std::to_string(i * 7919 % 1000) + ".html");
  }
  const std::vector<absl::string_view> sample(texts.begin(), texts.end());
  const SymbolTable table = SymbolTable::Learn(sample, 32);
  EXPECT_LE(table.size(), 32u);
  ASSERT_GT(table.size(), 0u);
  // The repeated text is covered by long symbols.
  const std::string& text = texts[0];
  size_t tokens = 0;
  for (size_t pos = 0; pos < text.size(); ++tokens) {
    pos += std::max<size_t>(table.LongestMatch(text, pos).second, 1);
  }
  EXPECT_LT(tokens, text.size() / 4) << text;
  for (const std::string& symbol : table.symbols()) {
    EXPECT_GE(symbol.size(), kMinSymbolBytes);
    EXPECT_LE(symbol.size(), kMaxSymbolBytes);
  }
}

TEST(SymbolTable, LearnIsDeterministicAndHandlesEmptyInput) {
  std::vector<std::string> texts;
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300; ++i) texts.push_back("k" + std::to_string(rng() % 5000) + "/x/y");
  const std::vector<absl::string_view> sample(texts.begin(), texts.end());
  EXPECT_EQ(SymbolTable::Learn(sample, 50).symbols(), SymbolTable::Learn(sample, 50).symbols());
  EXPECT_EQ(SymbolTable::Learn({}, 50).size(), 0u);
  EXPECT_EQ(SymbolTable::Learn(sample, 0).size(), 0u);
  const std::vector<absl::string_view> empty_strings = {"", "", "a"};
  EXPECT_EQ(SymbolTable::Learn(empty_strings, 10).size(), 0u);
}

}  // namespace
}  // namespace crawldb::codecs
