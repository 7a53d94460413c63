#include "codecs/url_block_codec.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "codecs/url_block_index.h"
#include "codecs/url_block_model.h"
#include "gtest/gtest.h"
#include "tests/codecs/codec_test_support.h"
#include "tests/shared_data.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::ExactCopy;
using std::string_literals::operator""s;

// Sorted distinct keys shaped like canonical URL keys: reversed host, mark, path and query.
std::vector<std::string> UrlishKeys(size_t count, uint64_t seed) {
  static const char* const kHosts[] = {"com,example,www(", "com,example,www)", "org,wiki,en(",
                                       "uk,co,bbc,news(", "com,blogspot,someone("};
  static const char* const kWords[] = {
      "articles", "2007",      "index.html", "comments", "story", "world", "the-news-of-the-day",
      "?id=",     "&amp;page="};
  std::mt19937_64 rng(seed);
  std::set<std::string> keys;
  while (keys.size() < count) {
    std::string key = kHosts[rng() % 5];
    for (int segments = 1 + static_cast<int>(rng() % 5); segments > 0; --segments) {
      key += kWords[rng() % 9];
      if (rng() % 2 == 0) key += std::to_string(rng() % 1000000);
      key += '/';
    }
    keys.insert(key);
  }
  return {keys.begin(), keys.end()};
}

std::vector<absl::string_view> Views(const std::vector<std::string>& keys) {
  return {keys.begin(), keys.end()};
}

const UrlBlockModel& TrainedModel() {
  static const UrlBlockModel* const model = [] {
    const std::vector<std::string> keys = UrlishKeys(4000, 100);
    UrlBlockModelOptions options;
    options.block_keys = 32;
    options.max_symbols = 500;
    options.clusters = 8;
    return new UrlBlockModel(*UrlBlockModel::Train(Views(keys), options));
  }();
  return *model;
}

// Decodes a whole block with a cursor, from an exact-size heap copy (so ASan sees over-reads).
absl::StatusOr<std::vector<std::string>> DecodeAll(const UrlBlockModel& model,
                                                   absl::string_view head,
                                                   std::optional<absl::string_view> next_head,
                                                   const std::vector<uint8_t>& block) {
  const std::unique_ptr<uint8_t[]> copy = ExactCopy(block);
  absl::StatusOr<UrlBlockReader> reader =
      UrlBlockReader::Open(model, head, next_head, absl::MakeConstSpan(copy.get(), block.size()));
  if (!reader.ok()) return reader.status();
  std::vector<std::string> keys;
  UrlBlockReader::Cursor cursor = reader->NewCursor();
  while (cursor.Next()) {
    EXPECT_EQ(cursor.index(), keys.size());
    keys.emplace_back(cursor.key());
    if (keys.size() > reader->size()) return absl::InternalError("cursor ran past the count");
  }
  if (!cursor.status().ok()) return cursor.status();
  if (keys.size() != reader->size()) return absl::InternalError("cursor stopped early");
  if (absl::Status s = reader->Validate(); !s.ok()) return s;
  return keys;
}

// A key above every key of the block, within the length limit: the head of the block after it.
std::string NextHead(const std::vector<std::string>& keys) {
  std::string next = keys.back();
  if (next.size() < kMaxUrlKeyBytes) return next + "\x01";
  while (static_cast<uint8_t>(next.back()) == 0xFF) next.pop_back();
  ++next.back();
  return next;
}

