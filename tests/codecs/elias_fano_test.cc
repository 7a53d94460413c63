#include "codecs/elias_fano.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();

enum class Shape { kUniform, kDuplicates, kBoundaries, kClustered };

std::string ShapeName(Shape shape) {
  switch (shape) {
    case Shape::kUniform:
      return "uniform";
    case Shape::kDuplicates:
      return "duplicates";
    case Shape::kBoundaries:
      return "boundaries";
    case Shape::kClustered:
      return "clustered";
  }
  return "?";
}

// n sorted values in [0, universe] drawn from `shape`.
std::vector<uint64_t> Generate(Shape shape, uint64_t n, uint64_t universe, std::mt19937_64& rng) {
  std::vector<uint64_t> values;
  values.reserve(n);
  switch (shape) {
    case Shape::kUniform: {
      std::uniform_int_distribution<uint64_t> any(0, universe);
      for (uint64_t i = 0; i < n; ++i) values.push_back(any(rng));
      break;
    }
    case Shape::kDuplicates: {
      // About ten copies of each distinct value.
      std::uniform_int_distribution<uint64_t> any(0, universe);
      std::vector<uint64_t> distinct(n / 10 + 1);
      for (uint64_t& v : distinct) v = any(rng);
      std::uniform_int_distribution<size_t> pick(0, distinct.size() - 1);
      for (uint64_t i = 0; i < n; ++i) values.push_back(distinct[pick(rng)]);
      break;
    }
    case Shape::kBoundaries: {
      std::vector<uint64_t> candidates = {0, universe};
      for (int k = 0; k < 64; ++k) {
        const uint64_t power = uint64_t{1} << k;
        for (uint64_t v : {power - 1, power, power + 1}) {
          if (v <= universe) candidates.push_back(v);
        }
      }
      std::uniform_int_distribution<size_t> pick(0, candidates.size() - 1);
      for (uint64_t i = 0; i < n; ++i) values.push_back(candidates[pick(rng)]);
      break;
    }
    case Shape::kClustered: {
      // Two dense runs at both ends of the universe with nothing in between.
      const uint64_t width = std::min<uint64_t>(universe, n);
      std::uniform_int_distribution<uint64_t> offset(0, width);
      for (uint64_t i = 0; i < n; ++i) {
        values.push_back(i % 2 == 0 ? offset(rng) : universe - offset(rng));
      }
      break;
    }
  }
  std::sort(values.begin(), values.end());
  return values;
}

struct Config {
  Shape shape;
  uint64_t n;
  uint64_t universe;
  std::string Name() const {
    return absl::StrCat(ShapeName(shape), " n=", n, " universe=", universe);
  }
};

std::vector<Config> Configs() {
  std::vector<Config> configs;
  for (uint64_t n : {0, 1, 2, 3, 5, 63, 64, 65, 255, 256, 257, 511, 513, 1000, 4096, 10007}) {
    const std::vector<uint64_t> universes = {0,
                                             n / 2,
                                             n,
                                             2 * n + 1,
                                             10 * n,
                                             1000 * n + 7,
                                             (uint64_t{1} << 32) - 1,
                                             uint64_t{1} << 32,
                                             (uint64_t{1} << 63) - 1,
                                             uint64_t{1} << 63,
                                             kMax - 1,
                                             kMax};
    for (uint64_t universe : universes) {
      for (Shape shape :
           {Shape::kUniform, Shape::kDuplicates, Shape::kBoundaries, Shape::kClustered}) {
        configs.push_back({shape, n, universe});
      }
    }
  }
  configs.push_back({Shape::kUniform, 200000, 1000000});
  configs.push_back({Shape::kClustered, 200000, 800000});
  configs.push_back({Shape::kDuplicates, 200000, kMax});
  return configs;
}

