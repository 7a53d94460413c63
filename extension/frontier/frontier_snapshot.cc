// `frontier` and its shadow tables: opening, reading parts, catching up with other connections,
// and what a commit writes (frontier_table.h tells how).
#include <algorithm>
#include <cmath>

#include "absl/container/btree_set.h"
#include "absl/strings/str_cat.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/sql_values.h"
#include "extension/common/status.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_slots.h"
#include "extension/frontier/frontier_table.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {
namespace {

int64_t PendingRow(size_t part, int64_t seq) {
  return (static_cast<int64_t>(part) << kPendingSeqBits) | seq;
}
// The largest seq a pending row's rowid holds.
constexpr int64_t kMaxSeq = (int64_t{1} << kPendingSeqBits) - 1;
// Reads that a concurrent commit made inconsistent are tried again this many times.
constexpr int kReadAttempts = FrontierTable::kStaleAttempts;
// A part's pending change sets are merged into its snapshot once they weigh this much and as
// much as the snapshot (each record is then rewritten about twice per doubling of its part), or
// once they are this many rows (so that reading a part reads a bounded number of rows).
constexpr int64_t kMinMergeBytes = 4096;
constexpr int64_t kMaxPendingRows = 16;
// Log rows kept for other connections to catch up with; one further behind reloads the hosts.
constexpr int64_t kKeptLogRows = 64;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Opening and catching up.

absl::Status FrontierTable::LoadAll() {
  if (stored_format_ < kFrontierFormat) return RefuseOldFormat();
  // The hosts and the newest log row (the counts) must be of the same commit: outside a
  // transaction another one may land between the reads, which are then made again.
  for (int attempt = 1;; ++attempt) {
    CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
    store_.Reset();
    part_files_.assign(kFrontierParts, PartFile{});
    int64_t seq = 0;
    ChangeSet counts;
    {
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadNewestLog));
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (row) {
        seq = select.ColumnInt64(0);
        if (seq < 1 || seq > kMaxSeq) {
          return CorruptError(kFrontierModule,
                              absl::StrCat("table '", name(), "': log row ", seq,
                                           " is out of range (1 to ", kMaxSeq, ")"));
        }
        CRAWLDB_ASSIGN_OR_RETURN(ChangeSet newest, Decode(select.ColumnBlob(1)));
        if (!newest.counts.has_value()) {
          return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': log row ", seq,
                                                            " has no state counts"));
        }
        counts.counts = newest.counts;
      }
    }
    CRAWLDB_RETURN_IF_ERROR(LoadHosts());
    CRAWLDB_ASSIGN_OR_RETURN(int64_t newest, NewestSeq());
    if (newest != seq) {
      if (attempt == kReadAttempts) return Busy();
      continue;
    }
    if (absl::Status status = store_.ApplyCommitted(counts); !status.ok()) return Corrupt(status);
    if (absl::Status status = store_.CheckCounts(); !status.ok()) return Corrupt(status);
    sync().Loaded(generation);
    sync().Replayed(seq);
    store_.ClearUndo();
    return absl::OkStatus();
  }
}

absl::Status FrontierTable::Busy() const {
  return absl::UnavailableError(
      absl::StrCat("crawldb_frontier: table '", name(),
                   "' kept changing while it was read; run the statement again, or inside "
                   "BEGIN … COMMIT"));
}

absl::StatusOr<ChangeSet> FrontierTable::Decode(absl::Span<const uint8_t> blob) {
  absl::StatusOr<ChangeSet> changes = DecodeChangeSet(blob, &zstd_);
  if (!changes.ok()) return Corrupt(changes.status());
  return changes;
}