// Encodes `keys` as one block, alone and followed by a next block, and checks every way of
// reading it back.
void ExpectRoundTrip(const UrlBlockModel& model, const std::vector<std::string>& keys) {
  const std::string next = NextHead(keys);
  for (const std::optional<absl::string_view> next_head :
       {std::optional<absl::string_view>(), std::optional<absl::string_view>(next)}) {
    SCOPED_TRACE(next_head ? "with a next head" : "last block");
    absl::StatusOr<std::vector<uint8_t>> block = EncodeUrlBlock(model, Views(keys), next_head);
    ASSERT_TRUE(block.ok()) << block.status();
    absl::StatusOr<std::vector<std::string>> decoded = DecodeAll(model, keys[0], next_head, *block);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_EQ(*decoded, keys);
    absl::StatusOr<UrlBlockReader> reader = UrlBlockReader::Open(model, keys[0], next_head, *block);
    ASSERT_TRUE(reader.ok());
    ASSERT_EQ(reader->size(), keys.size());
    ASSERT_EQ(reader->forward_count(), next_head ? (keys.size() - 1) / 2 : keys.size() - 1);
    std::string key = "previous content";
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(reader->Get(i, &key).ok()) << i;
      ASSERT_EQ(key, keys[i]) << i;
      ASSERT_EQ(*reader->Find(keys[i], &key), i);
    }
    EXPECT_EQ(reader->Get(keys.size(), &key).code(), absl::StatusCode::kOutOfRange);
    // The same from the block's landmarks.
    std::string landmark_keys;
    const absl::StatusOr<UrlBlockLandmarks> landmarks = reader->FindLandmarks(&landmark_keys);
    ASSERT_TRUE(landmarks.ok()) << landmarks.status();
    const size_t f = reader->forward_count();
    const size_t b = keys.size() - 1 - f;
    ASSERT_EQ(landmarks->forward_index, f >= 2 ? (f + 1) / 2 : 0);
    ASSERT_EQ(landmarks->backward_index, b >= 2 ? keys.size() - (b + 1) / 2 : 0);
    if (landmarks->forward_index != 0) {
      EXPECT_EQ(landmarks->forward_key, keys[landmarks->forward_index]);
    }
    if (landmarks->backward_index != 0) {
      EXPECT_EQ(landmarks->backward_key, keys[landmarks->backward_index]);
      EXPECT_EQ(landmarks->first_backward_key, keys[f + 1]);
    }
    reader->UseLandmarks(&*landmarks);
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(reader->Get(i, &key).ok()) << i;
      ASSERT_EQ(key, keys[i]) << i;
      ASSERT_EQ(*reader->Find(keys[i], &key), i);
      const std::string above = keys[i] + "\x01";
      ASSERT_EQ(
          *reader->LowerBound(above, &key),
          static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), above) - keys.begin()));
    }
  }
  // Each key alone, as the index codes heads.
  for (const std::string& k : keys) {
    std::vector<uint8_t> coded;
    ASSERT_TRUE(AppendEncodedUrlKey(model, k, &coded).ok());
    const std::unique_ptr<uint8_t[]> copy = ExactCopy(coded);
    const absl::Span<const uint8_t> span(copy.get(), coded.size());
    std::string back;
    ASSERT_TRUE(DecodeUrlKey(model, span, &back).ok());
    ASSERT_EQ(back, k);
    ASSERT_EQ(*CompareUrlKey(model, span, k), 0);
  }
}

TEST(UrlBlockCodec, RoundTripsSmallBlocks) {
  const UrlBlockModel untrained;
  for (const UrlBlockModel* model : {&TrainedModel(), &untrained}) {
    ExpectRoundTrip(*model, {"com,example("});                // the head alone: "empty" block
    ExpectRoundTrip(*model, {""s, "a"s});                     // the empty key is the smallest
    ExpectRoundTrip(*model, {"a", "ab", "abc", "abd", "b"});  // prefixes, then a new first byte
    ExpectRoundTrip(*model, {"\0"s, "\0\0"s, "\0\x01"s, "\xff"s, "\xff\xff"s});
  }
}

TEST(UrlBlockCodec, HeadOnlyBlockIsOneByte) {
  for (const std::optional<absl::string_view> next :
       {std::optional<absl::string_view>(), std::optional<absl::string_view>("y")}) {
    absl::StatusOr<std::vector<uint8_t>> block = EncodeUrlBlock(TrainedModel(), {"x"}, next);
    ASSERT_TRUE(block.ok());
    EXPECT_EQ(*block, std::vector<uint8_t>{2});  // count 1, no backward part
  }
}