// Checks every value, the iteration and LowerBound at and around every value and at random
// points against std::lower_bound over `values`.
void ExpectSameSequence(const EliasFano& ef, const std::vector<uint64_t>& values,
                        std::mt19937_64& rng) {
  ASSERT_EQ(ef.size(), values.size());
  for (uint64_t i = 0; i < values.size(); ++i) ASSERT_EQ(ef.Get(i), values[i]) << "index " << i;
  ASSERT_EQ(std::vector<uint64_t>(ef.begin(), ef.end()), values);

  std::vector<uint64_t> queries = {0, 1, ef.universe(), kMax, kMax - 1};
  if (ef.universe() > 0) queries.push_back(ef.universe() - 1);
  if (ef.universe() < kMax) queries.push_back(ef.universe() + 1);
  for (uint64_t v : values) {
    queries.push_back(v);
    if (v > 0) queries.push_back(v - 1);
    if (v < kMax) queries.push_back(v + 1);
  }
  std::uniform_int_distribution<uint64_t> in_universe(0, ef.universe());
  std::uniform_int_distribution<uint64_t> any;
  for (int i = 0; i < 200; ++i) {
    queries.push_back(in_universe(rng));
    queries.push_back(any(rng));
  }
  for (uint64_t x : queries) {
    const auto expected = std::lower_bound(values.begin(), values.end(), x);
    const EliasFano::Successor got = ef.LowerBound(x);
    ASSERT_EQ(got.index, static_cast<uint64_t>(expected - values.begin())) << "x = " << x;
    ASSERT_EQ(got.value, expected == values.end() ? 0 : *expected) << "x = " << x;
  }
}

TEST(EliasFano, WorkedExampleFromTheHeader) {
  absl::StatusOr<EliasFano> ef = EliasFano::Build({2, 3, 5, 7, 11, 13}, 13);
  ASSERT_TRUE(ef.ok()) << ef.status();
  EXPECT_EQ(ef->low_bits(), 1);
  EXPECT_EQ(ef->SizeInBits(), 18u);
  EXPECT_EQ(ef->Get(4), 11u);
  EXPECT_EQ(ef->LowerBound(8).index, 4u);
  EXPECT_EQ(ef->LowerBound(8).value, 11u);
  const std::vector<uint8_t> expected = {
      0x01,                                            // version
      0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // n
      0x0D, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // universe
      0x01,                                            // l
      0x3E, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // low word
      0x56, 0x0A, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // high word
  };
  EXPECT_EQ(ef->Serialize(), expected);
  EXPECT_EQ(EliasFano::SerializedSize(6, 13), expected.size());
}

TEST(EliasFano, GetMatchesInput) {
  std::mt19937_64 rng(20240601);
  for (const Config& config : Configs()) {
    SCOPED_TRACE(config.Name());
    const std::vector<uint64_t> values = Generate(config.shape, config.n, config.universe, rng);
    absl::StatusOr<EliasFano> ef = EliasFano::Build(values, config.universe);
    ASSERT_TRUE(ef.ok()) << ef.status();
    EXPECT_EQ(ef->universe(), config.universe);
    EXPECT_EQ(ef->low_bits(), EliasFano::LowBits(config.n, config.universe));
    ExpectSameSequence(*ef, values, rng);
  }
}

TEST(EliasFano, SerializeRoundTrips) {
  std::mt19937_64 rng(7);
  for (const Config& config : Configs()) {
    SCOPED_TRACE(config.Name());
    const std::vector<uint64_t> values = Generate(config.shape, config.n, config.universe, rng);
    absl::StatusOr<EliasFano> ef = EliasFano::Build(values, config.universe);
    ASSERT_TRUE(ef.ok()) << ef.status();
    const std::vector<uint8_t> bytes = ef->Serialize();
    EXPECT_EQ(bytes.size(), EliasFano::SerializedSize(config.n, config.universe));
    absl::StatusOr<EliasFano> decoded = EliasFano::FromBytes(bytes);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->Serialize(), bytes);
    ExpectSameSequence(*decoded, values, rng);
  }
}

TEST(EliasFano, IteratorAtStartsAtIndex) {
  std::mt19937_64 rng(3);
  const std::vector<uint64_t> values = Generate(Shape::kUniform, 3000, 100000, rng);
  absl::StatusOr<EliasFano> ef = EliasFano::Build(values, 100000);
  ASSERT_TRUE(ef.ok()) << ef.status();
  for (uint64_t i = 0; i <= values.size(); i += 97) {
    EliasFano::Iterator it = ef->IteratorAt(i);
    EXPECT_EQ(it.index(), i);
    EXPECT_EQ(std::vector<uint64_t>(it, ef->end()),
              std::vector<uint64_t>(values.begin() + i, values.end()));
  }
  EXPECT_TRUE(ef->IteratorAt(values.size()) == ef->end());
  EliasFano::Iterator it = ef->begin();
  EXPECT_EQ(*it++, values[0]);
  EXPECT_EQ(*it, values[1]);
}

