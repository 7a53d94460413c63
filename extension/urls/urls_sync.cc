// `urls` and its shadow tables: loading, catching up with other connections, what a commit
// writes (log rows, and at a fold of the log tail pending rows and merged runs; urls_table.h
// tells when), id-map chunks, and the store's reads of what it does not hold (UrlStoreSource).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/status.h"
#include "extension/urls/fingerprint_index.h"
#include "extension/urls/shared_url_models.h"
#include "extension/urls/url_log_format.h"
#include "extension/urls/urls_slots.h"
#include "extension/urls/urls_table.h"

namespace crawldb::urls {
namespace {

// A part's run is rewritten once its committed pending key bytes pass its stored bytes divided by
// this (or the option merge_bytes, when larger). Keys take about twice as many bytes pending as
// coded, so a merge then codes about three keys per pending one, whatever the table's size.
constexpr size_t kRunPerPending = 1;
// Pending key bytes merged per commit, as a multiple of the key bytes the commit added.
constexpr size_t kMergeFactor = 2;
// The <t>_parts row holding the parts' own model (url_store.h), when they have one.
constexpr int64_t kModelRow = -1;
// Most key bytes in one <t>_pending row (a transaction adding more to a part writes several).
constexpr size_t kPendingRowBytes = 4 << 20;
// <t>_log rows kept behind the newest (and the tail's, whatever their number): a connection
// further behind finds a gap and reloads, which reads no part.
constexpr int64_t kKeptLogRows = 1000;
// The log tail is folded once its rows pass log_tail_kb or are this many, which bounds what
// every connection holds of it and reads at open.
constexpr size_t kTailRows = 256;
// A commit adding more URLs than this folds at once, without coding them into its row first
// (they would pass the default log_tail_kb alone).
constexpr int64_t kMaxLoggedUrls = 16384;

}  // namespace

// ---------------------------------------------------------------------------------------------
// Loading and catching up.

absl::Status UrlsTable::CatchUpDeletions(int64_t seen_version) {
  if (CurrentAt(seen_version)) return absl::OkStatus();
  // Until the first load the store is empty (every write loads it first), so it has no deleted
  // ids; an empty <t>_deleted says the committed state has none either.
  if (!sync().loaded()) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement any, Use(kAnyDeleted));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, any.Step());
    if (row && any.ColumnInt64(0) == 0) return absl::OkStatus();
  }
  return CatchUp();
}

absl::Status UrlsTable::LoadAll() {
  lineage_epoch_ = NextLineageEpoch();
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, sync().StoredGeneration());
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<std::vector<uint8_t>> parts,
                           ReadFirstBlobs("base", "data", kFirstGroupPart, "base part"));
  std::vector<absl::Span<const uint8_t>> spans(parts.begin(), parts.end());
  // The groups of blocks are read when a look-up needs them: after this connection's catch-up
  // with the other connections, so from the base loaded here until an optimize reloads it.
  absl::StatusOr<UrlBase> base =
      UrlBase::Open(spans, [this](size_t part) { return ReadBasePart(part); });
  if (!base.ok() && base.status().code() == absl::StatusCode::kFailedPrecondition) {
    return UserError(kUrlsModule, absl::StrCat("table '", name(), "': ", base.status().message()));
  }
  if (!base.ok()) return Corrupt(base.status());
  if (stored_format_ < kPartsFormat) CRAWLDB_RETURN_IF_ERROR(RefuseUnoptimizedOldFormat());
  store_.Reset(std::move(*base));
  tail_.Fold(0);
  fingerprints_->Invalidate();
  // The newest log row tells the last id given; its seq is the newest of every row. With none,
  // nothing was committed since the last optimize, which empties the log, the runs, the pending
  // rows and the deleted ids (every commit since appends a log row, and trimming keeps the
  // newest): a connection that only reads an optimized table prepares no statement for them.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement last, Use(kReadLastLog));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, last.Step());
  if (row || stored_format_ < kPartsFormat) {
    CRAWLDB_RETURN_IF_ERROR(LoadPartsModel());
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadDeleted));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool deleted, select.Step());
      if (!deleted) break;
      const int64_t id = select.ColumnInt64(0);
      if (id < 1) return Corrupt(absl::DataLossError(absl::StrCat("deleted id ", id)));
      store_.SetMaxId(id);
      store_.LoadDeleted(id);
    }
  }
  sync().Loaded(generation);
  if (row) {
    const int64_t seq = last.ColumnInt64(0);
    const int64_t first_id = last.ColumnInt64(1);
    absl::StatusOr<LogAdds> added = DecodeLogAdds(last.ColumnBlob(2), first_id, &log_keys_, &zstd_);
    if (!added.ok()) return Corrupt(added.status());
    if (first_id <= static_cast<int64_t>(store_.base().size())) {
      return Corrupt(absl::DataLossError(
          absl::StrCat("log row ", seq, " adds id ", first_id, ", in the base")));
    }
    store_.SetMaxId(first_id + added->added_count - 1);
    const int64_t folded = added->folded.value_or(seq);
    if (folded > seq) {
      return Corrupt(
          absl::DataLossError(absl::StrCat("url log: row ", seq, " names a later fold, ", folded)));
    }
    tail_.Fold(folded);
    if (folded < seq) CRAWLDB_RETURN_IF_ERROR(LoadTail(seq, folded));
    sync().Replayed(seq);
  }
  store_.ClearUndo();
  return absl::OkStatus();
}