TEST(UrlBlockCodec, SecondHalfNeedsTheNextHead) {
  const std::vector<std::string> keys = UrlishKeys(10, 15);
  const std::string next = NextHead(keys);
  const std::vector<uint8_t> block = *EncodeUrlBlock(TrainedModel(), Views(keys), next);
  const UrlBlockReader reader = *UrlBlockReader::Open(TrainedModel(), keys[0], std::nullopt, block);
  EXPECT_EQ(reader.forward_count(), 4u);
  std::string key;
  ASSERT_TRUE(reader.Get(4, &key).ok());
  EXPECT_EQ(key, keys[4]);
  EXPECT_EQ(reader.Get(5, &key).message(),
            "url_block: key 5 is coded against the next block's head; open the reader with it");
  EXPECT_EQ(*reader.LowerBound(keys[3], &key), 3u);
  EXPECT_EQ(reader.LowerBound(keys[7], &key).status().code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(reader.Validate().code(), absl::StatusCode::kFailedPrecondition);
  // A wrong next head is caught by the order checks or yields keys still in order.
  const UrlBlockReader wrong = *UrlBlockReader::Open(TrainedModel(), keys[0], "a", block);
  EXPECT_EQ(wrong.Validate().code(), absl::StatusCode::kDataLoss);
}

TEST(UrlBlockCodec, RoundTripsFullBlocksOfUrlKeys) {
  const std::vector<std::string> keys = UrlishKeys(2000, 7);
  for (size_t k : {size_t{16}, size_t{32}, size_t{64}, size_t{128}}) {
    for (size_t start = 0; start < keys.size(); start += k) {
      const size_t end = std::min(keys.size(), start + k);
      ExpectRoundTrip(TrainedModel(),
                      std::vector<std::string>(keys.begin() + static_cast<ptrdiff_t>(start),
                                               keys.begin() + static_cast<ptrdiff_t>(end)));
    }
  }
}

TEST(UrlBlockCodec, RoundTripsEveryByteValue) {
  // Every byte after every byte: all literal codes in all contexts.
  std::vector<std::string> keys;
  for (int a = 0; a < 256; ++a) {
    for (int b = 0; b < 256; b += 5)
      keys.push_back(std::string{static_cast<char>(a), static_cast<char>(b), 'z'});
  }
  std::sort(keys.begin(), keys.end());
  for (size_t start = 0; start < keys.size(); start += 64) {
    const size_t end = std::min(keys.size(), start + 64);
    ExpectRoundTrip(TrainedModel(),
                    std::vector<std::string>(keys.begin() + static_cast<ptrdiff_t>(start),
                                             keys.begin() + static_cast<ptrdiff_t>(end)));
  }
  // Printable ASCII in one key.
  std::string printable;
  for (char c = ' '; c <= '~'; ++c) printable += c;
  ExpectRoundTrip(TrainedModel(), {printable, printable + printable});
}

TEST(UrlBlockCodec, RoundTripsLongKeysAndLongSharedPrefixes) {
  std::mt19937_64 rng(8);
  auto random_text = [&](size_t n) {
    std::string s(n, 'a');
    for (char& c : s) c = static_cast<char>(rng());
    return s;
  };
  const std::string base = random_text(8192);
  // Shared prefixes around the escape value (255) and up to 8 KiB.
  std::vector<std::string> keys;
  for (size_t shared : {0, 1, 254, 255, 256, 300, 1000, 4095, 8000, 8191}) {
    keys.push_back(base.substr(0, shared) + "\xff" + random_text(rng() % 300));
  }
  keys.push_back(base);
  keys.push_back(base + random_text(100));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  ExpectRoundTrip(TrainedModel(), keys);
  ExpectRoundTrip(UrlBlockModel(), keys);
  // The longest key allowed, and one byte more.
  const std::string longest = random_text(kMaxUrlKeyBytes);
  ExpectRoundTrip(TrainedModel(), {"", longest});
  EXPECT_EQ(EncodeUrlBlock(TrainedModel(), {"", longest + "x"}, std::nullopt).status().message(),
            absl::StrCat("url_block: key 1 has ", kMaxUrlKeyBytes + 1, " bytes, more than ",
                         kMaxUrlKeyBytes));
  EXPECT_EQ(EncodeUrlBlock(TrainedModel(), {""}, longest + "x").status().message(),
            absl::StrCat("url_block: key 1 has ", kMaxUrlKeyBytes + 1, " bytes, more than ",
                         kMaxUrlKeyBytes));
}

TEST(UrlBlockCodec, RefusesUnsortedInput) {
  EXPECT_EQ(EncodeUrlBlock(TrainedModel(), {}, std::nullopt).status().message(),
            "url_block: a block needs at least one key");
  EXPECT_EQ(EncodeUrlBlock(TrainedModel(), {"a", "c", "b"}, std::nullopt).status().message(),
            "url_block: key 2 is not greater than key 1; give keys in strictly increasing byte "
            "order");
  EXPECT_EQ(EncodeUrlBlock(TrainedModel(), {"a", "a"}, std::nullopt).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(EncodeUrlBlock(TrainedModel(), {"a", "b"}, "b").status().message(),
            "url_block: the next head is not greater than the block's last key");
}

TEST(UrlBlockCodec, FindAndLowerBoundAgreeWithStdLowerBound) {
  const std::vector<std::string> keys = UrlishKeys(64, 9);
  const std::string next = NextHead(keys);
  const std::vector<uint8_t> block = *EncodeUrlBlock(TrainedModel(), Views(keys), next);
  const UrlBlockReader reader = *UrlBlockReader::Open(TrainedModel(), keys[0], next, block);
  std::vector<std::string> probes = UrlishKeys(500, 10);  // mostly absent keys
  for (const std::string& key : keys) {
    probes.push_back(key);
    probes.push_back(key + "\x01");
    probes.push_back(key.substr(0, key.size() - 1));
    probes.push_back(key + "\xff");
  }
  probes.push_back("");
  probes.push_back(next);
  probes.push_back("\xff\xff");
  std::string scratch;
  std::string landmark_keys;
  const UrlBlockLandmarks landmarks = *reader.FindLandmarks(&landmark_keys);
  for (const bool use_landmarks : {false, true}) {
    SCOPED_TRACE(use_landmarks ? "from the landmarks" : "from the heads");
    UrlBlockReader copy = reader;
    copy.UseLandmarks(use_landmarks ? &landmarks : nullptr);
    for (const std::string& probe : probes) {
      const size_t expected =
          static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), probe) - keys.begin());
      ASSERT_EQ(*copy.LowerBound(probe, &scratch), expected) << probe;
      const std::optional<size_t> found = *copy.Find(probe, &scratch);
      if (expected < keys.size() && keys[expected] == probe) {
        ASSERT_EQ(found, expected) << probe;
      } else {
        ASSERT_EQ(found, std::nullopt) << probe;
      }
    }
  }
}

