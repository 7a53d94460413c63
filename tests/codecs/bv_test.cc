// The bv codec (codecs/bv.h) beyond what link_codecs_test.cc checks of every codec: golden bytes
// for a small graph, pinned messages for hostile bodies, the reference choice.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "codecs/adjacency_codec.h"
#include "codecs/bit_reader.h"
#include "codecs/bit_writer.h"
#include "codecs/bv.h"
#include "codecs/hybrid_integer.h"
#include "gtest/gtest.h"
#include "tests/codecs/adjacency_test_support.h"

namespace crawldb::codecs {
namespace {

using ::crawldb::codecs::testing::Lists;
using ::crawldb::codecs::testing::LoadError;
using ::crawldb::codecs::testing::Serialized;

TEST(HybridInteger, SplitsAndJoins) {
  EXPECT_EQ(SplitHybrid(15).token, 15u);
  const HybridInteger h = SplitHybrid(27);  // 11011: m = 4, bit 3 is 1 → token 17, raw 011.
  EXPECT_EQ(h.token, 17u);
  EXPECT_EQ(h.raw_bit_count, 3);
  EXPECT_EQ(h.raw_bits, 3u);
  EXPECT_EQ(SplitHybrid(UINT64_MAX).token, kHybridTokens - 1);
  for (uint64_t x :
       {uint64_t{0}, uint64_t{16}, uint64_t{31}, uint64_t{32}, uint64_t{1} << 40, UINT64_MAX}) {
    const HybridInteger split = SplitHybrid(x);
    EXPECT_EQ(HybridRawBitCount(split.token), split.raw_bit_count);
    BitWriter out;
    out.WriteBits(split.raw_bits, split.raw_bit_count);
    const std::vector<uint8_t> raw = out.Finish();
    BitReader in(raw);
    EXPECT_EQ(HybridValue(split.token, in), x);
  }
}

TEST(Bv, CodesASmallGraph) {
  // 0 → 1, 1 → nothing. Each list: its reference (0, the only symbol of its table: "0"), its
  // outdegree (1 then 0: token 0 is "0", token 1 "1"); node 0's one residual leaves no room for
  // an interval of 3, so no interval count, and its first residual nat(1 − 0) = 2 is the only
  // symbol of its table, "0". Data: 010 00 = 0x40, 5 bits.
  const std::vector<uint8_t> bytes = Serialized("bv", Lists({{1}, {}}));
  // Envelope 1 2 "bv"; window 8, max_chain 4, min_interval 3, 2 nodes, 5 data bits.
  const std::vector<uint8_t> head = {1, 2, 'b', 'v', 8, 0, 4, 3, 2, 0,
                                     0, 0, 5,   0,   0, 0, 0, 0, 0, 0};
  ASSERT_GT(bytes.size(), head.size());
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin(), bytes.begin() + head.size()), head);
  // The outdegree table: alphabet 136 (varint 88 01), 2 used: symbol 0 length 1, symbol gap 0
  // (symbol 1) length 1; the relative outdegree table, unused; the reference table: 1 used,
  // symbol 0, length 1.
  const std::vector<uint8_t> tables = {0x88, 0x01, 2,    0,    1, 0, 1, 0x88,
                                       0x01, 0,    0x88, 0x01, 1, 0, 1};
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + head.size(),
                                 bytes.begin() + head.size() + tables.size()),
            tables);
  // The offsets 0 3 5 in Elias–Fano (l = 0: ones at 0, 3 + 1, 5 + 2 → 0x91), 26 bytes after
  // their length, then the data.
  const std::vector<uint8_t> tail = {26, 0, 0, 0, 1, 3, 0,    0, 0, 0, 0, 0, 0, 5, 0,   0,
                                     0,  0, 0, 0, 0, 0, 0x91, 0, 0, 0, 0, 0, 0, 0, 0x40};
  ASSERT_GT(bytes.size(), tail.size());
  EXPECT_EQ(std::vector<uint8_t>(bytes.end() - tail.size(), bytes.end()), tail);
  EXPECT_EQ(LoadError(bytes), "OK");
}

TEST(Bv, RefersToTheCheapestList) {
  // List 3 equals list 1 but for one id: a reference 2 back copies it.
  std::vector<std::vector<uint32_t>> lists(64);
  lists[0] = {5, 9, 20, 33};
  lists[1] = {2, 7, 11, 40, 41, 60};
  lists[2] = {1};
  lists[3] = {2, 7, 11, 40, 60};
  const AdjacencyLists graph = Lists(lists);
  absl::StatusOr<std::unique_ptr<EncodedGraph>> encoded = EncodeAdjacency("bv", graph.view());
  ASSERT_TRUE(encoded.ok());
  EXPECT_GT((*encoded)->SizeBits().deletes, 0u);  // Blocks were written: a reference was taken.
  std::vector<uint32_t> list;
  (*encoded)->Decode(3, &list);
  EXPECT_EQ(list, (std::vector<uint32_t>{2, 7, 11, 40, 60}));
  EXPECT_EQ((*encoded)->Degree(3), 5u);
}

TEST(Bv, RefusesOptionsOutOfRange) {
  const AdjacencyLists graph = Lists({{1}, {0}});
  AdjacencyCodecOptions options;
  options.window = 0;
  EXPECT_EQ(EncodeAdjacency("bv", graph.view(), options).status().message(),
            "bv: window 0, max_chain 4; the window must be in [1, 1024] and max_chain in [0, 64]");
}

TEST(Bv, LoadRejectsHostileBodies) {
  const std::vector<uint8_t> bytes = Serialized("bv", Lists({{1}, {}}));
  ASSERT_EQ(LoadError(bytes), "OK");
  EXPECT_EQ(LoadError(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 10)),
            "bv: truncated header");
  std::vector<uint8_t> bad = bytes;
  bad[4] = 0;  // window 0.
  EXPECT_EQ(LoadError(bad), "bv: window 0, max_chain 4 out of range");
  bad = bytes;
  bad[6] = 65;
  EXPECT_EQ(LoadError(bad), "bv: window 8, max_chain 65 out of range");
  bad = bytes;
  bad[12] = 6;  // 6 data bits: the offsets end at 5.
  EXPECT_EQ(LoadError(bad), "bv: the offsets are not 3 positions from 0 to 6");
  bad = bytes;
  bad.back() = 0x44;
  EXPECT_EQ(LoadError(bad), "bv: nonzero padding after the data");
  bad = bytes;
  bad.back() = 0x00;  // Node 0 has outdegree 0 and ends before node 1's offset.
  EXPECT_EQ(LoadError(bad), "bv: the list of node 0 is corrupt");
  bad = bytes;
  bad.push_back(0);
  EXPECT_EQ(LoadError(bad), "bv: the data takes 2 bytes; 5 bits need 1");
  bad = bytes;
  bad[bytes.size() - 31] = 27;  // The offsets' length runs past the body.
  EXPECT_EQ(LoadError(bad), "bv: elias_fano: 27 bytes where count 3 and universe 5 need 26");
}

}  // namespace
}  // namespace crawldb::codecs
