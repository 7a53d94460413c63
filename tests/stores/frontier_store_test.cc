// FrontierStore without SQL: queue order, politeness, leases, re-crawl, back-off, budgets, the
// undo log, change sets, and paging: parts read from a source as the table's shadow tables hold
// them, summaries, catching up with another writer's commits, corruption.
#include "extension/frontier/frontier_store.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <xxhash.h>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "codecs/packed_bytes.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"
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
int64_t IdOf(absl::string_view text) {
  auto [it, added] = Ids().ids.try_emplace(std::string(text), Ids().texts.size() + 1);
  if (added) Ids().texts.emplace_back(text);
  return it->second;
}

// The store's calls that may read a part; every test store here reads them without failing.
template <typename T>
T Ok(absl::StatusOr<T> result) {
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? *std::move(result) : T{};
}
const UrlRecord* Find(FrontierStore& store, uint64_t fp) {
  std::optional<size_t> part = Ok(store.Locate(fp));
  return part.has_value() ? Ok(store.Find(*part, fp)) : nullptr;
}
std::vector<FrontierStore::Leased> Lease(FrontierStore& store, size_t n, double lease_s,
                                         double now) {
  return Ok(store.Lease(n, lease_s, now));
}
FrontierStore::ConfirmResult Confirm(FrontierStore& store, uint64_t fp, int32_t status,
                                     double recrawl_s, double now) {
  std::optional<size_t> part = Ok(store.Locate(fp));
  return Ok(store.Confirm(part.value_or(0), fp, status, recrawl_s, now));
}
bool Delete(FrontierStore& store, uint64_t fp) {
  std::optional<size_t> part = Ok(store.Locate(fp));
  return part.has_value() && Ok(store.Delete(*part, fp));
}
bool SetPriority(FrontierStore& store, uint64_t fp, int32_t priority) {
  std::optional<size_t> part = Ok(store.Locate(fp));
  return part.has_value() && Ok(store.SetPriority(*part, fp, priority));
}
// Every record (part by part), read through the store.
std::vector<std::pair<uint64_t, UrlRecord>> Records(FrontierStore& store) {
  std::vector<std::pair<uint64_t, UrlRecord>> records;
  for (size_t part = 0; part < kFrontierParts; ++part) {
    if (!store.has_hosts(part)) continue;
    EXPECT_TRUE(store
                    .ForEachInPart(part,
                                   [&](uint64_t fp, const UrlRecord& record) {
                                     records.push_back({fp, record});
                                   })
                    .ok());
  }
  return records;
}
std::vector<uint64_t> AllFingerprints(FrontierStore& store) {
  std::vector<uint64_t> fps;
  for (const auto& [fp, record] : Records(store)) fps.push_back(fp);
  return fps;
}

// Adds `raw` (normalised here); returns its fingerprint, 0 when the URL is invalid.
uint64_t AddUrl(FrontierStore& store, absl::string_view raw, uint32_t depth = 1,
                int32_t priority = 0,
                FrontierStore::AddResult expected = FrontierStore::AddResult::kAdded) {
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(raw);
  if (!url.ok()) return 0;
  uint64_t fp = identity::UrlFingerprint(url->text());
  EXPECT_EQ(Ok(store.Add(fp, IdOf(url->text()), url->host(), depth, priority)), expected) << raw;
  return fp;
}

// Adds a real URL, which may be invalid or a duplicate of an earlier one.
void AddReal(FrontierStore& store, absl::string_view raw) {
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(raw);
  if (url.ok()) {
    Ok(store.Add(identity::UrlFingerprint(url->text()), IdOf(url->text()), url->host(), 1, 0));
  }
}

std::string TextOfId(int64_t url_id) {
  if (url_id < 1 || static_cast<size_t>(url_id) > Ids().texts.size()) return "<id>";
  return Ids().texts[static_cast<size_t>(url_id) - 1];
}
std::string TextOf(FrontierStore& store, uint64_t fp) {
  const UrlRecord* record = Find(store, fp);
  return record == nullptr ? "<none>" : TextOfId(record->url_id);
}

