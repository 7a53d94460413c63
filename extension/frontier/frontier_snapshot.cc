// `frontier` and its shadow tables: loading, catching up with other connections, what a commit
// writes, and the incremental snapshot (frontier_table.h tells how).
#include <algorithm>
#include <cmath>

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

// Snapshot bytes a part write is counted as at least (an empty part still costs a row).
constexpr int64_t kMinPartCost = 256;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Loading and catching up.

absl::Status FrontierTable::LoadAll() {
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
  store_ = FrontierStore(store_.policy());
  store_.StartLoad();
  CRAWLDB_RETURN_IF_ERROR(LoadHosts());
  std::vector<int64_t> part_seq(kRecordParts, 0);  // a part never written holds nothing
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadSnapshot));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t part = select.ColumnInt64(0), seq = select.ColumnInt64(1);
      if (part < 0 || part >= static_cast<int64_t>(kRecordParts) || seq < 0) {
        return CorruptError(kFrontierModule,
                            absl::StrCat("table '", name(), "': snapshot part ", part,
                                         " at log row ", seq, " is out of range"));
      }
      CRAWLDB_ASSIGN_OR_RETURN(ChangeSet records, Decode(select.ColumnBlob(2)));
      absl::Status status = store_.LoadPart(static_cast<size_t>(part), records);
      if (!status.ok()) return Corrupt(status);
      part_seq[static_cast<size_t>(part)] = seq;
    }
  }
  sync().Loaded(generation);
  // Every log row after the oldest part is replayed, each URL change only into the parts written
  // before it; host changes are older than <t>_hosts, which every commit keeps current.
  const int64_t oldest = *std::min_element(part_seq.begin(), part_seq.end());
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, oldest));
  int64_t expected = oldest + 1;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t seq = select.ColumnInt64(0);
    if (seq != expected++) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': log row ",
                                                        expected - 1, " is missing"));
    }
    CRAWLDB_ASSIGN_OR_RETURN(ChangeSet changes, Decode(select.ColumnBlob(1)));
    for (const HostChange& host : changes.hosts) {
      if (host.id >= store_.host_count() || store_.host(host.id).name != host.name) {
        return CorruptError(kFrontierModule,
                            absl::StrCat("table '", name(), "': log row ", seq, " names host ",
                                         host.id, " unlike the hosts table"));
      }
    }
    changes.hosts.clear();
    std::erase_if(changes.urls,
                  [&](const UrlChange& url) { return part_seq[RecordPartOf(url.fp)] >= seq; });
    if (absl::Status status = store_.Apply(changes); !status.ok()) return Corrupt(status);
    sync().Replayed(seq);
  }
  // The parts may be newer than every log row left (a checkpoint emptied the log).
  const int64_t newest = *std::max_element(part_seq.begin(), part_seq.end());
  if (newest > sync().last_seq()) sync().Replayed(newest);
  store_.FinishLoad();
  store_.ClearUndo();
  return absl::OkStatus();
}

absl::StatusOr<ChangeSet> FrontierTable::Decode(absl::Span<const uint8_t> blob) {
  absl::StatusOr<ChangeSet> changes = DecodeChangeSet(blob, &zstd_);
  if (!changes.ok()) return Corrupt(changes.status());
  if (!changes->has_texts) return changes;
  // A blob of format 3 names new URLs by their text: their ids are looked up in `urls`.
  for (UrlChange& url : changes->urls) {
    if (url.kind != UrlChangeKind::kNew) continue;
    if (identity::UrlFingerprint(url.text) != url.fp) {
      return Corrupt(absl::DataLossError(absl::StrCat("frontier change set: URL ",
                                                      identity::FingerprintToSql(url.fp),
                                                      " holds another URL's text")));
    }
    CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> id, IdOf(url.text));
    url.record.url_id = id.value_or(kNoUrlId);
  }
  return changes;
}

absl::Status FrontierTable::LoadHosts() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadHosts));
  ChangeSet hosts;
  std::vector<std::string> names;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    sqlite3_stmt* statement = select.get();
    auto is = [&](int column, int type) { return sqlite3_column_type(statement, column) == type; };
    const int64_t id = select.ColumnInt64(0);
    HostSettings settings;
    settings.delay_s = select.ColumnDouble(2);
    settings.budget = select.ColumnInt64(3);
    settings.blocked_until = select.ColumnDouble(4);
    settings.next_allowed = select.ColumnDouble(5);
    absl::string_view host_name = select.ColumnText(1);
    if (id != static_cast<int64_t>(names.size())) {
      return CorruptError(kFrontierModule, absl::StrCat("table '", name(), "': host row ",
                                                        names.size(), " is missing"));
    }
    if (!is(1, SQLITE_TEXT) || host_name.empty() || host_name.size() > kMaxHostBytes ||
        !is(2, SQLITE_FLOAT) || !is(3, SQLITE_INTEGER) || !is(4, SQLITE_FLOAT) ||
        !is(5, SQLITE_FLOAT) || !std::isfinite(settings.delay_s) ||
        !std::isfinite(settings.blocked_until) || !std::isfinite(settings.next_allowed)) {
      return CorruptError(kFrontierModule,
                          absl::StrCat("table '", name(), "': host row ", id, " is not valid"));
    }
    names.emplace_back(host_name);
    hosts.hosts.push_back({static_cast<uint32_t>(id), {}, settings});
  }
  for (size_t i = 0; i < names.size(); ++i) hosts.hosts[i].name = names[i];
  if (absl::Status status = store_.Apply(hosts); !status.ok()) return Corrupt(status);
  return absl::OkStatus();
}

