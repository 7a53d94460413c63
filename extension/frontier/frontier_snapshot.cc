// `frontier` and its shadow tables: opening, reading parts, catching up with other connections,
// and what a commit writes (frontier_table.h tells how).
#include <algorithm>
#include <optional>

#include "absl/container/btree_map.h"
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
// The log tail is folded once its rows pass log_tail_kb or are this many, which bounds what
// every connection holds of it and reads at open.
constexpr size_t kTailRows = 1024;
// A commit with more URL changes than this leaves them out of its log row (they would pass
// the default log_tail_kb alone): it folds, and other connections forget the parts it changed.
constexpr size_t kMaxLoggedUrls = 16384;
// A part's pending change sets are merged into its snapshot (MergeDue) once they weigh
// kMinMergeBytes and as much as the snapshot (each record is then rewritten about twice per
// doubling of its part); or once they are kFewPendingRows rows and weigh a share of it, a
// quarter to five eighths by part; or once they are kMaxPendingRows rows. The share keeps the
// bytes a merge rewrites within a few times those added since the last one at any size, where
// a plain cap of 16 rows rewrote every part every 16 folds: the whole frontier every 16 commits
// that reach every part. Spread by part, parts that grow alike do not all merge at one fold.
constexpr int64_t kMinMergeBytes = 4096;
constexpr int64_t kFewPendingRows = 16;
constexpr int64_t kMaxPendingRows = 256;

bool MergeDue(uint32_t part, int64_t snapshot_bytes, int64_t pending_rows, int64_t pending_bytes) {
  const int64_t eighths = 2 + part % 4;  // the share of the snapshot, in eighths
  return pending_bytes >= std::max(kMinMergeBytes, snapshot_bytes) ||
         (pending_rows >= kFewPendingRows && 8 * pending_bytes >= eighths * snapshot_bytes) ||
         pending_rows >= kMaxPendingRows;
}
// Log rows kept beyond the tail for other connections to catch up with: at most this many, and
// of at most kKeptLogBytes together among those the folding connection wrote or read (rows it
// never saw fall to the count alone); a connection further behind reads everything again.
constexpr int64_t kKeptLogRows = 64;
constexpr int64_t kKeptLogBytes = int64_t{1} << 20;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Opening and catching up.

absl::Status FrontierTable::LoadAll() {
  if (stored_format_ < kOldestStateFormat) return RefuseOldFormat();
  // The hosts, the newest log row (the counts and the last fold) and the rows of the tail must
  // be of the same commit: outside a transaction another one may land between the reads,
  // which are then made again.
  for (int attempt = 1;; ++attempt) {
    CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
    store_.Reset();
    int64_t seq = 0;
    int64_t folded = 0;
    std::optional<StateCounts> counts;
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
        counts = newest.counts;
        // A row of format 5 folded its own commit.
        folded = newest.folded.value_or(seq);
        if (folded < 0 || folded > seq) {
          return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': log row ", seq,
                                                            " names fold ", folded));
        }
      }
    }
    if (absl::Status hosts = LoadHosts(); !hosts.ok()) {
      // The groups and the hosts' pending rows are read by two statements: commits between
      // them can pair groups and rows of different folds, which then look damaged. Damage is
      // what stays when no commit came in.
      CRAWLDB_ASSIGN_OR_RETURN(int64_t newest, NewestSeq());
      if (newest == seq || attempt == kReadAttempts) return hosts;
      continue;
    }
    std::vector<LogRow> tail;
    if (folded < seq) {
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
      CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, folded));
      for (int64_t expected = folded + 1; expected <= seq; ++expected) {
        CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
        if (!row || select.ColumnInt64(0) != expected) {
          return CorruptError(kFrontierModule,
                              absl::StrCat("table '", name(), "': log row ", expected,
                                           ", after the last fold ", folded, ", is missing"));
        }
        CRAWLDB_ASSIGN_OR_RETURN(LogRow tail_row, LogRowAt(select));
        if (tail_row.changes.folded != folded) {
          return CorruptError(kFrontierModule,
                              absl::StrCat("table '", name(), "': log row ", expected,
                                           " does not follow the fold ", folded));
        }
        tail.push_back(std::move(tail_row));
      }
    }
    CRAWLDB_ASSIGN_OR_RETURN(int64_t newest, NewestSeq());
    if (newest != seq) {
      if (attempt == kReadAttempts) return Busy();
      continue;
    }
    tail_.Fold(folded);
    CRAWLDB_RETURN_IF_ERROR(TakeIn(tail, counts));
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