TEST(EliasFano, EmptySequence) {
  for (uint64_t universe : {uint64_t{0}, uint64_t{1000}, kMax}) {
    absl::StatusOr<EliasFano> ef = EliasFano::Build({}, universe);
    ASSERT_TRUE(ef.ok()) << ef.status();
    EXPECT_TRUE(ef->empty());
    EXPECT_EQ(ef->SizeInBits(), 0u);
    EXPECT_EQ(ef->low_bits(), 0);
    EXPECT_TRUE(ef->begin() == ef->end());
    EXPECT_EQ(ef->LowerBound(0).index, 0u);
    EXPECT_EQ(ef->Serialize().size(), EliasFano::kHeaderBytes);
    absl::StatusOr<EliasFano> decoded = EliasFano::FromBytes(ef->Serialize());
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    EXPECT_EQ(decoded->universe(), universe);
    EXPECT_TRUE(decoded->empty());
  }
  const EliasFano default_constructed;
  EXPECT_TRUE(default_constructed.empty());
  EXPECT_EQ(default_constructed.LowerBound(kMax).index, 0u);
}

TEST(EliasFano, UniverseZeroHoldsOnlyZeros) {
  const std::vector<uint64_t> values(1000, 0);
  absl::StatusOr<EliasFano> ef = EliasFano::Build(values, 0);
  ASSERT_TRUE(ef.ok()) << ef.status();
  EXPECT_EQ(ef->SizeInBits(), 1000u);
  EXPECT_EQ(ef->LowerBound(0).index, 0u);
  EXPECT_EQ(ef->LowerBound(1).index, 1000u);
  EXPECT_EQ(EliasFano::Build({1}, 0).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(EliasFano, UniverseMaxHoldsExtremes) {
  const std::vector<uint64_t> values = {0, 1, uint64_t{1} << 63, kMax - 1, kMax, kMax};
  absl::StatusOr<EliasFano> ef = EliasFano::Build(values, kMax);
  ASSERT_TRUE(ef.ok()) << ef.status();
  EXPECT_EQ(ef->low_bits(), 61);  // floor(log2((2^64 - 1) / 6))
  std::mt19937_64 rng(1);
  ExpectSameSequence(*ef, values, rng);
  EXPECT_EQ(ef->LowerBound(kMax).index, 4u);

  absl::StatusOr<EliasFano> single = EliasFano::Build({kMax}, kMax);
  ASSERT_TRUE(single.ok()) << single.status();
  EXPECT_EQ(single->low_bits(), 63);
  EXPECT_EQ(single->Get(0), kMax);
  EXPECT_EQ(single->SizeInBits(), 63u + 1u + 1u);
}

TEST(EliasFano, LongRunOfDuplicatesGallops) {
  std::vector<uint64_t> values(100000, 12345);
  values.insert(values.end(), 100000, 12347);
  absl::StatusOr<EliasFano> ef = EliasFano::Build(values, 1000000);
  ASSERT_TRUE(ef.ok()) << ef.status();
  EXPECT_EQ(ef->LowerBound(12345).index, 0u);
  EXPECT_EQ(ef->LowerBound(12346).index, 100000u);
  EXPECT_EQ(ef->LowerBound(12346).value, 12347u);
  EXPECT_EQ(ef->LowerBound(12348).index, 200000u);
  std::mt19937_64 rng(5);
  ExpectSameSequence(*ef, values, rng);
}

TEST(EliasFano, WideBlocksStoreEveryPosition) {
  // The block of 256 ones around a gap of 125000 zeros in the high bits is spread over more than
  // 2^16 bits, so it is stored position by position.
  std::vector<uint64_t> values;
  for (uint64_t i = 0; i < 100000; ++i) values.push_back(i);
  for (uint64_t i = 0; i < 100000; ++i) values.push_back(600000 + i);
  absl::StatusOr<EliasFano> ef = EliasFano::Build(values, 800000);
  ASSERT_TRUE(ef.ok()) << ef.status();
  const uint64_t zeros = (800000 >> ef->low_bits());
  // A sample and four 16-bit offsets per 256 ones or zeros, without sparse blocks.
  const uint64_t sampled_only = 128 * ((values.size() + 255) / 256 + (zeros + 255) / 256);
  EXPECT_GT(ef->IndexSizeInBits(), sampled_only);
  std::mt19937_64 rng(9);
  ExpectSameSequence(*ef, values, rng);
}

TEST(EliasFano, SizeInBitsIsTheFormula) {
  EXPECT_EQ(EliasFano::LowBits(0, kMax), 0);
  EXPECT_EQ(EliasFano::LowBits(10, 5), 0);
  EXPECT_EQ(EliasFano::LowBits(1, 1), 0);
  EXPECT_EQ(EliasFano::LowBits(1, 2), 1);
  EXPECT_EQ(EliasFano::LowBits(6, 13), 1);
  EXPECT_EQ(EliasFano::LowBits(1, kMax), 63);
  for (const Config& config : Configs()) {
    SCOPED_TRACE(config.Name());
    const uint64_t n = config.n;
    const int l = EliasFano::LowBits(n, config.universe);
    const uint64_t expected = n == 0 ? 0 : n * l + n + (config.universe >> l);
    EXPECT_EQ(EliasFano::SizeInBits(n, config.universe), expected);
    EXPECT_LT(EliasFano::SizeInBits(n, config.universe), n * (l + 3) + 1);
  }
}

TEST(EliasFano, BuildRefusesUnsortedValues) {
  EXPECT_EQ(EliasFano::Build({1, 5, 4}, 10).status(),
            absl::InvalidArgumentError("elias_fano: value 4 at index 2 is smaller than the value "
                                       "5 before it; sort the values"));
}

TEST(EliasFano, BuildRefusesValuesAboveTheUniverse) {
  EXPECT_EQ(EliasFano::Build({1, 11}, 10).status(),
            absl::InvalidArgumentError("elias_fano: value 11 at index 1 exceeds the universe 10; "
                                       "pass a universe of at least the largest value"));
}

std::vector<uint8_t> Bytes(const std::vector<uint64_t>& values, uint64_t universe) {
  absl::StatusOr<EliasFano> ef = EliasFano::Build(values, universe);
  EXPECT_TRUE(ef.ok()) << ef.status();
  return ef->Serialize();
}

TEST(EliasFano, FromBytesNamesEachCorruption) {
  const std::vector<uint8_t> good = Bytes({2, 3, 5, 7, 11, 13}, 13);
  std::vector<uint8_t> bytes;

  EXPECT_EQ(EliasFano::FromBytes(absl::MakeConstSpan(good).first(5)).status(),
            absl::DataLossError("elias_fano: 5 bytes are shorter than the 18-byte header"));

  bytes = good;
  bytes[0] = 2;
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: unknown format version 2; expected 1"));

  bytes = good;
  bytes[8] = 0x01;  // n = 2^56 + 6
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: count 72057594037927942 is not below the limit 2^56"));

  bytes = good;
  bytes[17] = 2;
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: low-bit width 2 does not match count 6 and universe "
                                "13, which give 1"));

  bytes = good;
  bytes.pop_back();
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: 33 bytes where count 6 and universe 13 need 34"));

  bytes = good;
  bytes[18] |= 0x40;  // low bit 6 of 6 low bits
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: nonzero padding after the low bits"));

  bytes = good;
  bytes[27] |= 0x10;  // high bit 12 of 12 high bits
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: nonzero padding after the high bits"));

  bytes = good;
  bytes[26] |= 0x01;  // high bit 0: a seventh one
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: the high bits hold 7 ones where the count is 6"));

  // 4, 5 with u = 7: l = 1, both in bucket 2; swapping their low parts makes 5, 4.
  bytes = Bytes({4, 5}, 7);
  ASSERT_EQ(bytes[18], 0x02);
  bytes[18] = 0x01;
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: value 4 at index 1 is smaller than the value 5 "
                                "before it"));

  // 0, 4 with u = 4: l = 1, 4 is in the top bucket 2; a low part of 1 makes it 5.
  bytes = Bytes({0, 4}, 4);
  ASSERT_EQ(bytes[18], 0x00);
  bytes[18] = 0x02;
  EXPECT_EQ(EliasFano::FromBytes(bytes).status(),
            absl::DataLossError("elias_fano: last value 5 exceeds the universe 4"));
}