absl::Status FrontierTable::ReplayLogSince(int64_t seq) {
  bool trimmed = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t next = select.ColumnInt64(0);
      if (next != sync().last_seq() + 1) {
        trimmed = true;
        break;
      }
      CRAWLDB_ASSIGN_OR_RETURN(ChangeSet changes, Decode(select.ColumnBlob(1)));
      if (absl::Status status = store_.Apply(changes); !status.ok()) return Corrupt(status);
      sync().Replayed(next);
    }
  }
  // Another connection trimmed log rows this one never read: only the snapshot holds them now.
  if (trimmed) return LoadAll();
  store_.ClearUndo();
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status FrontierTable::Sync() {
  ChangeSet changes = store_.ChangesSince(sync().synced_mark());
  if (changes.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  EncodeChangeSet(changes, &body_, &blob_, &zstd_);
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().NextSeq();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlobView(2, BytesOf(blob_)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(WriteHosts(changes));
  sync().Synced(store_.UndoMark());
  snapshot_debt_ += static_cast<int64_t>(blob_.size());
  absl::Status status = WriteSomeParts(seq);
  return status;
}

absl::Status FrontierTable::WriteHosts(const ChangeSet& changes) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteHost));
  for (const HostChange& host : changes.hosts) {
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, host.id));
    CRAWLDB_RETURN_IF_ERROR(write.BindText(2, ToAbsl(host.name)));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(3, host.settings.delay_s));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(4, host.settings.budget));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(5, host.settings.blocked_until));
    CRAWLDB_RETURN_IF_ERROR(write.BindDouble(6, host.settings.next_allowed));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
    sqlite3_reset(write.get());
  }
  return absl::OkStatus();
}

absl::StatusOr<int64_t> FrontierTable::WritePart(size_t part, int64_t seq) {
  store_.PartSnapshot(part, &part_changes_);
  EncodeChangeSet(part_changes_, &body_, &blob_, &zstd_);
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteSnapshotPart));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, static_cast<int64_t>(part)));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlobView(3, BytesOf(blob_)));
  CRAWLDB_RETURN_IF_ERROR(write.Run());
  return static_cast<int64_t>(blob_.size());
}

absl::Status FrontierTable::WriteSomeParts(int64_t seq) {
  if (snapshot_debt_ <= 0) return absl::OkStatus();
  size_t next = 0;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadNextPart));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (row) next = static_cast<size_t>(select.ColumnInt64(0)) % kRecordParts;
  }
  size_t written = 0;
  while (snapshot_debt_ > 0 && written < kRecordParts) {
    CRAWLDB_ASSIGN_OR_RETURN(int64_t bytes, WritePart(next, seq));
    snapshot_debt_ -= std::max(bytes, kMinPartCost);
    next = (next + 1) % kRecordParts;
    ++written;
  }
  if (written == kRecordParts) return FinishFullCheckpoint();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteNextPart));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, static_cast<int64_t>(next)));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
  }
  // The part written longest ago is the next one; the log rows it holds are no longer needed,
  // but this transaction's own row stays, so that other connections see that rows went missing.
  int64_t oldest = 0;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadPartSeq));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, static_cast<int64_t>(next)));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (row) oldest = select.ColumnInt64(0);
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, std::min(oldest, seq - 1)));
  return trim.Run();
}

absl::Status FrontierTable::Checkpoint() {
  // Whatever happens next, the shadow tables are the truth: a failure rolls them back and the
  // store is reloaded from them.
  sync().ReloadOnRollback();
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().last_seq();
  absl::Status status;
  for (size_t part = 0; part < kRecordParts && status.ok(); ++part) {
    status = WritePart(part, seq).status();
  }
  if (status.ok()) status = FinishFullCheckpoint();
  return status;
}

absl::Status FrontierTable::FinishFullCheckpoint() {
  // Every part now holds every change: the log is emptied and the generation bumped, so that
  // other connections reload instead of waiting for rows that are gone.
  sync().ReloadOnRollback();
  const int64_t seq = sync().last_seq();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
    CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(trim.Run());
  }
  CRAWLDB_RETURN_IF_ERROR(sync().BumpGeneration());
  sync().Loaded(sync().generation());
  sync().Replayed(seq);
  sync().Synced(store_.UndoMark());
  snapshot_debt_ = 0;
  return absl::OkStatus();
}

}  // namespace crawldb::frontier