// The whole state in a canonical order, for equality.
std::vector<std::string> Dump(FrontierStore& store) {
  std::vector<std::string> lines;
  for (const auto& [fp, r] : Records(store)) {
    lines.push_back(absl::StrCat(fp, " ", TextOfId(r.url_id), " ", store.host(r.host).name, " d",
                                 r.depth, " p", r.priority, " s", static_cast<int>(r.state), " due",
                                 r.due, " a", r.attempts, " st", r.status, " f", r.last_fetch));
  }
  for (uint32_t id = 0; id < store.host_count(); ++id) {
    const Host& host = store.host(id);
    lines.push_back(absl::StrCat("host ", id, " ", host.name, " ", host.settings.delay_s, " ",
                                 host.settings.budget, " ", host.settings.blocked_until, " ",
                                 host.settings.next_allowed, " size ", host.summary.size));
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

void ExpectConsistent(FrontierStore& store) {
  std::vector<std::string> problems;
  ASSERT_TRUE(store.Check(&problems).ok());
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

// The radix order a read part's queues are filled in is std::sort's: by host, depth, priority
// (negative ones first) and fingerprint, at the ends of each field's range.
TEST(FrontierStore, SortByHostAndKeySortsAsStdSort) {
  std::mt19937_64 random(3);
  const int32_t priorities[] = {INT32_MIN, -70000, -1, 0, 1, 300, INT32_MAX};
  const uint16_t depths[] = {0, 1, 255, 256, 65535};
  for (size_t n : {7, 4000}) {
    std::vector<std::pair<uint32_t, QueueKey>> keys;
    for (size_t i = 0; i < n; ++i) {
      QueueKey key;
      key.depth = depths[random() % 5];
      key.priority = priorities[random() % 7];
      key.fp = random() % 4 == 0 ? random() % 3 : random();  // some fingerprints repeat
      keys.emplace_back(
          static_cast<uint32_t>(random() % 3 == 0 ? 70000 + random() % 2 : random() % 40), key);
    }
    std::vector<std::pair<uint32_t, QueueKey>> expected = keys;
    std::sort(expected.begin(), expected.end());
    SortByHostAndKey(&keys);
    EXPECT_EQ(keys, expected) << n;
  }
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
    if (Find(store, fp) != nullptr) continue;
    AddUrl(store, url, depth, priority);
    keys.push_back({static_cast<uint16_t>(depth), priority, fp});
  }
  ASSERT_GT(keys.size(), 1900u);
  std::sort(keys.begin(), keys.end());
  std::vector<FrontierStore::Leased> leased = Lease(store, keys.size() + 10, 300, 1000);
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
  std::vector<FrontierStore::Leased> first = Lease(store, 100, 300, 1000);
  ASSERT_EQ(first.size(), 2u);  // one per host
  std::set<std::string> hosts;
  for (const auto& leased : first)
    hosts.insert(std::string(identity::UrlHost(TextOf(store, leased.fp))));
  EXPECT_EQ(hosts, (std::set<std::string>{"big.example.com", "small.example.org"}));
  EXPECT_TRUE(Lease(store, 100, 300, 1009.9).empty());
  EXPECT_EQ(store.HostsWaiting(1009.9), 2u);
  EXPECT_EQ(Lease(store, 100, 300, 1010).size(), 2u);
  // The per-host override and blocked_until.
  store.SetHost("big.example.com", 1, std::nullopt, 1100);
  EXPECT_TRUE(Lease(store, 100, 300, 1020).empty());  // small's queue is empty, big is blocked
  EXPECT_TRUE(Lease(store, 100, 300, 1099).empty());
  EXPECT_EQ(store.HostsWaiting(1099), 1u);
  EXPECT_EQ(Lease(store, 100, 300, 1100).size(), 1u);
  EXPECT_EQ(Lease(store, 100, 300, 1101).size(), 1u);  // 1 s later: big's own delay
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
  ASSERT_EQ(Lease(store, 1, 300, kFirst).size(), 1u);
  EXPECT_TRUE(Lease(store, 1, 300, kFirst + kDelay).empty());
  double next = std::nextafter(kFirst + kDelay, INFINITY);
  ASSERT_GE(next - kFirst, kDelay);
  EXPECT_EQ(Lease(store, 1, 300, next).size(), 1u);
}

TEST(FrontierStore, ANewHostDelayCountsFromTheLastLease) {
  FrontierPolicy policy;
  policy.host_delay_s = 10;
  FrontierStore store(policy);
  for (int i = 0; i < 10; ++i) AddUrl(store, absl::StrCat("http://site.example.com/p", i));
  ASSERT_EQ(Lease(store, 5, 300, 1000).size(), 1u);
  store.SetHost("site.example.com", 30, std::nullopt, std::nullopt);  // robots.txt: Crawl-delay 30
  EXPECT_TRUE(Lease(store, 5, 300, 1029).empty());
  ASSERT_EQ(Lease(store, 5, 300, 1030).size(), 1u);
  store.SetHost("site.example.com", 2, std::nullopt, std::nullopt);
  EXPECT_TRUE(Lease(store, 5, 300, 1031.5).empty());
  EXPECT_EQ(Lease(store, 5, 300, 1032).size(), 1u);
  store.SetHost("site.example.com", -1, std::nullopt, std::nullopt);  // back to the table's 10 s
  EXPECT_TRUE(Lease(store, 5, 300, 1041).empty());
  EXPECT_EQ(Lease(store, 5, 300, 1042).size(), 1u);
  ExpectConsistent(store);
}

TEST(FrontierStore, ExpiredLeasesReturnToTheQueue) {
  FrontierStore store(NoDelay());
  uint64_t a = AddUrl(store, "http://a.example.com/");
  std::vector<FrontierStore::Leased> leased = Lease(store, 1, 30, 1000);
  ASSERT_EQ(leased.size(), 1u);
  EXPECT_EQ(leased[0].lease_until, 1030);
  EXPECT_TRUE(Lease(store, 1, 30, 1029).empty());
  leased = Lease(store, 1, 30, 1030);  // expired at 1030: leasable again
  ASSERT_EQ(leased.size(), 1u);
  EXPECT_EQ(leased[0].fp, a);
  // A confirm after the new lease expired finds it queued again: not confirmed.
  EXPECT_EQ(Confirm(store, a, 200, 0, 1061), FrontierStore::ConfirmResult::kNotLeased);
  EXPECT_EQ(Find(store, a)->state, UrlState::kQueued);
  ASSERT_EQ(Lease(store, 1, 30, 1062).size(), 1u);
  EXPECT_EQ(Confirm(store, a, 200, 0, 1063), FrontierStore::ConfirmResult::kDone);
  EXPECT_EQ(Confirm(store, a, 200, 0, 1064), FrontierStore::ConfirmResult::kNotLeased);
  EXPECT_TRUE(Lease(store, 1, 30, 5000).empty());
  ExpectConsistent(store);
}

TEST(FrontierStore, RecrawlQueuesAgainAfterTheInterval) {
  FrontierStore store(NoDelay());
  uint64_t a = AddUrl(store, "http://a.example.com/news");
  ASSERT_EQ(Lease(store, 1, 30, 1000).size(), 1u);
  EXPECT_EQ(Confirm(store, a, 200, 3600, 1010), FrontierStore::ConfirmResult::kDone);
  EXPECT_EQ(Find(store, a)->state, UrlState::kRecrawl);
  EXPECT_EQ(Find(store, a)->due, 4610);
  EXPECT_TRUE(Lease(store, 1, 30, 4609).empty());
  ASSERT_EQ(Lease(store, 1, 30, 4610).size(), 1u);
  EXPECT_EQ(Confirm(store, a, 304, 0, 4611), FrontierStore::ConfirmResult::kDone);
  EXPECT_EQ(Find(store, a)->state, UrlState::kDone);
  EXPECT_EQ(Find(store, a)->status, 304);
  ExpectConsistent(store);
}

TEST(FrontierStore, FailuresBackOffThenFail) {
  FrontierPolicy policy = NoDelay();
  policy.max_attempts = 3;
  policy.retry_base_s = 60;
  FrontierStore store(policy);
  uint64_t a = AddUrl(store, "http://flaky.example.com/");
  ASSERT_EQ(Lease(store, 1, 30, 0).size(), 1u);
  EXPECT_EQ(Confirm(store, a, 503, 0, 10), FrontierStore::ConfirmResult::kRetry);
  EXPECT_EQ(Find(store, a)->due, 70);
  EXPECT_EQ(StateName(Find(store, a)->state), "queued");
  EXPECT_TRUE(Lease(store, 1, 30, 69).empty());
  ASSERT_EQ(Lease(store, 1, 30, 70).size(), 1u);
  EXPECT_EQ(Confirm(store, a, -1, 0, 80), FrontierStore::ConfirmResult::kRetry);  // network error
  EXPECT_EQ(Find(store, a)->due, 200);                                            // 60 * 2
  ASSERT_EQ(Lease(store, 1, 30, 200).size(), 1u);
  EXPECT_EQ(Confirm(store, a, 429, 0, 201), FrontierStore::ConfirmResult::kFailed);
  EXPECT_EQ(Find(store, a)->state, UrlState::kFailed);
  EXPECT_EQ(Find(store, a)->attempts, 3);
  EXPECT_TRUE(Lease(store, 1, 30, 1e9).empty());
  // 404 is a fetched page, not a failure.
  uint64_t b = AddUrl(store, "http://flaky.example.com/gone");
  ASSERT_EQ(Lease(store, 1, 30, 300).size(), 1u);
  EXPECT_EQ(Confirm(store, b, 404, 0, 301), FrontierStore::ConfirmResult::kDone);
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

// ---------------------------------------------------------------------------------------------
// Paging: stores reading their parts from rows kept as FrontierTable keeps them.

// The rows of a table's shadow tables (frontier_snapshot.cc): per part, its snapshot and the
// change sets committed to it since, in order.
class TestFile : public FrontierPartSource {
 public:
  absl::Status ReadPart(size_t part,
                        const std::function<absl::Status(const ChangeSet&)>& apply) override {
    ++reads;
    for (const std::vector<uint8_t>& blob : parts[part]) {
      absl::StatusOr<ChangeSet> changes = DecodeChangeSet(blob);
      if (!changes.ok()) return changes.status();
      if (absl::Status status = apply(*changes); !status.ok()) return status;
    }
    return absl::OkStatus();
  }
  absl::Status Refuse(absl::Status cause) override { return cause; }

  // What another connection reads of a commit: the log row (decoded) and the change set of
  // each part it changed, but of a part merged by it, whose pending rows are gone.
  struct Committed {
    ChangeSet log;
    std::vector<CommittedPart> pending;
  };

  // Commits what `writer` changed since its undo log began: a change set for each part it
  // changed, and every third commit a snapshot of those parts in their place.
  Committed Commit(FrontierStore& writer) {
    Committed committed;
    ChangeSet changes = writer.ChangesSince(0);
    for (size_t first = 0; first < changes.urls.size();) {
      const size_t part = writer.host(changes.urls[first].record.host).part;
      size_t last = first + 1;
      while (last < changes.urls.size() &&
             writer.host(changes.urls[last].record.host).part == part) {
        ++last;
      }
      ChangeSet part_changes;
      part_changes.urls.assign(changes.urls.begin() + static_cast<ptrdiff_t>(first),
                               changes.urls.begin() + static_cast<ptrdiff_t>(last));
      parts[part].push_back(Encoded(part_changes));
      committed.pending.push_back(
          {static_cast<uint32_t>(part), Ok(DecodeChangeSet(parts[part].back()))});
      first = last;
    }
    ChangeSet log;
    log.hosts = changes.hosts;
    log.parts = changes.parts;
    log.counts = changes.counts;
    std::vector<uint8_t> blob = Encoded(log);
    // As a table's commit: reading a part finds its changes in the rows from here on.
    writer.ForgetUnreadAdds();
    if (++commits % 3 == 0) {
      for (uint32_t part : changes.parts) {
        ChangeSet snapshot;
        EXPECT_TRUE(writer.PartSnapshot(part, &snapshot).ok());
        parts[part] = {Encoded(snapshot)};
      }
      committed.pending.clear();
    }
    writer.ClearUndo();
    committed.log = Ok(DecodeChangeSet(blob));
    return committed;
  }

  std::vector<std::vector<std::vector<uint8_t>>> parts =
      std::vector<std::vector<std::vector<uint8_t>>>(kFrontierParts);
  size_t reads = 0;
  size_t commits = 0;
};

// What a table reads when it opens: every host with its summary, and the state counts.
ChangeSet Opening(const FrontierStore& store) {
  ChangeSet opening;
  for (uint32_t id = 0; id < store.host_count(); ++id) {
    const Host& host = store.host(id);
    opening.hosts.push_back({id, host.name, host.settings, host.summary});
  }
  opening.counts = store.state_counts();
  return opening;
}

// Random operations on real URLs, undone to a mark, leave exactly the state at the mark; with
// every part in memory, and paged through a cache that holds only what is in use.
TEST(FrontierStore, UndoRestoresEveryChangeExactly) {
  std::vector<std::string> urls = RedditUrls(3000);
  FrontierPolicy policy;
  policy.host_delay_s = 2;
  for (bool paged : {false, true}) {
    SCOPED_TRACE(paged ? "paged" : "in memory");
    TestFile file;
    FrontierStore store(policy, paged ? &file : nullptr);
    store.set_cache_bytes(0);
    for (size_t i = 0; i < 1000; ++i) AddReal(store, urls[i]);
    Lease(store, 200, 30, 100);
    file.Commit(store);
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
            Ok(store.Add(identity::UrlFingerprint(url->text()), IdOf(url->text()), url->host(),
                         1 + random() % 3, static_cast<int32_t>(random() % 3)));
          }
          break;
        }
        case 2:
          for (const auto& l : Lease(store, 1 + random() % 5, 20, now)) leased.push_back(l.fp);
          break;
        case 3:
          if (!leased.empty()) {
            static const int32_t kStatuses[] = {200, 503, 404, -3};
            Confirm(store, leased[random() % leased.size()], kStatuses[random() % 4],
                    random() % 2 ? 50.0 : 0.0, now);
          }
          break;
        case 4: {
          // Through Locate: with paging, most parts are not held.
          std::vector<uint64_t> all = AllFingerprints(store);
          if (random() % 2)
            Delete(store, all[random() % all.size()]);
          else
            SetPriority(store, all[random() % all.size()], -5);
          break;
        }
        case 5:
          store.SetHost(identity::UrlHost(TextOf(store, AllFingerprints(store)[0])), random() % 3,
                        random() % 2 ? std::optional<int64_t>(5) : std::nullopt, now + 3);
          break;
      }
    }
    ExpectConsistent(store);
    EXPECT_NE(Dump(store), before);
    store.UndoTo(0);
    EXPECT_EQ(Dump(store), before);
    ExpectConsistent(store);
    if (paged) {
      EXPECT_LE(store.held_parts(), 1u);  // nothing pinned once the changes are undone
    }
  }
}