absl::Status UrlsTable::LoadTail(int64_t last_seq, int64_t folded) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, folded));
  for (int64_t expected = folded + 1; expected <= last_seq; ++expected) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row || select.ColumnInt64(0) != expected) {
      return Corrupt(absl::DataLossError(
          absl::StrCat("url log: row ", expected, ", after the last fold, is missing")));
    }
    absl::Span<const uint8_t> blob = select.ColumnBlob(2);
    absl::StatusOr<LogAdds> added = DecodeLogAdds(blob, select.ColumnInt64(1), &log_keys_, &zstd_);
    if (!added.ok()) return Corrupt(added.status());
    if (added->folded != folded || added->has_adds() != (added->added_count > 0)) {
      return Corrupt(absl::DataLossError(
          absl::StrCat("url log: row ", expected,
                       ", after the last fold, names another fold or lacks its URLs")));
    }
    AddToTail(*added, blob.size());
  }
  return absl::OkStatus();
}

void UrlsTable::AddToTail(const LogAdds& adds, size_t row_bytes) {
  size_t begin = 0;
  for (size_t i = 0; i < adds.part_sizes.size(); ++i) {
    const size_t size = adds.part_sizes[i];
    tail_.AddPart(adds.parts[i], absl::MakeConstSpan(adds.ids).subspan(begin, size),
                  absl::MakeConstSpan(adds.keys).subspan(begin, size));
    begin += size;
  }
  tail_.AddRow(row_bytes);
}

absl::Status UrlsTable::RefuseUnoptimizedOldFormat() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement count, Use(kCountSinceOptimize));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, count.Step());
  if (row && count.ColumnInt64(0) == 0) return absl::OkStatus();
  return UserError(
      kUrlsModule,
      absl::StrCat("table '", name(), "' is in format ", stored_format_,
                   ", which this build reads only right after an optimize: it holds URLs added "
                   "since its last one"),
      absl::StrCat("open it with the crawldb build that wrote it and run INSERT INTO ",
                   QuoteIdentifier(name()), "(", QuoteIdentifier(name()),
                   ") VALUES ('optimize') (or SELECT crawldb_optimize()), then open it here"));
}

absl::Status UrlsTable::LoadPartsModel() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadRun));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, kModelRow));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  if (!row) return absl::OkStatus();
  absl::StatusOr<std::shared_ptr<const codecs::UrlBlockModel>> model =
      SharedUrlModel(select.ColumnBlob(1));
  if (!model.ok()) {
    return Corrupt(
        absl::DataLossError(absl::StrCat("the parts' model: ", model.status().message())));
  }
  store_.SetPartsModel(*std::move(model));
  return absl::OkStatus();
}

