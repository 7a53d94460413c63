// FrontierStore's unread adds: records added to a part that is not held, which wait beside it
// until it is read or the transaction ends (frontier_store.h).
#include <optional>
#include <variant>

#include "absl/strings/str_cat.h"
#include "extension/frontier/frontier_store.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {

void FrontierStore::AddUnread(size_t part, uint64_t fp, const UrlRecord& record) {
  Host& host = hosts_[record.host];
  UndoEntry entry;
  entry.kind = UndoEntry::Kind::kUrl;
  entry.unread = true;
  entry.part = static_cast<uint32_t>(part);
  entry.host = record.host;
  entry.fp = fp;
  entry.before = host.summary;
  undo_.push_back(entry);
  SlotHashMap<UrlRecord>& unread = parts_[part].unread;
  if (unread.size() == 0) unread_parts_.push_back(static_cast<uint32_t>(part));
  unread.Insert(fp, record);
  // What Index and Summarize would make of it, without the host's queue: a new record is queued.
  ++state_counts_[static_cast<int>(UrlState::kQueued)];
  HostSummary& summary = host.summary;
  const QueueKey key = KeyOf(fp, record);
  if (summary.queued == 0 || key < summary.best) summary.best = key;
  ++summary.queued;
  ++summary.size;
  Place(record.host);
}

absl::Status FrontierStore::JoinUnread(size_t part) {
  Part& read = parts_[part];
  std::optional<uint64_t> known;
  read.unread.ForEach([&](uint64_t fp, const UrlRecord& record) {
    if (!read.records.Insert(fp, record)) known = fp;
  });
  if (known.has_value()) {
    return Damaged(absl::StrCat("frontier part ", part, " holds URL ",
                                identity::FingerprintToSql(*known), ", added to it as new"));
  }
  return absl::OkStatus();
}

void FrontierStore::UndoUnread(const UndoEntry& entry) {
  parts_[entry.part].unread.Erase(entry.fp);
  --state_counts_[static_cast<int>(UrlState::kQueued)];
  hosts_[entry.host].summary = std::get<HostSummary>(entry.before);
  Place(entry.host);
}

void FrontierStore::ForgetUnreadAdds() {
  for (uint32_t part : unread_parts_) parts_[part].unread = SlotHashMap<UrlRecord>();
  unread_parts_.clear();
}

const UrlRecord* FrontierStore::Current(size_t part, uint64_t fp) const {
  const Part& held = parts_[part];
  return held.held ? held.records.Find(fp) : held.unread.Find(fp);
}

}  // namespace crawldb::frontier