// A writer commits through the rows; a reader takes in each log row (forgetting the parts it
// names) and reads parts as it needs them, through a cache of nothing; another, holding every
// part it read, applies the commits' changes to them instead, but forgets the parts a commit
// merged; a store opened at the end reads no part to open. All hold the same state and lease
// the same URLs.
TEST(FrontierStore, PagedStoresFollowTheWritersCommits) {
  std::vector<std::string> urls = RedditUrls(4000);
  FrontierPolicy policy;
  policy.host_delay_s = 1;
  TestFile file;
  FrontierStore writer(policy, &file), reader(policy, &file), applier(policy, &file);
  writer.set_cache_bytes(64 << 10);
  reader.set_cache_bytes(0);
  double now = 0;
  for (size_t batch = 0; batch < 40; ++batch) {
    for (size_t i = batch * 100; i < batch * 100 + 100; ++i) AddReal(writer, urls[i]);
    now += 3;
    std::vector<FrontierStore::Leased> leased = Lease(writer, 30, 10, now);
    for (size_t i = 0; i < leased.size(); i += 2) {
      Confirm(writer, leased[i].fp, i % 4 == 0 ? 200 : 500, i % 3 == 0 ? 100 : 0, now + 1);
    }
    if (batch % 7 == 3) writer.SetHost("www.youtube.com", 5, 40, now + 20);
    if (batch % 5 == 4) Delete(writer, AllFingerprints(writer)[0]);
    if (batch % 6 == 5) SetPriority(writer, AllFingerprints(writer)[1], -3);
    TestFile::Committed committed = file.Commit(writer);
    absl::Status applied = reader.ApplyCommitted(committed.log);
    ASSERT_TRUE(applied.ok()) << applied;
    ChangeSet merged = committed.log;  // the parts without a pending change set
    std::erase_if(merged.parts, [&](uint32_t part) {
      return std::any_of(committed.pending.begin(), committed.pending.end(),
                         [&](const CommittedPart& changed) { return changed.part == part; });
    });
    const size_t held = applier.held_parts();
    applied = applier.ApplyCommitted(merged, committed.pending);
    ASSERT_TRUE(applied.ok()) << applied;
    EXPECT_LE(applier.held_parts(), held);
    if (batch % 10 == 9) {
      EXPECT_EQ(Dump(reader), Dump(writer));
      EXPECT_EQ(Dump(applier), Dump(writer));
      ExpectConsistent(reader);
      ExpectConsistent(applier);
      EXPECT_LE(reader.held_parts(), 1u);
      EXPECT_GT(applier.held_parts(), 100u);
    }
  }
  FrontierStore opened(policy, &file);
  const size_t reads = file.reads;
  ASSERT_TRUE(opened.ApplyCommitted(Opening(writer)).ok());
  EXPECT_EQ(file.reads, reads);
  EXPECT_EQ(opened.held_parts(), 0u);
  EXPECT_EQ(opened.size(), writer.size());
  EXPECT_GT(writer.state_count(UrlState::kRecrawl), 0u);
  EXPECT_GT(writer.state_count(UrlState::kWaiting), 0u);
  for (double at : {now, now + 5, now + 100}) {
    std::vector<uint64_t> expected, got, got_opened;
    for (const auto& l : Lease(writer, 50, 10, at)) expected.push_back(l.fp);
    for (const auto& l : Lease(reader, 50, 10, at)) got.push_back(l.fp);
    for (const auto& l : Lease(opened, 50, 10, at)) got_opened.push_back(l.fp);
    std::vector<uint64_t> got_applier;
    for (const auto& l : Lease(applier, 50, 10, at)) got_applier.push_back(l.fp);
    EXPECT_EQ(got_applier, expected) << at;
    EXPECT_EQ(got, expected) << at;
    EXPECT_EQ(got_opened, expected) << at;
    EXPECT_FALSE(got.empty());
  }
  EXPECT_EQ(Dump(opened), Dump(writer));
  EXPECT_EQ(Dump(reader), Dump(writer));
  EXPECT_EQ(Dump(applier), Dump(writer));
  ExpectConsistent(opened);
  for (UrlState state : {UrlState::kQueued, UrlState::kWaiting, UrlState::kLeased, UrlState::kDone,
                         UrlState::kRecrawl, UrlState::kFailed}) {
    EXPECT_EQ(opened.state_count(state), writer.state_count(state)) << StateName(state);
  }
}