absl::Status FrontierTable::ReadPart(size_t part,
                                     const std::function<absl::Status(const ChangeSet&)>& apply) {
  // The part as of the last commit this connection read (its hosts are as of that commit): its
  // snapshot and pending rows hold the commits folded, the tail the ones after. A snapshot
  // newer than that commit no longer tells the part as it was: the caller catches up first.
  const int64_t as_of = sync().last_seq();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadPart));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, static_cast<int64_t>(part)));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(2, PendingRow(part, 0)));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(3, PendingRow(part + 1, 0) - 1));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(4, PendingRow(0, kMaxSeq)));
  int64_t snapshot_seq = 0;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const bool snapshot = select.ColumnInt64(0) == 0;
    const int64_t row_seq = select.ColumnInt64(1);
    if (snapshot) {
      if (row_seq < 0) {
        return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': snapshot part ",
                                                          part, " has seq ", row_seq));
      }
      if (row_seq > as_of) return StalePart(part);
      snapshot_seq = row_seq;
    } else if (row_seq <= snapshot_seq || row_seq > as_of) {
      continue;  // merged into the snapshot, or folded by a commit not read yet (in the tail)
    }
    CRAWLDB_ASSIGN_OR_RETURN(ChangeSet changes, Decode(select.ColumnBlob(2)));
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
  ChangeSet tail;
  tail_.AppendPart(static_cast<uint32_t>(part), &tail.urls);
  if (tail.urls.empty()) return absl::OkStatus();
  if (absl::Status status = apply(tail); !status.ok()) return Corrupt(status);
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

absl::StatusOr<std::vector<PartRange>> FrontierTable::RangesOf(const ChangeSet& changes) {
  std::vector<PartRange> ranges;
  uint32_t known_host = 0;
  uint32_t known_part = 0;
  bool known = false;
  for (size_t i = 0; i < changes.urls.size(); ++i) {
    const uint32_t host = changes.urls[i].record.host;
    if (!known || host != known_host) {
      if (host < store_.host_count()) {
        known_part = store_.host(host).part;
      } else {
        auto found =
            std::lower_bound(changes.hosts.begin(), changes.hosts.end(), host,
                             [](const HostChange& change, uint32_t id) { return change.id < id; });
        if (found == changes.hosts.end() || found->id != host) {
          return CorruptError(kFrontierModule,
                              absl::StrCat("table '", name(), "': a change names host ", host,
                                           ", which is unknown"));
        }
        known_part = static_cast<uint32_t>(FrontierPartOf(found->name));
      }
      known_host = host;
      known = true;
    }
    if (ranges.empty() || ranges.back().part != known_part) {
      ranges.push_back({known_part, static_cast<uint32_t>(i), static_cast<uint32_t>(i)});
    }
    ranges.back().end = static_cast<uint32_t>(i + 1);
  }
  return ranges;
}

absl::StatusOr<FrontierTable::LogRow> FrontierTable::LogRowAt(const ScopedStatement& select) {
  LogRow row;
  row.seq = select.ColumnInt64(0);
  absl::Span<const uint8_t> blob = select.ColumnBlob(1);
  row.bytes = blob.size();
  CRAWLDB_ASSIGN_OR_RETURN(row.changes, Decode(blob));
  const ChangeSet& changes = row.changes;
  if (!changes.counts.has_value() || !changes.folded.has_value() || *changes.folded > row.seq ||
      !changes.host_ids.empty()) {
    return CorruptError(kFrontierModule,
                        absl::StrCat("table '", name(), "': log row ", row.seq, " is not valid"));
  }
  CRAWLDB_ASSIGN_OR_RETURN(row.ranges, RangesOf(changes));
  return row;
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
  std::vector<LogRow> rows;
  // A row was trimmed before this connection read it, or was written by a build of format 5
  // (which folded every commit and named only the hosts it rewrote): everything is read again.
  bool read_all = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    for (int64_t expected = seq + 1;; ++expected) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      absl::Span<const uint8_t> blob = select.ColumnBlob(1);
      if (select.ColumnInt64(0) != expected ||
          (!blob.empty() && blob[0] == kUnfoldedChangeVersion)) {
        read_all = true;
        break;
      }
      CRAWLDB_ASSIGN_OR_RETURN(LogRow log_row, LogRowAt(select));
      rows.push_back(std::move(log_row));
    }
  }
  if (read_all) {
    CRAWLDB_RETURN_IF_ERROR(LoadAll());
    return true;
  }
  if (rows.empty()) return true;
  CRAWLDB_ASSIGN_OR_RETURN(int64_t newest, NewestSeq());
  if (newest != rows.back().seq) return false;  // a commit landed meanwhile
  CRAWLDB_RETURN_IF_ERROR(TakeIn(rows, rows.back().changes.counts));
  sync().Replayed(rows.back().seq);
  store_.ClearUndo();
  return true;
}

