#include "extension/frontier/frontier_store.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"

namespace crawldb::frontier {
namespace {

absl::string_view Name(UrlState state) {
  std::string_view name = StateName(state);
  return {name.data(), name.size()};
}

absl::Status Inconsistent(std::string_view what, uint64_t fp) {
  return absl::DataLossError(
      absl::StrCat("frontier change set: ", absl::string_view(what.data(), what.size()), " (fp ",
                   identity::FingerprintToSql(fp), ")"));
}

// now + delay, rounded up when the sum rounds down: a unix time has a resolution of 0.24 µs, and
// a lease at exactly the rounded-down sum would come a hair short of the delay.
double AfterDelay(double now, double delay) {
  double at = now + delay;
  return at - now < delay ? std::nextafter(at, INFINITY) : at;
}

}  // namespace

std::string_view StateName(UrlState state) {
  switch (state) {
    case UrlState::kQueued:
    case UrlState::kWaiting:
      return "queued";
    case UrlState::kLeased:
      return "leased";
    case UrlState::kDone:
    case UrlState::kRecrawl:
      return "done";
    case UrlState::kFailed:
      return "failed";
  }
  return "?";
}

const UrlRecord* FrontierStore::Find(uint64_t fp) const { return records_.Find(fp); }

std::optional<uint32_t> FrontierStore::FindHost(std::string_view name) const {
  auto it = host_ids_.find(absl::string_view(name.data(), name.size()));
  if (it == host_ids_.end()) return std::nullopt;
  return it->second;
}

std::string_view FrontierStore::DomainOf(uint32_t id) const {
  const Host& host = hosts_[id];
  if (host.domain_offset < 0) {
    host.domain_offset =
        static_cast<int32_t>(host.name.size() - identity::RegistrableDomain(host.name).size());
  }
  return std::string_view(host.name).substr(static_cast<size_t>(host.domain_offset));
}

double FrontierStore::DelayOf(const Host& host) const {
  return host.settings.delay_s >= 0 ? host.settings.delay_s : policy_.host_delay_s;
}

int64_t FrontierStore::BudgetOf(const Host& host) const {
  return host.settings.budget >= 0 ? host.settings.budget : policy_.host_budget;
}

size_t FrontierStore::HostsWaiting(double now) const {
  size_t count = 0;
  for (const Host& host : hosts_) {
    if (!host.queue.empty() && WakeOf(host) > now) ++count;
  }
  return count;
}

std::vector<uint64_t> FrontierStore::AllFingerprints() const {
  std::vector<uint64_t> fps;
  fps.reserve(records_.size());
  records_.ForEach([&](uint64_t fp, const UrlRecord&) { fps.push_back(fp); });
  return fps;
}

const std::vector<uint64_t>& FrontierStore::HostFingerprints(uint32_t id) const {
  if (!host_members_built_) {
    host_members_.assign(hosts_.size(), {});
    records_.ForEach(
        [&](uint64_t fp, const UrlRecord& record) { host_members_[record.host].push_back(fp); });
    host_members_built_ = true;
  }
  if (id >= host_members_.size()) host_members_.resize(id + 1);
  std::vector<uint64_t>& fps = host_members_[id];
  std::sort(fps.begin(), fps.end());
  fps.erase(std::unique(fps.begin(), fps.end()), fps.end());
  std::erase_if(fps, [&](uint64_t fp) {
    const UrlRecord* record = Find(fp);
    return record == nullptr || record->host != id;
  });
  return fps;
}

// ---------------------------------------------------------------------------------------------
// Derived structures.

void FrontierStore::Index(uint64_t fp, const UrlRecord& record) {
  ++state_counts_[static_cast<int>(record.state)];
  if (record.state == UrlState::kQueued) {
    hosts_[record.host].queue.insert(KeyOf(fp, record));
    Place(record.host);
  } else if (HasTimer(record.state)) {
    timers_.insert({record.due, fp});
  }
}

void FrontierStore::Unindex(uint64_t fp, const UrlRecord& record) {
  --state_counts_[static_cast<int>(record.state)];
  if (record.state == UrlState::kQueued) {
    hosts_[record.host].queue.erase(KeyOf(fp, record));
    Place(record.host);
  } else if (HasTimer(record.state)) {
    timers_.erase({record.due, fp});
  }
}

void FrontierStore::Place(uint32_t id) {
  Host& host = hosts_[id];
  Host::Place target = Host::Place::kNone;
  double wake = WakeOf(host);
  if (!host.queue.empty()) {
    target = wake <= promoted_until_ ? Host::Place::kReady : Host::Place::kWaiting;
  }
  if (target == host.place) {
    if (target == Host::Place::kNone) return;
    if (target == Host::Place::kReady && host.ready_key == *host.queue.begin()) return;
    if (target == Host::Place::kWaiting && host.wake == wake) return;
  }
  if (host.place == Host::Place::kReady) ready_.erase({host.ready_key, id});
  if (host.place == Host::Place::kWaiting) waiting_.erase({host.wake, id});
  host.place = target;
  if (target == Host::Place::kReady) {
    host.ready_key = *host.queue.begin();
    ready_.insert({host.ready_key, id});
  } else if (target == Host::Place::kWaiting) {
    host.wake = wake;
    waiting_.insert({wake, id});
  }
}

void FrontierStore::Promote(double now) {
  promoted_until_ = now;
  while (!waiting_.empty() && waiting_.begin()->first <= now) {
    uint32_t id = waiting_.begin()->second;
    waiting_.erase(waiting_.begin());
    Host& host = hosts_[id];
    host.place = Host::Place::kReady;
    host.ready_key = *host.queue.begin();
    ready_.insert({host.ready_key, id});
  }
}

void FrontierStore::SetRecord(uint64_t fp, const UrlRecord* next) {
  if (UrlRecord* current = records_.Find(fp)) {
    UrlRecord old = *current;
    if (!loading_) Unindex(fp, old);
    if (next == nullptr) {
      --hosts_[old.host].size;
      records_.Erase(fp);
      return;
    }
    *current = *next;
  } else {
    if (next == nullptr) return;
    records_.Insert(fp, *next);
    ++hosts_[next->host].size;
    if (host_members_built_) {
      if (next->host >= host_members_.size()) host_members_.resize(next->host + 1);
      host_members_[next->host].push_back(fp);
    }
  }
  if (!loading_) Index(fp, *next);
}

// ---------------------------------------------------------------------------------------------
// Changes with undo.

void FrontierStore::Mutate(uint64_t fp, const UrlRecord* next) {
  UndoEntry entry;
  entry.kind = UndoEntry::Kind::kUrl;
  entry.fp = fp;
  if (const UrlRecord* old = Find(fp)) {
    entry.existed = true;
    entry.record = *old;
  }
  undo_.push_back(entry);
  SetRecord(fp, next);
}

void FrontierStore::MutateHost(uint32_t id, const HostSettings& settings) {
  UndoEntry entry;
  entry.kind = UndoEntry::Kind::kHostSettings;
  entry.host = id;
  entry.settings = hosts_[id].settings;
  undo_.push_back(entry);
  hosts_[id].settings = settings;
  Place(id);
}

void FrontierStore::PushHostCreated(uint32_t id) {
  UndoEntry entry;
  entry.kind = UndoEntry::Kind::kHostCreated;
  entry.host = id;
  undo_.push_back(entry);
}

uint32_t FrontierStore::CreateHost(std::string_view name) {
  uint32_t id = static_cast<uint32_t>(hosts_.size());
  hosts_.emplace_back();
  hosts_.back().name = std::string(name);
  host_ids_.emplace(hosts_.back().name, id);
  return id;
}

FrontierStore::AddResult FrontierStore::Add(uint64_t fp, int64_t url_id, std::string_view host_name,
                                            uint32_t depth, int32_t priority) {
  if (records_.Contains(fp)) return AddResult::kKnown;
  if (policy_.max_depth > 0 && depth > policy_.max_depth) return AddResult::kDepthLimit;
  std::optional<uint32_t> host = FindHost(host_name);
  int64_t budget = host.has_value() ? BudgetOf(hosts_[*host]) : policy_.host_budget;
  size_t members = host.has_value() ? hosts_[*host].size : 0;
  if (budget > 0 && members >= static_cast<size_t>(budget)) return AddResult::kHostBudget;
  if (!host.has_value()) {
    host = CreateHost(host_name);
    PushHostCreated(*host);
  }
  UrlRecord record;
  record.url_id = url_id;
  record.host = *host;
  record.depth = static_cast<uint16_t>(std::min<uint32_t>(depth, UINT16_MAX));
  record.priority = priority;
  Mutate(fp, &record);
  return AddResult::kAdded;
}

void FrontierStore::Expire(double now) {
  while (!timers_.empty() && timers_.begin()->first <= now) {
    uint64_t fp = timers_.begin()->second;
    UrlRecord record = *records_.Find(fp);
    if (record.state == UrlState::kRecrawl) record.attempts = 0;
    record.state = UrlState::kQueued;
    record.due = 0;
    Mutate(fp, &record);
  }
}

std::vector<FrontierStore::Leased> FrontierStore::Lease(size_t n, double lease_s, double now) {
  Expire(now);
  Promote(now);
  std::vector<Leased> leased;
  while (leased.size() < n && !ready_.empty()) {
    auto [key, id] = *ready_.begin();
    Host& host = hosts_[id];
    double wake = WakeOf(host);
    if (wake > now) {  // the clock went back since the host was made ready
      ready_.erase(ready_.begin());
      host.place = Host::Place::kWaiting;
      host.wake = wake;
      waiting_.insert({wake, id});
      continue;
    }
    HostSettings settings = host.settings;
    settings.next_allowed = AfterDelay(now, DelayOf(host));
    MutateHost(id, settings);
    UrlRecord record = *records_.Find(key.fp);
    record.state = UrlState::kLeased;
    record.due = now + lease_s;
    Mutate(key.fp, &record);
    leased.push_back({key.fp, record.depth, record.due});
  }
  return leased;
}

FrontierStore::ConfirmResult FrontierStore::Confirm(uint64_t fp, int32_t status, double recrawl_s,
                                                    double now) {
  Expire(now);
  const UrlRecord* found = Find(fp);
  if (found == nullptr || found->state != UrlState::kLeased) return ConfirmResult::kNotLeased;
  UrlRecord record = *found;
  record.status = status;
  record.last_fetch = now;
  ConfirmResult result;
  if (IsFailureStatus(status)) {
    record.attempts = static_cast<uint8_t>(std::min(255, record.attempts + 1));
    if (record.attempts >= policy_.max_attempts) {
      record.state = UrlState::kFailed;
      record.due = 0;
      result = ConfirmResult::kFailed;
    } else {
      record.state = UrlState::kWaiting;
      record.due = now + std::ldexp(policy_.retry_base_s, record.attempts - 1);
      result = ConfirmResult::kRetry;
    }
  } else {
    record.attempts = 0;
    record.state = recrawl_s > 0 ? UrlState::kRecrawl : UrlState::kDone;
    record.due = recrawl_s > 0 ? now + recrawl_s : 0;
    result = ConfirmResult::kDone;
  }
  Mutate(fp, &record);
  return result;
}

void FrontierStore::SetHost(std::string_view name, double delay_s, std::optional<int64_t> budget,
                            std::optional<double> blocked_until) {
  std::optional<uint32_t> id = FindHost(name);
  if (!id.has_value()) {
    id = CreateHost(name);
    PushHostCreated(*id);
  }
  HostSettings settings = hosts_[*id].settings;
  auto effective = [&](double delay) { return delay < 0 ? policy_.host_delay_s : delay; };
  const double old_delay = effective(settings.delay_s);
  settings.delay_s = delay_s < 0 ? -1 : delay_s;
  // The next lease follows the new delay, counted from the host's last lease.
  if (settings.next_allowed > 0) settings.next_allowed += effective(settings.delay_s) - old_delay;
  if (budget.has_value()) settings.budget = *budget < 0 ? -1 : *budget;
  if (blocked_until.has_value()) settings.blocked_until = *blocked_until;
  MutateHost(*id, settings);
}

bool FrontierStore::Delete(uint64_t fp) {
  if (!records_.Contains(fp)) return false;
  Mutate(fp, nullptr);
  return true;
}

bool FrontierStore::SetPriority(uint64_t fp, int32_t priority) {
  const UrlRecord* found = Find(fp);
  if (found == nullptr) return false;
  UrlRecord record = *found;
  record.priority = priority;
  Mutate(fp, &record);
  return true;
}

void FrontierStore::UndoTo(size_t mark) {
  while (undo_.size() > mark) {
    UndoEntry entry = std::move(undo_.back());
    undo_.pop_back();
    switch (entry.kind) {
      case UndoEntry::Kind::kUrl:
        SetRecord(entry.fp, entry.existed ? &entry.record : nullptr);
        break;
      case UndoEntry::Kind::kHostSettings:
        hosts_[entry.host].settings = entry.settings;
        Place(entry.host);
        break;
      case UndoEntry::Kind::kHostCreated:
        // Undone in reverse order: the host is the last one and holds nothing any more.
        host_ids_.erase(hosts_.back().name);
        hosts_.pop_back();
        break;
    }
  }
}

void FrontierStore::ClearUndo() {
  undo_.clear();
  if (undo_.capacity() > 4096) undo_.shrink_to_fit();
}

// ---------------------------------------------------------------------------------------------
// Change sets.

ChangeSet FrontierStore::ChangesSince(size_t mark) const {
  ChangeSet changes;
  absl::flat_hash_map<uint64_t, bool> existed;  // fp → whether it existed at the mark
  std::vector<uint64_t> order;
  absl::btree_set<uint32_t> hosts;
  for (size_t i = mark; i < undo_.size(); ++i) {
    const UndoEntry& entry = undo_[i];
    if (entry.kind == UndoEntry::Kind::kUrl) {
      if (existed.emplace(entry.fp, entry.existed).second) order.push_back(entry.fp);
    } else {
      hosts.insert(entry.host);
    }
  }
  for (uint32_t id : hosts) {
    if (id < hosts_.size()) changes.hosts.push_back({id, hosts_[id].name, hosts_[id].settings});
  }
  for (uint64_t fp : order) {
    const UrlRecord* record = Find(fp);
    bool was = existed[fp];
    if (record == nullptr) {
      if (was) changes.urls.push_back({fp, UrlChangeKind::kDelete, {}, {}});
      continue;
    }
    changes.urls.push_back({fp, was ? UrlChangeKind::kUpdate : UrlChangeKind::kNew, *record, {}});
  }
  return changes;
}

void FrontierStore::PartSnapshot(size_t part, ChangeSet* changes) const {
  changes->hosts.clear();
  changes->urls.clear();
  records_.part(part).ForEach([&](uint64_t fp, const UrlRecord& record) {
    changes->urls.push_back({fp, UrlChangeKind::kNew, record, {}});
  });
}

ChangeSet FrontierStore::HostsSnapshot() const {
  ChangeSet changes;
  changes.hosts.reserve(hosts_.size());
  for (uint32_t id = 0; id < hosts_.size(); ++id) {
    changes.hosts.push_back({id, hosts_[id].name, hosts_[id].settings});
  }
  return changes;
}

absl::Status FrontierStore::Apply(const ChangeSet& changes) {
  for (const HostChange& change : changes.hosts) {
    if (change.id < hosts_.size()) {
      if (hosts_[change.id].name != change.name) {
        return absl::DataLossError(
            absl::StrCat("frontier change set: host ", change.id, " changes its name"));
      }
    } else if (change.id == hosts_.size() &&
               !host_ids_.contains(absl::string_view(change.name.data(), change.name.size()))) {
      CreateHost(change.name);
    } else {
      return absl::DataLossError(absl::StrCat("frontier change set: host ", change.id,
                                              " is out of sequence or a duplicate"));
    }
    hosts_[change.id].settings = change.settings;
    Place(change.id);
  }
  for (const UrlChange& change : changes.urls) {
    const UrlRecord* current = Find(change.fp);
    if (change.kind == UrlChangeKind::kDelete) {
      if (current == nullptr) return Inconsistent("deletes an unknown URL", change.fp);
      SetRecord(change.fp, nullptr);
      continue;
    }
    UrlRecord record = change.record;
    if (record.host >= hosts_.size()) return Inconsistent("names an unknown host", change.fp);
    if (change.kind == UrlChangeKind::kUpdate) {
      if (current == nullptr) return Inconsistent("updates an unknown URL", change.fp);
      if (current->host != record.host)
        return Inconsistent("moves a URL to another host", change.fp);
      record.url_id = current->url_id;
    } else if (current != nullptr) {
      return Inconsistent("adds a known URL", change.fp);
    }
    SetRecord(change.fp, &record);
  }
  return absl::OkStatus();
}

absl::Status FrontierStore::LoadPart(size_t part, const ChangeSet& records) {
  if (!loading_) return absl::InternalError("frontier: a snapshot part loaded outside a load");
  if (!records.hosts.empty())
    return absl::DataLossError("frontier change set: a snapshot part holds hosts");
  records_.Reserve(part, records_.part(part).size() + records.urls.size());
  for (const UrlChange& change : records.urls) {
    if (change.kind != UrlChangeKind::kNew)
      return Inconsistent("a snapshot part holds a change", change.fp);
    if (RecordPartOf(change.fp) != part)
      return Inconsistent("a snapshot part holds another part's URL", change.fp);
    if (change.record.host >= hosts_.size()) {
      return Inconsistent("names an unknown host", change.fp);
    }
    if (!records_.Insert(change.fp, change.record)) {
      return Inconsistent("adds a known URL", change.fp);
    }
    ++hosts_[change.record.host].size;
  }
  return absl::OkStatus();
}

void FrontierStore::FinishLoad() {
  if (!loading_) return;
  loading_ = false;
  // The queued records' keys sorted by host (a counting sort: `starts` are the hosts' first
  // places), then each host's run by key.
  std::vector<size_t> starts(hosts_.size() + 1, 0);
  std::vector<std::pair<double, uint64_t>> timers;
  records_.ForEach([&](uint64_t fp, const UrlRecord& record) {
    ++state_counts_[static_cast<int>(record.state)];
    if (record.state == UrlState::kQueued) {
      ++starts[record.host + 1];
    } else if (HasTimer(record.state)) {
      timers.push_back({record.due, fp});
    }
  });
  for (size_t id = 0; id < hosts_.size(); ++id) starts[id + 1] += starts[id];
  std::vector<QueueKey> keys(starts.back());
  std::vector<size_t> next(starts.begin(), starts.end() - 1);
  records_.ForEach([&](uint64_t fp, const UrlRecord& record) {
    if (record.state == UrlState::kQueued) keys[next[record.host]++] = KeyOf(fp, record);
  });
  std::vector<ReadyEntry> ready;
  std::vector<std::pair<double, uint32_t>> waiting;
  for (uint32_t id = 0; id < hosts_.size(); ++id) {
    auto first = keys.begin() + static_cast<ptrdiff_t>(starts[id]);
    auto last = keys.begin() + static_cast<ptrdiff_t>(starts[id + 1]);
    if (first == last) continue;
    std::sort(first, last);
    Host& host = hosts_[id];
    host.queue.insert(first, last);
    // As Place() would put it.
    const double wake = WakeOf(host);
    if (wake <= promoted_until_) {
      host.place = Host::Place::kReady;
      host.ready_key = *first;
      ready.push_back({host.ready_key, id});
    } else {
      host.place = Host::Place::kWaiting;
      host.wake = wake;
      waiting.push_back({wake, id});
    }
  }
  std::sort(timers.begin(), timers.end());
  timers_.insert(timers.begin(), timers.end());
  std::sort(ready.begin(), ready.end());
  ready_.insert(ready.begin(), ready.end());
  std::sort(waiting.begin(), waiting.end());
  waiting_.insert(waiting.begin(), waiting.end());
}

void FrontierStore::RenumberUrlIds(absl::Span<const int64_t> old_to_new) {
  records_.ForEach([&](uint64_t, UrlRecord& record) {
    const bool known = record.url_id > 0 && static_cast<size_t>(record.url_id) < old_to_new.size();
    record.url_id = known ? old_to_new[static_cast<size_t>(record.url_id)] : kNoUrlId;
  });
}

// ---------------------------------------------------------------------------------------------

void FrontierStore::Check(std::vector<std::string>* problems) const {
  auto problem = [&](std::string what) { problems->push_back(std::move(what)); };
  size_t counts[kUrlStateCount] = {};
  size_t queued = 0;
  std::vector<size_t> sizes(hosts_.size(), 0);
  records_.ForEach([&](uint64_t fp, const UrlRecord& record) {
    ++counts[static_cast<int>(record.state)];
    const int64_t sql_fp = identity::FingerprintToSql(fp);
    if (record.host >= hosts_.size()) {
      problem(absl::StrCat("URL ", sql_fp, " names host ", record.host, " which does not exist"));
      return;
    }
    const Host& host = hosts_[record.host];
    ++sizes[record.host];
    bool in_queue = host.queue.contains(KeyOf(fp, record));
    bool in_timers = timers_.contains({record.due, fp});
    if (in_queue != (record.state == UrlState::kQueued)) {
      problem(absl::StrCat("URL ", sql_fp, " (", Name(record.state),
                           ") is wrongly in or out of its host queue"));
    }
    if (in_timers != HasTimer(record.state)) {
      problem(absl::StrCat("URL ", sql_fp, " (", Name(record.state),
                           ") is wrongly in or out of the timer set"));
    }
  });
  for (int state = 0; state < kUrlStateCount; ++state) {
    if (counts[state] != state_counts_[state]) {
      problem(absl::StrCat("state ", state, " counts ", state_counts_[state], " URLs, holds ",
                           counts[state]));
    }
  }
  for (uint32_t id = 0; id < hosts_.size(); ++id) {
    const Host& host = hosts_[id];
    queued += host.queue.size();
    if (host.size != sizes[id]) {
      problem(absl::StrCat("host ", host.name, " counts ", host.size, " URLs, holds ", sizes[id]));
    }
    if (host_members_built_ && id < host_members_.size()) {
      // Its list holds each of its records: as many distinct fingerprints of them as it has.
      std::vector<uint64_t> fps = host_members_[id];
      std::sort(fps.begin(), fps.end());
      fps.erase(std::unique(fps.begin(), fps.end()), fps.end());
      const size_t listed =
          static_cast<size_t>(std::count_if(fps.begin(), fps.end(), [&](uint64_t fp) {
            const UrlRecord* record = Find(fp);
            return record != nullptr && record->host == id;
          }));
      if (listed != host.size)
        problem(absl::StrCat("host ", host.name, " lists ", listed, " of its URLs"));
    } else if (host_members_built_ && host.size > 0) {
      problem(absl::StrCat("host ", host.name, " has no list of its URLs"));
    }
    auto found = host_ids_.find(host.name);
    if (found == host_ids_.end() || found->second != id) {
      problem(absl::StrCat("host ", host.name, " is not indexed by name"));
    }
    Host::Place expected = host.queue.empty() ? Host::Place::kNone : host.place;
    if (host.place != expected)
      problem(absl::StrCat("host ", host.name, " is placed without a queue"));
    if (!host.queue.empty()) {
      if (host.place == Host::Place::kNone)
        problem(absl::StrCat("host ", host.name, " is not placed"));
      if (host.place == Host::Place::kReady &&
          (host.ready_key != *host.queue.begin() || !ready_.contains({host.ready_key, id}))) {
        problem(absl::StrCat("host ", host.name, " sits in the ready set under a stale key"));
      }
      if (host.place == Host::Place::kWaiting &&
          (host.wake != WakeOf(host) || !waiting_.contains({host.wake, id}))) {
        problem(absl::StrCat("host ", host.name, " waits under a stale time"));
      }
    }
  }
  if (queued != state_counts_[static_cast<int>(UrlState::kQueued)]) {
    problem("host queues do not add up to the queued URLs");
  }
  size_t timed = state_counts_[static_cast<int>(UrlState::kWaiting)] +
                 state_counts_[static_cast<int>(UrlState::kLeased)] +
                 state_counts_[static_cast<int>(UrlState::kRecrawl)];
  if (timers_.size() != timed) problem("the timer set holds URLs of other states");
  size_t placed = 0;
  for (const Host& host : hosts_) placed += host.place != Host::Place::kNone ? 1 : 0;
  if (ready_.size() + waiting_.size() != placed)
    problem("the ready and waiting sets hold unplaced hosts");
  if (host_ids_.size() != hosts_.size()) problem("the host name index has stray names");
}

size_t FrontierStore::MemoryBytes() const {
  size_t bytes = records_.MemoryBytes() + hosts_.capacity() * sizeof(Host) + timers_.size() * 16 +
                 undo_.capacity() * sizeof(UndoEntry);
  for (const Host& host : hosts_) {
    bytes += host.name.capacity() + host.queue.size() * sizeof(QueueKey);
  }
  bytes += host_members_.capacity() * sizeof(std::vector<uint64_t>);
  for (const std::vector<uint64_t>& fps : host_members_) bytes += fps.capacity() * sizeof(uint64_t);
  return bytes;
}

}  // namespace crawldb::frontier
