// The `urls` virtual table (module crawldb_urls): the URL store as SQL.
//
//   CREATE VIRTUAL TABLE urls USING crawldb_urls[(max_url_length=8192, merge_bytes=16384,
//       cache_mb=N, log_tail_kb=1024)];
//   columns: id INTEGER (= rowid), url TEXT (normalised), host TEXT, fp INTEGER, and the hidden
//   command column named like the table: INSERT INTO urls(urls) VALUES ('optimize').
//   cache_mb  the bound, in MiB, on the parts and id-map chunks one connection holds beyond
//             those with uncommitted adds (url_store.h; 0: only the part in use); the base's
//             groups of blocks read are all kept. When not given, the connection's bound
//             (crawldb_cache_mb(), 256 by default; maintenance_functions.h)
//   log_tail_kb  the log rows, in KiB, after which a commit folds the log tail (below;
//             0 .. 1048576): a larger tail folds less often, and every connection holds it and
//             reads it at open; 0 folds every commit
//
// Shadow tables (format version 7; the formats of their blobs are owned by the headers named):
//   <t>_config  ShadowTableSet (shadow_tables.h): module, format_version, options,
//               'generation', bumped by every optimize, and the lineage (UrlIds::Lineage):
//               'lineage', the schema cookie (PRAGMA schema_version) as the table was created,
//               and 'deletions', the transactions that deleted rows since (counted by their
//               first delete)
//   <t>_base    (part INTEGER PRIMARY KEY, data BLOB NOT NULL)   url_base.h
//   <t>_log     (seq INTEGER PRIMARY KEY, first_id, added, deleted)   url_log_format.h: per
//               transaction, the ids it added, the parts they went to, the last fold, the ids
//               it deleted, and for a commit in the log tail its URLs by part
//   <t>_pending (row INTEGER PRIMARY KEY, seq, ids, keys)   url_log_format.h: the URLs the
//               commits folded by commit seq added to each part, until the part's run holds
//               them
//   <t>_parts   (part INTEGER PRIMARY KEY, seq, data)   url_part.h: each part's run, written by
//               commit seq; part −1: the parts' own model
//   <t>_ids     (chunk INTEGER PRIMARY KEY, data)   url_id_parts.h: the part of every id
//   <t>_deleted (id INTEGER PRIMARY KEY)   every id deleted since optimize
// Format 6 is format 7 without a lineage: it is read as it is, the first commit makes it 7 (so
// that older builds, which delete without counting, refuse it from then on), and it stays without
// a lineage (no frontier pairs with it). Format 5 is format 6 but for its base and runs, all in
// url base version 2 (url_base.h), which is read as it is: the first commit makes the table 7,
// and the next optimize and merges write version 3. Format 4 wrote every commit's URLs to
// <t>_pending (its log rows carry no keys and no fold): it is read, as a log tail that is empty,
// and made 7 by the first commit. Format 3 kept every added key in <t>_log and had neither
// <t>_pending nor <t>_ids: it is read only right after an optimize (its log, parts and deleted
// tables empty), and made 7 by the first commit; otherwise refused with the way out (optimize
// with the build that wrote it). Older formats are refused.
//
// Opening reads the config, the base's header, model and group heads, the newest log row, and,
// when there is one, the deleted ids, the parts' model and the log tail: no part, and no group
// of base blocks. With no log row nothing was committed since the last optimize, and until a
// commit says otherwise no run, pending row or deleted id is read (BeyondBase). A statement
// reads the parts it needs (their run and pending rows) and the id-map chunks, kept in the store's cache
// (cache_mb), and the groups of base blocks it needs (url_base.h), kept until the next optimize.
//
// The log tail. A commit writes its <t>_log row with its URLs in it, by part, and no pending
// row, so that a small commit writes a page or two (and its id-map chunk) rather than a row in
// every part it added to. Every connection holds the rows after the last fold (the tail)
// decoded (url_log_tail.h), and adds a part's keys in them to the part when it reads the part.
// A commit folds the tail once its rows pass log_tail_kb or kTailRows (a commit whose own row
// would pass log_tail_kb, or the bytes a pending row may hold, folds at once): one or more <t>_pending rows for each part the tail
// added to, its row then carrying no URLs, and the merges below. Other connections add the rows
// they catch up with to their tail and forget the parts they name; at a fold they empty their
// tail and forget its parts.
//
// Batch merges (paper 003; url_store.h, url_part.h). Each xSync that folds, after its rows: in
// the parts the tail added to, in turn, a part whose keys pending from earlier commits pass the larger
// of merge_bytes and its run's stored bytes ÷ kRunPerPending (0: at every commit) gets a new
// run with every pending key, and its pending rows are deleted, until about kMergeFactor times
// the key bytes the tail added are merged. So a key is coded again a few times in all,
// at any size (urls_sync.cc), and a bulk load in one transaction leaves its
// keys pending. The first merge without a model to share (a base under kMinBaseModelKeys keys)
// trains the parts' own model (row −1) on the pending keys held, waiting for
// min(merge_bytes, kPartsSampleBytes) of them. Runs carry a Bloom filter, so adding a new URL
// seldom decodes a block of its run. The log keeps the tail and its newest kKeptLogRows rows. A
// fold also joins a part's newest pending rows into one while the row before them is no larger than they
// are together (UrlStore::RowsToFold), so that reading a part unpacks about log2(its pending
// commits) rows, and a key is packed again about as many times.
//
// Transactions (design.md §5): xUpdate changes only the in-memory UrlStore, recording each
// change in its undo log; xSync writes the transaction's rows (commit cost proportional to the
// change); xRollback / xRollbackTo undo in memory. `optimize` rewrites <t>_base and empties every
// other table at once, so it is refused inside an explicit transaction (like VACUUM); a failed
// optimize statement reloads the store from the shadow tables.
//
// Other connections: at the start of every statement (xBegin, xOpen) the table compares
// PRAGMA data_version with the value it last saw; when another connection committed, it reads
// 'generation' and either reads the <t>_log rows it has not seen — moving its last id on, taking
// their URLs into its tail, and dropping the parts they name, the tail's parts at a fold and
// the runs rewritten since — or, after an optimize or when
// rows it has not seen were trimmed, reloads. xBegin also takes the write lock at once (a no-op
// UPDATE of <t>_config), so two writers never hand out the same id.
//
// Sources: urls_table.cc (creation, writes, optimize, look-ups for the functions, statistics
// and checks), urls_cursor.h/.cc (columns, plans, the cursor), urls_sync.cc (loading, catching
// up, what a commit writes and the merges, the store's reads), urls_slots.h (the shadow-table
// statements by slot).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "codecs/packed_bytes.h"
#include "extension/common/connection.h"
#include "extension/common/read_snapshot.h"
#include "extension/common/shadow_backed_table.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/statement_cache.h"
#include "extension/common/trampoline.h"
#include "extension/common/vtab_args.h"
#include "extension/identity/url_normalizer.h"
#include "extension/urls/url_ids.h"
#include "extension/urls/url_log_format.h"
#include "extension/urls/url_log_tail.h"
#include "extension/urls/url_store.h"

