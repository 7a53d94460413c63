// FrontierStore: the crawl state of one `frontier` table, in memory — paper 004's U, Q and Qc
// plus per-host politeness — behind the vtab (frontier_table.h). SQLite-free.
//
// Records are keyed by the URL's fingerprint (url_fingerprint.h), which never changes, unlike the
// ids of `urls`, which optimize renumbers. Each record (UrlRecord, 40 bytes) holds the crawl state
// of one URL and the URL's id in `urls`, where its text is: the frontier keeps no URL text (a
// lease reads it from `urls`; `urls` optimize renumbers the ids through RenumberUrlIds).
//
// States (the SQL name in brackets) and the one structure each state lives in:
//   kQueued  (queued)  ready to lease: in its host's queue, ordered by QueueKey
//   kWaiting (queued)  a failed fetch waiting for its retry time `due`: in the timer set
//   kLeased  (leased)  handed out until `due` (the lease deadline): in the timer set (paper's Qc)
//   kDone    (done)    fetched, no re-crawl: nowhere
//   kRecrawl (done)    fetched, to be queued again at `due` (paper §2.7): in the timer set
//   kFailed  (failed)  max_attempts failures: nowhere
// Expire(now) moves every timer entry with due <= now back to kQueued (paper §2.6 steps 1–7 and
// §2.7 steps 8–11); Lease and Confirm run it first.
//
// Lease order and politeness. Each host has its own queue ordered by (depth, priority, fp) — the
// paper's key G ⊕ p(K) ⊕ h(K), with the fingerprint as h(K). A host with queued URLs is either
// "ready" (its wake time max(next_allowed, blocked_until) <= now), kept in ready_ ordered by its
// best queue key, or "waiting", kept in waiting_ ordered by its wake time. Leasing n URLs moves
// the waiting hosts whose wake time has come into ready_, then n times takes the best ready
// host's best URL and sets that host's next_allowed = now + its delay, which sends the host to
// waiting_ (with delay 0 it stays ready). So each lease costs O(log hosts + log queue), whatever
// the queue's shape, and the order is: the paper's global (depth, priority, hash) order
// restricted to the hosts allowed at `now`, at most one URL per host per call when its delay is
// positive. A host holding most of the queue gives one URL per delay; the rest of the batch
// comes from other hosts in key order.
//
// Every change is recorded in an undo log until the transaction ends (UndoTo reverts exactly,
// including host settings and politeness times); the changes since a mark are what a
// transaction writes to the log shadow table (ChangesSince, frontier_changes.h). Apply() replays
// a change set read from disk and validates it (DataLossError for anything inconsistent).
//
// Memory, measured on bench/scale.sh's file of 1 M queued URLs of 10,000 hosts loaded by a new
// process: MemoryBytes counts 85 bytes per URL — the record map (record_map.h: the fingerprint
// and record, 48 bytes, in chunks, plus 4 bytes and a control byte per slot of a hash table
// about half full) and 16 bytes of host queue per queued URL; the process grows by 95 bytes per
// URL (allocator, B-tree nodes). The lists of the first host scan (HostFingerprints) add 8 bytes
// per URL.
//
// Not thread-safe: one store belongs to one connection's vtab.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "extension/frontier/record_map.h"

namespace crawldb::frontier {

enum class UrlState : uint8_t { kQueued, kWaiting, kLeased, kDone, kRecrawl, kFailed };
inline constexpr int kUrlStateCount = 6;

// The state's SQL name: queued, leased, done or failed.
std::string_view StateName(UrlState state);
// True for the states kept in the timer set (they carry a `due` time).
inline bool HasTimer(UrlState state) {
  return state == UrlState::kWaiting || state == UrlState::kLeased || state == UrlState::kRecrawl;
}

// `status` of a URL never confirmed.
inline constexpr int32_t kNoStatus = std::numeric_limits<int32_t>::min();

// `url_id` of a record whose URL is not in `urls` (deleted there; read from a format-3 file).
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

struct Host {
  enum class Place : uint8_t { kNone, kReady, kWaiting };
  std::string name;
  HostSettings settings;
  size_t size = 0;                  // records of the host, in any state (its budget counts them)
  absl::btree_set<QueueKey> queue;  // the host's kQueued records
  Place place = Place::kNone;       // where the host sits while its queue is not empty
  QueueKey ready_key;               // its key in ready_ (place kReady)
  double wake = 0;                  // its key in waiting_ (place kWaiting)
  // Bytes of `name` before its registrable domain; -1 until FrontierStore::DomainOf computes it.
  mutable int32_t domain_offset = -1;
};

struct ChangeSet;  // frontier_changes.h

class FrontierStore {
 public:
  explicit FrontierStore(FrontierPolicy policy = {}) : policy_(policy) {}