absl::Status UrlsTable::ReplayLogSince(int64_t seq) {
  lineage_epoch_ = NextLineageEpoch();
  bool gap = false;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadLogSince));
    CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, seq));
    for (int64_t expected = seq + 1; !gap; ++expected) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      // Rows this connection has not seen were trimmed: reload (it reads no part).
      gap = select.ColumnInt64(0) != expected;
      if (gap) break;
      const int64_t row_seq = select.ColumnInt64(0);
      absl::Span<const uint8_t> blob = select.ColumnBlob(2);
      absl::StatusOr<LogAdds> added =
          DecodeLogAdds(blob, select.ColumnInt64(1), &log_keys_, &zstd_);
      if (!added.ok()) return Corrupt(added.status());
      if (absl::Status status = store_.ReplayAdds(select.ColumnInt64(1), added->added_count);
          !status.ok()) {
        return Corrupt(status);
      }
      const int64_t folded = added->folded.value_or(row_seq);
      if (folded != tail_.folded()) {
        // A fold: the tail's keys are in pending rows now, which the parts held do not count.
        if (folded != row_seq) {
          return Corrupt(
              absl::DataLossError(absl::StrCat("url log: row ", row_seq, " names fold ", folded)));
        }
        for (size_t part : tail_.Parts()) store_.ForgetPart(part);
        tail_.Fold(folded);
      } else if (added->has_adds() != (added->added_count > 0)) {
        return Corrupt(absl::DataLossError(
            absl::StrCat("url log: row ", row_seq, ", in the tail, lacks its URLs")));
      } else {
        AddToTail(*added, blob.size());
      }
      for (size_t part : added->parts) store_.ForgetPart(part);
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
  // The runs the committing connections rewrote, and the parts' model they trained: each such
  // commit also wrote a log row, so none when there was none (a commit to other tables).
  if (sync().last_seq() == seq) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement parts, Use(kReadRunsSince));
  CRAWLDB_RETURN_IF_ERROR(parts.BindInt64(1, seq));
  bool model = false;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, parts.Step());
    if (!row) break;
    const int64_t part = parts.ColumnInt64(0);
    if (part == kModelRow) {
      model = true;
    } else if (part >= 0 && part < static_cast<int64_t>(kUrlParts)) {
      store_.ForgetPart(static_cast<size_t>(part));
    }
  }
  return model ? LoadPartsModel() : absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// The store's reads.

absl::StatusOr<std::optional<UrlStoreSource::StoredRun>> UrlsTable::ReadRun(size_t part) {
  if (!BeyondBase()) return std::optional<StoredRun>();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadRun));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, static_cast<int64_t>(part)));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  if (!row) return std::optional<StoredRun>();
  absl::Span<const uint8_t> data = select.ColumnBlob(1);
  return std::optional<StoredRun>(StoredRun{select.ColumnInt64(0), {data.begin(), data.end()}});
}

absl::StatusOr<std::optional<std::vector<uint8_t>>> UrlsTable::ReadBasePart(size_t part) {
  std::vector<uint8_t> bytes;
  absl::Status read = ReadBlob("base", "data", static_cast<int64_t>(part), IntoVector(&bytes));
  if (absl::IsNotFound(read)) return std::optional<std::vector<uint8_t>>();
  CRAWLDB_RETURN_IF_ERROR(read);
  return std::optional<std::vector<uint8_t>>(std::move(bytes));
}

