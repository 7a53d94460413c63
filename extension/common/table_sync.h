// TableSync: what one connection's in-memory copy of a crawldb table knows of its shadow tables,
// and the bookkeeping that keeps the two in step (design.md §5). Tables whose arena is a base
// plus a log of committed changes (urls, outlinks) share it:
//
// - <t>_config holds 'generation', bumped whenever the base is rewritten (optimize, import);
//   the log rows <t>_log carry seq 1, 2, 3, … in commit order and are emptied with each rewrite.
// - At the start of every statement Poll() compares the database's data version (the pager's
//   counter inside a transaction, PRAGMA data_version outside one) with the value last seen:
//   unchanged → nothing to do; another connection committed → replay the log rows after
//   last_seq(), or reload everything when the generation moved (or a reload is pending).
// - xBegin takes the write lock at once (TakeWriteLock: a no-op UPDATE of <t>_config), so no
//   other connection commits between the catch-up and this transaction's commit; until then
//   Poll() answers "nothing to do" without reading the data version.
// - xSync appends log rows (NextSeq for each); xRollback forgets them (RolledBack); a statement
//   that rewrote the base marks ReloadOnRollback so that a rollback reloads from the (rolled
//   back) shadow tables.
// - Savepoint marks: positions in the table's undo log per savepoint level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/common/plan_figures.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/statement_cache.h"

namespace crawldb {

class TableSync {
 public:
  TableSync(sqlite3* db, std::string module, absl::string_view schema, absl::string_view table);

  enum class Action { kNone, kReplay, kReload };
  // What the table must do to see every committed change.
  absl::StatusOr<Action> Poll();
  // After the store was replaced (a reload from the shadow tables, or a rewrite): the
  // generation read (StoredGeneration) before it. The log restarts from the beginning, and
  // undo-log positions (savepoints, what xSync wrote) no longer mean anything.
  void Loaded(int64_t generation);
  // After the catch-up that Poll asked for is done.
  void CaughtUp() { data_version_ = polled_version_; }
  // The data version the table last caught up at (-1: never). Another table of the same schema
  // and connection that has just caught up at `version` may skip its own Poll when
  // CurrentAt(version): nothing committed since this one caught up either.
  int64_t caught_up_version() const { return data_version_; }
  bool CurrentAt(int64_t version) const {
    return loaded_ && !reload_ && version >= 0 && data_version_ == version;
  }
  // True once the store was loaded (or rewritten): its own counts are then the ones to plan by.
  bool loaded() const { return loaded_; }

  absl::StatusOr<int64_t> StoredGeneration();
  // The pager's data version of `schema` (SQLITE_FCNTL_DATA_VERSION): current while a statement
  // holds a read transaction; nullopt when it cannot be read.
  static std::optional<unsigned int> PagerDataVersion(sqlite3* db, const char* schema);
  // At connect: the generation xConnect read, and the pager's data version of the snapshot it
  // read it in (ShadowTableSet::Stored). The first StoredGeneration answers with it when the
  // version polled since is the same — nothing was committed in between — which spares every
  // new connection a statement per table; later calls read the config.
  void UseConnectGeneration(std::optional<int64_t> generation,
                            std::optional<unsigned int> pager_version);
  // Stores generation() + 1 as the new generation (a rewrite of the base) and adopts it.
  absl::Status BumpGeneration();
  int64_t generation() const { return generation_; }

  // Takes the database's write lock without changing the user's last_insert_rowid().
  absl::Status TakeWriteLock();

  // The plan figures of <t>_config (plan_figures.h): read at connect (ShadowTableSet::ReadStored),
  // written by SaveFigures only when `figures` differ from what is stored. A rollback makes the
  // next save write.
  void UseStoredFigures(const PlanFigures& figures) {
    stored_figures_ = figures;
    stored_figures_known_ = true;
  }
  absl::Status SaveFigures(const PlanFigures& figures);
  const PlanFigures& stored_figures() const { return stored_figures_; }
  // After a rename: what the table's previous bookkeeping knew of its figures.
  void TakeFiguresFrom(const TableSync& previous) {
    stored_figures_ = previous.stored_figures_;
    stored_figures_known_ = previous.stored_figures_known_;
  }

  // Log sequence numbers.
  int64_t last_seq() const { return last_seq_; }
  void Replayed(int64_t seq) { last_seq_ = seq; }
  // The seq for the next row this connection appends, counted as written in this transaction.
  int64_t NextSeq() {
    ++synced_rows_;
    return ++last_seq_;
  }
  void LogCleared() { last_seq_ = 0; }

  // The next statement reloads everything (a failed rewrite, a corrupt state).
  void RequireReload() { reload_ = true; }
  void ReloadOnRollback() { reload_on_rollback_ = true; }

  // Transaction starts and ends.
  void Began() {
    EndTransaction();
    writing_ = true;
  }
  void Committed() { EndTransaction(); }
  // Between Began and the transaction's end.
  bool writing() const { return writing_; }
  void RolledBack();
  // RollbackTo: true when the savepoint's undo mark is known; *mark receives it.
  bool RolledBackTo(int level, size_t* mark);
  void SetSavepoint(int level, size_t mark);
  void ReleaseSavepoint(int level);
  // Where this transaction's unsynced changes start in the undo log; set after xSync.
  size_t synced_mark() const { return synced_mark_; }
  void Synced(size_t mark) { synced_mark_ = mark; }

 private:
  void EndTransaction();
  // A number that changes whenever another connection commits to the schema (see the source).
  absl::StatusOr<int64_t> DataVersion();

  sqlite3* db_;
  std::string schema_;
  std::string table_;
  std::unique_ptr<StatementCache> statements_;
  int64_t data_version_ = -1;  // -1: never polled, so the first Poll loads
  int64_t polled_version_ = -1;
  int64_t generation_ = 0;
  // UseConnectGeneration's, until the first StoredGeneration (version -1: none).
  int64_t connect_generation_ = 0;
  int64_t connect_version_ = -1;
  int64_t last_seq_ = 0;
  int64_t synced_rows_ = 0;  // log rows written by this transaction
  size_t synced_mark_ = 0;
  bool reload_ = true;
  bool loaded_ = false;
  bool reload_on_rollback_ = false;
  bool writing_ = false;  // between Began and the transaction's end: this connection holds the lock
  std::vector<size_t> savepoint_marks_;
  PlanFigures stored_figures_;
  bool stored_figures_known_ = false;  // false also after a rollback, which may undo a save
};

}  // namespace crawldb
