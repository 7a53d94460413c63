// The `urls` virtual table (module crawldb_urls): the URL store as SQL.
//
//   CREATE VIRTUAL TABLE urls USING crawldb_urls[(max_url_length=8192, merge_bytes=268435456)];
//   columns: id INTEGER (= rowid), url TEXT (normalised), host TEXT, fp INTEGER, and the hidden
//   command column named like the table: INSERT INTO urls(urls) VALUES ('optimize').
//
// Shadow tables (the formats are owned by the headers named):
//   <t>_config  ShadowTableSet (shadow_tables.h): module, format_version, options, and
//               'generation', bumped by every optimize
//   <t>_base    (part INTEGER PRIMARY KEY, data BLOB NOT NULL)   url_base.h
//   <t>_log     (seq INTEGER PRIMARY KEY, first_id, added, deleted)   url_log_format.h
//   <t>_parts   (part INTEGER PRIMARY KEY, seq, data)   url_part.h; part −1: the parts' own model
//   <t>_deleted (id INTEGER PRIMARY KEY)   every id deleted since optimize
//
// Batch merges (paper 003; url_store.h, url_part.h). Each xSync, after its log row: while the
// pending keys (added since optimize, not yet in a part) pass the larger of the option
// merge_bytes and kPendingPerStored × the stored bytes of base and parts (0: at every commit),
// parts are merged in
// turn, from where the last commit stopped, until about kMergeFactor times the key bytes the
// transaction added are merged (at most that times the bytes that were pending before it, so
// that a bulk load in one transaction does not pay a rebuild at its commit); each part's row is
// rewritten with the commit's seq. Then the
// log rows before the oldest seq among parts that still have pending keys are trimmed — never
// the newest row, so that a connection that has not read the trimmed rows finds a gap in the
// seqs and reloads. The first merge without a model to share (a base under kMinBaseModelKeys
// keys) trains the parts' own model (row −1), waiting for min(merge_bytes, kPartsSampleBytes)
// pending bytes. Parts carry a Bloom filter, so adding a new URL seldom decodes a block of its
// part. Loading reads the base, the parts, the deleted ids, then the log rows, each add
// pending unless its part's seq covers the row; catching up replays the new rows, then installs
// the parts whose seq is newer than what this connection had read. The cost: a key is coded
// again each time its part is merged, about 1 + merged ÷ pending times in all (kPendingPerStored
// tells), and the log keeps the rows of about one merge cycle.
//
// Transactions (design.md §5): xUpdate changes only the in-memory UrlStore, recording each
// change in its undo log; xSync appends one <t>_log row with the transaction's changes (commit
// cost proportional to the change); xRollback / xRollbackTo undo in memory. `optimize` rewrites
// <t>_base and empties <t>_log, <t>_parts and <t>_deleted at once, so it is refused inside an
// explicit transaction (like VACUUM); a failed optimize statement reloads the store from the
// shadow tables.
//
// Other connections: at the start of every statement (xBegin, xOpen) the table compares
// PRAGMA data_version with the value it last saw; when another connection committed, it reads
// 'generation' and either replays the <t>_log rows it has not seen or, after an optimize,
// reloads everything. xBegin also takes the write lock at once (a no-op UPDATE of <t>_config),
// so two writers never hand out the same id.
//
// Sources: urls_table.cc (creation, writes, optimize, look-ups for the functions, statistics
// and checks), urls_cursor.h/.cc (columns, plans, the cursor), urls_sync.cc (loading, catching
// up, what a commit writes and the merges), urls_slots.h (the shadow-table statements by slot).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "extension/common/connection.h"
#include "extension/common/shadow_backed_table.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/statement_cache.h"
#include "extension/common/trampoline.h"
#include "extension/common/vtab_args.h"
#include "extension/identity/url_normalizer.h"
#include "extension/urls/url_store.h"

namespace crawldb::urls {

class FingerprintIndex;

inline constexpr const char kUrlsModule[] = "crawldb_urls";

class UrlsTable : public ShadowBackedTable {
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

  // For the SQL functions: look-ups on the committed-or-own state, after catching up with other
  // connections.
  absl::StatusOr<std::optional<int64_t>> IdOf(const identity::NormalizedUrl& url);
  absl::StatusOr<std::optional<std::string>> TextOf(int64_t id);

  const UrlStore& store() const { return store_; }
  const identity::NormalizeOptions& normalize_options() const { return normalize_options_; }

 private:
  UrlsTable(sqlite3* db, Connection* connection, const VtabArgs& args, size_t max_url_length,
            size_t merge_bytes);
  std::vector<std::string> StatementSql() const override;
  absl::Status CheckStore(std::vector<std::string>* found) override;

  absl::Status Insert(sqlite3_value* url, sqlite3_int64* rowid);
  absl::Status RunCommand(absl::string_view command);
  absl::Status Optimize();
  // LoggedTable
  absl::Status LoadAll() override;
  absl::Status ReplayLogSince(int64_t seq) override;
  // Installs the parts (and the parts' model) a <t>_parts query returns.
  absl::Status InstallParts(ScopedStatement& select);
  // At commit: merges parts in turn while the pending keys are too many (see above).
  absl::Status MergeParts(size_t added_bytes, int64_t seq);
  absl::Status WritePartRow(int64_t part, int64_t seq, const std::vector<uint8_t>& data);
  size_t UndoMark() const override { return store_.UndoMark(); }
  // After a merge the store holds what the undo log cannot take back; a rollback reloads it.
  void UndoTo(size_t mark) override {
    if (!merged_in_transaction_) store_.UndoTo(mark);
  }
  void ResetTransaction(bool /*rolled_back*/) override { merged_in_transaction_ = false; }
  void ClearUndo() override { store_.ClearUndo(); }
  PlanFigures StoreFigures() const override {
    return {static_cast<int64_t>(store_.live_count()), 0};
  }

  identity::NormalizeOptions normalize_options_;
  size_t merge_bytes_;
  UrlStore store_;
  std::vector<int64_t> part_seqs_;  // per part: the log seq its stored row holds (0: none)
  size_t next_merge_part_ = 0;
  bool merged_in_transaction_ = false;  // this transaction's xSync merged a part
  std::unique_ptr<FingerprintIndex> fingerprints_;
  std::unique_ptr<Cursor> spare_cursor_;  // the last cursor closed, for the next Open
  std::string log_keys_;                  // a <t>_log row's keys, decompressed
};

// Registers the crawldb_urls module and the url_* functions on `db`.
absl::Status RegisterUrls(sqlite3* db, Connection* connection);

}  // namespace crawldb::urls
