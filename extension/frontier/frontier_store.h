// FrontierStore: the crawl state of one `frontier` table — paper 004's U, Q and Qc plus per-host
// politeness — behind the vtab (frontier_table.h), a cache of the file. SQLite-free.
//
// Records are keyed by the URL's fingerprint (url_fingerprint.h), which never changes, unlike the
// ids of `urls`, which optimize renumbers. Each record (UrlRecord, 40 bytes) holds the crawl state
// of one URL and the URL's id in `urls`, where its text is: the frontier keeps no URL text (a
// lease reads it from `urls`; `urls` optimize renumbers the ids through RenumberPart).
//
// States (the SQL name in brackets) and the one structure each state lives in:
//   kQueued  (queued)  ready to lease: in its host's queue, ordered by QueueKey
//   kWaiting (queued)  a failed fetch waiting for its retry time `due`: in its host's timers
//   kLeased  (leased)  handed out until `due` (the lease deadline): in its host's timers (Qc)
//   kDone    (done)    fetched, no re-crawl: nowhere
//   kRecrawl (done)    fetched, to be queued again at `due` (paper §2.7): in its host's timers
//   kFailed  (failed)  max_attempts failures: nowhere
// Expire(now) moves every timer entry with due <= now back to kQueued (paper §2.6 steps 1–7 and
// §2.7 steps 8–11); Lease and Confirm run it first.
//
// Parts and paging (BUbiNG's workbench: every host in memory, its URLs on disk). A record
// belongs to the part of its host (frontier_parts.h). Every host is held with its settings and a
// summary of its records (HostSummary: how many, how many queued and the best queue key, how
// many in a timer state and the earliest due), so that choosing the host to lease from and the
// timer to expire next needs no part. A part — its records, and its hosts' queues and timers —
// is read from the source (the table's shadow tables) when an operation reaches it, and evicted,
// least recently used, once the parts held pass the cache bound; never a part holding changes
// not yet committed. A part read must agree with its hosts' summaries (DataLossError otherwise).
// Without a source (tests, benchmarks) every part is held from the start, empty.
//
// Unread adds. An add that the caller knows to be of a URL no part holds (Add's new_url) does
// not read the URL's part when it is not held: the record waits beside the part until the part
// is read (it then joins the part, which holds uncommitted changes from there on) or the
// transaction ends (UndoTo takes it back; once the commit is written, ForgetUnreadAdds drops it,
// the rows holding it). The host's summary and the state counts take it at once, so leasing
// order and budgets see it.
//
// Lease order and politeness. Each host has its own queue ordered by (depth, priority, fp) — the
// paper's key G ⊕ p(K) ⊕ h(K), with the fingerprint as h(K). A host with queued URLs is either
// "ready" (its wake time max(next_allowed, blocked_until) <= now), kept in ready_ ordered by its
// best queue key, or "waiting", kept in waiting_ ordered by its wake time. Leasing n URLs moves
// the waiting hosts whose wake time has come into ready_, then n times takes the best ready
// host's best URL and sets that host's next_allowed = now + its delay, which sends the host to
// waiting_ (with delay 0 it stays ready). So each lease costs O(log hosts + log queue), plus
// reading the host's part when it is not held, and the order is: the paper's global (depth,
// priority, hash) order restricted to the hosts allowed at `now`, at most one URL per host per
// call when its delay is positive.
//
// Every change is recorded in an undo log until the transaction ends (UndoTo reverts exactly,
// including host settings and politeness times); the changes since a mark are what a
// transaction writes (ChangesSince, frontier_changes.h). ApplyCommitted takes in what other
// connections committed: host post-images, their URL changes to the parts held, and the parts
// to forget (those whose changes it was not given).
//
// Memory: a held part costs about 58 bytes per record (slot_hash_map.h) and 16 bytes per queued
// or timed record in its host's B-tree; a host about 200 bytes plus its name, held or not; an
// unread add about 58 bytes, and every change 80 bytes of undo log until its transaction ends.
//
// Not thread-safe: one store belongs to one connection's vtab.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/containers/slot_hash_map.h"
#include "extension/frontier/frontier_parts.h"