absl::Status FrontierTable::TakeIn(absl::Span<const LogRow> rows,
                                   const std::optional<StateCounts>& counts) {
  // The hosts' newest post-images; the URL changes to the parts held, but for the parts of a
  // row whose URL changes were left out, which are forgotten (read again when needed).
  ChangeSet committed;
  absl::btree_map<uint32_t, const HostChange*> latest;
  absl::btree_set<uint32_t> forget;
  for (const LogRow& row : rows) {
    for (const HostChange& host : row.changes.hosts) latest[host.id] = &host;
    if (row.left_out()) forget.insert(row.changes.parts.begin(), row.changes.parts.end());
  }
  for (const auto& [id, host] : latest) committed.hosts.push_back(*host);
  committed.counts = counts;
  committed.parts.assign(forget.begin(), forget.end());
  std::vector<CommittedPart> pending;
  for (const LogRow& row : rows) {
    for (const PartRange& range : row.ranges) {
      if (forget.contains(range.part) || !store_.held(range.part)) continue;
      CommittedPart& changed = pending.emplace_back();
      changed.part = range.part;
      changed.changes.urls.assign(row.changes.urls.begin() + range.begin,
                                  row.changes.urls.begin() + range.end);
    }
  }
  if (absl::Status status = store_.ApplyCommitted(committed, pending); !status.ok()) {
    return Corrupt(status);
  }
  // The tail: the rows after the last fold among them.
  size_t first = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].folds()) {
      tail_.Fold(rows[i].seq);
      first = i + 1;
    }
  }
  for (size_t i = first; i < rows.size(); ++i) {
    tail_.Add(rows[i].changes.urls, rows[i].ranges, rows[i].changes.hosts, rows[i].bytes);
  }
  for (const LogRow& row : rows) SawLogRow(row.seq, row.bytes);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status FrontierTable::Sync() {
  CRAWLDB_RETURN_IF_ERROR(RefuseCommitAfterAllocationFailure());
  if (store_.unread_add_refused()) {
    urls_vouching_failed_ = true;  // this connection reads the parts from now on
    return CorruptError(
        kFrontierModule,
        absl::StrCat("table '", name(),
                     "': a URL this transaction added as new was already in its "
                     "part (a URL left `",
                     urls_name_, "` uncounted); roll back, then run crawldb_check()"));
  }
  ChangeSet changes = store_.ChangesSince(sync().synced_mark());
  if (changes.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  // The tail follows the writes below; a rollback after them reads everything again.
  sync().ReloadOnRollback();
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().NextSeq();
  CRAWLDB_RETURN_IF_ERROR(WriteCommit(seq, changes));
  // The rows after the last fold are the tail every connection reads at open; the newest rows
  // before it (kKeptLogRows, kKeptLogBytes) let connections a little behind catch up without
  // reading everything again. Those rows change only when a commit folds.
  int64_t trim = std::min(tail_.folded(), seq - kKeptLogRows);
  if (tail_.folded() == seq) trim = std::max(trim, LogRowBeyondKeptBytes(seq));
  while (!log_rows_seen_.empty() && log_rows_seen_.front().first <= trim) {
    log_rows_seen_.pop_front();
  }
  if (trim > 0) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement erase, Use(kTrimLog));
    CRAWLDB_RETURN_IF_ERROR(erase.BindInt64(1, trim));
    CRAWLDB_RETURN_IF_ERROR(erase.Run());
  }
  sync().Synced(store_.UndoMark());
  return absl::OkStatus();
}

absl::Status FrontierTable::WriteCommit(int64_t seq, const ChangeSet& changes) {
  ChangeSet row;
  row.hosts = changes.hosts;
  row.parts = changes.parts;
  row.counts = changes.counts;
  bool fold = changes.urls.size() > kMaxLoggedUrls;
  if (!fold) {
    row.urls = changes.urls;
    row.folded = tail_.folded();
    EncodeChangeSet(row, &body_, &blob_, &zstd_);
    fold = tail_.row_bytes() + blob_.size() > tail_bound_bytes_ || tail_.rows() + 1 > kTailRows;
  }
  // The commit joins the tail, which a fold then writes out whole.
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<PartRange> ranges, RangesOf(changes));
  tail_.Add(changes.urls, ranges, changes.hosts, fold ? 0 : blob_.size());
  // Reading a part finds the commit's changes in the tail or its rows from here on.
  store_.ForgetUnreadAdds();
  if (fold) {
    CRAWLDB_RETURN_IF_ERROR(Fold(seq));
    row.folded = seq;
    EncodeChangeSet(row, &body_, &blob_, &zstd_);
  }
  return AppendLog(seq);
}