absl::Status UrlsTable::ReadPending(
    size_t part, int64_t after,
    const std::function<absl::Status(absl::Span<const int64_t> ids,
                                     absl::Span<const absl::string_view> keys)>& add_row) {
  if (stored_format_ < kPartsFormat || !BeyondBase()) return absl::OkStatus();  // none stored
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadPending));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, PendingRow(part, 0)));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(2, PendingRow(part + 1, 0)));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(3, after));
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    const int64_t row_key = select.ColumnInt64(0);
    absl::StatusOr<std::vector<int64_t>> ids = DecodeIdGaps(select.ColumnBlob(1));
    if (!ids.ok()) return ids.status();
    absl::StatusOr<std::vector<absl::string_view>> keys =
        DecodeLogKeys(select.ColumnBlob(2), &log_keys_, &zstd_);
    if (!keys.ok()) return keys.status();
    if (ids->empty() || ids->size() != keys->size() || PendingRow(part, ids->front()) != row_key) {
      return absl::DataLossError(absl::StrCat("url log: pending row ", row_key, " of part ", part,
                                              " has ", ids->size(), " ids for ", keys->size(),
                                              " keys, or another first id"));
    }
    if (absl::Status status = add_row(*ids, *keys); !status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::Status UrlsTable::ReadTail(
    size_t part, const std::function<absl::Status(absl::Span<const int64_t> ids,
                                                  absl::Span<const absl::string_view> keys)>& add) {
  const UrlLogTail::PartKeys* keys = tail_.Part(part);
  if (keys == nullptr) return absl::OkStatus();
  return add(keys->ids, keys->Keys());
}

absl::StatusOr<std::optional<std::vector<uint16_t>>> UrlsTable::ReadIdChunk(int64_t chunk) {
  if (stored_format_ < kPartsFormat) return std::optional<std::vector<uint16_t>>();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, Use(kReadIdChunk));
  CRAWLDB_RETURN_IF_ERROR(select.BindInt64(1, chunk));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  if (!row) return std::optional<std::vector<uint16_t>>();
  absl::StatusOr<std::vector<uint16_t>> parts = DecodeIdChunk(select.ColumnBlob(0), &zstd_);
  if (!parts.ok()) return parts.status();
  return std::optional<std::vector<uint16_t>>(*std::move(parts));
}

// ---------------------------------------------------------------------------------------------
// Transactions.

absl::Status UrlsTable::Sync() {
  CRAWLDB_RETURN_IF_ERROR(RefuseCommitAfterAllocationFailure());
  UrlStore::Pending pending = store_.PendingSince(sync().synced_mark());
  if (pending.added_count == 0 && pending.deleted_ids.empty()) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(SaveFigures());
  if (stored_format_ < kPartsFormat) CRAWLDB_RETURN_IF_ERROR(CreatePartsTables());
  CRAWLDB_RETURN_IF_ERROR(UpgradeFormat());
  // The rows must not change the user's last_insert_rowid().
  LastInsertRowidGuard keep_last_rowid(db());
  const int64_t seq = sync().NextSeq();
  // The tail below is not in the undo log: a rollback after this point reloads.
  sync().ReloadOnRollback();
  merged_in_transaction_ = true;
  LogAdds added{pending.added_count, {}, tail_.folded(), {}, {}, {}};
  for (const UrlStore::PartAdds& adds : pending.parts) {
    added.parts.push_back(adds.part);
    added.part_sizes.push_back(static_cast<uint32_t>(adds.ids.size()));
    added.ids.insert(added.ids.end(), adds.ids.begin(), adds.ids.end());
    added.keys.insert(added.keys.end(), adds.keys.begin(), adds.keys.end());
    if (adds.ids.back() >= kMaxPendingId) {
      return UserError(kUrlsModule, absl::StrCat("table '", name(), "' has given every id up to ",
                                                 kMaxPendingId - 1, ", the most it can hold"));
    }
  }
  std::vector<uint8_t> row;
  bool fold = pending.added_count > kMaxLoggedUrls;
  if (!fold) {
    row = EncodeLogAdds(added, pending.first_added_id, &zstd_);
    fold = tail_.row_bytes() + row.size() > tail_bound_bytes_ || tail_.rows() + 1 > kTailRows ||
           row.size() > PendingRowBytes();
  }
  // The commit joins the tail, which a fold then writes out whole.
  AddToTail(added, fold ? 0 : row.size());
  if (fold) {
    CRAWLDB_RETURN_IF_ERROR(FoldTail(seq));
    added.folded = seq;
    added.part_sizes.clear();  // the row carries no URLs (and the merges moved their keys)
    added.ids.clear();
    added.keys.clear();
    row = EncodeLogAdds(added, pending.first_added_id, &zstd_);
  }
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLog));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, seq));
    CRAWLDB_RETURN_IF_ERROR(append.BindInt64(2, pending.first_added_id));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(3, row));
    CRAWLDB_RETURN_IF_ERROR(append.BindBlob(4, EncodeLogIds(pending.deleted_ids)));
    CRAWLDB_RETURN_IF_ERROR(append.Run());
  }
  for (const auto& [chunk, parts] : store_.DirtyIdChunks()) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWriteIdChunk));
    CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, chunk));
    CRAWLDB_RETURN_IF_ERROR(write.BindBlob(2, EncodeIdChunk(parts, &zstd_)));
    CRAWLDB_RETURN_IF_ERROR(write.Run());
  }
  store_.IdChunksWritten();
  for (int64_t id : pending.deleted_ids) {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kWriteDeleted));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, id));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
  }
  sync().Synced(store_.UndoMark());
  // Rows before the tail, beyond the newest kKeptLogRows.
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimLog));
  CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, std::min(seq - kKeptLogRows, tail_.folded() + 1)));
  return trim.Run();
}

