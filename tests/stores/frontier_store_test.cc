// FrontierStore without SQL: queue order, politeness, leases, re-crawl, back-off, budgets, the
// undo log, change sets (replay, snapshot, corruption).
#include "extension/frontier/frontier_store.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"
#include "tests/frontier_format3.h"
#include "tests/shared_data.h"

namespace crawldb::frontier {
namespace {

using crawldb::testing::ReadXzLines;
using crawldb::testing::SharedDataPath;

// The ids these tests give URLs, as a `urls` table would: the n-th distinct text gets id n.
struct TestUrlIds {
  absl::flat_hash_map<std::string, int64_t> ids;
  std::vector<std::string> texts;  // id n is texts[n - 1]
};
TestUrlIds& Ids() {
  static TestUrlIds* ids = new TestUrlIds;
  return *ids;
}
int64_t IdOf(std::string_view text) {
  auto [it, added] = Ids().ids.try_emplace(std::string(text), Ids().texts.size() + 1);
  if (added) Ids().texts.emplace_back(text);
  return it->second;
}

// Adds `raw` (normalised here); returns its fingerprint, 0 when the URL is invalid.
uint64_t AddUrl(FrontierStore& store, std::string_view raw, uint32_t depth = 1,
                int32_t priority = 0,
                FrontierStore::AddResult expected = FrontierStore::AddResult::kAdded) {
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(raw);
  if (!url.ok()) return 0;
  uint64_t fp = identity::UrlFingerprint(url->text());
  EXPECT_EQ(store.Add(fp, IdOf(url->text()), url->host(), depth, priority), expected) << raw;
  return fp;
}

// Adds a real URL, which may be invalid or a duplicate of an earlier one.
void AddReal(FrontierStore& store, std::string_view raw) {
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(raw);
  if (url.ok()) {
    store.Add(identity::UrlFingerprint(url->text()), IdOf(url->text()), url->host(), 1, 0);
  }
}

std::string TextOf(const FrontierStore& store, uint64_t fp) {
  const UrlRecord* record = store.Find(fp);
  if (record == nullptr) return "<none>";
  if (record->url_id < 1 || static_cast<size_t>(record->url_id) > Ids().texts.size()) return "<id>";
  return Ids().texts[static_cast<size_t>(record->url_id) - 1];
}

// The whole state in a canonical order, for equality.
std::vector<std::string> Dump(const FrontierStore& store) {
  std::vector<std::string> lines;
  for (uint64_t fp : store.AllFingerprints()) {
    const UrlRecord& r = *store.Find(fp);
    lines.push_back(absl::StrCat(fp, " ", TextOf(store, fp), " ", store.host(r.host).name, " d",
                                 r.depth, " p", r.priority, " s", static_cast<int>(r.state), " due",
                                 r.due, " a", r.attempts, " st", r.status, " f", r.last_fetch));
  }
  for (uint32_t id = 0; id < store.host_count(); ++id) {
    const Host& host = store.host(id);
    lines.push_back(absl::StrCat("host ", id, " ", host.name, " ", host.settings.delay_s, " ",
                                 host.settings.budget, " ", host.settings.blocked_until, " ",
                                 host.settings.next_allowed));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

void ExpectConsistent(const FrontierStore& store) {
  std::vector<std::string> problems;
  store.Check(&problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
}

std::vector<std::string> RedditUrls(size_t count) {
  return ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), count);
}

std::vector<uint8_t> Encoded(const ChangeSet& changes) {
  std::string body, blob;
  EncodeChangeSet(changes, &body, &blob);
  return {blob.begin(), blob.end()};
}

FrontierPolicy NoDelay() {
  FrontierPolicy policy;
  policy.host_delay_s = 0;
  return policy;
}

TEST(FrontierStore, LeasesInDepthPriorityHashOrderWithoutDelay) {
  FrontierStore store(NoDelay());
  std::vector<std::string> urls = RedditUrls(2000);
  std::vector<QueueKey> keys;
  std::mt19937 random(7);
  for (const std::string& url : urls) {
    uint32_t depth = 1 + random() % 3;
    int32_t priority = static_cast<int32_t>(random() % 5) - 2;
    absl::StatusOr<identity::NormalizedUrl> normal = identity::NormalizeUrl(url);
    if (!normal.ok()) continue;
    uint64_t fp = identity::UrlFingerprint(normal->text());
    if (store.Find(fp) != nullptr) continue;
    AddUrl(store, url, depth, priority);
    keys.push_back({static_cast<uint16_t>(depth), priority, fp});
  }
  ASSERT_GT(keys.size(), 1900u);
  std::sort(keys.begin(), keys.end());
  std::vector<FrontierStore::Leased> leased = store.Lease(keys.size() + 10, 300, 1000);
  ASSERT_EQ(leased.size(), keys.size());
  for (size_t i = 0; i < keys.size(); ++i) ASSERT_EQ(leased[i].fp, keys[i].fp) << i;
  EXPECT_EQ(store.state_count(UrlState::kLeased), keys.size());
  ExpectConsistent(store);
}

TEST(FrontierStore, PolitenessGivesOneUrlPerHostPerDelay) {
  FrontierPolicy policy;
  policy.host_delay_s = 10;
  FrontierStore store(policy);
  // One host holds almost everything: the lease must not scan it.
  for (int i = 0; i < 20000; ++i) AddUrl(store, absl::StrCat("http://big.example.com/page", i));
  AddUrl(store, "http://small.example.org/a");
  AddUrl(store, "http://small.example.org/b");
  std::vector<FrontierStore::Leased> first = store.Lease(100, 300, 1000);
  ASSERT_EQ(first.size(), 2u);  // one per host
  std::set<std::string> hosts;
  for (const auto& leased : first)
    hosts.insert(std::string(identity::UrlHost(TextOf(store, leased.fp))));
  EXPECT_EQ(hosts, (std::set<std::string>{"big.example.com", "small.example.org"}));
  EXPECT_TRUE(store.Lease(100, 300, 1009.9).empty());
  EXPECT_EQ(store.HostsWaiting(1009.9), 2u);
  EXPECT_EQ(store.Lease(100, 300, 1010).size(), 2u);
  // The per-host override and blocked_until.
  store.SetHost("big.example.com", 1, std::nullopt, 1100);
  EXPECT_TRUE(store.Lease(100, 300, 1020).empty());  // small's queue is empty, big is blocked
  EXPECT_TRUE(store.Lease(100, 300, 1099).empty());
  EXPECT_EQ(store.HostsWaiting(1099), 1u);
  EXPECT_EQ(store.Lease(100, 300, 1100).size(), 1u);
  EXPECT_EQ(store.Lease(100, 300, 1101).size(), 1u);  // 1 s later: big's own delay
  ExpectConsistent(store);
}

TEST(FrontierStore, TheDelayIsNeverAnUlpShortAtUnixTimes) {
  // Near 1.8e9 s a double steps by 0.24 µs, and this time plus 0.05 rounds down: a lease at
  // the rounded sum would follow the last one by 0.04999995 s.
  constexpr double kFirst = 1795333047.4995461, kDelay = 0.05;
  ASSERT_LT((kFirst + kDelay) - kFirst, kDelay);
  FrontierPolicy policy;
  policy.host_delay_s = kDelay;
  FrontierStore store(policy);
  AddUrl(store, "http://example.com/a");
  AddUrl(store, "http://example.com/b");
  ASSERT_EQ(store.Lease(1, 300, kFirst).size(), 1u);
  EXPECT_TRUE(store.Lease(1, 300, kFirst + kDelay).empty());
  double next = std::nextafter(kFirst + kDelay, INFINITY);
  ASSERT_GE(next - kFirst, kDelay);
  EXPECT_EQ(store.Lease(1, 300, next).size(), 1u);
}

TEST(FrontierStore, ANewHostDelayCountsFromTheLastLease) {
  FrontierPolicy policy;
  policy.host_delay_s = 10;
  FrontierStore store(policy);
  for (int i = 0; i < 10; ++i) AddUrl(store, absl::StrCat("http://site.example.com/p", i));
  ASSERT_EQ(store.Lease(5, 300, 1000).size(), 1u);
  store.SetHost("site.example.com", 30, std::nullopt, std::nullopt);  // robots.txt: Crawl-delay 30
  EXPECT_TRUE(store.Lease(5, 300, 1029).empty());
  ASSERT_EQ(store.Lease(5, 300, 1030).size(), 1u);
  store.SetHost("site.example.com", 2, std::nullopt, std::nullopt);
  EXPECT_TRUE(store.Lease(5, 300, 1031.5).empty());
  EXPECT_EQ(store.Lease(5, 300, 1032).size(), 1u);
  store.SetHost("site.example.com", -1, std::nullopt, std::nullopt);  // back to the table's 10 s
  EXPECT_TRUE(store.Lease(5, 300, 1041).empty());
  EXPECT_EQ(store.Lease(5, 300, 1042).size(), 1u);
  ExpectConsistent(store);
}

TEST(FrontierStore, ExpiredLeasesReturnToTheQueue) {
  FrontierStore store(NoDelay());
  uint64_t a = AddUrl(store, "http://a.example.com/");
  std::vector<FrontierStore::Leased> leased = store.Lease(1, 30, 1000);
  ASSERT_EQ(leased.size(), 1u);
  EXPECT_EQ(leased[0].lease_until, 1030);
  EXPECT_TRUE(store.Lease(1, 30, 1029).empty());
  leased = store.Lease(1, 30, 1030);  // expired at 1030: leasable again
  ASSERT_EQ(leased.size(), 1u);
  EXPECT_EQ(leased[0].fp, a);
  // A confirm after the new lease expired finds it queued again: not confirmed.
  EXPECT_EQ(store.Confirm(a, 200, 0, 1061), FrontierStore::ConfirmResult::kNotLeased);
  EXPECT_EQ(store.Find(a)->state, UrlState::kQueued);
  ASSERT_EQ(store.Lease(1, 30, 1062).size(), 1u);
  EXPECT_EQ(store.Confirm(a, 200, 0, 1063), FrontierStore::ConfirmResult::kDone);
  EXPECT_EQ(store.Confirm(a, 200, 0, 1064), FrontierStore::ConfirmResult::kNotLeased);
  EXPECT_TRUE(store.Lease(1, 30, 5000).empty());
  ExpectConsistent(store);
}

TEST(FrontierStore, RecrawlQueuesAgainAfterTheInterval) {
  FrontierStore store(NoDelay());
  uint64_t a = AddUrl(store, "http://a.example.com/news");
  ASSERT_EQ(store.Lease(1, 30, 1000).size(), 1u);
  EXPECT_EQ(store.Confirm(a, 200, 3600, 1010), FrontierStore::ConfirmResult::kDone);
  EXPECT_EQ(store.Find(a)->state, UrlState::kRecrawl);
  EXPECT_EQ(store.Find(a)->due, 4610);
  EXPECT_TRUE(store.Lease(1, 30, 4609).empty());
  ASSERT_EQ(store.Lease(1, 30, 4610).size(), 1u);
  EXPECT_EQ(store.Confirm(a, 304, 0, 4611), FrontierStore::ConfirmResult::kDone);
  EXPECT_EQ(store.Find(a)->state, UrlState::kDone);
  EXPECT_EQ(store.Find(a)->status, 304);
  ExpectConsistent(store);
}

TEST(FrontierStore, FailuresBackOffThenFail) {
  FrontierPolicy policy = NoDelay();
  policy.max_attempts = 3;
  policy.retry_base_s = 60;
  FrontierStore store(policy);
  uint64_t a = AddUrl(store, "http://flaky.example.com/");
  ASSERT_EQ(store.Lease(1, 30, 0).size(), 1u);
  EXPECT_EQ(store.Confirm(a, 503, 0, 10), FrontierStore::ConfirmResult::kRetry);
  EXPECT_EQ(store.Find(a)->due, 70);
  EXPECT_EQ(StateName(store.Find(a)->state), "queued");
  EXPECT_TRUE(store.Lease(1, 30, 69).empty());
  ASSERT_EQ(store.Lease(1, 30, 70).size(), 1u);
  EXPECT_EQ(store.Confirm(a, -1, 0, 80), FrontierStore::ConfirmResult::kRetry);  // network error
  EXPECT_EQ(store.Find(a)->due, 200);                                            // 60 * 2
  ASSERT_EQ(store.Lease(1, 30, 200).size(), 1u);
  EXPECT_EQ(store.Confirm(a, 429, 0, 201), FrontierStore::ConfirmResult::kFailed);
  EXPECT_EQ(store.Find(a)->state, UrlState::kFailed);
  EXPECT_EQ(store.Find(a)->attempts, 3);
  EXPECT_TRUE(store.Lease(1, 30, 1e9).empty());
  // 404 is a fetched page, not a failure.
  uint64_t b = AddUrl(store, "http://flaky.example.com/gone");
  ASSERT_EQ(store.Lease(1, 30, 300).size(), 1u);
  EXPECT_EQ(store.Confirm(b, 404, 0, 301), FrontierStore::ConfirmResult::kDone);
  ExpectConsistent(store);
}

TEST(FrontierStore, HostBudgetAndDepthLimitRefuse) {
  FrontierPolicy policy;
  policy.host_budget = 3;
  policy.max_depth = 2;
  FrontierStore store(policy);
  for (int i = 0; i < 3; ++i) AddUrl(store, absl::StrCat("http://trap.example.com/cal/", i));
  AddUrl(store, "http://trap.example.com/cal/3", 1, 0, FrontierStore::AddResult::kHostBudget);
  AddUrl(store, "http://other.example.com/", 3, 0, FrontierStore::AddResult::kDepthLimit);
  AddUrl(store, "http://trap.example.com/cal/0", 1, 0, FrontierStore::AddResult::kKnown);
  store.SetHost("trap.example.com", -1, 0, std::nullopt);  // this host: unlimited
  AddUrl(store, "http://trap.example.com/cal/3");
  EXPECT_EQ(store.size(), 4u);
  ExpectConsistent(store);
}

// Random operations on real URLs, undone to a mark, leave exactly the state at the mark.
TEST(FrontierStore, UndoRestoresEveryChangeExactly) {
  std::vector<std::string> urls = RedditUrls(3000);
  FrontierPolicy policy;
  policy.host_delay_s = 2;
  FrontierStore store(policy);
  for (size_t i = 0; i < 1000; ++i) AddReal(store, urls[i]);
  store.Lease(200, 30, 100);
  store.ClearUndo();
  std::vector<std::string> before = Dump(store);
  std::mt19937 random(11);
  double now = 100;
  std::vector<uint64_t> leased;
  for (int step = 0; step < 3000; ++step) {
    now += 0.5;
    switch (random() % 6) {
      case 0:
      case 1: {
        absl::StatusOr<identity::NormalizedUrl> url =
            identity::NormalizeUrl(urls[1000 + random() % 2000]);
        if (url.ok()) {
          store.Add(identity::UrlFingerprint(url->text()), IdOf(url->text()), url->host(),
                    1 + random() % 3, static_cast<int32_t>(random() % 3));
        }
        break;
      }
      case 2:
        for (const auto& l : store.Lease(1 + random() % 5, 20, now)) leased.push_back(l.fp);
        break;
      case 3:
        if (!leased.empty()) {
          static const int32_t kStatuses[] = {200, 503, 404, -3};
          store.Confirm(leased[random() % leased.size()], kStatuses[random() % 4],
                        random() % 2 ? 50.0 : 0.0, now);
        }
        break;
      case 4: {
        std::vector<uint64_t> all = store.AllFingerprints();
        if (random() % 2)
          store.Delete(all[random() % all.size()]);
        else
          store.SetPriority(all[random() % all.size()], -5);
        break;
      }
      case 5:
        store.SetHost(identity::UrlHost(TextOf(store, store.AllFingerprints()[0])), random() % 3,
                      random() % 2 ? std::optional<int64_t>(5) : std::nullopt, now + 3);
        break;
    }
  }
  ExpectConsistent(store);
  EXPECT_NE(Dump(store), before);
  store.UndoTo(0);
  EXPECT_EQ(Dump(store), before);
  ExpectConsistent(store);
}

// Transactions replayed as encoded change sets, and a snapshot, rebuild the same state.
TEST(FrontierStore, ChangeSetsAndSnapshotsReplayToTheSameState) {
  std::vector<std::string> urls = RedditUrls(4000);
  FrontierPolicy policy;
  policy.host_delay_s = 1;
  FrontierStore writer(policy), reader(policy);
  double now = 0;
  for (size_t batch = 0; batch < 40; ++batch) {
    size_t mark = writer.UndoMark();
    for (size_t i = batch * 100; i < batch * 100 + 100; ++i) AddReal(writer, urls[i]);
    now += 3;
    std::vector<FrontierStore::Leased> leased = writer.Lease(30, 10, now);
    for (size_t i = 0; i < leased.size(); i += 2) {
      writer.Confirm(leased[i].fp, i % 4 == 0 ? 200 : 500, 100, now + 1);
    }
    if (batch % 7 == 3) writer.SetHost("www.youtube.com", 5, 40, now + 20);
    if (batch % 5 == 4) writer.Delete(writer.AllFingerprints()[0]);
    std::vector<uint8_t> blob = Encoded(writer.ChangesSince(mark));
    absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(blob);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_TRUE(reader.Apply(*decoded).ok());
    writer.ClearUndo();
  }
  EXPECT_EQ(Dump(reader), Dump(writer));
  ExpectConsistent(reader);
  // The readers lease what the writer would.
  FrontierStore snapshot(policy);
  std::vector<ChangeSet> parts = {writer.HostsSnapshot()};
  ChangeSet reused = writer.HostsSnapshot();
  size_t records = 0;
  for (size_t part = 0; part < kRecordParts; ++part) {
    // One reused ChangeSet, as the table does: each call replaces what the last one left.
    writer.PartSnapshot(part, &reused);
    parts.push_back(reused);
    for (const UrlChange& url : parts.back().urls) EXPECT_EQ(RecordPartOf(url.fp), part);
    records += parts.back().urls.size();
  }
  EXPECT_EQ(records, writer.size());
  for (const ChangeSet& part : parts) {
    std::vector<uint8_t> blob = Encoded(part);
    absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(blob);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_TRUE(snapshot.Apply(*decoded).ok());
  }
  EXPECT_EQ(Dump(snapshot), Dump(writer));
  ExpectConsistent(snapshot);
  std::vector<uint64_t> expected, got;
  for (const auto& l : writer.Lease(50, 10, now + 100)) expected.push_back(l.fp);
  for (const auto& l : snapshot.Lease(50, 10, now + 100)) got.push_back(l.fp);
  EXPECT_EQ(got, expected);
  EXPECT_FALSE(got.empty());
}

// The fingerprints of every host's records, from every record.
std::vector<std::vector<uint64_t>> HostsByScan(const FrontierStore& store) {
  std::vector<std::vector<uint64_t>> hosts(store.host_count());
  store.ForEachRecord(
      [&](uint64_t fp, const UrlRecord& record) { hosts[record.host].push_back(fp); });
  for (std::vector<uint64_t>& fps : hosts) std::sort(fps.begin(), fps.end());
  return hosts;
}

void ExpectHostFingerprintsAsScanned(const FrontierStore& store) {
  std::vector<std::vector<uint64_t>> expected = HostsByScan(store);
  for (uint32_t id = 0; id < store.host_count(); ++id) {
    ASSERT_EQ(store.HostFingerprints(id), expected[id]) << store.host(id).name;
    ASSERT_EQ(store.host(id).size, expected[id].size()) << store.host(id).name;
  }
  ExpectConsistent(store);
}

// The host lists are built on the first host scan, then follow adds, deletes and undo, also of
// a host's creation (its id comes back with another name).
TEST(FrontierStore, HostFingerprintsFollowAddsDeletesAndUndo) {
  FrontierStore store(NoDelay());
  for (int i = 0; i < 300; ++i) AddUrl(store, absl::StrCat("http://h", i % 7, ".example.com/", i));
  ExpectConsistent(store);
  ExpectHostFingerprintsAsScanned(store);
  store.ClearUndo();
  const size_t mark = store.UndoMark();
  for (int i = 300; i < 400; ++i) {
    AddUrl(store, absl::StrCat("http://h", i % 9, ".example.com/", i));  // hosts h7, h8 are new
  }
  std::vector<uint64_t> all = store.AllFingerprints();
  for (size_t i = 0; i < all.size(); i += 5) store.Delete(all[i]);
  ExpectHostFingerprintsAsScanned(store);
  store.UndoTo(mark);
  EXPECT_EQ(store.host_count(), 7u);
  ExpectHostFingerprintsAsScanned(store);
  // h8 now takes the id h7 had; a URL deleted and added again is listed once.
  const uint64_t again = AddUrl(store, "http://h8.example.com/again");
  AddUrl(store, "http://h7.example.com/367");
  store.Delete(again);
  AddUrl(store, "http://h8.example.com/again");
  ExpectHostFingerprintsAsScanned(store);
  EXPECT_EQ(store.HostFingerprints(*store.FindHost("h8.example.com")),
            std::vector<uint64_t>{again});
}

// What a table does when it opens: hosts, snapshot parts and the log rows after them loaded at
// once give the state (and the leases) that applying each change set gives.
TEST(FrontierStore, LoadingPartsAndLogEqualsApplyingThem) {
  std::vector<std::string> urls = RedditUrls(4000);
  FrontierPolicy policy;
  policy.host_delay_s = 1;
  FrontierStore writer(policy), applied(policy);
  std::vector<std::vector<uint8_t>> parts, log;
  double now = 0;
  for (size_t batch = 0; batch < 40; ++batch) {
    if (batch == 20) {
      parts.push_back(Encoded(writer.HostsSnapshot()));
      ChangeSet part;
      for (size_t index = 0; index < kRecordParts; ++index) {
        writer.PartSnapshot(index, &part);
        parts.push_back(Encoded(part));
      }
    }
    size_t mark = writer.UndoMark();
    for (size_t i = batch * 100; i < batch * 100 + 100; ++i) AddReal(writer, urls[i]);
    now += 3;
    std::vector<FrontierStore::Leased> leased = writer.Lease(30, 10, now);
    for (size_t i = 0; i < leased.size(); i += 2) {
      writer.Confirm(leased[i].fp, i % 4 == 0 ? 200 : 500, i % 3 == 0 ? 100 : 0, now + 1);
    }
    if (batch % 7 == 3) writer.SetHost("www.youtube.com", 5, 40, now + 20);
    if (batch % 5 == 4) writer.Delete(writer.AllFingerprints()[0]);
    if (batch % 6 == 5) writer.SetPriority(writer.AllFingerprints()[1], -3);
    std::vector<uint8_t> blob = Encoded(writer.ChangesSince(mark));
    if (batch >= 20) log.push_back(blob);
    absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(blob);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_TRUE(applied.Apply(*decoded).ok());
    writer.ClearUndo();
  }
  FrontierStore loaded(policy);
  loaded.StartLoad();
  for (size_t index = 0; index < parts.size(); ++index) {
    absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(parts[index]);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    absl::Status status =
        index == 0 ? loaded.Apply(*decoded) : loaded.LoadPart(index - 1, *decoded);
    ASSERT_TRUE(status.ok()) << status;
  }
  for (const std::vector<uint8_t>& blob : log) {
    absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(blob);
    ASSERT_TRUE(decoded.ok()) << decoded.status();
    ASSERT_TRUE(loaded.Apply(*decoded).ok());
  }
  loaded.FinishLoad();
  EXPECT_EQ(Dump(loaded), Dump(writer));
  ExpectConsistent(loaded);
  for (UrlState state : {UrlState::kQueued, UrlState::kWaiting, UrlState::kLeased, UrlState::kDone,
                         UrlState::kRecrawl, UrlState::kFailed}) {
    EXPECT_EQ(loaded.state_count(state), applied.state_count(state)) << StateName(state);
  }
  EXPECT_GT(loaded.state_count(UrlState::kRecrawl), 0u);
  EXPECT_GT(loaded.state_count(UrlState::kWaiting), 0u);
  EXPECT_EQ(loaded.timers(), applied.timers());
  ExpectHostFingerprintsAsScanned(loaded);
  for (double at : {now, now + 5, now + 100}) {
    std::vector<uint64_t> expected, got;
    for (const auto& l : applied.Lease(50, 10, at)) expected.push_back(l.fp);
    for (const auto& l : loaded.Lease(50, 10, at)) got.push_back(l.fp);
    EXPECT_EQ(got, expected) << at;
    EXPECT_FALSE(got.empty());
  }
  EXPECT_EQ(Dump(loaded), Dump(applied));
}

TEST(FrontierChangeSet, LoadPartRefusesWhatAPartCannotHold) {
  FrontierStore writer(NoDelay());
  const uint64_t a = AddUrl(writer, "http://a.example.com/x");
  const size_t part = RecordPartOf(a);
  ChangeSet hosts = writer.HostsSnapshot();
  ChangeSet records;
  writer.PartSnapshot(part, &records);
  ASSERT_EQ(records.urls.size(), 1u);
  auto load = [&](const ChangeSet& changes, size_t index) {
    FrontierStore reader(NoDelay());
    reader.StartLoad();
    EXPECT_TRUE(reader.Apply(hosts).ok());
    absl::Status status = reader.LoadPart(index, changes);
    if (status.ok()) {
      reader.FinishLoad();
      ExpectConsistent(reader);
    }
    return status;
  };
  EXPECT_TRUE(load(records, part).ok());
  EXPECT_EQ(load(records, (part + 1) % kRecordParts).message(),
            absl::StrCat("frontier change set: a snapshot part holds another part's URL (fp ",
                         identity::FingerprintToSql(a), ")"));
  ChangeSet update = records;
  update.urls[0].kind = UrlChangeKind::kUpdate;
  EXPECT_EQ(load(update, part).code(), absl::StatusCode::kDataLoss);
  ChangeSet twice = records;
  twice.urls.push_back(records.urls[0]);
  EXPECT_EQ(load(twice, part).code(), absl::StatusCode::kDataLoss);
  ChangeSet unknown_host = records;
  unknown_host.urls[0].record.host = 1;
  EXPECT_EQ(load(unknown_host, part).code(), absl::StatusCode::kDataLoss);
  ChangeSet with_hosts = records;
  with_hosts.hosts = hosts.hosts;
  EXPECT_EQ(load(with_hosts, part).code(), absl::StatusCode::kDataLoss);
  // Outside StartLoad … FinishLoad, a part is refused.
  FrontierStore idle(NoDelay());
  EXPECT_TRUE(idle.Apply(hosts).ok());
  EXPECT_EQ(idle.LoadPart(part, records).code(), absl::StatusCode::kInternal);
}

TEST(FrontierChangeSet, EveryTruncationAndBitFlipIsRefused) {
  FrontierStore store(NoDelay());
  for (const std::string& url : RedditUrls(40)) AddReal(store, url);
  store.Lease(5, 10, 100);
  std::vector<uint8_t> blob = Encoded(store.ChangesSince(0));
  ASSERT_TRUE(DecodeChangeSet(blob).ok());
  for (size_t size = 0; size < blob.size(); ++size) {
    std::vector<uint8_t> cut(blob.begin(), blob.begin() + static_cast<ptrdiff_t>(size));
    absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(cut);
    ASSERT_FALSE(decoded.ok()) << size;
    EXPECT_EQ(decoded.status().code(), absl::StatusCode::kDataLoss);
  }
  for (size_t bit = 0; bit < blob.size() * 8; ++bit) {
    std::vector<uint8_t> flipped = blob;
    flipped[bit / 8] ^= static_cast<uint8_t>(1 << (bit % 8));
    EXPECT_EQ(DecodeChangeSet(flipped).status().code(), absl::StatusCode::kDataLoss) << bit;
  }
}

TEST(FrontierChangeSet, ApplyRefusesChangesThatDoNotFitTheState) {
  FrontierStore writer(NoDelay());
  uint64_t a = AddUrl(writer, "http://a.example.com/x");
  ChangeSet changes = writer.ChangesSince(0);
  // An update of a URL the reader does not hold.
  ChangeSet update = changes;
  update.urls[0].kind = UrlChangeKind::kUpdate;
  FrontierStore reader(NoDelay());
  ASSERT_TRUE(reader.Apply({changes.hosts, {}}).ok());
  EXPECT_EQ(reader.Apply(update).code(), absl::StatusCode::kDataLoss);
  // A host out of sequence.
  ChangeSet host = changes;
  host.hosts[0].id = 5;
  EXPECT_EQ(FrontierStore(NoDelay()).Apply(host).code(), absl::StatusCode::kDataLoss);
  // Adding a known URL twice.
  ASSERT_TRUE(reader.Apply(changes).ok());
  EXPECT_EQ(reader.Apply({{}, changes.urls}).code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(TextOf(reader, a), "http://a.example.com/x");
}

TEST(FrontierChangeSet, TimesAndStatusesRoundTripAndQueuedUrlsStaySmall) {
  FrontierStore store(NoDelay());
  std::vector<uint64_t> fps;
  for (int i = 0; i < 5000; ++i) {
    fps.push_back(AddUrl(store, absl::StrCat("http://h", i % 97, ".example.com/p", i)));
  }
  // Queued URLs never fetched: every time 0, no status, compressed.
  const size_t bytes = Encoded(store.ChangesSince(0)).size();
  EXPECT_LE(bytes, 5000u * 16) << bytes / 5000.0 << " bytes per queued URL";
  store.ClearUndo();
  // Times of every form: whole seconds, whole ms, fractions of a ms, negative; statuses of
  // every sign.
  const double kTimes[] = {1000, 1732568123.456, 1732568123.456789, -12.5, 0.001};
  const int32_t kStatuses[] = {200, 503, -3, kNoStatus + 1, INT32_MAX};
  ChangeSet changes;
  for (size_t i = 0; i < 5; ++i) {
    UrlRecord record = *store.Find(fps[i]);
    record.state = UrlState::kLeased;
    record.due = kTimes[i];
    record.last_fetch = kTimes[4 - i];
    record.status = kStatuses[i];
    changes.urls.push_back({fps[i], UrlChangeKind::kUpdate, record, {}});
  }
  absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(Encoded(changes));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->urls.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(decoded->urls[i].record.due, kTimes[i]) << i;
    EXPECT_EQ(decoded->urls[i].record.last_fetch, kTimes[4 - i]) << i;
    EXPECT_EQ(decoded->urls[i].record.status, kStatuses[i]) << i;
  }
  EXPECT_FALSE(decoded->has_texts);
}

TEST(FrontierChangeSet, VersionOneBlobsAreReadWithTheirTexts) {
  const std::string url = "http://a.example.com/x";
  const uint64_t fp = identity::UrlFingerprint(url);
  UrlRecord record;
  record.depth = 2;
  record.priority = -4;
  record.state = UrlState::kDone;
  record.attempts = 1;
  record.status = 404;
  record.last_fetch = 1500.25;
  const std::string blob = testing::EncodeVersionOneChangeSet(
      {{{0, "a.example.com", HostSettings{}}}, {{fp, UrlChangeKind::kNew, record, url}}});
  absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(BytesOf(blob));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_TRUE(decoded->has_texts);
  ASSERT_EQ(decoded->urls.size(), 1u);
  const UrlChange& change = decoded->urls[0];
  EXPECT_EQ(change.fp, fp);
  EXPECT_EQ(change.text, url);
  EXPECT_EQ(change.record.url_id, kNoUrlId);
  EXPECT_EQ(change.record.depth, 2);
  EXPECT_EQ(change.record.priority, -4);
  EXPECT_EQ(change.record.state, UrlState::kDone);
  EXPECT_EQ(change.record.status, 404);
  EXPECT_EQ(change.record.last_fetch, 1500.25);
  EXPECT_EQ(decoded->hosts[0].name, "a.example.com");
}

TEST(FrontierStore, RenumberUrlIdsFollowsTheNewIdsAndForgetsDeletedOnes) {
  FrontierStore store(NoDelay());
  uint64_t a = AddUrl(store, "http://a.example.com/x");
  uint64_t b = AddUrl(store, "http://b.example.com/y");
  uint64_t c = AddUrl(store, "http://c.example.com/z");
  std::vector<int64_t> old_to_new(Ids().texts.size() + 1, 0);
  old_to_new[static_cast<size_t>(store.Find(a)->url_id)] = 7;
  old_to_new[static_cast<size_t>(store.Find(b)->url_id)] = 3;
  store.RenumberUrlIds(old_to_new);
  EXPECT_EQ(store.Find(a)->url_id, 7);
  EXPECT_EQ(store.Find(b)->url_id, 3);
  EXPECT_EQ(store.Find(c)->url_id, kNoUrlId);
  ExpectConsistent(store);
}

}  // namespace
}  // namespace crawldb::frontier