// Corrupt input that FromBytes accepts must still behave: queries stay in bounds and agree with
// each other, and the bytes are canonical, so they serialize back unchanged.
void ExpectFailsOrConsistent(const std::vector<uint8_t>& bytes, std::mt19937_64& rng) {
  absl::StatusOr<EliasFano> ef = EliasFano::FromBytes(bytes);
  if (!ef.ok()) {
    ASSERT_EQ(ef.status().code(), absl::StatusCode::kDataLoss) << ef.status();
    return;
  }
  const std::vector<uint64_t> values(ef->begin(), ef->end());
  ASSERT_TRUE(std::is_sorted(values.begin(), values.end()));
  if (!values.empty()) {
    ASSERT_LE(values.back(), ef->universe());
  }
  EXPECT_EQ(ef->Serialize(), bytes);
  ExpectSameSequence(*ef, values, rng);
}

std::vector<std::vector<uint8_t>> CorruptionSeeds() {
  std::mt19937_64 rng(13);
  std::vector<std::vector<uint8_t>> seeds = {
      Bytes({}, 0),
      Bytes({}, kMax),
      Bytes({7}, 7),
      Bytes({2, 3, 5, 7, 11, 13}, 13),
      Bytes({0, 0, 0, 0}, 0),
      Bytes({0, kMax}, kMax),
      Bytes(std::vector<uint64_t>(70, 5), 9),
  };
  for (Shape shape : {Shape::kUniform, Shape::kDuplicates, Shape::kBoundaries}) {
    seeds.push_back(Bytes(Generate(shape, 40, 1000, rng), 1000));
    seeds.push_back(Bytes(Generate(shape, 300, kMax, rng), kMax));
  }
  return seeds;
}