absl::StatusOr<HostChange> FrontierTable::HostOfRow(const ScopedStatement& select,
                                                    std::string* name_out) {
  sqlite3_stmt* statement = select.get();
  auto is = [&](int column, int type) { return sqlite3_column_type(statement, column) == type; };
  HostChange host;
  const int64_t id = select.ColumnInt64(0);
  host.settings.delay_s = select.ColumnDouble(2);
  host.settings.budget = select.ColumnInt64(3);
  host.settings.blocked_until = select.ColumnDouble(4);
  host.settings.next_allowed = select.ColumnDouble(5);
  const int64_t size = select.ColumnInt64(6), queued = select.ColumnInt64(7),
                depth = select.ColumnInt64(8), priority = select.ColumnInt64(9),
                timed = select.ColumnInt64(11);
  HostSummary& summary = host.summary;
  summary.best.fp = identity::FingerprintFromSql(select.ColumnInt64(10));
  summary.first_due = select.ColumnDouble(12);
  absl::string_view host_name = select.ColumnText(1);
  bool valid = id >= 0 && id <= UINT32_MAX && is(1, SQLITE_TEXT) && !host_name.empty() &&
               host_name.size() <= kMaxHostBytes && is(2, SQLITE_FLOAT) && is(3, SQLITE_INTEGER) &&
               is(4, SQLITE_FLOAT) && is(5, SQLITE_FLOAT) && std::isfinite(host.settings.delay_s) &&
               std::isfinite(host.settings.blocked_until) &&
               std::isfinite(host.settings.next_allowed);
  for (int column = 6; column <= 11; ++column) valid = valid && is(column, SQLITE_INTEGER);
  valid = valid && is(12, SQLITE_FLOAT) && std::isfinite(summary.first_due) && size >= 0 &&
          queued >= 0 && timed >= 0 && queued + timed <= size && depth >= 0 &&
          depth <= UINT16_MAX && priority >= INT32_MIN && priority <= INT32_MAX;
  if (!valid) {
    return CorruptError(kFrontierModule,
                        absl::StrCat("table '", name(), "': host row ", id, " is not valid"));
  }
  host.id = static_cast<uint32_t>(id);
  summary.size = static_cast<uint64_t>(size);
  summary.queued = static_cast<uint64_t>(queued);
  summary.timed = static_cast<uint64_t>(timed);
  summary.best.depth = static_cast<uint16_t>(depth);
  summary.best.priority = static_cast<int32_t>(priority);
  name_out->assign(host_name.data(), host_name.size());
  return host;
}

absl::Status FrontierTable::LoadHosts() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHosts));
  ChangeSet hosts;
  std::vector<std::string> names;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    names.emplace_back();
    CRAWLDB_ASSIGN_OR_RETURN(HostChange host, HostOfRow(select, &names.back()));
    if (host.id != hosts.hosts.size()) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host row ",
                                                        hosts.hosts.size(), " is missing"));
    }
    hosts.hosts.push_back(host);
  }
  for (size_t i = 0; i < names.size(); ++i) hosts.hosts[i].name = names[i];
  if (absl::Status status = store_.ApplyCommitted(hosts); !status.ok()) return Corrupt(status);
  return absl::OkStatus();
}

absl::Status FrontierTable::ReadPart(size_t part,
                                     const std::function<absl::Status(const ChangeSet&)>& apply) {
  // The part as of the last commit this connection read (its hosts are as of that commit): the
  // rows committed since are taken in by the next catch-up, as for any part held. A snapshot
  // newer than that commit no longer tells the part as it was: the caller catches up first.
  const int64_t as_of = sync().last_seq();
  PartFile file;
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadPart));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, static_cast<int64_t>(part)));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(2, PendingRow(part, 0)));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(3, PendingRow(part + 1, 0) - 1));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(4, PendingRow(0, kMaxSeq)));
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const bool snapshot = select.ColumnInt64(0) == 0;
    const int64_t row_seq = select.ColumnInt64(1);
    absl::Span<const uint8_t> blob = select.ColumnBlob(2);
    if (snapshot) {
      if (row_seq < 0) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': snapshot part ",
                                                          part, " has seq ", row_seq));
      }
      if (row_seq > as_of) return StalePart(part);
      file.snapshot_seq = row_seq;
      file.snapshot_bytes = static_cast<int64_t>(blob.size());
    } else if (row_seq <= file.snapshot_seq || row_seq > as_of) {
      continue;  // merged into the snapshot, or not read yet
    } else {
      file.pending_bytes += static_cast<int64_t>(blob.size());
      ++file.pending_rows;
    }
    CRAWLDB_ASSIGN_OR_RETURN(ChangeSet changes, Decode(blob));
    if (snapshot) {
      for (const UrlChange& change : changes.urls) {
        if (change.kind != UrlChangeKind::kNew) {
          return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': snapshot part ",
                                                            part, " holds a change"));
        }
      }
    }
    if (absl::Status status = apply(changes); !status.ok()) return Corrupt(status);
  }
  part_files_[part] = file;
  return absl::OkStatus();
}

absl::Status FrontierTable::StalePart(size_t part) const {
  return absl::AbortedError(absl::StrCat("crawldb_frontier: table '", name(), "': part ", part,
                                         " was merged by a commit this connection has not read"));
}

