// FrontierStore's change sets: what a transaction writes (ChangesSince, PartSnapshot), its undo
// log (UndoTo, ClearUndo) and what other connections committed (ApplyCommitted),
// frontier_store.h.
#include <algorithm>
#include <variant>

#include "absl/strings/str_cat.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_store.h"

namespace crawldb::frontier {

ChangeSet FrontierStore::ChangesSince(size_t mark) const {
  ChangeSet changes;
  struct Touched {
    uint32_t part;
    uint32_t host;
    bool existed;
    int64_t url_id;  // the record's id in `urls` at the mark, when it existed
  };
  absl::flat_hash_map<uint64_t, Touched> touched;    // fp → its first change since the mark
  std::vector<std::pair<uint32_t, uint64_t>> order;  // (part, fp) in order of first change
  absl::btree_set<uint32_t> hosts;
  for (size_t i = mark; i < undo_.size(); ++i) {
    const UndoEntry& entry = undo_[i];
    if (entry.kind != UndoEntry::Kind::kUrl) {
      hosts.insert(entry.host);
      continue;
    }
    const UrlRecord* before = entry.existed ? &std::get<UrlRecord>(entry.before) : nullptr;
    uint32_t host = before != nullptr ? before->host : 0;
    if (!entry.existed) {
      if (const UrlRecord* now = Current(entry.part, entry.fp)) host = now->host;
    }
    if (touched
            .emplace(entry.fp, Touched{entry.part, host, entry.existed,
                                       before != nullptr ? before->url_id : kNoUrlId})
            .second) {
      order.push_back({entry.part, entry.fp});
    }
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [part, fp] : order) {
    const Touched& first = touched.find(fp)->second;
    const UrlRecord* record = Current(first.part, fp);
    if (record == nullptr) {
      if (!first.existed) continue;  // added and dropped again
      UrlChange change{fp, UrlChangeKind::kDelete, {}};
      change.record.host = first.host;
      changes.urls.push_back(change);
    } else if (first.existed && record->url_id == first.url_id) {
      changes.urls.push_back({fp, UrlChangeKind::kUpdate, *record});
    } else {
      // New, or deleted and added again under another id in `urls` (an update keeps the id).
      if (first.existed) {
        UrlChange drop{fp, UrlChangeKind::kDelete, {}};
        drop.record.host = first.host;
        changes.urls.push_back(drop);
      }
      changes.urls.push_back({fp, UrlChangeKind::kNew, *record});
    }
    hosts.insert(changes.urls.back().record.host);
    if (changes.parts.empty() || changes.parts.back() != first.part) {
      changes.parts.push_back(first.part);
    }
  }
  for (uint32_t id : hosts) {
    if (id < hosts_.size()) {
      changes.hosts.push_back({id, hosts_[id].name, hosts_[id].settings, hosts_[id].summary});
    }
  }
  if (!changes.empty()) changes.counts = state_counts_;
  return changes;
}

absl::Status FrontierStore::PartSnapshot(size_t part, ChangeSet* changes) {
  if (absl::Status status = Hold(part); !status.ok()) return status;
  changes->Clear();
  parts_[part].records.ForEach([&](uint64_t fp, const UrlRecord& record) {
    changes->urls.push_back({fp, UrlChangeKind::kNew, record});
  });
  return absl::OkStatus();
}

void FrontierStore::UndoTo(size_t mark) {
  while (undo_.size() > mark) {
    UndoEntry entry = std::move(undo_.back());
    undo_.pop_back();
    switch (entry.kind) {
      case UndoEntry::Kind::kUrl:
        if (entry.unread && !parts_[entry.part].held) {
          UndoUnread(entry);
        } else {
          SetRecord(entry.part, entry.fp,
                    entry.existed ? &std::get<UrlRecord>(entry.before) : nullptr);
        }
        break;
      case UndoEntry::Kind::kHostSettings:
        hosts_[entry.host].settings = std::get<HostSettings>(entry.before);
        Place(entry.host);
        break;
      case UndoEntry::Kind::kHostCreated: {
        // Undone in reverse order: the host is the last one, the last of its part, and holds
        // nothing any more.
        Host& host = hosts_.back();
        parts_[host.part].hosts.pop_back();
        host_ids_.erase(host.name);
        hosts_.pop_back();
        break;
      }
    }
  }
  if (undo_.empty()) ClearUndo();
}

void FrontierStore::ClearUndo() {
  undo_.clear();
  if (undo_.capacity() > 4096) undo_.shrink_to_fit();
  for (uint32_t part : dirty_parts_) {
    Part& dirty = parts_[part];
    if (!dirty.dirty) continue;
    dirty.dirty = false;
    ++held_clean_parts_;
    held_bytes_ -= dirty.bytes;
    dirty.bytes = PartBytes(part);
    held_bytes_ += dirty.bytes;
  }
  dirty_parts_.clear();
  ForgetUnreadAdds();
  unread_refused_ = false;
  Evict(kFrontierParts);
}

void FrontierStore::Reset() {
  const size_t cache_bytes = cache_bytes_;
  const uint64_t parts_read = parts_read_;
  *this = FrontierStore(policy_, source_);
  cache_bytes_ = cache_bytes;
  parts_read_ = parts_read;
}

absl::Status FrontierStore::ApplyCommitted(const ChangeSet& committed,
                                           absl::Span<const CommittedPart> pending) {
  if (!committed.urls.empty()) {
    return absl::DataLossError("frontier change set: a log row holds URL changes");
  }
  for (uint32_t part : committed.parts) ForgetPart(part);
  // The hosts first (the changes may name new ones), then the changes to the parts held, then
  // the hosts' summaries, which those parts must bear out.
  for (const HostChange& change : committed.hosts) {
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
  }
  for (const CommittedPart& changed : pending) {
    if (!parts_[changed.part].held) continue;
    for (const UrlChange& change : changed.changes.urls) {
      const UrlRecord* current = parts_[changed.part].records.Find(change.fp);
      if (absl::Status status = CheckChange(changed.part, change, current); !status.ok()) {
        return status;
      }
      UrlRecord record = change.record;
      if (change.kind == UrlChangeKind::kUpdate) record.url_id = current->url_id;
      SetRecord(changed.part, change.fp, change.kind == UrlChangeKind::kDelete ? nullptr : &record);
    }
    Part& held = parts_[changed.part];
    held_bytes_ -= held.bytes;
    held.bytes = PartBytes(changed.part);
    held_bytes_ += held.bytes;
  }
  for (const HostChange& change : committed.hosts) {
    Host& host = hosts_[change.id];
    if (change.summary.queued + change.summary.timed > change.summary.size) {
      return absl::DataLossError(
          absl::StrCat("frontier change set: host ", host.name, " has an impossible summary"));
    }
    // A part held here took in every change the commits made to it.
    if (parts_[host.part].held && source_ != nullptr && host.summary != change.summary) {
      return absl::DataLossError(absl::StrCat(
          "frontier change set: host ", host.name, " holds ", DescribeSummary(host.summary),
          " where the commits say ", DescribeSummary(change.summary)));
    }
    host.settings = change.settings;
    host.summary = change.summary;
    Place(change.id);
    ListTimed(change.id);
  }
  if (committed.counts.has_value()) state_counts_ = *committed.counts;
  Evict(kFrontierParts);
  return absl::OkStatus();
}

absl::Status FrontierStore::CheckCounts() const {
  HostSummary total;
  for (const Host& host : hosts_) {
    total.size += host.summary.size;
    total.queued += host.summary.queued;
    total.timed += host.summary.timed;
  }
  auto count = [&](UrlState state) { return state_counts_[static_cast<int>(state)]; };
  const uint64_t timed =
      count(UrlState::kWaiting) + count(UrlState::kLeased) + count(UrlState::kRecrawl);
  if (total.size != size() || total.queued != count(UrlState::kQueued) || total.timed != timed) {
    return absl::DataLossError(absl::StrCat("frontier: the hosts hold ", total.size, " URLs, ",
                                            total.queued, " queued and ", total.timed,
                                            " timed, where the state counts say ", size(), ", ",
                                            count(UrlState::kQueued), " and ", timed));
  }
  return absl::OkStatus();
}

absl::Status FrontierStore::RenumberPart(size_t part, absl::Span<const int64_t> old_to_new) {
  if (absl::Status status = Hold(part); !status.ok()) return status;
  parts_[part].records.ForEach([&](uint64_t, UrlRecord& record) {
    const bool known = record.url_id > 0 && static_cast<size_t>(record.url_id) < old_to_new.size();
    record.url_id = known ? old_to_new[static_cast<size_t>(record.url_id)] : kNoUrlId;
  });
  return absl::OkStatus();
}

}  // namespace crawldb::frontier