TEST(EliasFano, TruncatedBytesFail) {
  for (const std::vector<uint8_t>& seed : CorruptionSeeds()) {
    for (size_t length = 0; length < seed.size(); ++length) {
      const std::vector<uint8_t> truncated(seed.begin(), seed.begin() + length);
      EXPECT_EQ(EliasFano::FromBytes(truncated).status().code(), absl::StatusCode::kDataLoss)
          << "length " << length << " of " << seed.size();
    }
  }
}

TEST(EliasFano, FlippedBitsFailOrDecodeConsistently) {
  std::mt19937_64 rng(17);
  for (const std::vector<uint8_t>& seed : CorruptionSeeds()) {
    SCOPED_TRACE(absl::StrCat("seed of ", seed.size(), " bytes"));
    for (size_t bit = 0; bit < 8 * seed.size(); ++bit) {
      std::vector<uint8_t> bytes = seed;
      bytes[bit / 8] ^= static_cast<uint8_t>(1 << (bit % 8));
      ExpectFailsOrConsistent(bytes, rng);
    }
    std::uniform_int_distribution<size_t> position(0, seed.size() - 1);
    std::uniform_int_distribution<int> byte(0, 255);
    for (int trial = 0; trial < 300; ++trial) {
      std::vector<uint8_t> bytes = seed;
      for (int k = 0; k < 3; ++k) bytes[position(rng)] = static_cast<uint8_t>(byte(rng));
      ExpectFailsOrConsistent(bytes, rng);
    }
  }
}

TEST(EliasFano, BitsMovedBetweenHighWordsDecodeConsistently) {
  // Moving a one keeps the count right, so these reach the order and universe checks.
  std::mt19937_64 rng(19);
  const std::vector<uint8_t> seed = Bytes(Generate(Shape::kUniform, 200, 5000, rng), 5000);
  const size_t high_start =
      seed.size() - 8 * ((200 + (5000 >> EliasFano::LowBits(200, 5000)) + 63) / 64);
  std::uniform_int_distribution<size_t> bit(8 * high_start, 8 * seed.size() - 1);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint8_t> bytes = seed;
    const size_t from = bit(rng);
    const size_t to = bit(rng);
    const bool from_set = (bytes[from / 8] >> (from % 8)) & 1;
    const bool to_set = (bytes[to / 8] >> (to % 8)) & 1;
    if (!from_set || to_set) continue;
    bytes[from / 8] ^= static_cast<uint8_t>(1 << (from % 8));
    bytes[to / 8] ^= static_cast<uint8_t>(1 << (to % 8));
    absl::StatusOr<EliasFano> ef = EliasFano::FromBytes(bytes);
    if (ef.ok()) ++accepted;
    ExpectFailsOrConsistent(bytes, rng);
  }
  EXPECT_GT(accepted, 0);
}

}  // namespace
}  // namespace crawldb::codecs