namespace crawldb::urls {

class FingerprintIndex;

inline constexpr const char kUrlsModule[] = "crawldb_urls";
// The first format with <t>_pending and <t>_ids.
inline constexpr int kPartsFormat = 4;
// The first format whose log rows carry the log tail's URLs.
inline constexpr int kLogTailFormat = 5;
// The first format whose base and runs may be url base version 3 (url_base.h): older builds
// refuse the table as newer rather than misreport its blobs as damaged.
inline constexpr int kGroupHeadsFormat = 6;
// The first format whose deletes count in 'deletions' (Lineage): older builds, which would
// delete without counting, refuse it.
inline constexpr int kLineageFormat = 7;
// The shadow table of `suffix` (the tables format 4 added are created by a later commit).
const ShadowTableSpec* FindShadowSpec(absl::string_view suffix);

class UrlsTable : public ShadowBackedTable, public UrlIds, private UrlStoreSource {
 public:
  class Cursor;

  static absl::StatusOr<std::unique_ptr<UrlsTable>> Create(sqlite3* db, void* aux,
                                                           const VtabArgs& args);
  static absl::StatusOr<std::unique_ptr<UrlsTable>> Connect(sqlite3* db, void* aux,
                                                            const VtabArgs& args);
  static bool IsShadowName(absl::string_view suffix);
  ~UrlsTable() override;