namespace crawldb::frontier {

enum class UrlState : uint8_t { kQueued, kWaiting, kLeased, kDone, kRecrawl, kFailed };
inline constexpr int kUrlStateCount = 6;
using StateCounts = std::array<uint64_t, kUrlStateCount>;

// The state's SQL name: queued, leased, done or failed.
absl::string_view StateName(UrlState state);
// True for the states kept in the timers (they carry a `due` time).
inline bool HasTimer(UrlState state) {
  return state == UrlState::kWaiting || state == UrlState::kLeased || state == UrlState::kRecrawl;
}

// `status` of a URL never confirmed.
inline constexpr int32_t kNoStatus = std::numeric_limits<int32_t>::min();

// `url_id` of a record whose URL is not in `urls` (deleted there).
inline constexpr int64_t kNoUrlId = 0;

struct UrlRecord {
  int64_t url_id = kNoUrlId;   // the URL's id in the `urls` table
  uint32_t host = 0;           // index of the URL's host (FrontierStore::host)
  double due = 0;              // unix s: lease deadline, retry or re-crawl time (timer states only)
  double last_fetch = 0;       // unix s of the last confirm; 0 when never confirmed
  int32_t priority = 0;        // lower = more important
  int32_t status = kNoStatus;  // last status given to confirm (HTTP code, negative = network)
  uint16_t depth = 1;          // paper §2.3: 1 for seeds and links from other domains
  UrlState state = UrlState::kQueued;
  uint8_t attempts = 0;  // failed fetches since the last success
};

struct HostSettings {
  double delay_s = -1;       // seconds between two leases; < 0: the table's host_delay
  int64_t budget = -1;       // most URLs of the host in the frontier; < 0: the table's host_budget
  double blocked_until = 0;  // unix s: no lease before this time
  double next_allowed = 0;   // unix s: last lease + delay (politeness)
  bool operator==(const HostSettings&) const = default;
};

// The table options that govern the store (frontier_table.h documents them).
struct FrontierPolicy {
  double host_delay_s = 1.0;
  int64_t host_budget = 0;  // 0: unlimited
  int64_t max_depth = 0;    // 0: unlimited
  int64_t max_attempts = 3;
  double retry_base_s = 60;  // back-off: retry after retry_base_s * 2^(attempts - 1)
};

// A host's queue order: the paper's B = G ⊕ p(K) ⊕ h(K).
struct QueueKey {
  uint16_t depth = 0;
  int32_t priority = 0;
  uint64_t fp = 0;
  friend bool operator<(const QueueKey& a, const QueueKey& b) {
    return std::tie(a.depth, a.priority, a.fp) < std::tie(b.depth, b.priority, b.fp);
  }
  bool operator==(const QueueKey&) const = default;
};

// Sorts (host id, key) pairs by host, then by key, as std::sort would, by radix: the order a
// part's queues are filled in (FrontierStore, when it reads a part).
void SortByHostAndKey(std::vector<std::pair<uint32_t, QueueKey>>* keys);

// What the store keeps of a host's records while its part is not held (stored with the host).
struct HostSummary {
  uint64_t size = 0;     // records, in any state (its budget counts them)
  uint64_t queued = 0;   // kQueued records
  QueueKey best;         // the best queued key; {} when none is queued
  uint64_t timed = 0;    // records in a timer state
  double first_due = 0;  // the earliest due among them; 0 when none
  bool operator==(const HostSummary&) const = default;
};
// A summary as error messages and crawldb_check() show it.
std::string DescribeSummary(const HostSummary& summary);

struct Host {
  enum class Place : uint8_t { kNone, kReady, kWaiting };
  std::string name;
  uint32_t part = 0;  // FrontierPartOf(name)
  HostSettings settings;
  HostSummary summary;
  // While the host's part is held: its kQueued records and its timer records (due, fp).
  absl::btree_set<QueueKey> queue;
  absl::btree_set<std::pair<double, uint64_t>> timers;
  Place place = Place::kNone;  // where the host sits while it has queued URLs
  QueueKey ready_key;          // its key in ready_ (place kReady)
  double wake = 0;             // its key in waiting_ (place kWaiting)
  bool timed_listed = false;   // in timed_hosts_ under timed_key
  double timed_key = 0;
  // Bytes of `name` before its registrable domain; -1 until FrontierStore::DomainOf computes it.
  mutable int32_t domain_offset = -1;
};

struct ChangeSet;      // frontier_changes.h
struct CommittedPart;  // frontier_changes.h
struct UrlChange;      // frontier_changes.h

// Where a store reads the parts it does not hold: the table's shadow tables.
class FrontierPartSource {
 public:
  virtual ~FrontierPartSource() = default;
  // Calls apply(changes) for part `part` as stored: its snapshot (new records), then each change
  // set committed to it since, in commit order.
  virtual absl::Status ReadPart(size_t part,
                                const std::function<absl::Status(const ChangeSet&)>& apply) = 0;
  // The error to return for a part that disagrees with its hosts' summaries (`cause`, a
  // DataLossError).
  virtual absl::Status Refuse(absl::Status cause) = 0;
};

class FrontierStore {
 public:
  explicit FrontierStore(FrontierPolicy policy = {}, FrontierPartSource* source = nullptr);

