#include "codecs/url_block_model.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/url_block_codec.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

// Sorted distinct keys shaped like canonical URL keys: reversed host, mark, path.
std::vector<std::string> UrlishKeys(size_t count, uint64_t seed) {
  static const char* const kHosts[] = {"com,example,www(", "com,news,www)", "org,wiki,en(",
                                       "uk,co,bbc,news("};
  static const char* const kWords[] = {"articles", "2007",  "index.html",          "comments",
                                       "story",    "world", "the-news-of-the-day", "id"};
  std::mt19937_64 rng(seed);
  std::set<std::string> keys;
  while (keys.size() < count) {
    std::string key = kHosts[rng() % 4];
    for (int segments = 1 + static_cast<int>(rng() % 4); segments > 0; --segments) {
      key += kWords[rng() % 8];
      key += '/';
      if (rng() % 3 == 0) key += std::to_string(rng() % 100000);
    }
    keys.insert(key);
  }
  return {keys.begin(), keys.end()};
}

std::vector<absl::string_view> Views(const std::vector<std::string>& keys) {
  return {keys.begin(), keys.end()};
}

// Bits to code key[from, end) and end-of-key as Tokenize cuts it.
uint64_t CodedBits(const UrlBlockModel& model, absl::string_view key, size_t from,
                   const std::vector<uint32_t>& tokens) {
  uint64_t bits = 0;
  size_t pos = from;
  auto cluster = [&] {
    return model.Cluster(pos == 0 ? UrlBlockModel::kStartContext
                                  : static_cast<uint8_t>(key[pos - 1]));
  };
  for (uint32_t token : tokens) {
    bits += model.TokenLength(cluster(), token);
    pos += token < 256 ? 1 : model.symbols()[token - UrlBlockModel::kFirstSymbolToken].size();
  }
  return bits + model.TokenLength(cluster(), UrlBlockModel::kEndOfKey);
}

std::string Spell(const UrlBlockModel& model, const std::vector<uint32_t>& tokens) {
  std::string text;
  for (uint32_t token : tokens) {
    if (token < 256) {
      text += static_cast<char>(token);
    } else {
      absl::StrAppend(&text, model.symbols()[token - UrlBlockModel::kFirstSymbolToken]);
    }
  }
  return text;
}

TEST(UrlBlockModel, UntrainedModelCodesEveryByte) {
  const UrlBlockModel model;
  EXPECT_EQ(model.symbols().size(), 0u);
  EXPECT_EQ(model.cluster_count(), 1);
  for (uint32_t t = 0; t <= UrlBlockModel::kEndOfKey; ++t) EXPECT_GT(model.TokenLength(0, t), 0);
  EXPECT_LT(model.TokenLength(0, 'a'), model.TokenLength(0, 0));
  for (uint32_t v = 0; v < 256; ++v) EXPECT_GT(model.SharedLength(v), 0);
  absl::StatusOr<UrlBlockModel> loaded = UrlBlockModel::Load(model.Serialize());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->Serialize(), model.Serialize());
}

TEST(UrlBlockModel, TrainsSerializesAndLoads) {
  const std::vector<std::string> keys = UrlishKeys(3000, 1);
  UrlBlockModelOptions options;
  options.block_keys = 16;
  options.max_symbols = 200;
  options.clusters = 6;
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Train(Views(keys), options);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_GT(model->symbols().size(), 10u);
  EXPECT_LE(model->symbols().size(), 200u);
  EXPECT_GE(model->cluster_count(), 2);
  EXPECT_LE(model->cluster_count(), 6);
  const std::vector<uint8_t> bytes = model->Serialize();
  EXPECT_EQ(bytes[0], UrlBlockModel::kVersion);
  absl::StatusOr<UrlBlockModel> loaded = UrlBlockModel::Load(bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->Serialize(), bytes);
  EXPECT_EQ(loaded->symbols(), model->symbols());
  // Training is deterministic.
  EXPECT_EQ(UrlBlockModel::Train(Views(keys), options)->Serialize(), bytes);
}

TEST(UrlBlockModel, TrainsOnTinyAndEmptyInput) {
  for (const std::vector<std::string>& keys :
       {std::vector<std::string>{}, std::vector<std::string>{""}, std::vector<std::string>{"a"},
        std::vector<std::string>{"a", "b"}}) {
    absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Train(Views(keys));
    ASSERT_TRUE(model.ok()) << model.status();
    EXPECT_TRUE(UrlBlockModel::Load(model->Serialize()).ok());
    for (uint32_t t = 0; t <= UrlBlockModel::kEndOfKey; ++t) {
      EXPECT_GT(model->TokenLength(model->Cluster(UrlBlockModel::kStartContext), t), 0);
    }
  }
}