absl::StatusOr<int64_t> FrontierTable::NewestSeq() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kNewestSeq));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  return row ? select.ColumnInt64(0) : 0;
}

absl::Status FrontierTable::ReplayLogSince(int64_t seq) {
  // Outside a transaction another commit may land between the reads below: they are then made
  // again, as nothing is applied before all of them agree.
  for (int attempt = 1;; ++attempt) {
    CRAWLDB_ASSIGN_OR_RETURN(bool consistent, TryReplayLogSince(seq));
    if (consistent) return absl::OkStatus();
    if (attempt == kReadAttempts) return Busy();
  }
}

absl::StatusOr<bool> FrontierTable::TryReplayLogSince(int64_t seq) {
  // What the rows after `seq` committed, together: the hosts whose rows they rewrote (read
  // once, as they are now), the parts they changed, and the newest counts.
  absl::btree_set<uint32_t> host_ids;
  std::vector<std::pair<int64_t, std::vector<uint32_t>>> parts_by_seq;
  ChangeSet committed;
  bool trimmed = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    for (int64_t expected = seq + 1;; ++expected) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      if (select.ColumnInt64(0) != expected) {
        trimmed = true;
        break;
      }
      CRAWLDB_ASSIGN_OR_RETURN(ChangeSet changes, Decode(select.ColumnBlob(1)));
      if (!changes.counts.has_value()) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': log row ",
                                                          expected, " has no state counts"));
      }
      host_ids.insert(changes.host_ids.begin(), changes.host_ids.end());
      parts_by_seq.emplace_back(expected, std::move(changes.parts));
      committed.counts = changes.counts;
    }
  }
  // Another connection trimmed log rows this one never read: the hosts are read again.
  if (trimmed) {
    CRAWLDB_RETURN_IF_ERROR(LoadAll());
    return true;
  }
  if (parts_by_seq.empty()) return true;
  // A part held takes in the commits' pending rows, unless one of them was merged away since
  // (the part is then forgotten, and read again when needed).
  absl::btree_set<uint32_t> forget;
  std::vector<CommittedPart> pending;
  std::vector<int64_t> pending_bytes;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadPendingRow));
    for (const auto& [row_seq, parts] : parts_by_seq) {
      for (uint32_t part : parts) {
        if (!store_.held(part) || forget.contains(part)) {
          forget.insert(part);
          continue;
        }
        sqlite3_reset(select.get());
        CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, PendingRow(part, row_seq)));
        CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
        if (!row) {
          forget.insert(part);
          continue;
        }
        absl::Span<const uint8_t> blob = select.ColumnBlob(0);
        pending_bytes.push_back(static_cast<int64_t>(blob.size()));
        CRAWLDB_ASSIGN_OR_RETURN(ChangeSet changes, Decode(blob));
        pending.push_back({part, std::move(changes)});
      }
    }
  }
  std::vector<std::string> names;
  names.reserve(host_ids.size());
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHost));
    for (uint32_t id : host_ids) {
      CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, id));
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host row ", id,
                                                          " named by the log is missing"));
      }
      names.emplace_back();
      CRAWLDB_ASSIGN_OR_RETURN(HostChange host, HostOfRow(select, &names.back()));
      committed.hosts.push_back(host);
      sqlite3_reset(select.get());
    }
  }
  const int64_t last = parts_by_seq.back().first;
  CRAWLDB_ASSIGN_OR_RETURN(int64_t newest, NewestSeq());
  if (newest != last) return false;  // a commit landed meanwhile
  for (size_t i = 0; i < names.size(); ++i) committed.hosts[i].name = names[i];
  for (size_t i = 0; i < pending.size(); ++i) {
    if (forget.contains(pending[i].part)) continue;
    part_files_[pending[i].part].pending_bytes += pending_bytes[i];
    ++part_files_[pending[i].part].pending_rows;
  }
  std::erase_if(pending,
                [&](const CommittedPart& changed) { return forget.contains(changed.part); });
  committed.parts.assign(forget.begin(), forget.end());
  if (absl::Status status = store_.ApplyCommitted(committed, pending); !status.ok()) {
    return Corrupt(status);
  }
  sync().Replayed(last);
  store_.ClearUndo();
  return true;
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status FrontierTable::Sync() {
  ChangeSet changes = store_.ChangesSince(sync().synced_mark());
  if (changes.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  // What this table counts of its parts' rows (part_files_) follows the writes below; a
  // rollback after them reads everything again.
  sync().ReloadOnRollback();
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().NextSeq();
  {
    ChangeSet log;
    for (const HostChange& host : changes.hosts) log.host_ids.push_back(host.id);
    log.parts = changes.parts;
    log.counts = changes.counts;
    EncodeChangeSet(log, &body_, &blob_, &zstd_);
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(WriteHosts(changes));
  // The URL changes come part by part (ChangesSince): one pending row each.
  for (size_t first = 0; first < changes.urls.size();) {
    const size_t part = store_.host(changes.urls[first].record.host).part;
    size_t last = first + 1;
    while (last < changes.urls.size() && store_.host(changes.urls[last].record.host).part == part)
      ++last;
    part_changes_.hosts.clear();
    part_changes_.parts.clear();
    part_changes_.counts.reset();
    part_changes_.urls.assign(changes.urls.begin() + static_cast<ptrdiff_t>(first),
                              changes.urls.begin() + static_cast<ptrdiff_t>(last));
    CRAWLDB_RETURN_IF_ERROR(WritePending(part, seq));
    first = last;
  }
  if (seq > kKeptLogRows) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
    CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, seq - kKeptLogRows));
    CRAWLDB_RETURN_IF_ERROR(trim.Run());
  }
  sync().Synced(store_.UndoMark());
  return absl::OkStatus();
}

