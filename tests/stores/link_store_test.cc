// LinkStore (the link graph's arena), its stored formats and its input files, against a plain
// set of arcs.
#include "extension/links/link_store.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <optional>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "codecs/varint.h"
#include "extension/links/link_files.h"
#include "extension/links/link_graph_format.h"
#include "tests/shared_data.h"

namespace crawldb::links {
namespace {

using ArcSet = std::set<std::pair<uint32_t, uint32_t>>;

// The cnr-2000 arcs among nodes below `limit`: a real graph small enough for every test.
std::vector<codecs::Arc> CnrArcs(uint32_t limit) {
  std::vector<codecs::Arc> arcs;
  for (const std::string& line :
       testing::ReadXzLines(testing::SharedDataPath("cnr-2000/cnr-2000.arcs.tsv.xz"), 400000)) {
    size_t tab = line.find('\t');
    auto src = static_cast<uint32_t>(std::stoul(line.substr(0, tab)));
    auto dst = static_cast<uint32_t>(std::stoul(line.substr(tab + 1)));
    if (src < limit && dst < limit) arcs.push_back({src, dst});
  }
  return arcs;
}

LinkStore StoreOf(const std::vector<codecs::Arc>& arcs, uint32_t nodes) {
  codecs::AdjacencyLists lists = codecs::AdjacencyLists::FromArcs(nodes, arcs).value();
  LinkStore store;
  store.Reset(codecs::EncodeAdjacency("link3", lists.view()).value(),
              codecs::EncodeAdjacency("link3", lists.Transpose().view()).value());
  return store;
}

void ExpectGraph(const LinkStore& store, const ArcSet& expected) {
  ArcSet out, in;
  std::vector<uint32_t> list;
  for (uint32_t node = 0; node < store.node_limit(); ++node) {
    store.List(Direction::kOut, node, &list);
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
    if (std::optional<uint32_t> degree = store.Degree(Direction::kOut, node)) {
      EXPECT_EQ(*degree, list.size());
    }
    for (uint32_t dst : list) out.insert({node, dst});
    store.List(Direction::kIn, node, &list);
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
    if (std::optional<uint32_t> degree = store.Degree(Direction::kIn, node)) {
      EXPECT_EQ(*degree, list.size());
    }
    for (uint32_t src : list) in.insert({src, node});
  }
  EXPECT_EQ(out, expected);
  EXPECT_EQ(in, expected);
  EXPECT_EQ(store.arc_count(), expected.size());
  std::vector<std::string> problems;
  store.Check(&problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
}

// With the default buffer the delta stays in it; with small ones it is frozen into runs (and
// runs merged) many times, between a mark and the undo to it too.
class LinkStoreBuffers : public ::testing::TestWithParam<size_t> {};
INSTANTIATE_TEST_SUITE_P(DeltaBuffer, LinkStoreBuffers,
                         ::testing::Values(LinkStore::kDefaultDeltaBufferArcs, 1, 7, 300));

TEST_P(LinkStoreBuffers, ChangesAndUndoAgreeWithASetOfArcs) {
  const uint32_t nodes = 3000;
  std::vector<codecs::Arc> arcs = CnrArcs(nodes);
  ASSERT_GT(arcs.size(), 10000u);
  LinkStore store = StoreOf(arcs, nodes);
  store.SetDeltaBufferArcs(GetParam());
  ArcSet expected;
  for (const codecs::Arc& arc : arcs) expected.insert({arc.src, arc.dst});
  ExpectGraph(store, expected);

  std::mt19937 random(7);
  auto node = [&] { return std::uniform_int_distribution<uint32_t>(0, nodes + 50)(random); };
  ArcSet at_mark;
  size_t mark = 0;
  for (int step = 0; step < 20000; ++step) {
    if (step == 10000) {
      mark = store.UndoMark();
      at_mark = expected;
    }
    uint32_t src = node(), dst = node();
    if (random() % 3 == 0 && !expected.empty()) {
      // Remove an existing arc (base or delta) half the time, a random one otherwise.
      auto it = expected.lower_bound({src, dst});
      if (it != expected.end()) std::tie(src, dst) = *it;
      EXPECT_EQ(store.Remove(src, dst), expected.erase({src, dst}) == 1);
    } else {
      EXPECT_EQ(store.Add(src, dst), expected.insert({src, dst}).second);
    }
  }
  ExpectGraph(store, expected);
  if (GetParam() < 1000) {
    EXPECT_GT(store.delta_runs(), 0u);
  }
  for (const auto& [src, dst] : expected) EXPECT_TRUE(store.Contains(src, dst));
  EXPECT_EQ(store.ChangesSince(mark).size(), store.UndoMark() - mark);
  store.UndoTo(mark);
  ExpectGraph(store, at_mark);
  store.UndoTo(0);
  ArcSet original;
  for (const codecs::Arc& arc : arcs) original.insert({arc.src, arc.dst});
  ExpectGraph(store, original);
  // Nothing is left behind: no tombstone, no delta arc (the runs lost the undone arcs).
  EXPECT_EQ(store.tombstones(), 0u);
  EXPECT_EQ(store.delta_arcs(), 0u);
  EXPECT_EQ(store.delta_runs(), 0u);
}

TEST(LinkStore, RemovedRunArcsArePurgedFromTheRuns) {
  // Arcs frozen into runs, then most of them removed: past an eighth of the runs' arcs the runs
  // are rewritten without them, so tombstones and runs stay small.
  std::vector<codecs::Arc> arcs = CnrArcs(3000);
  ASSERT_GT(arcs.size(), 10000u);
  LinkStore store;
  store.SetDeltaBufferArcs(500);
  ArcSet expected;
  for (const codecs::Arc& arc : arcs) {
    ASSERT_TRUE(store.Add(arc.src, arc.dst));
    expected.insert({arc.src, arc.dst});
  }
  store.ClearUndo();
  for (size_t i = 0; i < arcs.size(); i += 4) {
    for (size_t j = i; j < std::min(i + 3, arcs.size()); ++j) {
      ASSERT_TRUE(store.Remove(arcs[j].src, arcs[j].dst));
      expected.erase({arcs[j].src, arcs[j].dst});
    }
  }
  ExpectGraph(store, expected);
  EXPECT_LT(store.tombstones(), std::max<size_t>(1024, store.delta_arcs() / 8) + 1);
  // Without the purge the runs would still hold every arc added.
  EXPECT_LT(store.delta_arcs(), arcs.size() / 2);
}

TEST_P(LinkStoreBuffers, ReplayedChangesAgreeWithASetOfArcs) {
  // Another connection's changes replayed over an empty base, as a new connection reads a log.
  std::vector<codecs::Arc> arcs = CnrArcs(3000);
  LinkStore store;
  store.SetDeltaBufferArcs(GetParam());
  ArcSet expected;
  for (size_t i = 0; i < arcs.size(); ++i) {
    const codecs::Arc& arc = arcs[i];
    ASSERT_TRUE(store.Replay({.added = true, .src = arc.src, .dst = arc.dst}).ok());
    expected.insert({arc.src, arc.dst});
    if (i % 5 == 0) {  // and some removed again, from the buffer or from a run
      const codecs::Arc& old = arcs[i / 2];
      if (expected.erase({old.src, old.dst}) == 1) {
        ASSERT_TRUE(store.Replay({.added = false, .src = old.src, .dst = old.dst}).ok());
      }
    }
  }
  ExpectGraph(store, expected);
  absl::StatusOr<std::vector<codecs::Arc>> all = store.Arcs();
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), expected.size());
  EXPECT_TRUE(std::is_sorted(all->begin(), all->end(), [](const auto& a, const auto& b) {
    return std::pair(a.src, a.dst) < std::pair(b.src, b.dst);
  }));
}

TEST_P(LinkStoreBuffers, BatchedReplayEndsAsReplayingOneByOne) {
  // A log over a base: rows of additions, some removals (of base, run and buffered arcs) and
  // additions of removed arcs again, replayed row by row as a new connection does, against the
  // same changes replayed one by one.
  std::vector<codecs::Arc> arcs = CnrArcs(3000);
  ASSERT_GT(arcs.size(), 10000u);
  const size_t base_arcs = arcs.size() / 4;
  const std::vector<codecs::Arc> base(arcs.begin(), arcs.begin() + base_arcs);
  ArcSet expected;
  for (const codecs::Arc& arc : base) expected.insert({arc.src, arc.dst});
  std::vector<std::vector<LinkChange>> rows(1);
  for (size_t i = base_arcs; i < arcs.size(); ++i) {
    rows.back().push_back({.added = true, .src = arcs[i].src, .dst = arcs[i].dst});
    expected.insert({arcs[i].src, arcs[i].dst});
    // The second half of the log removes and adds back too.
    if (i > arcs.size() / 2 && i % 97 == 0) {
      for (const codecs::Arc& old : {arcs[i / 3], arcs[i - 50]}) {
        const bool present = expected.count({old.src, old.dst}) == 1;
        rows.back().push_back({.added = !present, .src = old.src, .dst = old.dst});
        if (present) {
          expected.erase({old.src, old.dst});
        } else {
          expected.insert({old.src, old.dst});
        }
      }
    }
    if (i % 1000 == 0) rows.emplace_back();
  }
  LinkStore batched = StoreOf(base, 3000);
  LinkStore single = StoreOf(base, 3000);
  for (LinkStore* store : {&batched, &single}) store->SetDeltaBufferArcs(GetParam());
  for (const std::vector<LinkChange>& row : rows) {
    ASSERT_TRUE(batched.ReplayInBatches(row).ok());
    for (const LinkChange& change : row) ASSERT_TRUE(single.Replay(change).ok());
  }
  ASSERT_TRUE(batched.EndReplay().ok());
  ExpectGraph(batched, expected);
  ExpectGraph(single, expected);
  EXPECT_EQ(batched.UndoMark(), 0u);
}

TEST(LinkStore, BatchedReplayOfMoreThanABatchGoesInBatchByBatch) {
  // One call with more additions than kReplayBatchArcs: the first batch goes in during it.
  constexpr uint32_t kSources = 4093;
  const size_t count = LinkStore::kReplayBatchArcs + 5000;
  std::vector<LinkChange> changes;
  for (size_t i = 0; i < count; ++i) {
    changes.push_back({.added = true,
                       .src = static_cast<uint32_t>(i % kSources),
                       .dst = static_cast<uint32_t>(kSources + i / kSources)});
  }
  LinkStore store;
  ASSERT_TRUE(store.ReplayInBatches(changes).ok());
  EXPECT_EQ(store.arc_count(), LinkStore::kReplayBatchArcs);
  ASSERT_TRUE(store.EndReplay().ok());
  EXPECT_EQ(store.arc_count(), count);
  std::vector<uint32_t> list;
  for (uint32_t src : {0u, 5u, kSources - 1}) {
    store.List(Direction::kOut, src, &list);
    ASSERT_FALSE(list.empty());
    EXPECT_EQ(list.size(), (count - src + kSources - 1) / kSources) << src;
    EXPECT_EQ(list.front(), kSources);
    EXPECT_TRUE(std::is_sorted(list.begin(), list.end()));
  }
  store.List(Direction::kIn, kSources + 3, &list);
  EXPECT_EQ(list.size(), kSources);
  std::vector<std::string> problems;
  store.Check(&problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
}

TEST(LinkStore, BatchedReplayRefusesAnAdditionOfAPresentArc) {
  // Through the runs (a batch of a buffer's worth): twice in one batch, and an arc already held.
  std::vector<LinkChange> twice;
  for (uint32_t dst = 1; dst <= 20; ++dst) twice.push_back({.added = true, .src = 0, .dst = dst});
  twice.push_back({.added = true, .src = 0, .dst = 7});
  LinkStore store;
  store.SetDeltaBufferArcs(4);
  ASSERT_TRUE(store.ReplayInBatches(twice).ok());  // found when the additions go in
  EXPECT_EQ(store.EndReplay().message(), "links log: adds the arc 0 -> 7, already present");

  LinkStore held = StoreOf({{3, 4}}, 5);
  held.SetDeltaBufferArcs(4);
  std::vector<LinkChange> again;
  for (uint32_t src = 0; src < 5; ++src) again.push_back({.added = true, .src = src, .dst = 4});
  ASSERT_TRUE(held.ReplayInBatches(again).ok());
  EXPECT_EQ(held.EndReplay().message(), "links log: adds the arc 3 -> 4, already present");

  // A removed arc added back twice in one batch: the first loses its tombstone.
  LinkStore removed = StoreOf({{3, 4}}, 5);
  removed.SetDeltaBufferArcs(4);
  ASSERT_TRUE(removed.Replay({.added = false, .src = 3, .dst = 4}).ok());
  again.push_back({.added = true, .src = 3, .dst = 4});
  ASSERT_TRUE(removed.ReplayInBatches(again).ok());
  EXPECT_EQ(removed.EndReplay().message(), "links log: adds the arc 3 -> 4, already present");
}

TEST(LinkStore, DeltaRunsHoldAddedLinksInAFewBytes) {
  // 400,000 lines of cnr-2000 added to an empty store one by one: the frozen runs against a
  // buffer that never freezes.
  std::vector<codecs::Arc> arcs = CnrArcs(UINT32_MAX);
  ASSERT_GT(arcs.size(), 300000u);
  LinkStore frozen, buffered;
  buffered.SetDeltaBufferArcs(SIZE_MAX);
  for (const codecs::Arc& arc : arcs) {
    frozen.Add(arc.src, arc.dst);
    buffered.Add(arc.src, arc.dst);
  }
  frozen.ClearUndo();
  buffered.ClearUndo();
  const double frozen_bytes = static_cast<double>(frozen.MemoryBytes()) / arcs.size();
  const double buffered_bytes = static_cast<double>(buffered.MemoryBytes()) / arcs.size();
  std::printf("delta bytes per link, both directions: runs %.2f, buffer only %.2f (%zu runs)\n",
              frozen_bytes, buffered_bytes, frozen.delta_runs());
  EXPECT_LT(frozen_bytes, 12.0);
  EXPECT_GT(buffered_bytes, 3 * frozen_bytes);
  EXPECT_LE(frozen.delta_runs(), 5u);
  std::vector<uint32_t> a, b;
  for (uint32_t node = 0; node < frozen.node_limit(); node += 97) {
    for (Direction direction : {Direction::kOut, Direction::kIn}) {
      frozen.List(direction, node, &a);
      buffered.List(direction, node, &b);
      EXPECT_EQ(a, b);
    }
  }
}

TEST(LinkStore, ReplayRefusesChangesThatDoNotFit) {
  LinkStore store = StoreOf({{0, 1}, {1, 2}}, 3);
  EXPECT_TRUE(store.Replay({.added = true, .src = 2, .dst = 0}).ok());
  EXPECT_EQ(store.Replay({.added = true, .src = 0, .dst = 1}).message(),
            "links log: adds the arc 0 -> 1, already present");
  EXPECT_EQ(store.Replay({.added = false, .src = 5, .dst = 6}).message(),
            "links log: removes the arc 5 -> 6, absent");
  EXPECT_TRUE(store.Replay({.added = false, .src = 1, .dst = 2}).ok());
  ExpectGraph(store, {{0, 1}, {2, 0}});
  EXPECT_EQ(store.UndoMark(), 0u);  // replayed changes are not undoable
}

TEST(LinkGraphFormat, RoundTripsAndRefusesDamage) {
  std::vector<codecs::Arc> arcs = CnrArcs(2000);
  LinkStore store = StoreOf(arcs, 2000);
  std::vector<std::vector<uint8_t>> parts =
      GraphParts(store.base(Direction::kOut), store.base(Direction::kIn), 4096);
  ASSERT_GT(parts.size(), 4u);
  auto load = [](const std::vector<std::vector<uint8_t>>& stored) {
    std::vector<absl::Span<const uint8_t>> spans(stored.begin(), stored.end());
    return LoadGraphParts(spans);
  };
  absl::StatusOr<LoadedGraph> loaded = load(parts);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->out->Serialize(), store.base(Direction::kOut).Serialize());
  EXPECT_EQ(loaded->in->Serialize(), store.base(Direction::kIn).Serialize());

  std::vector<std::vector<uint8_t>> damaged = parts;
  damaged.pop_back();
  EXPECT_EQ(load(damaged).status().code(), absl::StatusCode::kDataLoss);
  damaged = parts;
  damaged[2].pop_back();
  EXPECT_EQ(load(damaged).status().message(), "links: graph part 2 holds 4095 bytes, not 4096");
  damaged = parts;
  damaged[0][0] = kGraphFormatVersion + 1;
  EXPECT_EQ(load(damaged).status().message(),
            "links: the graph was written in format version 3; this build reads versions 1 to 2");
  EXPECT_EQ(load({}).status().message(), "links: the graph header is missing");
  // A header naming 64 GiB of out graph in 64 parts of 1 GiB, given 64 empty parts: refused
  // before anything is reserved (the loader threw std::bad_alloc; found by the link_graph fuzz
  // target).
  damaged.assign(65, {});
  damaged[0] = {kGraphFormatVersion};
  codecs::AppendVarint(uint64_t{64} << 30, &damaged[0]);
  codecs::AppendVarint(0, &damaged[0]);
  codecs::AppendVarint(uint64_t{1} << 30, &damaged[0]);
  codecs::AppendVarint(0, &damaged[0]);
  EXPECT_EQ(load(damaged).status().message(), "links: graph part 1 holds 0 bytes, not 1073741824");
  // Headers of the parts' sizes, with an arc count or without (version 1).
  const size_t out_bytes = store.base(Direction::kOut).Serialize().size();
  const size_t in_bytes = store.base(Direction::kIn).Serialize().size();
  auto header = [&](uint8_t version, uint64_t part_bytes, std::optional<uint64_t> arc_count) {
    std::vector<uint8_t> bytes = {version};
    for (uint64_t value : {uint64_t{out_bytes}, uint64_t{in_bytes}, part_bytes}) {
      codecs::AppendVarint(value, &bytes);
    }
    if (arc_count.has_value()) codecs::AppendVarint(*arc_count, &bytes);
    return bytes;
  };
  damaged = parts;
  ASSERT_EQ(header(kGraphFormatVersion, 4096, store.arc_count()), parts[0]);
  damaged[0] = header(kGraphFormatVersion, 0, store.arc_count());
  EXPECT_EQ(load(damaged).status().message(), "links: the graph header gives a part size of 0");
  damaged[0] = header(kGraphFormatVersion, 4096, std::nullopt);
  EXPECT_EQ(load(damaged).status().message(), "links: the graph header is malformed");

  // Version 1 (no arc count) is read, every list checked at load.
  damaged[0] = header(kGraphFormatVersionWithoutArcs, 4096, std::nullopt);
  absl::StatusOr<LoadedGraph> old = load(damaged);
  ASSERT_TRUE(old.ok()) << old.status();
  EXPECT_EQ(old->out->arc_count(), store.arc_count());
  EXPECT_EQ(old->out->Serialize(), store.base(Direction::kOut).Serialize());
  damaged[0] = header(kGraphFormatVersionWithoutArcs, 4096, store.arc_count());
  EXPECT_EQ(load(damaged).status().message(), "links: the graph header is malformed");

  // Version 2 checks the lists as they are read: a wrong arc count loads, and the store's
  // check finds it.
  damaged[0] = header(kGraphFormatVersion, 4096, store.arc_count() + 1);
  absl::StatusOr<LoadedGraph> miscounted = load(damaged);
  ASSERT_TRUE(miscounted.ok()) << miscounted.status();
  LinkStore reset;
  reset.Reset(std::move(miscounted->out), std::move(miscounted->in));
  EXPECT_EQ(reset.arc_count(), store.arc_count() + 1);
  std::vector<std::string> problems;
  reset.Check(&problems);
  EXPECT_EQ(problems, std::vector<std::string>(
                          {absl::StrCat("links: link3: the lists hold ", store.arc_count(),
                                        " arcs; ", store.arc_count() + 1, " were recorded")}));
  EXPECT_EQ(reset.Arcs().status().code(), absl::StatusCode::kDataLoss);
}

TEST(LinkGraphFormat, LogRowsRoundTripAndRefuseDamage) {
  std::vector<LinkChange> changes = {{.added = true, .src = 0, .dst = 4294967295u},
                                     {.added = false, .src = 77, .dst = 3},
                                     {.added = true, .src = 123456, .dst = 0}};
  std::vector<uint8_t> blob = EncodeLogChanges(changes);
  std::string scratch;
  absl::StatusOr<std::vector<LinkChange>> decoded = DecodeLogChanges(blob, &scratch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ((*decoded)[i].added, changes[i].added);
    EXPECT_EQ((*decoded)[i].src, changes[i].src);
    EXPECT_EQ((*decoded)[i].dst, changes[i].dst);
  }
  for (size_t cut = 0; cut < blob.size(); ++cut) {
    EXPECT_FALSE(DecodeLogChanges(absl::MakeConstSpan(blob).subspan(0, cut), &scratch).ok()) << cut;
  }
  std::vector<uint8_t> extra = blob;
  extra.push_back(0);
  EXPECT_EQ(DecodeLogChanges(extra, &scratch).status().message(),
            "links: a log row: plain bytes of another size");
  std::vector<uint8_t> bad_kind = blob;
  bad_kind[4] = 7;  // version, count, size, packing, then the first change's kind
  EXPECT_EQ(DecodeLogChanges(bad_kind, &scratch).status().message(),
            "links: log change 0 has a bad kind");
  // A delta below id 0.
  EXPECT_EQ(
      DecodeLogChanges(std::vector<uint8_t>{2, 1, 3, 0, 1, 1, 0}, &scratch).status().message(),
      "links: log change 0 is malformed");
  // A delta of INT64_MAX after an id of 5, whose sum overflowed (UBSan, found by the link_log
  // fuzz target): a delta beyond ±(2^32 − 1) is damage.
  EXPECT_EQ(DecodeLogChanges(std::vector<uint8_t>{2, 2, 15, 0, 1, 10, 0, 1, 0xFE, 0xFF, 0xFF, 0xFF,
                                                  0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 0},
                             &scratch)
                .status()
                .message(),
            "links: log change 1 is malformed");
  // Version 1 rows, uncompressed with plain ids, are still read; an id above 2^32 − 1 is not.
  decoded = DecodeLogChanges(std::vector<uint8_t>{1, 2, 1, 5, 9, 0, 0x80, 0x01, 3}, &scratch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), 2u);
  EXPECT_EQ((*decoded)[1].src, 128u);
  EXPECT_EQ((*decoded)[1].dst, 3u);
  EXPECT_FALSE((*decoded)[1].added);
  EXPECT_EQ(
      DecodeLogChanges(std::vector<uint8_t>{1, 1, 1, 0x80, 0x80, 0x80, 0x80, 0x10, 0}, &scratch)
          .status()
          .message(),
      "links: log change 0 is malformed");
}