  const FrontierPolicy& policy() const { return policy_; }
  // Bytes of held parts kept beyond those with uncommitted changes.
  void set_cache_bytes(size_t bytes);

  // Look-ups.
  size_t size() const;
  // The record of `fp` in part `part` (FrontierPartOf of the URL's host), or nullptr; valid
  // until the next call that changes the store or may read a part. An unread add is found
  // without reading its part.
  absl::StatusOr<const UrlRecord*> Find(size_t part, uint64_t fp);
  // The part holding `fp`, or nullopt: the parts held are searched first, then every other.
  absl::StatusOr<std::optional<size_t>> Locate(uint64_t fp);
  std::optional<uint32_t> FindHost(absl::string_view name) const;
  const Host& host(uint32_t id) const { return hosts_[id]; }
  // The registrable domain of host `id` (urls::RegistrableDomain of its name), computed on the
  // first call and kept: crawl_add's depth rule asks for it on every add.
  absl::string_view DomainOf(uint32_t id) const;
  size_t host_count() const { return hosts_.size(); }
  double DelayOf(const Host& host) const;
  int64_t BudgetOf(const Host& host) const;  // 0: unlimited
  uint64_t state_count(UrlState state) const { return state_counts_[static_cast<int>(state)]; }
  const StateCounts& state_counts() const { return state_counts_; }
  // Hosts with queued URLs that may not be leased at `now` (politeness or blocked_until).
  size_t HostsWaiting(double now) const;
  // Calls visit(fp, record) for every record of part `part` (slot order), reading it first.
  absl::Status ForEachInPart(size_t part,
                             const std::function<void(uint64_t, const UrlRecord&)>& visit);
  // The fingerprints of host `id`'s records, in increasing order.
  absl::StatusOr<std::vector<uint64_t>> HostFingerprints(uint32_t id);
  // Calls visit(host id) for every host with records in a timer state, earliest due first.
  template <typename Visit>
  void ForEachTimedHost(Visit visit) const {
    for (const auto& [due, id] : timed_hosts_) visit(id);
  }
  bool held(size_t part) const { return parts_[part].held; }
  size_t held_parts() const;
  // Parts read from the source since the store was made (a Reset keeps the count).
  uint64_t parts_read() const { return parts_read_; }
  // Whether part `part` has unread adds (it is not held then).
  bool has_unread_adds(size_t part) const {
    return parts_[part].unread != nullptr && parts_[part].unread->size() > 0;
  }
  // Whether Find(part, fp) would read the part.
  bool WouldRead(size_t part, uint64_t fp) const {
    return !parts_[part].held && FindUnread(part, fp) == nullptr;
  }
  // Whether the cache bound would hold every part at once (about kHeldRecordBytes a record: 58
  // in its part's map, 24 in its host's queue): then a part read stays held, and reading it
  // is worth more than adding to it unread.
  static constexpr size_t kHeldRecordBytes = 82;
  bool CacheHoldsAll() const { return size() <= cache_bytes_ / kHeldRecordBytes; }

  // Writes. Each is recorded in the undo log.
  enum class AddResult { kAdded, kKnown, kDepthLimit, kHostBudget };
  // Adds a new URL: `fp` its fingerprint, `url_id` its id in `urls`, `host` its host,
  // `depth` >= 1. `new_url`: the caller knows that no part holds `fp`, so a part not held is
  // not read (an unread add, above); a part that turns out to hold it is refused when it is
  // read (DataLossError).
  absl::StatusOr<AddResult> Add(uint64_t fp, int64_t url_id, absl::string_view host, uint32_t depth,
                                int32_t priority, bool new_url = false);

  struct Leased {
    uint64_t fp;
    int64_t url_id;
    uint32_t part;
    uint16_t depth;
    double lease_until;  // unix s
  };
  // Expire(now), then hands out up to n queued URLs in the order described above.
  absl::StatusOr<std::vector<Leased>> Lease(size_t n, double lease_s, double now);