TEST(FrontierStore, TheCacheEvictsLeastRecentlyUsedPartsButNoneWithUncommittedChanges) {
  TestFile file;
  FrontierStore store(NoDelay(), &file);
  store.set_cache_bytes(0);
  const uint64_t a = AddUrl(store, "http://a.example.com/x");
  const uint64_t b = AddUrl(store, "http://b.example.org/y");
  ASSERT_NE(FrontierPartOf("a.example.com"), FrontierPartOf("b.example.org"));
  EXPECT_EQ(store.held_parts(), 2u);  // both hold uncommitted adds
  file.Commit(store);
  EXPECT_EQ(store.held_parts(), 0u);
  const size_t reads = file.reads;
  EXPECT_EQ(Find(store, a)->url_id, IdOf("http://a.example.com/x"));
  EXPECT_EQ(store.held_parts(), 1u);
  EXPECT_TRUE(store.held(FrontierPartOf("a.example.com")));
  EXPECT_EQ(Find(store, b)->url_id, IdOf("http://b.example.org/y"));
  EXPECT_TRUE(store.held(FrontierPartOf("b.example.org")));
  EXPECT_EQ(store.held_parts(), 1u);
  EXPECT_GE(file.reads, reads + 2);
  // A larger bound keeps both.
  store.set_cache_bytes(1 << 20);
  Find(store, a);
  Find(store, b);
  EXPECT_EQ(store.held_parts(), 2u);
}