TEST(UrlBlockCodec, CompareUrlKeyOrdersLikeStrings) {
  const std::vector<std::string> keys = UrlishKeys(200, 11);
  std::vector<std::string> probes = keys;
  probes.push_back("");
  probes.push_back("com");
  for (const std::string& key : keys) {
    std::vector<uint8_t> coded;
    ASSERT_TRUE(AppendEncodedUrlKey(TrainedModel(), key, &coded).ok());
    for (size_t p = 0; p < probes.size(); p += 13) {
      for (const std::string& probe : {probes[p], key + "a", key.substr(0, key.size() / 2)}) {
        const int expected = key.compare(probe);
        const int got = *CompareUrlKey(TrainedModel(), coded, probe);
        ASSERT_EQ(got < 0, expected < 0) << key << " vs " << probe;
        ASSERT_EQ(got == 0, expected == 0) << key << " vs " << probe;
      }
    }
  }
}

// Every truncation and many random corruptions of a block give an error or keys that are in
// bounds, sorted and within limits: never a crash or an out-of-bounds read (run under ASan).
TEST(UrlBlockCodec, CorruptBlocksFailCleanly) {
  const std::vector<std::string> keys = UrlishKeys(48, 12);
  const std::string next = NextHead(keys);
  std::mt19937_64 rng(13);
  std::string scratch;
  for (const std::optional<absl::string_view> next_head :
       {std::optional<absl::string_view>(), std::optional<absl::string_view>(next)}) {
    SCOPED_TRACE(next_head ? "with a next head" : "last block");
    const std::vector<uint8_t> good = *EncodeUrlBlock(TrainedModel(), Views(keys), next_head);
    for (size_t size = 0; size < good.size(); ++size) {
      const std::vector<uint8_t> cut(good.begin(), good.begin() + static_cast<ptrdiff_t>(size));
      EXPECT_EQ(DecodeAll(TrainedModel(), keys[0], next_head, cut).status().code(),
                absl::StatusCode::kDataLoss)
          << size;
    }
    std::vector<uint8_t> longer = good;
    longer.push_back(0);
    EXPECT_EQ(DecodeAll(TrainedModel(), keys[0], next_head, longer).status().message(),
              next_head ? "url_block: backward part: bytes after the last key"
                        : "url_block: forward part: bytes after the last key");
    for (int round = 0; round < 3000; ++round) {
      std::vector<uint8_t> bytes = good;
      for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips) {
        bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1 << (rng() % 8));
      }
      if (round % 10 == 0) bytes.resize(rng() % bytes.size());
      absl::StatusOr<std::vector<std::string>> decoded =
          DecodeAll(TrainedModel(), keys[0], next_head, bytes);
      if (decoded.ok()) {
        ASSERT_TRUE(std::is_sorted(decoded->begin(), decoded->end()));
        for (const std::string& k : *decoded) ASSERT_LE(k.size(), kMaxUrlKeyBytes);
      } else {
        ASSERT_TRUE(decoded.status().code() == absl::StatusCode::kDataLoss ||
                    decoded.status().code() == absl::StatusCode::kFailedPrecondition)
            << decoded.status();
      }
      // Random access on the same bytes stays in bounds too.
      const std::unique_ptr<uint8_t[]> copy = ExactCopy(bytes);
      absl::StatusOr<UrlBlockReader> reader = UrlBlockReader::Open(
          TrainedModel(), keys[0], next_head, absl::MakeConstSpan(copy.get(), bytes.size()));
      if (!reader.ok()) continue;
      const size_t i = rng() % reader->size();
      if (reader->Get(i, &scratch).ok()) {
        ASSERT_LE(scratch.size(), kMaxUrlKeyBytes);
      }
      (void)reader->LowerBound(keys[rng() % keys.size()], &scratch);
      // Landmarks are found only in a block that decodes whole, as DecodeAll does.
      std::string landmark_keys;
      const absl::StatusOr<UrlBlockLandmarks> landmarks = reader->FindLandmarks(&landmark_keys);
      ASSERT_EQ(landmarks.ok(), decoded.ok()) << landmarks.status();
      if (!landmarks.ok()) continue;
      reader->UseLandmarks(&*landmarks);
      std::string found_scratch;
      for (size_t k = 0; k < reader->size(); ++k) {
        ASSERT_TRUE(reader->Get(k, &scratch).ok());
        ASSERT_EQ(scratch, (*decoded)[k]);
        ASSERT_EQ(*reader->Find(scratch, &found_scratch), k);
      }
    }
  }
}

