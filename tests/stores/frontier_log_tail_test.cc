// LogTail (frontier_log_tail.h): a part's changes come back in commit order across commits, the
// parts and hosts are the union of the commits', and a fold empties it.
#include "extension/frontier/frontier_log_tail.h"

#include <gtest/gtest.h>

namespace crawldb::frontier {
namespace {

UrlChange Change(uint64_t fp, UrlChangeKind kind) { return {fp, kind, {}}; }

std::vector<HostChange> Hosts(std::vector<uint32_t> ids) {
  std::vector<HostChange> hosts;
  for (uint32_t id : ids) hosts.push_back({id, "h.example.com", {}, {}});
  return hosts;
}

std::vector<uint64_t> FpsOf(const LogTail& tail, uint32_t part) {
  std::vector<UrlChange> changes;
  tail.AppendPart(part, &changes);
  std::vector<uint64_t> fps;
  for (const UrlChange& change : changes) fps.push_back(change.fp);
  return fps;
}

TEST(FrontierLogTail, PartsComeBackInCommitOrderUntilAFold) {
  LogTail tail;
  tail.Fold(10);
  EXPECT_TRUE(tail.empty());
  // Commit 11: fps 1, 2 in part 5, fp 3 in part 9. Commit 12: fp 4 in part 9, fp 1 again in 5.
  const std::vector<UrlChange> first = {Change(1, UrlChangeKind::kNew),
                                        Change(2, UrlChangeKind::kNew),
                                        Change(3, UrlChangeKind::kNew)};
  tail.Add(first, std::vector<PartRange>{{5, 0, 2}, {9, 2, 3}}, Hosts({0, 1}), 100);
  const std::vector<UrlChange> second = {Change(4, UrlChangeKind::kNew),
                                         Change(1, UrlChangeKind::kDelete)};
  tail.Add(second, std::vector<PartRange>{{9, 0, 1}, {5, 1, 2}}, Hosts({1, 4}), 50);

  EXPECT_EQ(tail.folded(), 10);
  EXPECT_EQ(tail.rows(), 2u);
  EXPECT_EQ(tail.row_bytes(), 150u);
  EXPECT_EQ(FpsOf(tail, 5), (std::vector<uint64_t>{1, 2, 1}));
  EXPECT_EQ(FpsOf(tail, 9), (std::vector<uint64_t>{3, 4}));
  EXPECT_TRUE(FpsOf(tail, 6).empty());
  std::vector<UrlChange> part5;
  tail.AppendPart(5, &part5);
  EXPECT_EQ(part5.back().kind, UrlChangeKind::kDelete);
  EXPECT_EQ(tail.Parts(), (std::vector<uint32_t>{5, 9}));
  EXPECT_EQ(std::vector<uint32_t>(tail.hosts().begin(), tail.hosts().end()),
            (std::vector<uint32_t>{0, 1, 4}));
  EXPECT_GE(tail.MemoryBytes(), 5 * sizeof(UrlChange));

  tail.Fold(12);
  EXPECT_TRUE(tail.empty());
  EXPECT_EQ(tail.folded(), 12);
  EXPECT_EQ(tail.row_bytes(), 0u);
  EXPECT_TRUE(FpsOf(tail, 5).empty());
  EXPECT_TRUE(tail.Parts().empty());
  EXPECT_TRUE(tail.hosts().empty());
}

}  // namespace
}  // namespace crawldb::frontier