absl::Status UrlsTable::FoldTail(int64_t seq) {
  // The tail is emptied first: a part read from here on finds its keys in its pending rows.
  UrlLogTail folding = std::move(tail_);
  tail_.Fold(seq);
  const std::vector<size_t> parts = folding.Parts();
  for (size_t part : parts) {
    const UrlLogTail::PartKeys& keys = *folding.Part(part);
    CRAWLDB_RETURN_IF_ERROR(WritePendingRows(part, keys.ids, keys.Keys(), seq));
    CRAWLDB_RETURN_IF_ERROR(FoldPendingRows(part, seq));
  }
  return MergeParts(parts, folding.first_id(), folding.key_bytes(), seq);
}

absl::Status UrlsTable::WritePendingRows(size_t part, absl::Span<const int64_t> ids,
                                         absl::Span<const absl::string_view> keys, int64_t seq) {
  const size_t row_bytes = PendingRowBytes();
  while (!keys.empty()) {
    size_t count = 0;
    for (size_t bytes = 0; count < keys.size() && (count == 0 || bytes < row_bytes); ++count) {
      bytes += keys[count].size() + 2;
    }
    CRAWLDB_RETURN_IF_ERROR(
        WritePendingRow(part, ids.subspan(0, count), keys.subspan(0, count), seq));
    store_.RowWritten(part, count);
    keys.remove_prefix(count);
    ids.remove_prefix(count);
  }
  return absl::OkStatus();
}

size_t UrlsTable::PendingRowBytes() const {
  // A part's adds are split into rows of at most kPendingRowBytes of keys, well under
  // SQLITE_LIMIT_LENGTH.
  return std::min<size_t>(kPendingRowBytes,
                          static_cast<size_t>(sqlite3_limit(db(), SQLITE_LIMIT_LENGTH, -1)) / 2);
}

absl::Status UrlsTable::WritePendingRow(size_t part, absl::Span<const int64_t> ids,
                                        absl::Span<const absl::string_view> keys, int64_t seq) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWritePending));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, PendingRow(part, ids.front())));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlob(3, EncodeIdGaps(ids)));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlob(4, EncodeLogKeys(keys, &zstd_)));
  return write.Run();
}

absl::Status UrlsTable::FoldPendingRows(size_t part, int64_t seq) {
  CRAWLDB_ASSIGN_OR_RETURN(std::shared_ptr<LoadedPart> held, HeldPart(part));
  const size_t rows = store_.RowsToFold(part);
  if (rows == 0) return absl::OkStatus();
  const std::vector<uint32_t>& sizes = held->row_sizes;
  size_t end = 0;
  for (uint32_t size : sizes) end += size;
  size_t begin = end;
  for (size_t i = 0; i < rows; ++i) begin -= sizes[sizes.size() - 1 - i];
  std::vector<int64_t> ids;
  std::vector<absl::string_view> keys;
  size_t bytes = 0;
  for (size_t i = begin; i < end; ++i) {
    ids.push_back(held->pending.id(i));
    keys.push_back(held->pending.key(i));
    bytes += keys.back().size() + 2;
  }
  // A folded row stays within the bytes one row may hold.
  if (bytes >= PendingRowBytes()) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement clear, Use(kTrimPending));
  CRAWLDB_RETURN_IF_ERROR(clear.BindInt64(1, PendingRow(part, ids.front())));
  CRAWLDB_RETURN_IF_ERROR(clear.BindInt64(2, PendingRow(part + 1, 0)));
  CRAWLDB_RETURN_IF_ERROR(clear.BindInt64(3, seq));
  CRAWLDB_RETURN_IF_ERROR(clear.Run());
  CRAWLDB_RETURN_IF_ERROR(WritePendingRow(part, ids, keys, seq));
  store_.RowsFolded(part, rows);
  return absl::OkStatus();
}