  const FrontierPolicy& policy() const { return policy_; }

  // Look-ups.
  size_t size() const { return records_.size(); }
  const UrlRecord* Find(uint64_t fp) const;
  std::optional<uint32_t> FindHost(std::string_view name) const;
  const Host& host(uint32_t id) const { return hosts_[id]; }
  // The registrable domain of host `id` (urls::RegistrableDomain of its name), computed on the
  // first call and kept: crawl_add's depth rule asks for it on every add.
  std::string_view DomainOf(uint32_t id) const;
  size_t host_count() const { return hosts_.size(); }
  double DelayOf(const Host& host) const;
  int64_t BudgetOf(const Host& host) const;  // 0: unlimited
  size_t state_count(UrlState state) const { return state_counts_[static_cast<int>(state)]; }
  // Hosts with queued URLs that may not be leased at `now` (politeness or blocked_until).
  size_t HostsWaiting(double now) const;
  // Every record's fingerprint (in record map order: part by part, each in slot order), the
  // timer set (due, fp) in due order.
  std::vector<uint64_t> AllFingerprints() const;
  // The fingerprints of host `id`'s records, in increasing order; valid until the next change.
  // The first call lists every host's records in one pass over them, at 8 bytes per record,
  // which later adds append to; a call drops from its host's list what left the host.
  const std::vector<uint64_t>& HostFingerprints(uint32_t id) const;
  // Calls visit(fp, record) for every record (record map order).
  template <typename Visit>
  void ForEachRecord(Visit visit) const {
    records_.ForEach(visit);
  }
  const absl::btree_set<std::pair<double, uint64_t>>& timers() const { return timers_; }

  // Writes. Each is recorded in the undo log.
  enum class AddResult { kAdded, kKnown, kDepthLimit, kHostBudget };
  // Adds a new URL: `fp` its fingerprint, `url_id` its id in `urls`, `host` its host,
  // `depth` >= 1.
  AddResult Add(uint64_t fp, int64_t url_id, std::string_view host, uint32_t depth,
                int32_t priority);

  struct Leased {
    uint64_t fp;
    uint16_t depth;
    double lease_until;  // unix s
  };
  // Expire(now), then hands out up to n queued URLs in the order described above.
  std::vector<Leased> Lease(size_t n, double lease_s, double now);

  enum class ConfirmResult { kNotLeased, kDone, kRetry, kFailed };
  // Expire(now), then confirms a leased URL. A failure status (IsFailureStatus) retries after
  // retry_base_s * 2^(attempts - 1) until max_attempts failures, then the URL is kFailed.
  // Otherwise the URL is done, and queued again at now + recrawl_s when recrawl_s > 0.
  ConfirmResult Confirm(uint64_t fp, int32_t status, double recrawl_s, double now);
  static bool IsFailureStatus(int32_t status) {
    return status < 0 || status == 429 || (status >= 500 && status <= 599);
  }

  // Returns every expired timer entry to the queue.
  void Expire(double now);

  // Sets a host's politeness delay (< 0: the table default), and, when given, its budget
  // (< 0: the table default) and blocked_until. Creates the host when it is new.
  void SetHost(std::string_view name, double delay_s, std::optional<int64_t> budget,
               std::optional<double> blocked_until);

  bool Delete(uint64_t fp);
  bool SetPriority(uint64_t fp, int32_t priority);

  // Undo log. UndoTo(mark) reverts every change made after the mark.
  size_t UndoMark() const { return undo_.size(); }
  void UndoTo(size_t mark);
  void ClearUndo();

