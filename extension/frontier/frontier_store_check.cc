// FrontierStore::Check, every invariant of the store, and MemoryBytes (frontier_store.h).
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/frontier/frontier_store.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {
namespace {

absl::string_view Name(UrlState state) {
  absl::string_view name = StateName(state);
  return {name.data(), name.size()};
}

}  // namespace

absl::Status FrontierStore::Check(std::vector<std::string>* problems) {
  auto problem = [&](std::string what) { problems->push_back(std::move(what)); };
  StateCounts counts = {};
  for (size_t part = 0; part < parts_.size(); ++part) {
    if (parts_[part].hosts.empty()) {
      if (parts_[part].held && parts_[part].records.size() > 0)
        problem(absl::StrCat("part ", part, " holds URLs of no host"));
      continue;
    }
    if (absl::Status status = Hold(part); !status.ok()) return status;
    std::vector<HostSummary> derived = Derive(part);
    const Part& held = parts_[part];
    for (size_t i = 0; i < held.hosts.size(); ++i) {
      const Host& host = hosts_[held.hosts[i]];
      if (derived[i] != host.summary) {
        problem(absl::StrCat("host ", host.name, " holds ", DescribeSummary(derived[i]),
                             " where its summary says ", DescribeSummary(host.summary)));
      }
    }
    held.records.ForEach([&](uint64_t fp, const UrlRecord& record) {
      ++counts[static_cast<int>(record.state)];
      const int64_t sql_fp = identity::FingerprintToSql(fp);
      if (record.host >= hosts_.size() || hosts_[record.host].part != part) {
        problem(absl::StrCat("URL ", sql_fp, " names host ", record.host, " of another part"));
        return;
      }
      const Host& host = hosts_[record.host];
      bool in_queue = host.queue.contains(KeyOf(fp, record));
      bool in_timers = host.timers.contains({record.due, fp});
      if (in_queue != (record.state == UrlState::kQueued)) {
        problem(absl::StrCat("URL ", sql_fp, " (", Name(record.state),
                             ") is wrongly in or out of its host queue"));
      }
      if (in_timers != HasTimer(record.state)) {
        problem(absl::StrCat("URL ", sql_fp, " (", Name(record.state),
                             ") is wrongly in or out of its host's timers"));
      }
    });
  }
  for (int state = 0; state < kUrlStateCount; ++state) {
    if (counts[state] != state_counts_[state]) {
      problem(absl::StrCat("state ", state, " counts ", state_counts_[state], " URLs, holds ",
                           counts[state]));
    }
  }
  const size_t held_clean = static_cast<size_t>(std::count_if(
      parts_.begin(), parts_.end(), [](const Part& part) { return part.held && !part.dirty; }));
  if (held_clean != held_clean_parts_) {
    problem(absl::StrCat(held_clean, " parts are held without changes; the store counts ",
                         held_clean_parts_));
  }
  size_t placed = 0, timed = 0;
  for (uint32_t id = 0; id < hosts_.size(); ++id) {
    const Host& host = hosts_[id];
    auto found = host_ids_.find(host.name);
    if (found == host_ids_.end() || found->second != id) {
      problem(absl::StrCat("host ", host.name, " is not indexed by name"));
    }
    if (host.part != FrontierPartOf(host.name)) {
      problem(absl::StrCat("host ", host.name, " sits in the wrong part"));
    }
    placed += host.place != Host::Place::kNone ? 1 : 0;
    timed += host.timed_listed ? 1 : 0;
    if ((host.place == Host::Place::kNone) != (host.summary.queued == 0)) {
      problem(absl::StrCat("host ", host.name, " is placed without queued URLs, or not placed"));
    }
    if (host.place == Host::Place::kReady &&
        (host.ready_key != host.summary.best || !ready_.contains({host.ready_key, id}))) {
      problem(absl::StrCat("host ", host.name, " sits in the ready set under a stale key"));
    }
    if (host.place == Host::Place::kWaiting &&
        (host.wake != WakeOf(host) || !waiting_.contains({host.wake, id}))) {
      problem(absl::StrCat("host ", host.name, " waits under a stale time"));
    }
    if (host.timed_listed != (host.summary.timed > 0) ||
        (host.timed_listed && (host.timed_key != host.summary.first_due ||
                               !timed_hosts_.contains({host.timed_key, id})))) {
      problem(absl::StrCat("host ", host.name, " is wrongly in or out of the timed hosts"));
    }
  }
  if (ready_.size() + waiting_.size() != placed)
    problem("the ready and waiting sets hold unplaced hosts");
  if (timed_hosts_.size() != timed) problem("the timed hosts hold hosts without timers");
  if (host_ids_.size() != hosts_.size()) problem("the host name index has stray names");
  return absl::OkStatus();
}

size_t FrontierStore::MemoryBytes() const {
  size_t bytes =
      hosts_.capacity() * sizeof(Host) + parts_.capacity() * sizeof(Part) +
      (ready_.size() * sizeof(ReadyEntry) + waiting_.size() * 16 + timed_hosts_.size() * 16) * 3 /
          2 +
      undo_.capacity() * sizeof(UndoEntry);
  for (const Host& host : hosts_) bytes += host.name.capacity();
  for (size_t part = 0; part < parts_.size(); ++part) {
    if (parts_[part].held) bytes += PartBytes(part);
    if (parts_[part].unread != nullptr) bytes += parts_[part].unread->MemoryBytes();
    bytes += parts_[part].hosts.capacity() * sizeof(uint32_t);
  }
  return bytes;
}

}  // namespace crawldb::frontier