TEST(FrontierStore, APartReadMustAgreeWithItsHostsSummaries) {
  TestFile file;
  FrontierStore writer(NoDelay(), &file);
  const uint64_t a = AddUrl(writer, "http://a.example.com/x");
  AddUrl(writer, "http://a.example.com/y");
  file.Commit(writer);
  const size_t part = FrontierPartOf("a.example.com");
  const std::vector<std::vector<uint8_t>> intact = file.parts[part];
  auto find = [&](size_t in) {
    FrontierStore reader(NoDelay(), &file);
    EXPECT_TRUE(reader.ApplyCommitted(Opening(writer)).ok());
    return reader.Find(in, a).status();
  };
  EXPECT_TRUE(find(part).ok());
  // A part that lost a record: its host's summary still counts two.
  ChangeSet lost;
  lost.urls.push_back({a, UrlChangeKind::kDelete, {}});
  file.parts[part].push_back(Encoded(lost));
  absl::Status status = find(part);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "host a.example.com holds 1 URLs")) << status;
  // A part that holds another host's records.
  const size_t other = (part + 1) % kFrontierParts;
  file.parts[part].clear();
  file.parts[other] = intact;
  status = find(other);
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "not its host's")) << status;
  file.parts[other].clear();
  // A stored change set that names hosts, and one that adds a known URL.
  file.parts[part] = intact;
  file.parts[part].push_back(Encoded(Opening(writer)));
  EXPECT_EQ(find(part).code(), absl::StatusCode::kDataLoss);
  file.parts[part] = intact;
  file.parts[part].push_back(intact[0]);
  EXPECT_EQ(find(part).code(), absl::StatusCode::kDataLoss);
  // A flipped bit.
  file.parts[part] = intact;
  file.parts[part][0][5] ^= 1;
  EXPECT_EQ(find(part).code(), absl::StatusCode::kDataLoss);
  file.parts[part] = intact;
  EXPECT_TRUE(find(part).ok());
}