absl::Status UrlsTable::CreatePartsTables() {
  for (const char* suffix : {"pending", "ids"}) {
    const ShadowTableSpec* spec = FindShadowSpec(suffix);
    std::string sql =
        absl::StrCat("CREATE TABLE IF NOT EXISTS ", ShadowName(suffix), spec->definition);
    int rc = sqlite3_exec(db(), sql.c_str(), nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) return SqliteFailure(db(), rc, kUrlsModule);
  }
  stored_format_ = kPartsFormat;
  return absl::OkStatus();
}

absl::Status UrlsTable::MergeParts(const std::vector<size_t>& touched, int64_t first_added_id,
                                   size_t added_bytes, int64_t seq) {
  // The first merge trains the parts' model: on a full sample, unless merge_bytes says sooner.
  if (store_.PartsModel() == nullptr &&
      store_.HeldPendingBytes() <= std::min(merge_bytes_, kPartsSampleBytes)) {
    return absl::OkStatus();
  }
  // A commit merges about kMergeFactor times what it added, in the parts it added to whose keys
  // committed before it pass the threshold; a bulk load in one transaction so leaves its keys to
  // later commits (or to optimize) instead of paying a rebuild at its own commit. merge_bytes=0
  // merges every part the commit added to.
  const size_t budget = merge_bytes_ == 0 ? SIZE_MAX : kMergeFactor * added_bytes;
  bool model_stored = store_.PartsModel() != nullptr;  // or needs no row
  size_t merged = 0;
  for (size_t visited = 0; visited < touched.size() && merged < budget; ++visited) {
    const size_t part = touched[(next_merge_part_ + visited) % touched.size()];
    CRAWLDB_ASSIGN_OR_RETURN(std::shared_ptr<LoadedPart> held, HeldPart(part));
    const PendingKeys& pending = held->pending;
    if (merge_bytes_ > 0) {
      size_t earlier_bytes = 0;  // keys committed before this transaction
      for (size_t i = 0; i < pending.size() && pending.id(i) < first_added_id; ++i) {
        earlier_bytes += pending.key(i).size();
      }
      const size_t threshold = std::max(merge_bytes_, held->run->StoredBytes() / kRunPerPending);
      if (earlier_bytes == 0 || earlier_bytes < threshold) continue;
    }
    merged += pending.key_bytes();
    // From here on the store holds what no undo log can take back: a rollback reloads.
    sync().ReloadOnRollback();
    merged_in_transaction_ = true;
    if (absl::Status status = store_.MergePart(part, seq); !status.ok()) return Corrupt(status);
    if (!model_stored) {  // the merge just trained the parts' own model
      CRAWLDB_RETURN_IF_ERROR(WritePartRow(kModelRow, seq, store_.own_parts_model()->Serialize()));
      model_stored = true;
    }
    CRAWLDB_ASSIGN_OR_RETURN(std::shared_ptr<LoadedPart> rewritten, HeldPart(part));
    CRAWLDB_RETURN_IF_ERROR(
        WritePartRow(static_cast<int64_t>(part), seq, rewritten->run->Serialize()));
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement trim, Use(kTrimPending));
    CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(1, PendingRow(part, 0)));
    CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(2, PendingRow(part + 1, 0)));
    CRAWLDB_RETURN_IF_ERROR(trim.BindInt64(3, seq));
    CRAWLDB_RETURN_IF_ERROR(trim.Run());
  }
  if (!touched.empty()) next_merge_part_ = (next_merge_part_ + 1) % touched.size();
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<LoadedPart>> UrlsTable::HeldPart(size_t part) {
  absl::StatusOr<std::shared_ptr<LoadedPart>> held = store_.Part(part);
  if (!held.ok()) return Corrupt(held.status());
  return held;
}

absl::Status UrlsTable::WritePartRow(int64_t part, int64_t seq, const std::vector<uint8_t>& data) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, Use(kWritePart));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(1, part));
  CRAWLDB_RETURN_IF_ERROR(write.BindInt64(2, seq));
  CRAWLDB_RETURN_IF_ERROR(write.BindBlob(3, data));
  return write.Run();
}

}  // namespace crawldb::urls
