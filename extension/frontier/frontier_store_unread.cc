// FrontierStore's unread adds: records added to a part that is not held, which wait beside it
// until it is read or the transaction ends (frontier_store.h).
#include <memory>
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
  std::unique_ptr<SlotHashMap<UrlRecord>>& unread = parts_[part].unread;
  if (unread == nullptr) {
    unread = std::make_unique<SlotHashMap<UrlRecord>>();
    unread_parts_.push_back(static_cast<uint32_t>(part));
  }
  unread->Insert(fp, record);
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
  if (read.unread == nullptr) return absl::OkStatus();
  std::optional<uint64_t> known;
  read.unread->ForEach([&](uint64_t fp, const UrlRecord& record) {
    if (!read.records.Insert(fp, record)) known = fp;
  });
  if (known.has_value()) {
    unread_refused_ = true;
    return Damaged(absl::StrCat("frontier part ", part, " holds URL ",
                                identity::FingerprintToSql(*known), ", added to it as new"));
  }
  return absl::OkStatus();
}

void FrontierStore::UndoUnread(const UndoEntry& entry) {
  if (parts_[entry.part].unread != nullptr) parts_[entry.part].unread->Erase(entry.fp);
  --state_counts_[static_cast<int>(UrlState::kQueued)];
  hosts_[entry.host].summary = std::get<HostSummary>(entry.before);
  Place(entry.host);
}

void FrontierStore::ForgetUnreadAdds() {
  for (uint32_t part : unread_parts_) parts_[part].unread.reset();
  unread_parts_.clear();
}

const UrlRecord* FrontierStore::Current(size_t part, uint64_t fp) const {
  return parts_[part].held ? parts_[part].records.Find(fp) : FindUnread(part, fp);
}

const UrlRecord* FrontierStore::FindUnread(size_t part, uint64_t fp) const {
  const std::unique_ptr<SlotHashMap<UrlRecord>>& unread = parts_[part].unread;
  return unread != nullptr ? unread->Find(fp) : nullptr;
}

}  // namespace crawldb::frontier