// An add of a URL the caller knows to be new reads no part; the record waits beside its part
// (found there, counted in its host's summary) and joins the part when the part is read.
TEST(FrontierStore, AnUnreadAddReadsNoPartAndJoinsThePartWhenItIsRead) {
  TestFile file;
  FrontierStore store(NoDelay(), &file);
  store.set_cache_bytes(0);
  const uint64_t stored = AddUrl(store, "http://a.example.com/x", 2);
  file.Commit(store);
  ASSERT_EQ(store.held_parts(), 0u);
  const size_t reads = file.reads;
  const size_t part = FrontierPartOf("a.example.com");
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl("http://a.example.com/y");
  ASSERT_TRUE(url.ok());
  const uint64_t fp = identity::UrlFingerprint(url->text());
  EXPECT_EQ(Ok(store.Add(fp, IdOf(url->text()), url->host(), 1, 0, /*new_url=*/true)),
            FrontierStore::AddResult::kAdded);
  EXPECT_EQ(file.reads, reads);
  EXPECT_EQ(store.held_parts(), 0u);
  EXPECT_TRUE(store.has_unread_adds(part));
  const Host& host = store.host(*store.FindHost("a.example.com"));
  EXPECT_EQ(host.summary.size, 2u);
  EXPECT_EQ(host.summary.queued, 2u);
  EXPECT_EQ(host.summary.best.fp, fp);  // depth 1 before the stored URL's 2
  EXPECT_EQ(store.state_count(UrlState::kQueued), 2u);
  EXPECT_EQ(Ok(store.Find(part, fp))->url_id, IdOf(url->text()));
  EXPECT_EQ(file.reads, reads);
  // Leasing reads the part once; the unread add joins it, and the order is the summary's.
  std::vector<FrontierStore::Leased> leased = Lease(store, 2, 30, 100);
  ASSERT_EQ(leased.size(), 2u);
  EXPECT_EQ(leased[0].fp, fp);
  EXPECT_EQ(leased[1].fp, stored);
  EXPECT_EQ(file.reads, reads + 1);
  EXPECT_FALSE(store.has_unread_adds(part));
  EXPECT_TRUE(store.held(part));
  ExpectConsistent(store);
  file.Commit(store);
  FrontierStore reader(NoDelay(), &file);
  ASSERT_TRUE(reader.ApplyCommitted(Opening(store)).ok());
  EXPECT_EQ(Dump(reader), Dump(store));
  EXPECT_EQ(Ok(reader.Find(part, stored))->depth, 2);
}

// A caller that calls a known URL new is caught when the part is read.
TEST(FrontierStore, APartThatHoldsAnUnreadAddIsRefused) {
  TestFile file;
  FrontierStore store(NoDelay(), &file);
  store.set_cache_bytes(0);
  const uint64_t stored = AddUrl(store, "http://a.example.com/x");
  file.Commit(store);
  EXPECT_EQ(Ok(store.Add(stored, IdOf("http://a.example.com/x"), "a.example.com", 1, 0, true)),
            FrontierStore::AddResult::kAdded);
  absl::Status status = store.Lease(1, 30, 100).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kDataLoss);
  EXPECT_TRUE(absl::StrContains(status.message(), "added to it as new")) << status;
  EXPECT_TRUE(store.unread_add_refused());  // the transaction must not commit
  // The unread add is still there to undo, and undoing it leaves the stored state.
  store.UndoTo(0);
  EXPECT_FALSE(store.unread_add_refused());
  EXPECT_FALSE(store.has_unread_adds(FrontierPartOf("a.example.com")));
  EXPECT_EQ(Lease(store, 1, 30, 100).size(), 1u);
  ExpectConsistent(store);
}

// Unread adds against adds that read their part: the same leases, the same state after undo to
// a savepoint, and the same committed rows, which a reader reads back.
TEST(FrontierStore, UnreadAddsActAsAddsThatReadTheirPart) {
  std::vector<std::string> urls = RedditUrls(4000);
  FrontierPolicy policy;
  policy.host_delay_s = 2;
  TestFile file;
  FrontierStore paged(policy, &file), whole(policy);
  paged.set_cache_bytes(0);
  std::set<uint64_t> added;
  // Adds urls[from, to) to both, the paged store telling it which are new.
  auto add = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(urls[i]);
      if (!url.ok()) continue;
      const uint64_t fp = identity::UrlFingerprint(url->text());
      const bool is_new = !added.contains(fp);
      const uint32_t depth = 1 + i % 3;
      const int32_t priority = static_cast<int32_t>(i % 4) - 1;
      EXPECT_EQ(Ok(paged.Add(fp, IdOf(url->text()), url->host(), depth, priority, is_new)),
                Ok(whole.Add(fp, IdOf(url->text()), url->host(), depth, priority)))
          << urls[i];
      added.insert(fp);
    }
  };
  auto summaries = [](const FrontierStore& store) {
    std::vector<std::string> lines;
    for (uint32_t id = 0; id < store.host_count(); ++id) {
      lines.push_back(
          absl::StrCat(store.host(id).name, " ", DescribeSummary(store.host(id).summary)));
    }
    return lines;
  };
  add(0, 1000);
  file.Commit(paged);
  whole.ClearUndo();
  double now = 100;
  for (size_t round = 0; round < 8; ++round) {
    SCOPED_TRACE(round);
    const size_t mark = paged.UndoMark(), whole_mark = whole.UndoMark();
    const std::set<uint64_t> added_before = added;
    const std::vector<std::string> before = summaries(paged);
    const size_t reads = file.reads;
    add(1000 + round * 350, 1000 + round * 350 + 300);  // mostly new URLs, a few repeats
    EXPECT_LT(file.reads, reads + 40);  // the repeats read their parts; new URLs do not
    EXPECT_EQ(summaries(paged), summaries(whole));
    EXPECT_EQ(paged.state_counts(), whole.state_counts());
    now += 3;
    std::vector<uint64_t> leased_paged, leased_whole;
    for (const auto& l : Lease(paged, 25, 10, now)) leased_paged.push_back(l.fp);
    for (const auto& l : Lease(whole, 25, 10, now)) leased_whole.push_back(l.fp);
    EXPECT_EQ(leased_paged, leased_whole);
    add(1000 + round * 350 + 300, 1000 + round * 350 + 350);
    if (round % 2 == 1) {
      paged.UndoTo(mark);
      whole.UndoTo(whole_mark);
      EXPECT_EQ(summaries(paged), before);
      EXPECT_EQ(paged.state_counts(), whole.state_counts());
      added = added_before;
    }
    file.Commit(paged);
    whole.ClearUndo();
    EXPECT_EQ(Dump(paged), Dump(whole));  // read back from the committed rows
    FrontierStore reader(policy, &file);
    ASSERT_TRUE(reader.ApplyCommitted(Opening(paged)).ok());
    EXPECT_EQ(Dump(reader), Dump(whole));
  }
  ExpectConsistent(paged);
}

