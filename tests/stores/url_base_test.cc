// UrlBase, UrlBaseSampler and UrlBaseBuilder: the URL block codec as the urls store holds it.
// Every look-up on bases of every size around the block and part boundaries, the stored parts
// round-trip, long keys, an old format version and damaged parts refused, and the reddit URLs.
#include "extension/urls/url_base.h"

#include <algorithm>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "codecs/url_block_index.h"
#include "codecs/varint.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_normalizer.h"
#include "gtest/gtest.h"
#include "tests/shared_data.h"
#include "tests/stores/url_base_version2.h"

namespace crawldb::urls {
namespace {

// `count` sorted keys of a few hosts with shared paths, as a crawl would have them.
std::vector<std::string> SyntheticKeys(size_t count, uint32_t seed = 7) {
  std::mt19937 random(seed);
  std::set<std::string> keys;
  while (keys.size() < count) {
    const uint32_t host = random() % 20;
    std::string key = "com,site" + std::to_string(host) + "(";
    key += random() % 2 ? "news/" : "item?id=";
    key += std::to_string(random() % 1000000);
    keys.insert(std::move(key));
  }
  return {keys.begin(), keys.end()};
}

// The base of sorted `keys`, its model trained as UrlStore::Rebuild trains that of a large base
// (or fitted, as that of a small one), or untrained.
UrlBase Build(const std::vector<std::string>& keys, bool trained = true,
              ModelFit fit = ModelFit::kShared) {
  UrlBaseSampler sampler;
  for (const std::string& key : keys) sampler.Add(key);
  absl::StatusOr<codecs::UrlBlockModel> model =
      trained ? sampler.Train(fit) : absl::StatusOr<codecs::UrlBlockModel>(codecs::UrlBlockModel());
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return UrlBase();
  UrlBaseBuilder builder(*std::move(model));
  for (const std::string& key : keys) EXPECT_TRUE(builder.Add(key).ok()) << key;
  absl::StatusOr<UrlBase> base = builder.Finish();
  EXPECT_TRUE(base.ok()) << base.status();
  return base.ok() ? *std::move(base) : UrlBase();
}

absl::StatusOr<UrlBase> Reload(const std::vector<std::vector<uint8_t>>& parts) {
  std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
  return UrlBase::Load(spans);
}

size_t ExpectedParts(size_t keys) {
  const size_t blocks = (keys + kKeysPerBlock - 1) / kKeysPerBlock;
  return keys == 0 ? 1 : 3 + (blocks + kBlocksPerPart - 1) / kBlocksPerPart;
}

// Every key by rank and by value, the lower bound of a key just below and just above each, and
// every block decoded whole, against the sorted `keys`.
void ExpectServes(const UrlBase& base, const std::vector<std::string>& keys) {
  ASSERT_EQ(base.size(), keys.size());
  ASSERT_EQ(base.block_count(), (keys.size() + kKeysPerBlock - 1) / kKeysPerBlock);
  std::string key;
  for (size_t rank = 0; rank < keys.size(); ++rank) {
    ASSERT_TRUE(base.Get(rank, &key).ok()) << rank;
    ASSERT_EQ(key, keys[rank]) << rank;
    absl::StatusOr<std::optional<size_t>> found = base.Find(keys[rank]);
    ASSERT_TRUE(found.ok()) << found.status();
    ASSERT_EQ(*found, rank) << keys[rank];
    // keys[rank] + "\x01" is absent (keys hold no control bytes) and sorts right after it.
    absl::StatusOr<std::optional<size_t>> absent = base.Find(keys[rank] + "\x01");
    ASSERT_TRUE(absent.ok() && !absent->has_value()) << keys[rank];
    EXPECT_EQ(*base.LowerBound(keys[rank]), rank);
    EXPECT_EQ(*base.LowerBound(keys[rank] + "\x01"), rank + 1);
    const std::string below = keys[rank].substr(0, keys[rank].size() - 1);
    EXPECT_EQ(*base.LowerBound(below),
              std::lower_bound(keys.begin(), keys.end(), below) - keys.begin());
  }
  EXPECT_EQ(*base.LowerBound(""), 0u);
  EXPECT_EQ(*base.LowerBound("\x7f"), keys.size());
  EXPECT_EQ(base.Get(keys.size(), &key).code(), absl::StatusCode::kOutOfRange);
  BlockKeys block;
  for (size_t b = 0; b < base.block_count(); ++b) {
    ASSERT_TRUE(base.DecodeBlock(b, &block).ok()) << b;
    ASSERT_EQ(block.size(), std::min(kKeysPerBlock, keys.size() - b * kKeysPerBlock));
    for (size_t i = 0; i < block.size(); ++i) ASSERT_EQ(block[i], keys[b * kKeysPerBlock + i]);
  }
}

TEST(UrlBase, ServesEverySizeAroundBlocksAndParts) {
  const size_t kPart = kKeysPerBlock * kBlocksPerPart;
  for (size_t count : {size_t{0}, size_t{1}, size_t{2}, size_t{16}, size_t{17}, size_t{31},
                       size_t{32}, size_t{33}, size_t{64}, size_t{65}, kPart, kPart + 1}) {
    for (bool trained : {true, false}) {
      SCOPED_TRACE(std::to_string(count) + (trained ? " keys, trained" : " keys, untrained"));
      const std::vector<std::string> keys = SyntheticKeys(count);
      const UrlBase base = Build(keys, trained);
      ExpectServes(base, keys);
      const std::vector<std::vector<uint8_t>> parts = base.Parts();
      EXPECT_EQ(parts.size(), ExpectedParts(count));
      size_t stored = 0;
      for (const std::vector<uint8_t>& part : parts) stored += part.size();
      EXPECT_EQ(base.StoredBytes(), stored);
      if (count > 0) {
        EXPECT_EQ(base.ModelBytes(), parts[1].size());
        // The group heads (part 2) and each group's heads.
        EXPECT_GT(base.HeadIndexBytes(), parts[2].size());
        EXPECT_LT(base.HeadIndexBytes(), stored - base.BlockBytes() - base.ModelBytes());
        EXPECT_GT(base.BlockBytes(), 0u);
        EXPECT_GT(base.MemoryBytes(), base.BlockBytes() + base.ModelBytes());
      }
      absl::StatusOr<UrlBase> loaded = Reload(parts);
      ASSERT_TRUE(loaded.ok()) << loaded.status();
      ExpectServes(*loaded, keys);
      EXPECT_EQ(loaded->Parts(), parts);
      EXPECT_EQ(loaded->StoredBytes(), stored);
      EXPECT_EQ(loaded->HeadIndexBytes(), base.HeadIndexBytes());
      // A moved base keeps its model: the head index and readers point into it.
      UrlBase moved = std::move(*loaded);
      ExpectServes(moved, keys);
    }
  }
}

// Open reads parts 0 to 2; each group of blocks is read the first time a look-up needs it, and
// once. A failed read is returned as it is and not kept.
TEST(UrlBase, OpenReadsEachGroupOnceWhenALookUpFirstNeedsIt) {
  const size_t kPart = kKeysPerBlock * kBlocksPerPart;
  const std::vector<std::string> keys = SyntheticKeys(3 * kPart + 5);
  const std::vector<std::vector<uint8_t>> parts = Build(keys).Parts();
  ASSERT_EQ(parts.size(), 7u);  // header, model, heads, 4 groups
  std::vector<int> reads(parts.size());
  absl::Status failure;  // what the next read returns, when not ok
  auto read_part = [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> {
    if (!failure.ok()) return failure;
    ++reads.at(part);
    if (part == 6) return std::nullopt;  // the last group's row is missing
    return parts[part];
  };
  const std::vector<absl::Span<const uint8_t>> front(parts.begin(), parts.begin() + 3);
  absl::StatusOr<UrlBase> base = UrlBase::Open(front, read_part);
  ASSERT_TRUE(base.ok()) << base.status();
  EXPECT_FALSE(base->whole());
  std::string key;
  ASSERT_TRUE(base->Get(kPart + 3, &key).ok());
  EXPECT_EQ(key, keys[kPart + 3]);
  EXPECT_EQ(*base->Find(keys[2 * kPart + 40]), 2 * kPart + 40);
  EXPECT_EQ(*base->Find(keys[kPart + 9]), kPart + 9);
  EXPECT_EQ(reads, (std::vector<int>{0, 0, 0, 0, 1, 1, 0}));
  EXPECT_FALSE(base->whole());  // groups 0 and 3 not read

  failure = absl::UnavailableError("disk I/O error");
  EXPECT_EQ(base->Get(7, &key), failure);
  failure = absl::OkStatus();
  EXPECT_EQ(base->Get(3 * kPart, &key), absl::DataLossError("url base: part 6 is missing"));
  EXPECT_EQ(base->ReadAll(), absl::DataLossError("url base: part 6 is missing"));
  EXPECT_EQ(reads, (std::vector<int>{0, 0, 0, 1, 1, 1, 2}));
  for (size_t rank = 0; rank < 3 * kPart; ++rank) {
    ASSERT_TRUE(base->Get(rank, &key).ok()) << rank;
    ASSERT_EQ(key, keys[rank]);
    ASSERT_EQ(*base->Find(keys[rank]), rank);
  }
  EXPECT_EQ(reads, (std::vector<int>{0, 0, 0, 1, 1, 1, 2}));

  // Every part there: the base opened serves as the one loaded, and stores the same parts.
  absl::StatusOr<UrlBase> opened =
      UrlBase::Open(front, [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> {
        return parts[part];
      });
  ASSERT_TRUE(opened.ok()) << opened.status();
  ExpectServes(*opened, keys);
  EXPECT_TRUE(opened->whole());  // every group read; the heads decoded once the look-ups were many
  EXPECT_EQ(opened->Parts(), parts);
}

TEST(UrlBase, LandmarksAreLearnedAtABlocksFourthLookUp) {
  ASSERT_EQ(kLandmarkLookUp, 4u);
  const std::vector<std::string> keys = SyntheticKeys(10 * kKeysPerBlock);
  const UrlBase base = Build(keys);
  std::string key;
  for (size_t rank : {20, 3, 9}) {  // block 3, three times
    ASSERT_TRUE(base.Get(3 * kKeysPerBlock + rank, &key).ok());
    EXPECT_EQ(key, keys[3 * kKeysPerBlock + rank]);
  }
  EXPECT_EQ(*base.Find(keys[5 * kKeysPerBlock + 9]), 5 * kKeysPerBlock + 9);  // block 5, first
  EXPECT_EQ(base.landmark_blocks(), 0u) << "a block's first three look-ups learned landmarks";
  const size_t before = base.KeysMemoryBytes();
  EXPECT_EQ(*base.Find(keys[3 * kKeysPerBlock + 30]), 3 * kKeysPerBlock + 30);  // block 3, fourth
  EXPECT_EQ(base.landmark_blocks(), 1u);
  EXPECT_GT(base.KeysMemoryBytes(), before) << "the landmarks learned are not counted";
  // Every key from the landmarks now, and from the heads in the blocks looked up less.
  for (size_t rank = 0; rank < keys.size(); ++rank) {
    ASSERT_TRUE(base.Get(rank, &key).ok()) << rank;
    ASSERT_EQ(key, keys[rank]);
    ASSERT_EQ(*base.Find(keys[rank]), rank);
  }
}

TEST(UrlBase, RefusesUnsortedAndOverlongKeys) {
  UrlBaseBuilder unsorted;
  ASSERT_TRUE(unsorted.Add("com,b(").ok());
  EXPECT_EQ(unsorted.Add("com,a(").message(),
            "url base: key 'com,a(' is not greater than the previous one; add keys in "
            "increasing order");
  EXPECT_EQ(unsorted.Add("com,b(").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(unsorted.Add(std::string(codecs::kMaxUrlKeyBytes + 1, 'z')).message(),
            "url base: a key of 1048577 bytes is longer than the limit, 1048576");
  // What was refused changed nothing.
  absl::StatusOr<UrlBase> base = unsorted.Finish();
  ASSERT_TRUE(base.ok());
  ExpectServes(*base, {"com,b("});
}

TEST(UrlBase, LongKeysAndLongSharedPrefixes) {
  // The longest URL a table accepts is 1 MiB; its key is shorter. Shared prefixes this long take
  // the codec's escape code, in both halves of a block.
  const std::string prefix = "com,long(" + std::string(300000, 'p');
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back(prefix + std::to_string(100 + i) + "/x");
  keys.push_back("com,long(" + std::string(codecs::kMaxUrlKeyBytes - 9, 'q'));
  keys.push_back("com,short(");
  std::sort(keys.begin(), keys.end());
  const UrlBase base = Build(keys);
  ExpectServes(base, keys);
  absl::StatusOr<UrlBase> loaded = Reload(base.Parts());
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ExpectServes(*loaded, keys);
}

TEST(UrlBase, RefusesFormatVersion1WithWhatToDo) {
  // Version 1's empty base, as the first release wrote it: version, count 0, 64 keys per block,
  // 32 blocks per part.
  const std::vector<std::vector<uint8_t>> v1 = {{1, 0, 64, 32}};
  absl::StatusOr<UrlBase> loaded = Reload(v1);
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(loaded.status().message(),
            "url base: format version 1 (plain front-coded blocks) is no longer read, this build "
            "reads versions 2 and 3; export the URLs with the crawldb that wrote the table, then "
            "create it again and insert them");
  EXPECT_EQ(Reload({{4, 0, 32, 64}}).status().message(), "url base: unknown format version 4");
  EXPECT_EQ(Reload({{3, 0, 64, 32}}).status().message(),
            "url base: blocks of 64 keys, 32 per part; this build writes 32 and 64");
}

TEST(UrlBase, ReadsFormatVersion2AndWritesItAs3) {
  const size_t kPart = kKeysPerBlock * kBlocksPerPart;
  const std::vector<std::string> keys = SyntheticKeys(2 * kPart + 77);
  const UrlBase base = Build(keys);
  const std::vector<std::vector<uint8_t>> v3 = base.Parts();
  const std::vector<std::vector<uint8_t>> v2 = Version2Parts(v3);
  ASSERT_EQ(v2.size(), v3.size());
  EXPECT_LT(v2[3].size(), v3[3].size());
  absl::StatusOr<UrlBase> loaded = Reload(v2);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ExpectServes(*loaded, keys);
  EXPECT_EQ(loaded->Parts(), v3);
  EXPECT_EQ(loaded->StoredBytes(), base.StoredBytes());  // as version 3 stores it
  // Opened, its groups read on demand, then every one.
  const std::vector<absl::Span<const uint8_t>> front(v2.begin(), v2.begin() + kFirstGroupPart);
  absl::StatusOr<UrlBase> opened = UrlBase::Open(
      front,
      [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> { return v2[part]; });
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_EQ(*opened->Find(keys[kPart + 5]), kPart + 5);
  ExpectServes(*opened, keys);
  EXPECT_EQ(opened->Parts(), v3);
  // Group heads that disagree with the groups' own are refused: the second group's head
  // replaced by its second block's, then by the first group's last block's.
  auto with_second_group_head = [&](size_t rank) {
    codecs::UrlBlockIndex group_heads(*base.model());
    for (size_t head : {size_t{0}, rank, 2 * kPart}) {
      EXPECT_TRUE(group_heads.Append(keys[head]).ok());
    }
    std::vector<std::vector<uint8_t>> parts = v3;
    parts[2] = group_heads.Serialize();
    return Reload(parts).status();
  };
  EXPECT_EQ(with_second_group_head(kPart + kKeysPerBlock).message(),
            "url base: head of block 64 is not its group's head");
  EXPECT_EQ(with_second_group_head(kPart - kKeysPerBlock).message(),
            "url base: head of block 63 is not below the next group's");
}

// An opened base keeps a group's block heads coded for its first look-ups (url_base.h): heads
// that disagree with their group are found when they are decoded, by ReadAll (which
// crawldb_check() runs) or by a later look-up, and by Load at once.
TEST(UrlBase, AGroupsBlockHeadsAreCheckedWhenDecoded) {
  const size_t kPart = kKeysPerBlock * kBlocksPerPart;
  const std::vector<std::string> keys = SyntheticKeys(2 * kPart + 77);
  const UrlBase base = Build(keys);
  std::vector<std::vector<uint8_t>> parts = base.Parts();
  // The second group's part: its block count, its heads (an index), then its blocks. Its first
  // head becomes the key after it: still increasing, no longer the group's head.
  std::vector<uint8_t>& group = parts[kFirstGroupPart + 1];
  uint64_t blocks = 0, heads_bytes = 0;
  const uint8_t* q = codecs::ReadVarint(group.data(), group.data() + group.size(), &blocks);
  q = codecs::ReadVarint(q, group.data() + group.size(), &heads_bytes);
  ASSERT_NE(q, nullptr);
  codecs::UrlBlockIndex heads(*base.model());
  for (size_t b = 0; b < blocks; ++b) {
    ASSERT_TRUE(heads.Append(keys[kPart + b * kKeysPerBlock + (b == 0 ? 1 : 0)]).ok());
  }
  std::vector<uint8_t> damaged;
  codecs::AppendVarint(blocks, &damaged);
  const std::vector<uint8_t> coded = heads.Serialize();
  codecs::AppendVarint(coded.size(), &damaged);
  damaged.insert(damaged.end(), coded.begin(), coded.end());
  const uint8_t* const end = group.data() + group.size();
  damaged.insert(damaged.end(), q + heads_bytes, end);
  group = damaged;
  const std::string problem = "url base: head of block 64 is not its group's head";
  EXPECT_EQ(Reload(parts).status().message(), problem);
  const std::vector<absl::Span<const uint8_t>> front(parts.begin(),
                                                     parts.begin() + kFirstGroupPart);
  absl::StatusOr<UrlBase> opened =
      UrlBase::Open(front, [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> {
        return parts[part];
      });
  ASSERT_TRUE(opened.ok()) << opened.status();
  // A look-up in a sound block of the group reads the heads coded, and answers.
  absl::StatusOr<std::optional<size_t>> found = opened->Find(keys[kPart + kKeysPerBlock + 3]);
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, kPart + kKeysPerBlock + 3);
  EXPECT_EQ(opened->ReadAll().message(), problem);
  // Past kLazyBlockHeadUses uses of the group, look-ups decode its heads and fail the same way.
  absl::StatusOr<UrlBase> reopened =
      UrlBase::Open(front, [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> {
        return parts[part];
      });
  ASSERT_TRUE(reopened.ok()) << reopened.status();
  absl::Status last;
  for (uint32_t use = 0; use < kLazyBlockHeadUses; ++use) {
    last = reopened->Find(keys[kPart + 2 * kKeysPerBlock]).status();
  }
  EXPECT_EQ(last.message(), problem);
}

// Look-ups on a damaged base fail with DataLoss or return some key. Never a crash (ASan
// watches).
// Every `stride`-th key is looked up both ways.
void ExpectLookUpsHandled(const UrlBase& loaded, const std::vector<std::string>& keys,
                          size_t stride) {
  std::string key;
  BlockKeys block;
  // An opened base's damaged header may count fewer keys: ranks past it are out of range.
  for (size_t rank = 0; rank < std::min(keys.size(), loaded.size()); rank += stride) {
    absl::Status got = loaded.Get(rank, &key);
    EXPECT_TRUE(got.ok() || got.code() == absl::StatusCode::kDataLoss) << got;
    absl::StatusOr<std::optional<size_t>> found = loaded.Find(keys[rank]);
    EXPECT_TRUE(found.ok() || found.status().code() == absl::StatusCode::kDataLoss)
        << found.status();
  }
  for (size_t b = 0; b < loaded.block_count(); ++b) {
    absl::Status decoded = loaded.DecodeBlock(b, &block);
    EXPECT_TRUE(decoded.ok() || decoded.code() == absl::StatusCode::kDataLoss) << decoded;
  }
}

// Loading damaged parts, or opening them and reading groups as look-ups need them, fails with
// DataLoss; when the damage leaves the framing intact, look-ups are handled as above.
void ExpectDamageHandled(const std::vector<std::vector<uint8_t>>& parts,
                         const std::vector<std::string>& keys) {
  if (parts.size() >= kFirstGroupPart) {
    const std::vector<absl::Span<const uint8_t>> front(parts.begin(),
                                                       parts.begin() + kFirstGroupPart);
    absl::StatusOr<UrlBase> opened = UrlBase::Open(
        front, [&](size_t part) -> absl::StatusOr<std::optional<std::vector<uint8_t>>> {
          if (part >= parts.size()) return std::nullopt;
          return parts[part];
        });
    if (opened.ok()) {
      ExpectLookUpsHandled(*opened, keys, 41);
    } else {
      EXPECT_EQ(opened.status().code(), absl::StatusCode::kDataLoss) << opened.status();
    }
  }
  absl::StatusOr<UrlBase> loaded = Reload(parts);
  if (!loaded.ok()) {
    EXPECT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss) << loaded.status();
    return;
  }
  ExpectLookUpsHandled(*loaded, keys, 5);
}

TEST(UrlBase, DamagedPartsAreDataLossNeverACrash) {
  const std::vector<std::string> keys = SyntheticKeys(kKeysPerBlock * kBlocksPerPart + 100);
  const UrlBase base = Build(keys);
  const std::vector<std::vector<uint8_t>> good = base.Parts();
  ASSERT_EQ(good.size(), 5u);
  // Missing, extra and swapped parts; a header whose count disagrees with the parts.
  auto load_error = [](std::vector<std::vector<uint8_t>> parts) {
    absl::StatusOr<UrlBase> loaded = Reload(parts);
    return loaded.ok() ? std::string("ok") : std::string(loaded.status().message());
  };
  std::vector<std::vector<uint8_t>> parts = good;
  parts.pop_back();
  EXPECT_EQ(load_error(parts), "url base: the header says 2148 keys but there are 4 parts");
  parts = good;
  std::swap(parts[1], parts[2]);
  EXPECT_EQ(load_error(parts).rfind("url base: model: url_block_model: ", 0), 0u);
  parts = good;
  std::swap(parts[3], parts[4]);
  EXPECT_EQ(load_error(parts), "url base: part 3 holds 4 blocks, expected 64");
  parts = good;
  parts[0][1] ^= 1;  // key count 2149
  EXPECT_EQ(load_error(parts), "url base: block 67 holds 4 keys (3 coded forward), expected 5 (4)");
  parts = good;
  parts.push_back({0});
  EXPECT_EQ(load_error(parts), "url base: the header says 2148 keys but there are 6 parts");
  // Every truncation of the small parts; truncations and byte flips across the large ones; in
  // both versions read.
  for (const auto& intact : {good, Version2Parts(good)}) {
    SCOPED_TRACE(intact[0][0] == 2 ? "version 2" : "version 3");
    for (size_t part = 0; part < intact.size(); ++part) {
      // Version 2 is read by the same code but for its heads: a third of the places will do.
      const size_t places = intact[0][0] == 2 ? 32 : 97;
      const size_t step = intact[part].size() < 300 ? 1 : intact[part].size() / places;
      for (size_t length = 0; length < intact[part].size(); length += step) {
        SCOPED_TRACE("part " + std::to_string(part) + " cut to " + std::to_string(length));
        parts = intact;
        parts[part].resize(length);
        ExpectDamageHandled(parts, keys);
      }
      for (size_t at = 0; at < intact[part].size(); at += step) {
        SCOPED_TRACE("part " + std::to_string(part) + " flipped at " + std::to_string(at));
        parts = intact;
        parts[part][at] ^= 0x5A;
        ExpectDamageHandled(parts, keys);
      }
    }
  }
}

// Keys shaped like real URLs: words in paths, as Wikispeedia's article names.
std::vector<std::string> WordyKeys(size_t count) {
  static const char* const kWords[] = {"History_of_", "List_of_", "Battle_of_", "University_",
                                       "Church",      "Football", "Railway",    "Station",
                                       "(film)",      "River",    "Province",   "Mountain"};
  std::mt19937 random(11);
  std::set<std::string> keys;
  while (keys.size() < count) {
    std::string key = "org,wikipedia,en(wiki/";
    for (int words = 1 + random() % 3; words > 0; --words) {
      key += kWords[random() % std::size(kWords)];
    }
    key += std::to_string(random() % 5000);
    keys.insert(std::move(key));
  }
  return {keys.begin(), keys.end()};
}

// kSmallest keeps, of the shared and the fitted model, the one that stores the base in fewer
// bytes; on keys of little text that is the shared one.
TEST(UrlBaseSampler, TrainsTheSmallerModelForASmallBase) {
  for (const std::vector<std::string>& keys : {WordyKeys(3000), SyntheticKeys(3000)}) {
    UrlBaseSampler sampler;
    for (const std::string& key : keys) sampler.Add(key);
    absl::StatusOr<codecs::UrlBlockModel> shared = sampler.Train();
    absl::StatusOr<codecs::UrlBlockModel> smallest = sampler.Train(ModelFit::kSmallest);
    ASSERT_TRUE(shared.ok() && smallest.ok());
    const size_t shared_bytes = *sampler.CodedBytes(*shared);
    const size_t smallest_bytes = *sampler.CodedBytes(*smallest);
    EXPECT_LE(smallest_bytes, shared_bytes) << keys[0];
    const UrlBase base = Build(keys, true, ModelFit::kSmallest);
    ExpectServes(base, keys);
    EXPECT_LE(base.StoredBytes(), Build(keys).StoredBytes()) << keys[0];
    if (keys[0].starts_with("org,wikipedia")) {
      EXPECT_LT(smallest_bytes, shared_bytes);  // the fitted model
    } else {
      EXPECT_EQ(smallest->Serialize(), shared->Serialize());
    }
  }
}

TEST(UrlBaseSampler, TakesWholeBlocksSpreadOverTheKeys) {
  const std::vector<std::string> keys = SyntheticKeys(20000);
  size_t total = 0;
  for (const std::string& key : keys) total += key.size();
  constexpr size_t kMaxBytes = 16 << 10;
  UrlBaseSampler sampler(kMaxBytes);
  for (const std::string& key : keys) sampler.Add(key);
  EXPECT_LE(sampler.sample_bytes(), kMaxBytes);
  EXPECT_GT(sampler.sample_bytes(), kMaxBytes / 2);
  ASSERT_LT(sampler.sample_bytes(), total / 8);
  // The sample is runs of kKeysPerBlock consecutive keys, each a block of the base, evenly
  // strided from block 0 to near the end.
  const std::vector<absl::string_view> sample = sampler.Sample();
  ASSERT_EQ(sample.size() % kKeysPerBlock, 0u);
  std::vector<size_t> blocks;
  for (size_t i = 0; i < sample.size(); i += kKeysPerBlock) {
    const size_t rank = std::lower_bound(keys.begin(), keys.end(), sample[i]) - keys.begin();
    ASSERT_EQ(rank % kKeysPerBlock, 0u) << sample[i];
    for (size_t k = 0; k < kKeysPerBlock; ++k) ASSERT_EQ(sample[i + k], keys[rank + k]);
    blocks.push_back(rank / kKeysPerBlock);
  }
  ASSERT_GE(blocks.size(), 2u);
  EXPECT_EQ(blocks[0], 0u);
  const size_t stride = blocks[1] - blocks[0];
  for (size_t i = 1; i < blocks.size(); ++i) EXPECT_EQ(blocks[i] - blocks[i - 1], stride);
  EXPECT_GE(blocks.back() + stride, keys.size() / kKeysPerBlock);
  // A tiny input is sampled whole, and no key trains the untrained model.
  UrlBaseSampler tiny;
  tiny.Add("com,a(");
  EXPECT_EQ(tiny.Sample(), std::vector<absl::string_view>{"com,a("});
  EXPECT_TRUE(tiny.Train().ok());
  EXPECT_EQ(UrlBaseSampler().Train()->Serialize(), codecs::UrlBlockModel().Serialize());
}

// The real URLs: below gzip -9 of the sorted list (16.4 bytes/URL, issue 3) all-in, every key
// served after a reload.
TEST(UrlBaseReddit, BelowGzipAndEveryKeyServed) {
  std::vector<std::string> keys;
  for (const std::string& line : ::crawldb::testing::ReadXzLines(
           ::crawldb::testing::SharedDataPath("reddit/urls-2005-2007.txt.xz"))) {
    absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(line);
    if (url.ok()) keys.push_back(identity::CanonicalKey(*url));
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  ASSERT_EQ(keys.size(), 207749u);
  const UrlBase built = Build(keys);
  const double per_url = static_cast<double>(built.StoredBytes()) / keys.size();
  std::printf("reddit keys: %.2f bytes/URL stored (model %zu, heads %zu, blocks %zu bytes)\n",
              per_url, built.ModelBytes(), built.HeadIndexBytes(), built.BlockBytes());
  EXPECT_LT(per_url, 16.4);
  absl::StatusOr<UrlBase> base = Reload(built.Parts());
  ASSERT_TRUE(base.ok()) << base.status();
  std::string key;
  for (size_t rank = 0; rank < keys.size(); ++rank) {
    ASSERT_EQ(*base->Find(keys[rank]), rank) << keys[rank];
    ASSERT_TRUE(base->Get(rank, &key).ok());
    ASSERT_EQ(key, keys[rank]);
  }
  for (size_t rank = 0; rank < keys.size(); rank += 13) {
    const std::string probe = keys[rank].substr(0, keys[rank].size() / 2 + 1);
    ASSERT_EQ(*base->LowerBound(probe),
              std::lower_bound(keys.begin(), keys.end(), probe) - keys.begin())
        << probe;
  }
}

}  // namespace
}  // namespace crawldb::urls