TEST(UrlBlockCodec, CorruptCodedKeysFailCleanly) {
  std::vector<uint8_t> good;
  ASSERT_TRUE(
      AppendEncodedUrlKey(TrainedModel(), "com,example,www(articles/2007/index.html", &good).ok());
  std::mt19937_64 rng(14);
  std::string key;
  for (int round = 0; round < 3000; ++round) {
    std::vector<uint8_t> bytes = good;
    bytes[rng() % bytes.size()] ^= static_cast<uint8_t>(1 + rng() % 255);
    if (round % 7 == 0) bytes.resize(rng() % bytes.size());
    const std::unique_ptr<uint8_t[]> copy = ExactCopy(bytes);
    const absl::Span<const uint8_t> span(copy.get(), bytes.size());
    absl::Status s = DecodeUrlKey(TrainedModel(), span, &key);
    if (!s.ok()) {
      EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
    }
    absl::StatusOr<int> order = CompareUrlKey(TrainedModel(), span, "com,example,www(");
    if (!order.ok()) {
      EXPECT_EQ(order.status().code(), absl::StatusCode::kDataLoss);
    }
  }
  // Zero bytes decode as the same short codeword forever: stopped, not looped.
  const std::vector<uint8_t> zeros(64, 0);
  EXPECT_FALSE(DecodeUrlKey(TrainedModel(), zeros, &key).ok());
}

TEST(UrlBlockCodec, OpenChecksTheHeader) {
  auto message = [](std::vector<uint8_t> bytes) {
    return std::string(UrlBlockReader::Open(TrainedModel(), "a", "b", bytes).status().message());
  };
  EXPECT_EQ(message({}), "url_block: truncated key count");
  EXPECT_EQ(message({0}), "url_block: bad header: 0 keys");
  EXPECT_EQ(message({3}), "url_block: bad header: 1 keys with a backward part");
  EXPECT_EQ(message({5}), "url_block: truncated forward part size");
  EXPECT_EQ(message({5, 2, 0}), "url_block: forward part of 2 bytes does not fit the block");
  EXPECT_EQ(message({0xA0, 0x9C, 0x01, 0xFF}),  // 10000 keys in 1 byte
            "url_block: key count 10000 does not fit a block of 4 bytes");
  EXPECT_EQ(message({7, 0, 0xFF}),  // 3 keys: 1 forward in 0 bytes
            "url_block: key count 3 does not fit a block of 3 bytes");
}

// The real URL set: the reddit URLs, sorted as the codec sees plain byte strings (canonical keys
// need the URL normaliser, which codec tests do not link), in blocks of 32 with their index.
std::vector<std::string> ReadRedditUrls() {
  return ::crawldb::testing::ReadXzLines(
      ::crawldb::testing::SharedDataPath("reddit/urls-2005-2007.txt.xz"));
}