TEST(LinkGraphFormat, LogRowsOfCrawlAddsTakeAboutTwoBytesPerLink) {
  // As crawl_add writes them: each new URL (the previous one's successor) from a recent parent.
  std::vector<LinkChange> changes;
  std::mt19937 random(5);
  for (uint32_t dst = 1000; dst < 101000; ++dst) {
    changes.push_back(
        {.added = true, .src = dst - 1 - static_cast<uint32_t>(random() % 900), .dst = dst});
  }
  std::vector<uint8_t> blob = EncodeLogChanges(changes);
  EXPECT_LT(blob.size(), changes.size() * 5 / 2);
  std::string scratch;
  absl::StatusOr<std::vector<LinkChange>> decoded = DecodeLogChanges(blob, &scratch);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->size(), changes.size());
  for (size_t i = 0; i < changes.size(); ++i) {
    ASSERT_EQ((*decoded)[i].src, changes[i].src) << i;
    ASSERT_EQ((*decoded)[i].dst, changes[i].dst) << i;
  }
}

std::string WriteFile(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(LinkFiles, ArcsFileSkipsCommentsAndNamesBadLines) {
  absl::StatusOr<ArcsFile> file =
      ReadArcsFile(WriteFile("arcs.tsv",
                             "# SNAP comment\n% KONECT comment\n\n0\t1\n7 7\r\n"
                             "4294967295\t0\n0\t1\n"));
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->lines, 7u);
  ASSERT_EQ(file->arcs.size(), 4u);
  EXPECT_EQ(file->arcs[1].src, 7u);
  EXPECT_EQ(file->arcs[2].src, 4294967295u);
  for (const char* bad : {"1\n", "1\t\n", "a\tb\n", "-1\t2\n", "1\t2\t3\n", "1\t4294967296\n"}) {
    absl::StatusOr<ArcsFile> refused =
        ReadArcsFile(WriteFile("bad.tsv", std::string("0\t1\n") + bad));
    EXPECT_EQ(refused.status().message(),
              "line 2: expected two ids from 0 to 4294967295 separated by a tab")
        << bad;
  }
  EXPECT_EQ(ReadArcsFile("/nonexistent/x").status().message(),
            "cannot open '/nonexistent/x': No such file or directory");
}