  // The changes made after `mark` as post-images (the views point into this store and stay
  // valid until its next change).
  ChangeSet ChangesSince(size_t mark) const;
  // Replaces `*changes` with the records of part `part` (record_map.h) as new records, without
  // hosts (its vectors keep their capacity).
  void PartSnapshot(size_t part, ChangeSet* changes) const;
  // Every host, in id order.
  ChangeSet HostsSnapshot() const;
  // Applies committed changes read from disk (no undo). DataLossError when they do not fit the
  // state (unknown record or host, …).
  absl::Status Apply(const ChangeSet& changes);
  // Loading the whole state from disk, faster than applying it record by record: StartLoad on a
  // store fresh from its constructor; then Apply, and LoadPart for the records of snapshot part
  // `part` (PartSnapshot's form), take records without ordering them; FinishLoad builds the host
  // queues, the timer set and the hosts' places at once, appending sorted runs to each B-tree
  // where records applied one by one insert at random. In between the store serves no other
  // call. LoadPart returns DataLossError as Apply does, and for a record of another part or one
  // that is not new.
  void StartLoad() { loading_ = true; }
  absl::Status LoadPart(size_t part, const ChangeSet& records);
  void FinishLoad();
  // Gives every record the id old_to_new[url_id] (kNoUrlId when out of range or 0): `urls`
  // optimize renumbered its ids. No undo: the table rewrites its whole snapshot after it.
  void RenumberUrlIds(absl::Span<const int64_t> old_to_new);

  // Every invariant; one line per problem.
  void Check(std::vector<std::string>* problems) const;
  size_t MemoryBytes() const;

 private:
  struct UndoEntry {
    enum class Kind : uint8_t { kUrl, kHostSettings, kHostCreated };
    Kind kind;
    bool existed = false;   // kUrl: the record existed before the change
    uint32_t host = 0;      // kHostSettings, kHostCreated
    uint64_t fp = 0;        // kUrl
    UrlRecord record;       // kUrl: the record before the change, when it existed
    HostSettings settings;  // kHostSettings: the settings before the change
  };
  struct ReadyEntry {
    QueueKey key;
    uint32_t host;
    friend bool operator<(const ReadyEntry& a, const ReadyEntry& b) {
      return std::tie(a.key, a.host) < std::tie(b.key, b.host);
    }
  };

  static QueueKey KeyOf(uint64_t fp, const UrlRecord& record) {
    return {record.depth, record.priority, fp};
  }
  double WakeOf(const Host& host) const {
    return std::max(host.settings.next_allowed, host.settings.blocked_until);
  }
  uint32_t CreateHost(std::string_view name);
  void PushHostCreated(uint32_t id);
  // Changes with undo.
  void Mutate(uint64_t fp, const UrlRecord* next);
  void MutateHost(uint32_t id, const HostSettings& settings);
  // Changes without undo; keep every derived structure in step.
  void SetRecord(uint64_t fp, const UrlRecord* next);
  void Index(uint64_t fp, const UrlRecord& record);
  void Unindex(uint64_t fp, const UrlRecord& record);
  void Place(uint32_t id);
  void Promote(double now);

  FrontierPolicy policy_;
  RecordMap<UrlRecord> records_;
  std::vector<Host> hosts_;
  absl::flat_hash_map<std::string, uint32_t> host_ids_;
  absl::btree_set<std::pair<double, uint64_t>> timers_;  // (due, fp): paper's Qc
  absl::btree_set<ReadyEntry> ready_;
  absl::btree_set<std::pair<double, uint32_t>> waiting_;  // (wake, host)
  // Hosts whose wake time is <= this are placed in ready_ (the `now` of the last lease).
  double promoted_until_ = -std::numeric_limits<double>::infinity();
  size_t state_counts_[kUrlStateCount] = {};
  std::vector<UndoEntry> undo_;
  // HostFingerprints' lists, by host id, once built: each holds its host's fingerprints, and
  // may hold some twice or of records deleted since (a host id may outlive an undone host).
  mutable std::vector<std::vector<uint64_t>> host_members_;
  mutable bool host_members_built_ = false;
  bool loading_ = false;  // between StartLoad and FinishLoad: records are not indexed
};

}  // namespace crawldb::frontier
