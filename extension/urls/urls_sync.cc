// `urls` and its shadow tables: loading, catching up with other connections, and what a commit
// writes (log rows, merged parts; urls_table.h tells when parts merge).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/status.h"
#include "extension/urls/fingerprint_index.h"
#include "extension/urls/url_log_format.h"
#include "extension/urls/urls_slots.h"
#include "extension/urls/urls_table.h"

namespace crawldb::urls {
namespace {

// Pending key bytes merged per commit, as a multiple of the key bytes the commit added.
constexpr size_t kMergeFactor = 2;
// Pending key bytes allowed per stored byte of base and parts. A merged key is re-encoded with
// its part's keys each time new ones join it: about 1 + merged ÷ pending times, 2.6 here.
constexpr size_t kPendingPerStored = 2;
// The <t>_parts row holding the parts' own model (url_store.h), when they have one.
constexpr int64_t kModelRow = -1;

// Most key bytes in one <t>_log row (a transaction adding more writes several rows).
constexpr size_t kLogRowBytes = 4 << 20;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Loading and catching up.

absl::Status UrlsTable::LoadAll() {
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> parts,
                           ReadParts(kReadBase, "base part"));
  std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
  absl::StatusOr<UrlBase> base = UrlBase::Load(spans);
  if (!base.ok() && base.status().code() == absl::StatusCode::kFailedPrecondition) {
    return UserError(kUrlsModule, absl::StrCat("table '", name(), "': ", base.status().message()));
  }
  if (!base.ok()) return Corrupt(base.status());
  store_.Reset(std::move(*base));
  part_seqs_.assign(kUrlParts, 0);
  fingerprints_->Invalidate();
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadParts));
    CRAWLDB_RETURN_IF_ERROR(InstallParts(select));
  }
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadDeleted));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      const int64_t id = select.ColumnInt64(0);
      if (id < 1) return Corrupt(absl::DataLossError(absl::StrCat("deleted id ", id)));
      store_.GrowTo(id);
      store_.LoadDeleted(id);
    }
  }
  sync().Loaded(generation);
  // The log rows still held: the adds their parts do not hold yet. Deletions are all in
  // <t>_deleted already: the log's must agree.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, 0));
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t seq = select.ColumnInt64(0);
    const int64_t first_id = select.ColumnInt64(1);
    absl::StatusOr<std::vector<std::string_view>> added =
        DecodeLogKeys(select.ColumnBlob(2), &log_keys_);
    if (!added.ok()) return Corrupt(added.status());
    for (size_t i = 0; i < added->size(); ++i) {
      const int64_t id = first_id + static_cast<int64_t>(i);
      if (part_seqs_[UrlPartOf((*added)[i])] >= seq) {
        store_.GrowTo(id);  // merged into its part, or deleted since
        continue;
      }
      if (absl::Status status = store_.LoadPending((*added)[i], id); !status.ok()) {
        return Corrupt(status);
      }
    }
    absl::StatusOr<std::vector<int64_t>> deleted = DecodeLogIds(select.ColumnBlob(3));
    if (!deleted.ok()) return Corrupt(deleted.status());
    for (int64_t id : *deleted) {
      if (store_.IsLive(id) || id > store_.max_id()) {
        return Corrupt(absl::DataLossError(
            absl::StrCat("log row ", seq, " deletes id ", id, ", which the deleted table lacks")));
      }
    }
    sync().Replayed(seq);
  }
  store_.ClearUndo();
  return absl::OkStatus();
}

absl::Status UrlsTable::InstallParts(ScopedStatement& select) {
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t part = select.ColumnInt64(0);
    const int64_t seq = select.ColumnInt64(1);
    absl::Span<const uint8_t> data = select.ColumnBlob(2);
    if (part == kModelRow) {
      absl::StatusOr<codecs::UrlBlockModel> model = codecs::UrlBlockModel::Load(data);
      if (!model.ok()) {
        return Corrupt(
            absl::DataLossError(absl::StrCat("the parts' model: ", model.status().message())));
      }
      store_.SetPartsModel(std::make_shared<const codecs::UrlBlockModel>(std::move(*model)));
      continue;
    }
    if (part < 0 || part >= static_cast<int64_t>(kUrlParts)) {
      return Corrupt(absl::DataLossError(absl::StrCat("part ", part, " is out of range")));
    }
    if (store_.PartsModel() == nullptr) {
      return Corrupt(absl::DataLossError(absl::StrCat("part ", part, " has no model to read")));
    }
    absl::StatusOr<UrlPart> loaded = UrlPart::Load(data, store_.PartsModel());
    if (!loaded.ok()) return Corrupt(loaded.status());
    if (absl::Status status = store_.InstallPart(static_cast<size_t>(part), *std::move(loaded));
        !status.ok()) {
      return Corrupt(status);
    }
    part_seqs_[static_cast<size_t>(part)] = seq;
  }
  return absl::OkStatus();
}