absl::Status FrontierTable::WriteHosts(const ChangeSet& changes) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteHost));
  for (const HostChange& host : changes.hosts) {
    const HostSummary& summary = host.summary;
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, host.id));
    CRAWLDB_RETURN_IF_ERROR(write.BindText(2, ToAbsl(host.name)));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(3, host.settings.delay_s));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(4, host.settings.budget));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(5, host.settings.blocked_until));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(6, host.settings.next_allowed));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(7, static_cast<int64_t>(summary.size)));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(8, static_cast<int64_t>(summary.queued)));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(9, summary.best.depth));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(10, summary.best.priority));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(11, identity::FingerprintToSql(summary.best.fp)));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(12, static_cast<int64_t>(summary.timed)));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(13, summary.first_due));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
    sqlite3_reset(write.get());
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::WritePending(size_t part, int64_t seq) {
  EncodeChangeSet(part_changes_, &body_, &blob_, &zstd_);
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendPending));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, PendingRow(part, seq)));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
  }
  PartFile& file = part_files_[part];
  file.pending_bytes += static_cast<int64_t>(blob_.size());
  ++file.pending_rows;
  if (file.pending_bytes < std::max(kMinMergeBytes, file.snapshot_bytes) &&
      file.pending_rows < kMaxPendingRows) {
    return absl::OkStatus();
  }
  return MergePart(part, seq);
}

absl::Status FrontierTable::MergePart(size_t part, int64_t seq) {
  CRAWLDB_RETURN_IF_ERROR(store_.PartSnapshot(part, &part_changes_));
  EncodeChangeSet(part_changes_, &body_, &blob_, &zstd_);
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteSnapshotPart));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, static_cast<int64_t>(part)));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
    CRAWLDB_RETURN_IF_ERROR(write.BindBlobView(3, BytesOf(blob_)));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
  }
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement erase, Use(kDeletePending));
    CRAWLDB_RETURN_IF_ERROR(erase.BindInt64(1, PendingRow(part, 0)));
    CRAWLDB_RETURN_IF_ERROR(erase.BindInt64(2, PendingRow(part, seq)));
    CRAWLDB_RETURN_IF_ERROR(erase.Run());
  }
  part_files_[part] = {seq, static_cast<int64_t>(blob_.size()), 0, 0};
  return absl::OkStatus();
}

absl::Status FrontierTable::Checkpoint(absl::Span<const int64_t> old_to_new) {
  // Whatever happens next, the shadow tables are the truth: a failure rolls them back and the
  // store is read again from them.
  sync().ReloadOnRollback();
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().last_seq();
  for (size_t part = 0; part < kFrontierParts; ++part) {
    if (!store_.has_hosts(part)) continue;
    if (!old_to_new.empty()) CRAWLDB_RETURN_IF_ERROR(store_.RenumberPart(part, old_to_new));
    CRAWLDB_RETURN_IF_ERROR(MergePart(part, seq));
  }
  // Only the newest log row is needed (it holds the counts); a connection further behind
  // reads the hosts again.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, seq - 1));
  return trim.Run();
}

}  // namespace crawldb::frontier