TEST(UrlBlockModel, RefusesBadOptions) {
  UrlBlockModelOptions options;
  options.block_keys = 0;
  EXPECT_EQ(UrlBlockModel::Train({}, options).status().message(),
            "url_block_model: block_keys must be at least 1");
  options = {};
  options.clusters = 33;
  EXPECT_EQ(UrlBlockModel::Train({}, options).status().message(),
            "url_block_model: clusters 33 is not in [1, 32]");
  options = {};
  options.max_symbols = kMaxSymbols + 1;
  EXPECT_EQ(UrlBlockModel::Train({}, options).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(UrlBlockModel, TokenizeSpellsTheKeyWithTheFewestBits) {
  const std::vector<std::string> keys = UrlishKeys(2000, 2);
  UrlBlockModelOptions options;
  options.max_symbols = 300;
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Train(Views(keys), options);
  ASSERT_TRUE(model.ok());
  const SymbolTable symbols = *SymbolTable::FromSymbols(model->symbols());
  std::vector<uint32_t> tokens, greedy;
  for (size_t i = 0; i < keys.size(); i += 7) {
    const std::string& key = keys[i];
    for (size_t from : {size_t{0}, key.size() / 2, key.size()}) {
      tokens.clear();
      model->Tokenize(key, from, &tokens);
      ASSERT_EQ(Spell(*model, tokens), key.substr(from));
      // Never worse than the greedy longest-match parse (when that one is codable).
      greedy.clear();
      bool codable = true;
      for (size_t pos = from; pos < key.size();) {
        const auto [symbol, length] = symbols.LongestMatch(key, pos);
        const uint32_t token =
            length == 0 ? static_cast<uint8_t>(key[pos])
                        : UrlBlockModel::kFirstSymbolToken + static_cast<uint32_t>(symbol);
        const int cluster = model->Cluster(pos == 0 ? UrlBlockModel::kStartContext
                                                    : static_cast<uint8_t>(key[pos - 1]));
        codable &= model->TokenLength(cluster, token) > 0;
        greedy.push_back(token);
        pos += std::max<size_t>(length, 1);
      }
      if (codable) {
        EXPECT_LE(CodedBits(*model, key, from, tokens), CodedBits(*model, key, from, greedy));
      }
    }
  }
}

TEST(UrlBlockModel, DecodingTablesMatchTheCodes) {
  const std::vector<std::string> keys = UrlishKeys(1500, 3);
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Train(Views(keys));
  ASSERT_TRUE(model.ok());
  const size_t tokens = UrlBlockModel::kFirstSymbolToken + model->symbols().size();
  constexpr uint32_t kTableEntries = uint32_t{1} << UrlBlockModel::kCodeBits;
  for (int k = 0; k < model->cluster_count(); ++k) {
    // Built with the model, every entry set (every codeword has a length).
    const uint32_t* table = model->TokenTables() + k * kTableEntries;
    ASSERT_EQ(std::count(table, table + kTableEntries, 0u), 0) << "cluster " << k;
    for (uint32_t t = 0; t < tokens; ++t) {
      const int length = model->TokenLength(k, t);
      if (length == 0) continue;
      const uint32_t peek = model->encoder().TokenCode(k, t) << (UrlBlockModel::kCodeBits - length);
      const uint32_t entry = model->TokenTables()[k << UrlBlockModel::kCodeBits | peek];
      ASSERT_EQ(entry & 63, static_cast<uint32_t>(length));
      ASSERT_EQ(entry >> 17, t);
      const size_t bytes = t < 256 ? 1 : t == 256 ? 0 : model->symbols()[t - 257].size();
      ASSERT_EQ((entry >> 6) & 31, bytes);
      ASSERT_EQ(absl::string_view(model->TokenBytes(t), bytes),
                t < 256    ? std::string(1, static_cast<char>(t))
                : t == 256 ? std::string()
                           : model->symbols()[t - 257]);
    }
  }
  for (uint32_t v = 0; v < 256; ++v) {
    const int length = model->SharedLength(v);
    const uint32_t peek = model->encoder().SharedCode(v) << (UrlBlockModel::kCodeBits - length);
    EXPECT_EQ(model->SharedTable()[peek], length | v << 4);
  }
}

// Serialized model bytes: version, no symbols, `clusters` clusters, flat codes.
std::vector<uint8_t> HandMadeModel(int clusters) {
  std::vector<uint8_t> bytes = {1, 0, static_cast<uint8_t>(clusters)};
  for (int c = 0; c < UrlBlockModel::kContexts; ++c)
    bytes.push_back(static_cast<uint8_t>(c % clusters));
  // 257 tokens: 255 of 8 bits and 2 of 9 bits make a complete code (255/256 + 2/512 = 1).
  for (int k = 0; k < clusters; ++k) {
    for (int t = 0; t < 254; t += 2) bytes.push_back(0x88);
    bytes.push_back(0x89);  // tokens 254 (8 bits) and 255 (9 bits)
    bytes.push_back(0x90);  // token 256 (9 bits), padding nibble
  }
  for (int v = 0; v < 256; v += 2) bytes.push_back(0x88);
  return bytes;
}

TEST(UrlBlockModel, LoadsAHandMadeModel) {
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Load(HandMadeModel(3));
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->cluster_count(), 3);
  EXPECT_EQ(model->Cluster(4), 1);
  EXPECT_EQ(model->TokenLength(2, 'a'), 8);
  EXPECT_EQ(model->TokenLength(2, UrlBlockModel::kEndOfKey), 9);
}

// Symbols are distinct by the format, but a reader does not check it; the encoder, built at
// the first encode, keeps both and uses the last.
TEST(UrlBlockModel, LoadsRepeatedSymbolsAndBuildsTheEncoderOnlyWhenAsked) {
  std::vector<uint8_t> bytes = {1, 2, 2, 'a', 'b', 2, 'a', 'b', 1};
  bytes.resize(bytes.size() + UrlBlockModel::kContexts, 0);
  // 259 tokens: 254 of 8 bits; 254, 255, 256 and the second "ab" (258) of 9 bits: complete.
  for (int t = 0; t < 254; t += 2) bytes.push_back(0x88);
  for (uint8_t pair : {0x99, 0x90, 0x90}) bytes.push_back(pair);
  for (int v = 0; v < 256; v += 2) bytes.push_back(0x88);
  absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Load(bytes);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_EQ(model->symbols(), std::vector<std::string>({"ab", "ab"}));
  const size_t loaded_bytes = model->MemoryBytes();
  std::vector<uint8_t> coded;
  ASSERT_TRUE(AppendEncodedUrlKey(*model, "xabx", &coded).ok());
  EXPECT_GT(model->MemoryBytes(), loaded_bytes);  // The encoder was built by the encode.
  EXPECT_EQ(coded.size(), 5u);  // 'x' 8 + "ab" 9 + 'x' 8 + end 9 = 34 bits: the symbol is used.
  std::string key;
  ASSERT_TRUE(DecodeUrlKey(*model, coded, &key).ok());
  EXPECT_EQ(key, "xabx");
}

TEST(UrlBlockModel, LoadNamesWhatIsWrong) {
  auto message = [](std::vector<uint8_t> bytes) {
    absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Load(bytes);
    EXPECT_EQ(model.status().code(), absl::StatusCode::kDataLoss);
    return std::string(model.status().message());
  };
  const std::vector<uint8_t> good = HandMadeModel(2);
  EXPECT_EQ(message({}), "url_block_model: empty model");
  std::vector<uint8_t> bytes = good;
  bytes[0] = 2;
  EXPECT_EQ(message(bytes), "url_block_model: unknown version 2; this build reads version 1");
  bytes = good;
  bytes[2] = 0;
  EXPECT_EQ(message(bytes), "url_block_model: cluster count 0 not in [1, 32]");
  bytes = good;
  bytes[3 + 200] = 2;
  EXPECT_EQ(message(bytes), "url_block_model: context 200 maps to cluster 2 of 2");
  bytes = good;
  bytes[3 + 257] = 0x08;  // token 0 loses its codeword
  EXPECT_EQ(message(bytes),
            "url_block_model: cluster 0: huffman: the code lengths are not a complete prefix "
            "code (incomplete)");
  bytes = good;
  bytes[3 + 257 + 128] = 0x91;  // nonzero padding nibble after token 256
  EXPECT_EQ(message(bytes), "url_block_model: truncated or badly padded code of cluster 0");
  bytes = good;
  bytes.push_back(0);
  EXPECT_EQ(message(bytes), "url_block_model: 1 bytes after the model");
  bytes = good;
  bytes[1] = 1;  // one symbol, but its bytes are the cluster count and the context map
  EXPECT_FALSE(UrlBlockModel::Load(bytes).ok());
  bytes = {1, 1, 1, 'a', 1};
  EXPECT_EQ(message(bytes), "url_block_model: symbol 0 \"a\" has 1 bytes, not in [2, 16]");
}

TEST(UrlBlockModel, LoadSurvivesEveryTruncationAndRandomFlips) {
  const std::vector<std::string> keys = UrlishKeys(800, 4);
  UrlBlockModelOptions options;
  options.max_symbols = 60;
  options.clusters = 3;
  const std::vector<uint8_t> good = UrlBlockModel::Train(Views(keys), options)->Serialize();
  for (size_t size = 0; size < good.size(); ++size) {
    const std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<ptrdiff_t>(size));
    EXPECT_EQ(UrlBlockModel::Load(cut).status().code(), absl::StatusCode::kDataLoss) << size;
  }
  std::mt19937_64 rng(6);
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> bytes = good;
    for (int flips = 1 + static_cast<int>(rng() % 3); flips > 0; --flips) {
      bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    }
    absl::StatusOr<UrlBlockModel> model = UrlBlockModel::Load(bytes);
    if (model.ok()) {
      EXPECT_EQ(model->Serialize(), bytes);
    } else {
      EXPECT_EQ(model.status().code(), absl::StatusCode::kDataLoss);
    }
  }
}

}  // namespace
}  // namespace crawldb::codecs