  enum class ConfirmResult { kNotLeased, kDone, kRetry, kFailed };
  // Expire(now), then confirms the leased URL `fp` of part `part`. A failure status
  // (IsFailureStatus) retries after retry_base_s * 2^(attempts - 1) until max_attempts failures,
  // then the URL is kFailed. Otherwise the URL is done, and queued again at now + recrawl_s when
  // recrawl_s > 0.
  absl::StatusOr<ConfirmResult> Confirm(size_t part, uint64_t fp, int32_t status, double recrawl_s,
                                        double now);
  static bool IsFailureStatus(int32_t status) {
    return status < 0 || status == 429 || (status >= 500 && status <= 599);
  }

  // Returns every expired timer entry to the queue.
  absl::Status Expire(double now);

  // Sets a host's politeness delay (< 0: the table default), and, when given, its budget
  // (< 0: the table default) and blocked_until. Creates the host when it is new.
  void SetHost(absl::string_view name, double delay_s, std::optional<int64_t> budget,
               std::optional<double> blocked_until);

  // Drop a URL, or re-key it; false when it is not in part `part`.
  absl::StatusOr<bool> Delete(size_t part, uint64_t fp);
  absl::StatusOr<bool> SetPriority(size_t part, uint64_t fp, int32_t priority);

  // Undo log. UndoTo(mark) reverts every change made after the mark.
  size_t UndoMark() const { return undo_.size(); }
  void UndoTo(size_t mark);
  // Forgets the undo log (the changes are committed): no part is pinned any more.
  void ClearUndo();
  // The transaction's changes are written where reading a part finds them (the table's rows and
  // log tail): its unread adds are kept no longer. Only between writing a commit and ClearUndo
  // (which calls it). An UndoTo after it (a commit that failed once written) still restores the
  // hosts' summaries and the counts; the table reads its rows again on such a rollback.
  void ForgetUnreadAdds();
  // Whether a part read this transaction held one of its unread adds: the caller vouched for a
  // URL that was not new, and the transaction must not commit (its change set would add a
  // known URL). Cleared by ClearUndo.
  bool unread_add_refused() const { return unread_refused_; }

  // The changes made after `mark`: the post-images of the hosts whose settings or records
  // changed (by id), the URL changes by part (each change's record.host is set, a delete's
  // too: it is the record's host before), the parts they are in, and the state counts. The
  // views point into this store and stay valid until its next change.
  ChangeSet ChangesSince(size_t mark) const;
  // Replaces `*changes` with the records of part `part` as new records, without hosts (its
  // vectors keep their capacity).
  absl::Status PartSnapshot(size_t part, ChangeSet* changes);
  // Whether part `part` has hosts (a part without any holds no record).
  bool has_hosts(size_t part) const { return !parts_[part].hosts.empty(); }

  // Loading and catching up with the stored state. Reset forgets every host and part; then
  // ApplyCommitted takes the hosts (post-images with their summaries) and the counts of the
  // stored state, or of commits of other connections: it forgets the parts `committed.parts`
  // names and applies `pending`, those commits' changes to parts held, in commit order.
  // DataLossError when they do not fit (a host renamed or out of sequence, a change that does
  // not fit its part, a held part's host summary that disagrees with the post-image).
  void Reset();
  absl::Status ApplyCommitted(const ChangeSet& committed,
                              absl::Span<const CommittedPart> pending = {});
  // DataLossError unless the hosts' summaries add up to the state counts (after opening).
  absl::Status CheckCounts() const;
  void ForgetPart(size_t part);

  // Gives every record of part `part` the id old_to_new[url_id] (kNoUrlId when out of range or
  // 0): `urls` optimize renumbered its ids. No undo: the table rewrites the part after it.
  absl::Status RenumberPart(size_t part, absl::Span<const int64_t> old_to_new);

  // Every invariant, reading each part in turn; one line per problem.
  absl::Status Check(std::vector<std::string>* problems);
  size_t MemoryBytes() const;