  absl::Status BestIndex(sqlite3_index_info* info);
  absl::StatusOr<std::unique_ptr<Cursor>> Open();
  // Keeps one closed cursor for the next Open: a look-up statement then allocates nothing.
  void CloseCursor(std::unique_ptr<Cursor> cursor) noexcept;
  absl::Status Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid);
  absl::Status Sync();

  // CrawldbTable
  absl::StatusOr<std::string> StatsJson() override;

  // UrlIds (url_ids.h), for the SQL functions and the other families.
  absl::Status CatchUpIds() override { return CatchUp(); }
  absl::Status CatchUpDeletions(int64_t seen_version) override;
  absl::StatusOr<std::optional<int64_t>> IdOf(const identity::NormalizedUrl& url) override;
  absl::StatusOr<std::optional<std::string>> TextOf(int64_t id) override;
  absl::StatusOr<std::optional<std::string>> Lineage() override;
  uint64_t lineage_epoch() const override { return lineage_epoch_; }
  const identity::NormalizeOptions& normalize_options() const override {
    return normalize_options_;
  }
  int64_t max_id() const override { return store_.max_id(); }
  bool IsLive(int64_t id) const override { return store_.IsLive(id); }
  bool HasDeletedIds() const override { return store_.deleted_count() > 0; }
  bool IsDeleted(int64_t id) const override {
    return id >= 1 && id <= store_.max_id() && !store_.IsLive(id);
  }

  UrlStore& store() { return store_; }
  const UrlStore& store() const { return store_; }

 private:
  UrlsTable(sqlite3* db, Connection* connection, const VtabArgs& args, int stored_format,
            size_t max_url_length, size_t merge_bytes, size_t tail_bound_bytes,
            std::optional<size_t> cache_mb);
  std::vector<std::string> StatementSql() const override;
  absl::Status CheckStore(std::vector<std::string>* found) override;
  void SetCacheBytes(uint64_t bytes) override { store_.set_cache_bytes(bytes); }