absl::Status FrontierTable::AppendLog(int64_t seq) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
  CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
  CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
  CRAWLDB_RETURN_IF_ERROR(append.Run());
  SawLogRow(seq, blob_.size());
  return absl::OkStatus();
}

void FrontierTable::SawLogRow(int64_t seq, size_t bytes) {
  // A row read again (a reload reads the tail anew) is already there.
  if (!log_rows_seen_.empty() && seq <= log_rows_seen_.back().first) return;
  log_rows_seen_.emplace_back(seq, bytes);
  // Bounded whatever happens to folds: a fold trims it to the rows it keeps.
  if (log_rows_seen_.size() > kTailRows + kKeptLogRows) log_rows_seen_.pop_front();
}

int64_t FrontierTable::LogRowBeyondKeptBytes(int64_t seq) const {
  size_t bytes = 0;
  for (auto row = log_rows_seen_.rbegin(); row != log_rows_seen_.rend(); ++row) {
    if (row->first >= seq) continue;
    bytes += row->second;
    if (bytes > static_cast<size_t>(kKeptLogBytes)) return row->first;
  }
  return 0;
}

absl::Status FrontierTable::Fold(int64_t seq) {
  std::vector<uint32_t> merges;
  for (uint32_t part : tail_.Parts()) {
    part_changes_.Clear();
    tail_.AppendPart(part, &part_changes_.urls);
    EncodeChangeSet(part_changes_, &body_, &blob_, &zstd_);
    {
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendPending));
      CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, PendingRow(part, seq)));
      CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
      CRAWLDB_RETURN_IF_ERROR(append.Run());
    }
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement stats, Use(kPartStats));
    CRAWLDB_RETURN_IF_ERROR(stats.BindInt64(1, part));
    CRAWLDB_RETURN_IF_ERROR(stats.BindInt64(2, PendingRow(part, 0)));
    CRAWLDB_RETURN_IF_ERROR(stats.BindInt64(3, PendingRow(part + 1, 0) - 1));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, stats.Step());
    if (!row) return absl::InternalError("crawldb_frontier: no part figures");
    const int64_t snapshot_bytes = stats.ColumnInt64(0), pending_rows = stats.ColumnInt64(1),
                  pending_bytes = stats.ColumnInt64(2);
    if (MergeDue(part, snapshot_bytes, pending_rows, pending_bytes)) merges.push_back(part);
  }
  CRAWLDB_RETURN_IF_ERROR(WriteHosts(tail_.hosts(), seq));
  // From here a part is read from its rows alone (they hold the tail).
  tail_.Fold(seq);
  for (uint32_t part : merges) CRAWLDB_RETURN_IF_ERROR(MergePart(part, seq));
  return absl::OkStatus();
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
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement erase, Use(kDeletePending));
  CRAWLDB_RETURN_IF_ERROR(erase.BindInt64(1, PendingRow(part, 0)));
  CRAWLDB_RETURN_IF_ERROR(erase.BindInt64(2, PendingRow(part, seq)));
  return erase.Run();
}

absl::Status FrontierTable::Checkpoint(absl::Span<const int64_t> old_to_new) {
  // Whatever happens next, the shadow tables are the truth: a failure rolls them back and the
  // store is read again from them.
  sync().ReloadOnRollback();
  LastInsertRowidGuard keep_last_rowid(db());
  // A commit of its own, which folds: other connections drop their tail when they read it.
  const int64_t seq = sync().NextSeq();
  CRAWLDB_RETURN_IF_ERROR(WriteEveryHostGroup(seq));
  for (size_t part = 0; part < kFrontierParts; ++part) {
    if (!store_.has_hosts(part)) continue;
    if (!old_to_new.empty()) CRAWLDB_RETURN_IF_ERROR(store_.RenumberPart(part, old_to_new));
    CRAWLDB_RETURN_IF_ERROR(MergePart(part, seq));
  }
  tail_.Fold(seq);
  ChangeSet row;
  row.counts = store_.state_counts();
  row.folded = seq;
  EncodeChangeSet(row, &body_, &blob_, &zstd_);
  CRAWLDB_RETURN_IF_ERROR(AppendLog(seq));
  // Only this row is needed (it holds the counts); a connection further behind reads
  // everything again.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, seq - 1));
  return trim.Run();
}

}  // namespace crawldb::frontier