TEST(LinkFiles, LinksFileKeepsTheNewestRecordOfASource) {
  absl::StatusOr<LinksFile> file = ReadLinksFile(WriteFile(
      "links.txt",
      "http://www.foo.com/\n  http://www.foo.com/css/foostyle.css\n  http://www.foo.com/about/\n"
      "\nhttp://www.foo.com/about/\n\thttp://www.foo.com/jobs/\n"
      "http://www.foo.com/\n  http://www.foo.com/products/\n"));
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(file->lines, 8u);
  EXPECT_EQ(file->superseded, 1u);
  ASSERT_EQ(file->records.size(), 2u);
  EXPECT_EQ(file->records[0].source, "http://www.foo.com/");
  EXPECT_EQ(file->records[0].destinations,
            std::vector<std::string>{"http://www.foo.com/products/"});
  EXPECT_EQ(file->records[1].destinations, std::vector<std::string>{"http://www.foo.com/jobs/"});
  EXPECT_EQ(ReadLinksFile(WriteFile("l2.txt", "\n  http://x/\n")).status().message(),
            "line 2: an indented destination URL before any source URL");
  EXPECT_EQ(ReadLinksFile(WriteFile("l3.txt", std::string("http://a/\n  http://b/\0x\n", 23)))
                .status()
                .message(),
            "line 2: holds a NUL byte");
}

}  // namespace
}  // namespace crawldb::links
