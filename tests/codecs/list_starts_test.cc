// The compressed starts array of paper 001 §3.3 (codecs/list_starts.h): layouts, escapes,
// the width choice of the one-partition layout, exact sizes and the checks of Parse.
#include "codecs/list_starts.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"

namespace crawldb::codecs {
namespace {

using Partition = ListStarts::Partition;

// Every Get and the sequential LengthReader agree with the prefix sums of `lengths`, before and
// after a serialization round trip.
void ExpectRanges(const ListStarts& starts, const std::vector<uint32_t>& lengths) {
  uint64_t begin = 0;
  ListStarts::LengthReader reader(starts);
  for (uint32_t v = 0; v < lengths.size(); ++v) {
    const ListStarts::Range range = starts.Get(v);
    ASSERT_EQ(range.begin, begin) << "node " << v;
    ASSERT_EQ(range.end, begin + lengths[v]) << "node " << v;
    ASSERT_EQ(reader.Next(), lengths[v]) << "node " << v;
    begin += lengths[v];
  }
}

ListStarts RoundTrip(const ListStarts& starts, uint32_t node_count, uint64_t total) {
  std::vector<uint8_t> bytes;
  starts.AppendTo(&bytes);
  EXPECT_EQ(8 * bytes.size(), starts.SizeInBits());
  LittleEndianReader in(bytes);
  absl::StatusOr<ListStarts> parsed = ListStarts::Parse(&in, node_count, total);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(in.remaining(), 0u);
  return parsed.ok() ? *std::move(parsed) : ListStarts();
}

std::vector<uint32_t> RandomLengths(size_t n, uint32_t long_every, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> lengths(n);
  for (uint32_t& length : lengths) {
    length = rng() % long_every == 0 ? static_cast<uint32_t>(rng() % 100000) : rng() % 40;
  }
  return lengths;
}

uint64_t Sum(const std::vector<uint32_t>& lengths) {
  uint64_t total = 0;
  for (uint32_t length : lengths) total += length;
  return total;
}

TEST(ListStarts, EveryLayoutGivesTheSameRanges) {
  const std::vector<uint32_t> lengths = RandomLengths(1000, 20, 1);
  const std::vector<std::vector<Partition>> layouts = {
      {{1000, 8}},
      {{1000, 16}},
      {{1000, 32}},
      {{10, 32}, {300, 16}, {690, 8}},
      {{0, 32}, {17, 16}, {0, 8}, {983, 8}},
      {{999, 8}, {1, 32}},
  };
  for (const std::vector<Partition>& layout : layouts) {
    absl::StatusOr<ListStarts> starts = ListStarts::Build(lengths, layout);
    ASSERT_TRUE(starts.ok()) << starts.status();
    ExpectRanges(*starts, lengths);
    ExpectRanges(RoundTrip(*starts, 1000, Sum(lengths)), lengths);
  }
}

TEST(ListStarts, SizesAreThePapers) {
  // 32 nodes, no escapes: 8-bit records cost 32 + 16 · 8 bits per 16 nodes, 16-bit 32 + 16 · 16,
  // 32-bit 32 per node and one more. Fixed: P (8), exception count (32), partition count (8),
  // node count (32) and width (8) = 88 bits.
  const std::vector<uint32_t> lengths(32, 3);
  for (const auto& [width, bits] : {std::pair(8u, 2 * (32 + 16 * 8)),
                                    std::pair(16u, 2 * (32 + 16 * 16)), std::pair(32u, 33 * 32)}) {
    const Partition partition = {32, width};
    absl::StatusOr<ListStarts> starts = ListStarts::Build(lengths, {&partition, 1});
    ASSERT_TRUE(starts.ok());
    EXPECT_EQ(starts->SizeInBits(), 88u + bits) << width;
  }
}

TEST(ListStarts, EscapesLengthsThatDoNotFit) {
  // 254 fits an 8-bit field, 255 is the escape value and goes to the exceptions.
  const std::vector<uint32_t> lengths = {254, 255, 0, 70000, 65534, 1};
  for (uint32_t width : {8u, 16u}) {
    const Partition partition = {6, width};
    absl::StatusOr<ListStarts> starts = ListStarts::Build(lengths, {&partition, 1});
    ASSERT_TRUE(starts.ok());
    ExpectRanges(*starts, lengths);
    ExpectRanges(RoundTrip(*starts, 6, Sum(lengths)), lengths);
    // 8 bits: 255, 70000 and 65534 escape; 16 bits: 70000 only. 64 bits each.
    const uint64_t exceptions = width == 8 ? 3 : 1;
    EXPECT_EQ(starts->SizeInBits(), 88u + 32 + 16 * width + 64 * exceptions);
  }
}

TEST(ListStarts, OnePartitionTakesTheSmallestWidth) {
  const std::vector<uint32_t> short_lists(100, 10);
  const std::vector<uint32_t> long_lists(100, 1000);
  const std::vector<uint32_t> huge_lists(100, 100000);
  EXPECT_EQ(ListStarts::BuildOnePartition(short_lists)->partitions()[0].width, 8u);
  EXPECT_EQ(ListStarts::BuildOnePartition(long_lists)->partitions()[0].width, 16u);
  EXPECT_EQ(ListStarts::BuildOnePartition(huge_lists)->partitions()[0].width, 32u);
  EXPECT_EQ(ListStarts::BuildOnePartition({})->partitions()[0].width, 8u);
}

TEST(ListStarts, LinkStartsUseThePapersWidths) {
  const std::vector<uint32_t> lengths = RandomLengths(100, 5, 2);
  absl::StatusOr<ListStarts> three = BuildLinkStarts(lengths, DegreePartitions{3, 40});
  ASSERT_TRUE(three.ok());
  ASSERT_EQ(three->partitions().size(), 3u);
  EXPECT_EQ(three->partitions()[0].node_count, 3u);
  EXPECT_EQ(three->partitions()[0].width, 32u);
  EXPECT_EQ(three->partitions()[1].node_count, 40u);
  EXPECT_EQ(three->partitions()[1].width, 16u);
  EXPECT_EQ(three->partitions()[2].node_count, 57u);
  EXPECT_EQ(three->partitions()[2].width, 8u);
  ExpectRanges(*three, lengths);
  EXPECT_EQ(BuildLinkStarts(lengths, std::nullopt)->partitions().size(), 1u);
}

TEST(ListStarts, BuildRefusesBadPartitionsAndHugeTotals) {
  const std::vector<uint32_t> lengths = {1, 2, 3};
  const Partition too_few = {2, 8};
  EXPECT_EQ(ListStarts::Build(lengths, {&too_few, 1}).status().message(),
            "list_starts: the partitions hold 2 nodes, not 3");
  const Partition bad_width = {3, 12};
  EXPECT_EQ(ListStarts::Build(lengths, {&bad_width, 1}).status().message(),
            "list_starts: width 12; use 8, 16 or 32");
  EXPECT_EQ(ListStarts::Build(lengths, {}).status().message(),
            "list_starts: 0 partitions; 1 to 8 are possible");
  const std::vector<uint32_t> huge = {UINT32_MAX, 1};
  EXPECT_EQ(ListStarts::BuildOnePartition(huge).status().message(),
            "list_starts: a stream of 4294967296; 32-bit starts address fewer than 2^32");
}

TEST(ListStarts, ParseRefusesBadExceptionsAndTotals) {
  const std::vector<uint32_t> lengths = {300, 2, 400};
  const Partition partition = {3, 8};
  absl::StatusOr<ListStarts> starts = ListStarts::Build(lengths, {&partition, 1});
  ASSERT_TRUE(starts.ok());
  std::vector<uint8_t> bytes;
  starts->AppendTo(&bytes);
  // P at 0, exception count at 1..4, exceptions (node, length) at 5..12 and 13..20.
  ASSERT_EQ(bytes[1], 2);
  const auto parse = [](const std::vector<uint8_t>& b, uint32_t nodes, uint64_t total) {
    LittleEndianReader in(b);
    return ListStarts::Parse(&in, nodes, total).status();
  };
  EXPECT_TRUE(parse(bytes, 3, 702).ok());
  EXPECT_EQ(parse(bytes, 3, 703).message(),
            "list_starts: lists end at 702, not at the stream's end 703");
  EXPECT_EQ(parse(bytes, 3, 701).message(), "list_starts: lists end at 702, past the stream's 701");
  EXPECT_EQ(parse(bytes, 4, 702).message(), "list_starts: partitions hold 3 nodes, not 4");
  std::vector<uint8_t> bad = bytes;
  bad[13] = 0;  // Exception 1 names node 0 again.
  EXPECT_EQ(parse(bad, 3, 702).message(),
            "list_starts: exception 1 names node 0, out of order or range");
  {
    // Paged starts take the exceptions as stored and check them with the records.
    const PagedBytes pages(bad.size(), 16, [&bad](size_t part, absl::Span<uint8_t> into) {
      std::copy_n(bad.begin() + static_cast<ptrdiff_t>(part * 16), into.size(), into.begin());
      return absl::OkStatus();
    });
    uint64_t end = 0;
    absl::StatusOr<ListStarts> deferred = ListStarts::ParseDeferred(pages, 0, 3, 702, &end);
    ASSERT_TRUE(deferred.ok()) << deferred.status();
    EXPECT_EQ(end, bad.size());
    EXPECT_EQ(deferred->CheckRecords().message(),
              "list_starts: escaped length of node 2 has no exception");
  }
  bad = bytes;
  bad[13] = 1;  // Exception 1 names node 1, whose length is not escaped.
  EXPECT_EQ(parse(bad, 3, 702).message(), "list_starts: escaped length of node 2 has no exception");
  bad = bytes;
  bad[9] = 10;  // Exception 0's length, 10, is below the escape value.
  bad[10] = 0;
  EXPECT_EQ(parse(bad, 3, 702).message(), "list_starts: escaped length of node 0 has no exception");
  bad = bytes;
  bad[1] = 200;
  EXPECT_EQ(parse(bad, 3, 702).message(), "list_starts: 200 exceptions do not fit");
  for (size_t size = 0; size < bytes.size(); ++size) {
    const std::vector<uint8_t> truncated(bytes.begin(), bytes.begin() + size);
    EXPECT_EQ(parse(truncated, 3, 702).code(), absl::StatusCode::kDataLoss) << size;
  }
}

}  // namespace
}  // namespace crawldb::codecs