TEST(UrlBlockCodecReddit, AllInBelowGzipAndEveryKeyFound) {
  std::vector<std::string> urls = ReadRedditUrls();
  ASSERT_EQ(urls.size(), 208526u);
  std::sort(urls.begin(), urls.end());
  urls.erase(std::unique(urls.begin(), urls.end()), urls.end());
  const std::vector<absl::string_view> keys = Views(urls);
  constexpr size_t kBlockKeys = 32;
  UrlBlockModelOptions options;
  options.block_keys = kBlockKeys;
  absl::StatusOr<UrlBlockModel> trained = UrlBlockModel::Train(keys, options);
  ASSERT_TRUE(trained.ok()) << trained.status();
  const std::vector<uint8_t> model_bytes = trained->Serialize();
  const UrlBlockModel model = *UrlBlockModel::Load(model_bytes);

  UrlBlockIndex index(model);
  std::vector<std::vector<uint8_t>> blocks;
  for (size_t start = 0; start < keys.size(); start += kBlockKeys) {
    const absl::Span<const absl::string_view> block_keys =
        absl::MakeConstSpan(keys).subspan(start, std::min(kBlockKeys, keys.size() - start));
    const std::optional<absl::string_view> next_head =
        start + kBlockKeys < keys.size()
            ? std::optional<absl::string_view>(keys[start + kBlockKeys])
            : std::nullopt;
    absl::StatusOr<std::vector<uint8_t>> block = EncodeUrlBlock(model, block_keys, next_head);
    ASSERT_TRUE(block.ok()) << block.status();
    blocks.push_back(*std::move(block));
    ASSERT_TRUE(index.Append(block_keys[0]).ok());
  }
  // All-in: every block, the index (serialized: heads and their lengths), the model, and a
  // 4-byte offset per block for the store to find it.
  size_t total = model_bytes.size() + index.Serialize().size() + 4 * blocks.size();
  for (const std::vector<uint8_t>& block : blocks) total += block.size();
  const double per_url = static_cast<double>(total) / static_cast<double>(keys.size());
  std::printf(
      "reddit URLs, %zu-key blocks: %.2f bytes/URL all-in (model %zu bytes, %zu symbols, "
      "%d clusters); gzip -9 of the sorted list: 16.40\n",
      kBlockKeys, per_url, model_bytes.size(), model.symbols().size(), model.cluster_count());
  EXPECT_LT(per_url, 15.5);

  // A reader over block b, its heads decoded into *head and *next_head.
  auto open = [&](size_t b, std::string* head, std::string* next_head) {
    EXPECT_TRUE(index.Head(b, head).ok());
    std::optional<absl::string_view> next;
    if (b + 1 < index.size()) {
      EXPECT_TRUE(index.Head(b + 1, next_head).ok());
      next = *next_head;
    }
    return *UrlBlockReader::Open(model, *head, next, blocks[b]);
  };
  // Every key found where it is, and every id decoded.
  std::string head, next_head, key;
  for (size_t i = 0; i < keys.size(); ++i) {
    const absl::StatusOr<std::optional<size_t>> block = index.FindBlock(keys[i]);
    ASSERT_TRUE(block.ok() && block->has_value()) << keys[i];
    ASSERT_EQ(**block, i / kBlockKeys);
    const UrlBlockReader reader = open(**block, &head, &next_head);
    ASSERT_EQ(*reader.Find(keys[i], &key), i % kBlockKeys) << keys[i];
    ASSERT_TRUE(reader.Get(i % kBlockKeys, &key).ok());
    ASSERT_EQ(key, keys[i]);
  }
  EXPECT_TRUE(index.Validate().ok());

  // Lower bounds of absent keys, against std::lower_bound over the whole set.
  for (size_t i = 0; i < keys.size(); i += 97) {
    for (const std::string& probe : {urls[i] + "\x01", urls[i].substr(0, urls[i].size() / 2)}) {
      const size_t expected =
          static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), probe) - keys.begin());
      const std::optional<size_t> block = *index.FindBlock(probe);
      if (!block.has_value()) {  // below the first head
        ASSERT_EQ(expected, 0u) << probe;
        continue;
      }
      const UrlBlockReader reader = open(*block, &head, &next_head);
      ASSERT_EQ(*block * kBlockKeys + *reader.LowerBound(probe, &key), expected) << probe;
    }
  }
}

}  // namespace
}  // namespace crawldb::codecs