  absl::Status Insert(sqlite3_value* url, sqlite3_int64* rowid);
  absl::Status RunCommand(absl::string_view command);
  absl::Status Optimize();
  // LoggedTable
  absl::Status LoadAll() override;
  absl::Status ReplayLogSince(int64_t seq) override;
  // At open: the rows after the last fold, which the newest log row names, into tail_.
  absl::Status LoadTail(int64_t last_seq, int64_t folded);
  // Takes one log row's URLs into tail_ (a row of a commit after the last fold).
  void AddToTail(const LogAdds& adds, size_t row_bytes);
  // A format-3 table is read only when nothing was added since its last optimize.
  absl::Status RefuseUnoptimizedOldFormat();
  absl::Status LoadPartsModel();
  // Format 3 → 4: the tables format 3 lacked.
  absl::Status CreatePartsTables();
  // At commit: merges the parts in `touched` whose pending keys are too many (see above).
  absl::Status MergeParts(const std::vector<size_t>& touched, int64_t first_added_id,
                          size_t added_bytes, int64_t seq);
  absl::Status WritePartRow(int64_t part, int64_t seq, const std::vector<uint8_t>& data);
  // store_.Part, a failure made SQLITE_CORRUPT_VTAB.
  absl::StatusOr<std::shared_ptr<LoadedPart>> HeldPart(size_t part);
  // A stored part of <t>_base (UrlBase::PartReader), for the base's groups of blocks.
  absl::StatusOr<std::optional<std::vector<uint8_t>>> ReadBasePart(size_t part);
  // UrlStoreSource
  absl::StatusOr<std::optional<StoredRun>> ReadRun(size_t part) override;
  absl::Status ReadPending(
      size_t part, int64_t after,
      const std::function<absl::Status(absl::Span<const int64_t> ids,
                                       absl::Span<const absl::string_view> keys)>& add_row)
      override;
  absl::Status ReadTail(
      size_t part,
      const std::function<absl::Status(absl::Span<const int64_t> ids,
                                       absl::Span<const absl::string_view> keys)>& add) override;
  // Writes the tail out at commit `seq`: the pending rows of every part it added to, joined as
  // RowsToFold says, then the merges due; the tail is then empty.
  absl::Status FoldTail(int64_t seq);
  // The most key bytes one <t>_pending row holds.
  size_t PendingRowBytes() const;
  // Writes part `part`'s ids and keys as pending rows of commit `seq`, of at most
  // PendingRowBytes each, and tells the store when it holds the part.
  absl::Status WritePendingRows(size_t part, absl::Span<const int64_t> ids,
                                absl::Span<const absl::string_view> keys, int64_t seq);
  // Writes one <t>_pending row of part `part`: ids and keys, by commit `seq`.
  absl::Status WritePendingRow(size_t part, absl::Span<const int64_t> ids,
                               absl::Span<const absl::string_view> keys, int64_t seq);
  // Folds part `part`'s newest pending rows into one when the store says so (RowsToFold).
  absl::Status FoldPendingRows(size_t part, int64_t seq);
  absl::StatusOr<std::optional<std::vector<uint16_t>>> ReadIdChunk(int64_t chunk) override;
  size_t UndoMark() const override { return store_.UndoMark(); }
  // After a merge the store holds what the undo log cannot take back; a rollback reloads it.
  void UndoTo(size_t mark) override {
    lineage_epoch_ = NextLineageEpoch();
    delete_counted_ = false;
    if (!merged_in_transaction_) store_.UndoTo(mark);
  }
  void ResetTransaction(bool /*rolled_back*/) override {
    lineage_epoch_ = NextLineageEpoch();
    delete_counted_ = false;
    merged_in_transaction_ = false;
  }
  void ClearUndo() override { store_.ClearUndo(); }
  PlanFigures StoreFigures() const override {
    return {static_cast<int64_t>(store_.live_count()), 0};
  }

  // A value no table of the process had before (lineage_epoch).
  static uint64_t NextLineageEpoch();
  // Whether a run, a pending row or a deleted id may be stored: a log row was read or written
  // since the last optimize (which empties the log with them, and every commit since appends
  // one; a load that finds no log row leaves last_seq() at 0), or the format is older than
  // the parts'. While not, look-ups read no run or pending row.
  bool BeyondBase() { return sync().last_seq() > 0 || stored_format_ < kPartsFormat; }

  identity::NormalizeOptions normalize_options_;
  uint64_t lineage_epoch_ = NextLineageEpoch();
  bool delete_counted_ = false;  // this transaction counted its deletion (since a rollback)
  int stored_format_;            // the format version the shadow tables are in
  size_t merge_bytes_;
  size_t tail_bound_bytes_;  // log_tail_kb
  UrlStore store_;
  UrlLogTail tail_;
  size_t next_merge_part_ = 0;          // where the next commit starts among the parts it touched
  bool merged_in_transaction_ = false;  // this transaction's xSync merged a part
  std::unique_ptr<FingerprintIndex> fingerprints_;
  std::unique_ptr<Cursor> spare_cursor_;  // the last cursor closed, for the next Open
  std::string log_keys_;                  // a <t>_pending or <t>_log row's keys, decompressed
  codecs::ZstdContexts zstd_;             // for every row this table packs or unpacks
  // Held by every open cursor: outside a transaction a statement's reads see one commit.
  ReadSnapshot read_snapshot_;
};

// Registers the crawldb_urls module and the url_* functions on `db`.
absl::Status RegisterUrls(sqlite3* db, Connection* connection);

}  // namespace crawldb::urls
