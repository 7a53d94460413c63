#include "extension/frontier/frontier_store.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/containers/radix_sort.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {
namespace {

absl::Status Inconsistent(absl::string_view what, uint64_t fp) {
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

void SortByHostAndKey(std::vector<std::pair<uint32_t, QueueKey>>* keys) {
  // Least significant field first, each pass stable (std::sort of the pairs costs as much as
  // the btree inserts it saves).
  using Keyed = std::pair<uint32_t, QueueKey>;
  RadixSortBy(keys, [](const Keyed& entry) { return entry.second.fp; });
  RadixSortBy(keys, [](const Keyed& entry) {
    // The sign bit flipped: negative priorities sort below positive ones.
    const uint32_t priority = static_cast<uint32_t>(entry.second.priority) ^ 0x8000'0000u;
    return (uint64_t{entry.second.depth} << 32) | priority;
  });
  RadixSortBy(keys, [](const Keyed& entry) { return uint64_t{entry.first}; });
}

std::string DescribeSummary(const HostSummary& summary) {
  const QueueKey& best = summary.best;
  return absl::StrCat(summary.size, " URLs, ", summary.queued, " queued (best depth ", best.depth,
                      " priority ", best.priority, " fp ", identity::FingerprintToSql(best.fp),
                      "), ", summary.timed, " timed (first due ", summary.first_due, ")");
}

absl::string_view StateName(UrlState state) {
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

FrontierStore::FrontierStore(FrontierPolicy policy, FrontierPartSource* source)
    : policy_(policy), source_(source), parts_(kFrontierParts) {
  if (source_ == nullptr) {
    for (Part& part : parts_) part.held = true;
    held_clean_parts_ = parts_.size();
  }
}

void FrontierStore::set_cache_bytes(size_t bytes) {
  cache_bytes_ = bytes;
  Evict(kFrontierParts);
}

size_t FrontierStore::size() const {
  uint64_t total = 0;
  for (uint64_t count : state_counts_) total += count;
  return static_cast<size_t>(total);
}

std::optional<uint32_t> FrontierStore::FindHost(absl::string_view name) const {
  auto it = host_ids_.find(absl::string_view(name.data(), name.size()));
  if (it == host_ids_.end()) return std::nullopt;
  return it->second;
}

absl::string_view FrontierStore::DomainOf(uint32_t id) const {
  const Host& host = hosts_[id];
  if (host.domain_offset < 0) {
    host.domain_offset =
        static_cast<int32_t>(host.name.size() - identity::RegistrableDomain(host.name).size());
  }
  return absl::string_view(host.name).substr(static_cast<size_t>(host.domain_offset));
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
    if (host.summary.queued > 0 && WakeOf(host) > now) ++count;
  }
  return count;
}

size_t FrontierStore::held_parts() const {
  return static_cast<size_t>(
      std::count_if(parts_.begin(), parts_.end(), [](const Part& part) { return part.held; }));
}

// ---------------------------------------------------------------------------------------------
// Paging.

absl::Status FrontierStore::Damaged(std::string what) const {
  absl::Status cause = absl::DataLossError(what);
  return source_ != nullptr ? source_->Refuse(cause) : cause;
}

absl::Status FrontierStore::Hold(size_t part) {
  Part& held = parts_[part];
  held.used = ++tick_;
  if (held.held) return absl::OkStatus();
  if (absl::Status status = ReadPart(part); !status.ok()) {
    Drop(part);
    return status;
  }
  return absl::OkStatus();
}

absl::Status FrontierStore::ReadPart(size_t part) {
  Part& read = parts_[part];
  read.held = true;  // ApplyToPart fills it
  ++held_clean_parts_;
  ++parts_read_;
  read.records = SlotHashMap<UrlRecord>();
  absl::Status status =
      source_->ReadPart(part, [&](const ChangeSet& changes) { return ApplyToPart(part, changes); });
  if (!status.ok()) return status;
  if (status = JoinUnread(part); !status.ok()) return status;
  // The hosts' queues and timers, then their agreement with the summaries.
  for (uint32_t id : read.hosts) {
    hosts_[id].queue.clear();
    hosts_[id].timers.clear();
  }
  // The queued keys are gathered and sorted first: a btree filled in order appends at its end,
  // where inserts in hash order each search and shift a node (bench/scale.sh's leases).
  std::vector<std::pair<uint32_t, QueueKey>> queued;
  queued.reserve(read.records.size());
  read.records.ForEach([&](uint64_t fp, const UrlRecord& record) {
    if (record.state == UrlState::kQueued) {
      queued.emplace_back(record.host, KeyOf(fp, record));
    } else if (HasTimer(record.state)) {
      hosts_[record.host].timers.insert({record.due, fp});
    }
  });
  SortByHostAndKey(&queued);
  for (const auto& [host, key] : queued) {
    absl::btree_set<QueueKey>& queue = hosts_[host].queue;
    queue.insert(queue.end(), key);
  }
  std::vector<HostSummary> derived = Derive(part);
  for (size_t i = 0; i < read.hosts.size(); ++i) {
    const Host& host = hosts_[read.hosts[i]];
    if (derived[i] != host.summary) {
      return Damaged(absl::StrCat("frontier part ", part, ": host ", host.name, " holds ",
                                  DescribeSummary(derived[i]), " where its summary says ",
                                  DescribeSummary(host.summary)));
    }
  }
  read.bytes = PartBytes(part);
  held_bytes_ += read.bytes;
  if (read.unread != nullptr) {  // joined the part, which now holds uncommitted changes
    if (read.unread->size() > 0) MarkDirty(part);
    read.unread.reset();
  }
  Evict(part);
  return absl::OkStatus();
}

absl::Status FrontierStore::CheckChange(size_t part, const UrlChange& change,
                                        const UrlRecord* current) const {
  if (change.kind == UrlChangeKind::kDelete) {
    return current == nullptr ? Inconsistent("deletes an unknown URL", change.fp)
                              : absl::OkStatus();
  }
  const UrlRecord& record = change.record;
  if (record.host >= hosts_.size()) return Inconsistent("names an unknown host", change.fp);
  if (hosts_[record.host].part != part) {
    return Inconsistent(absl::StrCat("lies in part ", part, ", not its host's"), change.fp);
  }
  if (change.kind == UrlChangeKind::kNew) {
    return current != nullptr ? Inconsistent("adds a known URL", change.fp) : absl::OkStatus();
  }
  if (current == nullptr) return Inconsistent("updates an unknown URL", change.fp);
  if (current->host != record.host) return Inconsistent("moves a URL to another host", change.fp);
  return absl::OkStatus();
}

absl::Status FrontierStore::ApplyToPart(size_t part, const ChangeSet& changes) {
  if (!changes.hosts.empty() || !changes.parts.empty() || changes.counts.has_value()) {
    return absl::DataLossError(
        absl::StrCat("frontier part ", part, ": a stored change set holds hosts or counts"));
  }
  SlotHashMap<UrlRecord>& records = parts_[part].records;
  // Room for the new records at once: a snapshot is all new records, and growing the map one
  // record at a time cost more than the rest of applying them.
  size_t added = 0;
  for (const UrlChange& change : changes.urls) added += change.kind == UrlChangeKind::kNew;
  records.Reserve(records.size() + added);
  for (const UrlChange& change : changes.urls) {
    UrlRecord* current = records.Find(change.fp);
    if (absl::Status status = CheckChange(part, change, current); !status.ok()) return status;
    if (change.kind == UrlChangeKind::kDelete) {
      records.Erase(change.fp);
    } else if (change.kind == UrlChangeKind::kUpdate) {
      const int64_t url_id = current->url_id;
      *current = change.record;
      current->url_id = url_id;
    } else {
      records.Insert(change.fp, change.record);
    }
  }
  return absl::OkStatus();
}

std::vector<HostSummary> FrontierStore::Derive(size_t part) const {
  const Part& held = parts_[part];
  std::vector<HostSummary> derived(held.hosts.size());
  for (size_t i = 0; i < held.hosts.size(); ++i) {
    const Host& host = hosts_[held.hosts[i]];
    HostSummary& summary = derived[i];
    summary.queued = host.queue.size();
    if (!host.queue.empty()) summary.best = *host.queue.begin();
    summary.timed = host.timers.size();
    if (!host.timers.empty()) summary.first_due = host.timers.begin()->first;
  }
  absl::flat_hash_map<uint32_t, size_t> index;
  for (size_t i = 0; i < held.hosts.size(); ++i) index[held.hosts[i]] = i;
  held.records.ForEach([&](uint64_t, const UrlRecord& record) {
    auto it = index.find(record.host);
    if (it != index.end()) ++derived[it->second].size;
  });
  return derived;
}

void FrontierStore::Drop(size_t part) {
  Part& dropped = parts_[part];
  if (source_ == nullptr) return;
  for (uint32_t id : dropped.hosts) {
    absl::btree_set<QueueKey>().swap(hosts_[id].queue);
    absl::btree_set<std::pair<double, uint64_t>>().swap(hosts_[id].timers);
  }
  dropped.records = SlotHashMap<UrlRecord>();
  if (dropped.held) held_bytes_ -= dropped.bytes;
  if (dropped.held && !dropped.dirty) --held_clean_parts_;
  dropped.held = false;
  dropped.dirty = false;
  dropped.bytes = 0;
}

void FrontierStore::Evict(size_t keep) {
  if (source_ == nullptr) return;
  // Once every held part has uncommitted changes (a long writing transaction), there is nothing
  // to evict: return without looking at the 4,096 parts.
  const bool keep_clean = keep < parts_.size() && parts_[keep].held && !parts_[keep].dirty;
  while (held_bytes_ > cache_bytes_ && held_clean_parts_ > (keep_clean ? 1u : 0u)) {
    size_t oldest = kFrontierParts;
    for (size_t i = 0; i < parts_.size(); ++i) {
      const Part& part = parts_[i];
      if (!part.held || part.dirty || i == keep) continue;
      if (oldest == kFrontierParts || part.used < parts_[oldest].used) oldest = i;
    }
    if (oldest == kFrontierParts) return;
    Drop(oldest);
  }
}

size_t FrontierStore::PartBytes(size_t part) const {
  const Part& held = parts_[part];
  // B-tree entries take about 1.5 times their size (nodes are 2/3 full).
  size_t bytes = held.records.MemoryBytes();
  for (uint32_t id : held.hosts) {
    bytes += (hosts_[id].queue.size() * sizeof(QueueKey) + hosts_[id].timers.size() * 16) * 3 / 2;
  }
  return bytes;
}

void FrontierStore::ForgetPart(size_t part) {
  if (source_ == nullptr || !parts_[part].held) return;
  Drop(part);
}

absl::StatusOr<const UrlRecord*> FrontierStore::Find(size_t part, uint64_t fp) {
  if (const UrlRecord* unread = FindUnread(part, fp)) return unread;
  if (absl::Status status = Hold(part); !status.ok()) return status;
  return parts_[part].records.Find(fp);
}

absl::StatusOr<std::optional<size_t>> FrontierStore::Locate(uint64_t fp) {
  for (size_t part = 0; part < parts_.size(); ++part) {
    if (parts_[part].held ? parts_[part].records.Contains(fp) : FindUnread(part, fp) != nullptr) {
      return part;
    }
  }
  for (size_t part = 0; part < parts_.size(); ++part) {
    if (parts_[part].held || parts_[part].hosts.empty()) continue;
    if (absl::Status status = Hold(part); !status.ok()) return status;
    if (parts_[part].records.Contains(fp)) return part;
  }
  return std::nullopt;
}

absl::Status FrontierStore::ForEachInPart(
    size_t part, const std::function<void(uint64_t, const UrlRecord&)>& visit) {
  if (absl::Status status = Hold(part); !status.ok()) return status;
  parts_[part].records.ForEach(visit);
  return absl::OkStatus();
}

absl::StatusOr<std::vector<uint64_t>> FrontierStore::HostFingerprints(uint32_t id) {
  std::vector<uint64_t> fps;
  absl::Status status = ForEachInPart(hosts_[id].part, [&](uint64_t fp, const UrlRecord& record) {
    if (record.host == id) fps.push_back(fp);
  });
  if (!status.ok()) return status;
  std::sort(fps.begin(), fps.end());
  return fps;
}

// ---------------------------------------------------------------------------------------------
// Derived structures.

void FrontierStore::Index(uint64_t fp, const UrlRecord& record) {
  ++state_counts_[static_cast<int>(record.state)];
  Host& host = hosts_[record.host];
  if (record.state == UrlState::kQueued) {
    host.queue.insert(KeyOf(fp, record));
  } else if (HasTimer(record.state)) {
    host.timers.insert({record.due, fp});
  }
}

void FrontierStore::Unindex(uint64_t fp, const UrlRecord& record) {
  --state_counts_[static_cast<int>(record.state)];
  Host& host = hosts_[record.host];
  if (record.state == UrlState::kQueued) {
    host.queue.erase(KeyOf(fp, record));
  } else if (HasTimer(record.state)) {
    host.timers.erase({record.due, fp});
  }
}

void FrontierStore::Summarize(uint32_t id) {
  Host& host = hosts_[id];
  HostSummary& summary = host.summary;
  summary.queued = host.queue.size();
  summary.best = host.queue.empty() ? QueueKey{} : *host.queue.begin();
  summary.timed = host.timers.size();
  summary.first_due = host.timers.empty() ? 0 : host.timers.begin()->first;
  Place(id);
  ListTimed(id);
}

void FrontierStore::Place(uint32_t id) {
  Host& host = hosts_[id];
  Host::Place target = Host::Place::kNone;
  double wake = WakeOf(host);
  if (host.summary.queued > 0) {
    target = wake <= promoted_until_ ? Host::Place::kReady : Host::Place::kWaiting;
  }
  if (target == host.place) {
    if (target == Host::Place::kNone) return;
    if (target == Host::Place::kReady && host.ready_key == host.summary.best) return;
    if (target == Host::Place::kWaiting && host.wake == wake) return;
  }
  if (host.place == Host::Place::kReady) ready_.erase({host.ready_key, id});
  if (host.place == Host::Place::kWaiting) waiting_.erase({host.wake, id});
  host.place = target;
  if (target == Host::Place::kReady) {
    host.ready_key = host.summary.best;
    ready_.insert({host.ready_key, id});
  } else if (target == Host::Place::kWaiting) {
    host.wake = wake;
    waiting_.insert({wake, id});
  }
}

void FrontierStore::ListTimed(uint32_t id) {
  Host& host = hosts_[id];
  const bool listed = host.summary.timed > 0;
  if (listed == host.timed_listed && (!listed || host.timed_key == host.summary.first_due)) return;
  if (host.timed_listed) timed_hosts_.erase({host.timed_key, id});
  host.timed_listed = listed;
  host.timed_key = host.summary.first_due;
  if (listed) timed_hosts_.insert({host.timed_key, id});
}

void FrontierStore::Promote(double now) {
  promoted_until_ = now;
  while (!waiting_.empty() && waiting_.begin()->first <= now) {
    uint32_t id = waiting_.begin()->second;
    waiting_.erase(waiting_.begin());
    Host& host = hosts_[id];
    host.place = Host::Place::kReady;
    host.ready_key = host.summary.best;
    ready_.insert({host.ready_key, id});
  }
}

void FrontierStore::SetRecord(size_t part, uint64_t fp, const UrlRecord* next) {
  SlotHashMap<UrlRecord>& records = parts_[part].records;
  uint32_t host;
  if (UrlRecord* current = records.Find(fp)) {
    host = current->host;
    Unindex(fp, *current);
    if (next == nullptr) {
      --hosts_[host].summary.size;
      records.Erase(fp);
      Summarize(host);
      return;
    }
    *current = *next;
  } else {
    if (next == nullptr) return;
    host = next->host;
    records.Insert(fp, *next);
    ++hosts_[host].summary.size;
  }
  Index(fp, *next);
  Summarize(host);
}

// ---------------------------------------------------------------------------------------------
// Changes with undo.

void FrontierStore::Mutate(size_t part, uint64_t fp, const UrlRecord* next) {
  UndoEntry entry;
  entry.kind = UndoEntry::Kind::kUrl;
  entry.part = static_cast<uint32_t>(part);
  entry.fp = fp;
  if (const UrlRecord* old = parts_[part].records.Find(fp)) {
    entry.existed = true;
    entry.before = *old;
  }
  undo_.push_back(entry);
  MarkDirty(part);
  SetRecord(part, fp, next);
}

void FrontierStore::MarkDirty(size_t part) {
  if (parts_[part].dirty) return;
  parts_[part].dirty = true;
  --held_clean_parts_;
  dirty_parts_.push_back(static_cast<uint32_t>(part));
}

void FrontierStore::MutateHost(uint32_t id, const HostSettings& settings) {
  UndoEntry entry;
  entry.kind = UndoEntry::Kind::kHostSettings;
  entry.host = id;
  entry.before = hosts_[id].settings;
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

uint32_t FrontierStore::CreateHost(absl::string_view name) {
  uint32_t id = static_cast<uint32_t>(hosts_.size());
  hosts_.emplace_back();
  Host& host = hosts_.back();
  host.name = std::string(name);
  host.part = static_cast<uint32_t>(FrontierPartOf(name));
  host_ids_.emplace(host.name, id);
  parts_[host.part].hosts.push_back(id);
  return id;
}

absl::StatusOr<FrontierStore::AddResult> FrontierStore::Add(uint64_t fp, int64_t url_id,
                                                            absl::string_view host_name,
                                                            uint32_t depth, int32_t priority,
                                                            bool new_url) {
  const size_t part = FrontierPartOf(host_name);
  const bool unread = new_url && !parts_[part].held;
  if (unread) {
    if (FindUnread(part, fp) != nullptr) return AddResult::kKnown;
  } else {
    if (absl::Status status = Hold(part); !status.ok()) return status;
    if (parts_[part].records.Contains(fp)) return AddResult::kKnown;
  }
  if (policy_.max_depth > 0 && depth > policy_.max_depth) return AddResult::kDepthLimit;
  std::optional<uint32_t> host = FindHost(host_name);
  int64_t budget = host.has_value() ? BudgetOf(hosts_[*host]) : policy_.host_budget;
  uint64_t members = host.has_value() ? hosts_[*host].summary.size : 0;
  if (budget > 0 && members >= static_cast<uint64_t>(budget)) return AddResult::kHostBudget;
  if (!host.has_value()) {
    host = CreateHost(host_name);
    PushHostCreated(*host);
  }
  UrlRecord record;
  record.url_id = url_id;
  record.host = *host;
  record.depth = static_cast<uint16_t>(std::min<uint32_t>(depth, UINT16_MAX));
  record.priority = priority;
  if (unread) {
    AddUnread(part, fp, record);
  } else {
    Mutate(part, fp, &record);
  }
  return AddResult::kAdded;
}

absl::Status FrontierStore::Expire(double now) {
  while (!timed_hosts_.empty() && timed_hosts_.begin()->first <= now) {
    const uint32_t id = timed_hosts_.begin()->second;
    const size_t part = hosts_[id].part;
    if (absl::Status status = Hold(part); !status.ok()) return status;
    const Host& host = hosts_[id];
    while (!host.timers.empty() && host.timers.begin()->first <= now) {
      const uint64_t fp = host.timers.begin()->second;
      UrlRecord record = *parts_[part].records.Find(fp);
      if (record.state == UrlState::kRecrawl) record.attempts = 0;
      record.state = UrlState::kQueued;
      record.due = 0;
      Mutate(part, fp, &record);
    }
    if (host.timed_listed && host.timed_key <= now) {  // a summary its part does not bear out
      return Damaged(
          absl::StrCat("frontier: host ", host.name, " lists timers its part does not hold"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<FrontierStore::Leased>> FrontierStore::Lease(size_t n, double lease_s,
                                                                        double now) {
  if (absl::Status status = Expire(now); !status.ok()) return status;
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
    const size_t part = host.part;
    if (absl::Status status = Hold(part); !status.ok()) return status;
    const UrlRecord* best = parts_[part].records.Find(key.fp);
    if (best == nullptr || host.queue.empty() || *host.queue.begin() != key) {
      return Damaged(
          absl::StrCat("frontier: host ", host.name, " has a best URL its part does not hold"));
    }
    HostSettings settings = host.settings;
    settings.next_allowed = AfterDelay(now, DelayOf(host));
    MutateHost(id, settings);
    UrlRecord record = *best;
    record.state = UrlState::kLeased;
    record.due = now + lease_s;
    Mutate(part, key.fp, &record);
    leased.push_back(
        {key.fp, record.url_id, static_cast<uint32_t>(part), record.depth, record.due});
  }
  return leased;
}

absl::StatusOr<FrontierStore::ConfirmResult> FrontierStore::Confirm(size_t part, uint64_t fp,
                                                                    int32_t status,
                                                                    double recrawl_s, double now) {
  if (absl::Status expired = Expire(now); !expired.ok()) return expired;
  absl::StatusOr<const UrlRecord*> found = Find(part, fp);
  if (!found.ok()) return found.status();
  if (*found == nullptr || (*found)->state != UrlState::kLeased) return ConfirmResult::kNotLeased;
  UrlRecord record = **found;
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
  Mutate(part, fp, &record);
  return result;
}

void FrontierStore::SetHost(absl::string_view name, double delay_s, std::optional<int64_t> budget,
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

absl::StatusOr<bool> FrontierStore::Delete(size_t part, uint64_t fp) {
  if (absl::Status status = Hold(part); !status.ok()) return status;
  if (!parts_[part].records.Contains(fp)) return false;
  Mutate(part, fp, nullptr);
  return true;
}

absl::StatusOr<bool> FrontierStore::SetPriority(size_t part, uint64_t fp, int32_t priority) {
  if (absl::Status status = Hold(part); !status.ok()) return status;
  const UrlRecord* found = parts_[part].records.Find(fp);
  if (found == nullptr) return false;
  UrlRecord record = *found;
  record.priority = priority;
  Mutate(part, fp, &record);
  return true;
}

}  // namespace crawldb::frontier