TEST(FrontierStore, ApplyCommittedRefusesWhatDoesNotFit) {
  TestFile file;
  FrontierStore writer(NoDelay(), &file);
  AddUrl(writer, "http://a.example.com/x");
  const ChangeSet log = file.Commit(writer).log;
  auto apply = [&](const ChangeSet& changes) {
    FrontierStore reader(NoDelay(), &file);
    return reader.ApplyCommitted(changes).code();
  };
  EXPECT_EQ(apply(log), absl::StatusCode::kOk);
  ChangeSet out_of_sequence = log;
  out_of_sequence.hosts[0].id = 5;
  EXPECT_EQ(apply(out_of_sequence), absl::StatusCode::kDataLoss);
  ChangeSet impossible = log;
  impossible.hosts[0].summary.queued = 2;
  EXPECT_EQ(apply(impossible), absl::StatusCode::kDataLoss);
  ChangeSet with_urls = log;
  with_urls.urls.push_back({1, UrlChangeKind::kDelete, {}});
  EXPECT_EQ(apply(with_urls), absl::StatusCode::kDataLoss);
  // A host renamed; a held part whose host changes without the part being named.
  FrontierStore reader(NoDelay(), &file);
  ASSERT_TRUE(reader.ApplyCommitted(log).ok());
  ChangeSet renamed = log;
  renamed.hosts[0].name = "b.example.com";
  EXPECT_EQ(reader.ApplyCommitted(renamed).code(), absl::StatusCode::kDataLoss);
  // The reader holds the part; a commit changing its host's URLs without naming it is refused.
  ASSERT_NE(Find(reader, identity::UrlFingerprint("http://a.example.com/x")), nullptr);
  ChangeSet unnamed = log;
  unnamed.parts.clear();
  unnamed.hosts[0].summary.size = 2;
  EXPECT_EQ(reader.ApplyCommitted(unnamed).code(), absl::StatusCode::kDataLoss);
}

// The fingerprints of every host's records, from every record.
std::vector<std::vector<uint64_t>> HostsByScan(FrontierStore& store) {
  std::vector<std::vector<uint64_t>> hosts(store.host_count());
  for (const auto& [fp, record] : Records(store)) hosts[record.host].push_back(fp);
  for (std::vector<uint64_t>& fps : hosts) std::sort(fps.begin(), fps.end());
  return hosts;
}

void ExpectHostFingerprintsAsScanned(FrontierStore& store) {
  std::vector<std::vector<uint64_t>> expected = HostsByScan(store);
  for (uint32_t id = 0; id < store.host_count(); ++id) {
    ASSERT_EQ(Ok(store.HostFingerprints(id)), expected[id]) << store.host(id).name;
    ASSERT_EQ(store.host(id).summary.size, expected[id].size()) << store.host(id).name;
  }
  ExpectConsistent(store);
}

// Host scans follow adds, deletes and undo, also of a host's creation (its id comes back with
// another name).
TEST(FrontierStore, HostFingerprintsFollowAddsDeletesAndUndo) {
  FrontierStore store(NoDelay());
  for (int i = 0; i < 300; ++i) AddUrl(store, absl::StrCat("http://h", i % 7, ".example.com/", i));
  ExpectHostFingerprintsAsScanned(store);
  store.ClearUndo();
  const size_t mark = store.UndoMark();
  for (int i = 300; i < 400; ++i) {
    AddUrl(store, absl::StrCat("http://h", i % 9, ".example.com/", i));  // hosts h7, h8 are new
  }
  std::vector<uint64_t> all = AllFingerprints(store);
  for (size_t i = 0; i < all.size(); i += 5) Delete(store, all[i]);
  ExpectHostFingerprintsAsScanned(store);
  store.UndoTo(mark);
  EXPECT_EQ(store.host_count(), 7u);
  ExpectHostFingerprintsAsScanned(store);
  // h8 now takes the id h7 had; a URL deleted and added again is listed once.
  const uint64_t again = AddUrl(store, "http://h8.example.com/again");
  AddUrl(store, "http://h7.example.com/367");
  Delete(store, again);
  AddUrl(store, "http://h8.example.com/again");
  ExpectHostFingerprintsAsScanned(store);
  EXPECT_EQ(Ok(store.HostFingerprints(*store.FindHost("h8.example.com"))),
            std::vector<uint64_t>{again});
}