absl::Status UrlsTable::ReplayLogSince(int64_t seq) {
  bool gap = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    for (int64_t expected = seq + 1; !gap; ++expected) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      // Rows this connection has not seen were trimmed: their URLs are in parts now.
      gap = select.ColumnInt64(0) != expected;
      if (gap) break;
      int64_t first_id = select.ColumnInt64(1);
      absl::StatusOr<std::vector<std::string_view>> added =
          DecodeLogKeys(select.ColumnBlob(2), &log_keys_);
      if (!added.ok()) return Corrupt(added.status());
      for (size_t i = 0; i < added->size(); ++i) {
        absl::Status status = store_.ReplayAdd((*added)[i], first_id + static_cast<int64_t>(i));
        if (!status.ok()) return Corrupt(status);
      }
      absl::StatusOr<std::vector<int64_t>> deleted = DecodeLogIds(select.ColumnBlob(3));
      if (!deleted.ok()) return Corrupt(deleted.status());
      for (int64_t id : *deleted) {
        if (absl::Status status = store_.ReplayDelete(id); !status.ok()) return Corrupt(status);
      }
      sync().Replayed(select.ColumnInt64(0));
    }
  }
  if (gap) return LoadAll();
  store_.ClearUndo();  // replayed changes are committed ones
  // The parts the committing connections rewrote.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement parts, Use(kReadPartsSince));
  CRAWLDB_RETURN_IF_ERROR(parts.BindInt64(1, seq));
  return InstallParts(parts);
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status UrlsTable::Sync() {
  UrlStore::Pending pending = store_.PendingSince(sync().synced_mark());
  if (pending.added_keys.empty() && pending.deleted_ids.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  // A large transaction is split into rows of at most kLogRowBytes of keys, well under
  // SQLITE_LIMIT_LENGTH; the deleted ids go in the first row.
  const size_t row_bytes = std::min<size_t>(
      kLogRowBytes, static_cast<size_t>(sqlite3_limit(db(), SQLITE_LIMIT_LENGTH, -1)) / 2);
  // The log rows must not change the user's last_insert_rowid().
  LastInsertRowidGuard keep_last_rowid(db());
  absl::Span<const std::string_view> keys(pending.added_keys);
  absl::Span<const int64_t> deleted(pending.deleted_ids);
  int64_t first_id = pending.first_added_id;
  size_t added_bytes = 0;
  int64_t seq = 0;
  do {
    size_t count = 0;
    for (size_t bytes = 0; count < keys.size() && (count == 0 || bytes < row_bytes); ++count) {
      bytes += keys[count].size() + 2;
      added_bytes += keys[count].size();
    }
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    seq = sync().NextSeq();
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(2, first_id));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(3, EncodeLogKeys(keys.subspan(0, count))));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(4, EncodeLogIds(deleted)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
    keys.remove_prefix(count);
    first_id += static_cast<int64_t>(count);
    deleted = {};
  } while (!keys.empty());
  for (int64_t id : pending.deleted_ids) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kWriteDeleted));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, id));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
  }
  sync().Synced(store_.UndoMark());
  CRAWLDB_RETURN_IF_ERROR(MergeParts(added_bytes, seq));
  return absl::OkStatus();
}

absl::Status UrlsTable::MergeParts(size_t added_bytes, int64_t seq) {
  const UrlTail& tail = store_.tail();
  const size_t stored = store_.base().StoredBytes() + store_.PartsStoredBytes();
  size_t threshold = merge_bytes_ == 0 ? 0 : std::max(merge_bytes_, kPendingPerStored * stored);
  // The first merge trains the parts' model: on a full sample, unless merge_bytes says sooner.
  if (store_.PartsModel() == nullptr) {
    threshold = std::max(threshold, std::min(merge_bytes_, kPartsSampleBytes));
  }
  if (tail.pending_bytes() <= threshold) return absl::OkStatus();
  // A commit merges about kMergeFactor times what it added, but no more than that times what
  // was waiting before it: a bulk load in one transaction leaves its keys to later commits
  // (or to optimize) instead of paying a rebuild at its own commit.
  const size_t backlog = tail.pending_bytes() - std::min(tail.pending_bytes(), added_bytes);
  const size_t budget = kMergeFactor * std::min(added_bytes, backlog);
  if (budget == 0) return absl::OkStatus();
  bool model_stored = store_.PartsModel() != nullptr;  // or needs no row
  size_t merged = 0;
  for (size_t visited = 0; visited < kUrlParts && merged < budget; ++visited) {
    const size_t part = next_merge_part_;
    next_merge_part_ = (next_merge_part_ + 1) % kUrlParts;
    if (tail.Pending(part).empty()) continue;
    for (uint32_t index : tail.Pending(part)) merged += tail.Key(index).size();
    // From here on the store holds what no undo log can take back: a rollback reloads.
    sync().ReloadOnRollback();
    merged_in_transaction_ = true;
    if (absl::Status status = store_.MergePart(part); !status.ok()) return Corrupt(status);
    if (!model_stored) {  // the merge just trained the parts' own model
      CRAWLDB_RETURN_IF_ERROR(WritePartRow(kModelRow, seq, store_.own_parts_model()->Serialize()));
      model_stored = true;
    }
    CRAWLDB_RETURN_IF_ERROR(
        WritePartRow(static_cast<int64_t>(part), seq, store_.part(part).Serialize()));
    part_seqs_[part] = seq;
  }
  // Log rows every part holds are no longer needed; the newest stays, so that a connection
  // that has not read it finds a gap in the seqs and reloads.
  int64_t needed = seq;
  for (size_t part = 0; part < kUrlParts; ++part) {
    if (!tail.Pending(part).empty()) needed = std::min(needed, part_seqs_[part] + 1);
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, needed));
  return trim.Run();
}

absl::Status UrlsTable::WritePartRow(int64_t part, int64_t seq, const std::vector<uint8_t>& data) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWritePart));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, part));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlob(3, data));
  return write.Run();
}

}  // namespace crawldb::urls