 private:
  struct UndoEntry {
    enum class Kind : uint8_t { kUrl, kHostSettings, kHostCreated };
    Kind kind;
    bool existed = false;  // kUrl: the record existed before the change
    uint32_t part = 0;     // kUrl
    uint32_t host = 0;     // kHostSettings, kHostCreated
    bool unread = false;   // kUrl: an unread add
    uint64_t fp = 0;       // kUrl
    // What the change replaced: kUrl the record, when it existed (else {}), or for an unread
    // add its host's summary; kHostSettings the host's settings. 80 bytes an entry in all.
    std::variant<UrlRecord, HostSummary, HostSettings> before;
  };
  static_assert(sizeof(UndoEntry) <= 80, "the undo log's figure above");
  struct ReadyEntry {
    QueueKey key;
    uint32_t host;
    friend bool operator<(const ReadyEntry& a, const ReadyEntry& b) {
      return std::tie(a.key, a.host) < std::tie(b.key, b.host);
    }
  };
  struct Part {
    bool held = false;
    bool dirty = false;           // holds changes not yet committed: never evicted
    uint64_t used = 0;            // tick of the last use
    size_t bytes = 0;             // memory when last counted
    std::vector<uint32_t> hosts;  // the hosts of the part, held or not
    SlotHashMap<UrlRecord> records;
    // Unread adds, while the part is not held; null until the transaction makes one (a map
    // allocates: 4,096 empty ones would cost every store made).
    std::unique_ptr<SlotHashMap<UrlRecord>> unread;
  };

  static QueueKey KeyOf(uint64_t fp, const UrlRecord& record) {
    return {record.depth, record.priority, fp};
  }
  double WakeOf(const Host& host) const {
    return std::max(host.settings.next_allowed, host.settings.blocked_until);
  }
  // A part that disagrees with its hosts' summaries: DataLossError, as the source reports it.
  absl::Status Damaged(std::string what) const;
  // Makes part `part` held (reading it from the source) and most recently used.
  absl::Status Hold(size_t part);
  absl::Status ReadPart(size_t part);
  absl::Status ApplyToPart(size_t part, const ChangeSet& changes);
  // Whether `change` fits part `part`, whose record of its fingerprint is `current`.
  absl::Status CheckChange(size_t part, const UrlChange& change, const UrlRecord* current) const;
  void Drop(size_t part);
  void Evict(size_t keep);
  // Unread adds (frontier_store_unread.cc): records one, after the checks of Add; moves those of
  // a part just read into it (DataLossError when the part holds one); takes one back; the
  // record of `fp` in a part as it stands, held or with unread adds.
  void AddUnread(size_t part, uint64_t fp, const UrlRecord& record);
  absl::Status JoinUnread(size_t part);
  void UndoUnread(const UndoEntry& entry);
  const UrlRecord* Current(size_t part, uint64_t fp) const;
  const UrlRecord* FindUnread(size_t part, uint64_t fp) const;
  size_t PartBytes(size_t part) const;
  uint32_t CreateHost(absl::string_view name);
  void PushHostCreated(uint32_t id);
  // Changes with undo; the part must be held.
  void Mutate(size_t part, uint64_t fp, const UrlRecord* next);
  void MarkDirty(size_t part);  // held part `part` has uncommitted changes
  void MutateHost(uint32_t id, const HostSettings& settings);
  // Changes without undo; keep every derived structure in step.
  void SetRecord(size_t part, uint64_t fp, const UrlRecord* next);
  void Index(uint64_t fp, const UrlRecord& record);
  void Unindex(uint64_t fp, const UrlRecord& record);
  // Host `id`'s summary from its held queue and timers, then its places.
  void Summarize(uint32_t id);
  void Place(uint32_t id);
  void ListTimed(uint32_t id);
  void Promote(double now);
  // What the records of held part `part` say of each of its hosts.
  std::vector<HostSummary> Derive(size_t part) const;

  FrontierPolicy policy_;
  FrontierPartSource* source_;
  size_t cache_bytes_ = std::numeric_limits<size_t>::max();
  std::vector<Part> parts_;
  size_t held_bytes_ = 0;
  size_t held_clean_parts_ = 0;  // parts held without uncommitted changes: what Evict may drop
  uint64_t parts_read_ = 0;
  uint64_t tick_ = 0;
  std::vector<Host> hosts_;
  absl::flat_hash_map<std::string, uint32_t> host_ids_;
  absl::btree_set<std::pair<double, uint32_t>> timed_hosts_;  // (first due, host)
  absl::btree_set<ReadyEntry> ready_;
  absl::btree_set<std::pair<double, uint32_t>> waiting_;  // (wake, host)
  // Hosts whose wake time is <= this are placed in ready_ (the `now` of the last lease).
  double promoted_until_ = -std::numeric_limits<double>::infinity();
  StateCounts state_counts_ = {};
  std::vector<UndoEntry> undo_;
  std::vector<uint32_t> dirty_parts_;
  std::vector<uint32_t> unread_parts_;  // parts given an unread map in this transaction
  bool unread_refused_ = false;         // a part read held one of its unread adds
};

}  // namespace crawldb::frontier