TEST(FrontierChangeSet, EveryTruncationAndBitFlipIsRefused) {
  FrontierStore store(NoDelay());
  for (const std::string& url : RedditUrls(40)) AddReal(store, url);
  Lease(store, 5, 10, 100);
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

TEST(FrontierChangeSet, HostsPartsAndCountsRoundTrip) {
  FrontierStore store(NoDelay());
  for (int i = 0; i < 50; ++i) AddUrl(store, absl::StrCat("http://h", i % 5, ".example.com/", i));
  Lease(store, 3, 10, 100);
  const ChangeSet changes = store.ChangesSince(0);
  ASSERT_EQ(changes.hosts.size(), 5u);
  absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(Encoded(changes));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->hosts.size(), changes.hosts.size());
  for (size_t i = 0; i < changes.hosts.size(); ++i) {
    EXPECT_EQ(decoded->hosts[i].name, changes.hosts[i].name);
    EXPECT_EQ(decoded->hosts[i].settings, changes.hosts[i].settings);
    EXPECT_EQ(decoded->hosts[i].summary, changes.hosts[i].summary);
    EXPECT_EQ(decoded->hosts[i].summary, store.host(changes.hosts[i].id).summary);
  }
  EXPECT_EQ(decoded->parts, changes.parts);
  EXPECT_TRUE(std::is_sorted(changes.parts.begin(), changes.parts.end()));
  ASSERT_TRUE(decoded->counts.has_value());
  EXPECT_EQ(*decoded->counts, store.state_counts());
  EXPECT_EQ((*decoded->counts)[static_cast<int>(UrlState::kLeased)], 3u);
}

// Version 4 carries `folded` and a deleted URL's host (a log row's changes are split by part
// through their hosts); version 3 (frontier format 5), which had neither, still decodes.
TEST(FrontierChangeSet, FoldedAndDeletedHostsRoundTripAndVersionThreeStillDecodes) {
  ChangeSet changes;
  UrlChange drop{0x1234, UrlChangeKind::kDelete, {}};
  drop.record.host = 7;
  changes.urls.push_back(drop);
  changes.counts = StateCounts{};
  changes.folded = 42;
  absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(Encoded(changes));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->urls.size(), 1u);
  EXPECT_EQ(decoded->urls[0].record.host, 7u);
  EXPECT_EQ(decoded->folded, 42);

  ChangeSet old;
  old.parts = {5};
  old.host_ids = {3, 9};
  old.counts = StateCounts{1, 0, 0, 0, 0, 0};
  std::string body, blob;
  EncodeChangeSet(old, &body, &blob);
  ASSERT_EQ(body.back(), '\0');  // has-folded = 0, which version 3 did not have
  body.pop_back();
  std::string v3(1, static_cast<char>(kUnfoldedChangeVersion));
  codecs::AppendPackedBytes(body, codecs::kFastZstdLevel, &v3, nullptr);
  const uint64_t checksum = XXH3_64bits(v3.data(), v3.size());
  for (int i = 0; i < 8; ++i) v3.push_back(static_cast<char>(checksum >> (8 * i)));
  decoded = DecodeChangeSet({reinterpret_cast<const uint8_t*>(v3.data()), v3.size()});
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_FALSE(decoded->folded.has_value());
  EXPECT_EQ(decoded->host_ids, old.host_ids);
  EXPECT_EQ(decoded->parts, old.parts);
  EXPECT_EQ(decoded->counts, old.counts);
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
    UrlRecord record = *Find(store, fps[i]);
    record.state = UrlState::kLeased;
    record.due = kTimes[i];
    record.last_fetch = kTimes[4 - i];
    record.status = kStatuses[i];
    changes.urls.push_back({fps[i], UrlChangeKind::kUpdate, record});
  }
  absl::StatusOr<ChangeSet> decoded = DecodeChangeSet(Encoded(changes));
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  ASSERT_EQ(decoded->urls.size(), 5u);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(decoded->urls[i].record.due, kTimes[i]) << i;
    EXPECT_EQ(decoded->urls[i].record.last_fetch, kTimes[4 - i]) << i;
    EXPECT_EQ(decoded->urls[i].record.status, kStatuses[i]) << i;
  }
}

TEST(FrontierStore, RenumberPartFollowsTheNewIdsAndForgetsDeletedOnes) {
  FrontierStore store(NoDelay());
  uint64_t a = AddUrl(store, "http://a.example.com/x");
  uint64_t b = AddUrl(store, "http://b.example.com/y");
  uint64_t c = AddUrl(store, "http://c.example.com/z");
  std::vector<int64_t> old_to_new(Ids().texts.size() + 1, 0);
  old_to_new[static_cast<size_t>(Find(store, a)->url_id)] = 7;
  old_to_new[static_cast<size_t>(Find(store, b)->url_id)] = 3;
  for (const char* host : {"a.example.com", "b.example.com", "c.example.com"}) {
    ASSERT_TRUE(store.RenumberPart(FrontierPartOf(host), old_to_new).ok());
  }
  EXPECT_EQ(Find(store, a)->url_id, 7);
  EXPECT_EQ(Find(store, b)->url_id, 3);
  EXPECT_EQ(Find(store, c)->url_id, kNoUrlId);
  ExpectConsistent(store);
}

}  // namespace
}  // namespace crawldb::frontier
