// LoggedTable: the transaction and catch-up methods shared by the crawldb tables whose store is
// a base plus a log of committed changes (urls, outlinks, frontier; extension/ARCHITECTURE.md).
// A table derives from it (beside VirtualTable and CrawldbTable) and provides the hooks; the
// trampolines (trampoline.h) then find Begin, Commit, Rollback, Savepoint, Release and
// RollbackTo here. What the store has seen of the shadow tables is kept in sync()
// (table_sync.h); the table writes its log rows in its own xSync.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/table_sync.h"

namespace crawldb {

class LoggedTable {
 public:
  LoggedTable(const LoggedTable&) = delete;
  LoggedTable& operator=(const LoggedTable&) = delete;

  // Brings the store up to date with what other connections committed: nothing, a replay of
  // the new log rows, or a reload; a failure leaves a reload pending.
  absl::Status CatchUp();

  // xBegin takes the write lock at once, so that no other connection commits between this
  // catch-up and this transaction's commit (ids and leases are handed out in memory). Under
  // crawldb-node it first refuses a write dqlite would not replicate (replicated_writes.h).
  absl::Status Begin();
  absl::Status Commit();
  absl::Status Rollback();
  absl::Status Savepoint(int level);
  absl::Status Release(int level);
  absl::Status RollbackTo(int level);

  // True between xBegin and the transaction's commit or rollback: SQLite will call xSync,
  // xCommit or xRollback (and xSavepoint, xRollbackTo) on this table, so a change made to its
  // store now, by any route, is written or undone with the transaction.
  bool in_write_transaction() const { return sync_->writing(); }

  // The figures xBestIndex plans with (plan_figures.h): the store's own, rounded, once it is
  // loaded; before that, the ones stored in the config (given by UseStored).
  PlanFigures planning_figures() const;

 protected:
  LoggedTable(sqlite3* db, std::string module, absl::string_view schema, absl::string_view table);
  virtual ~LoggedTable() = default;

  TableSync& sync() { return *sync_; }
  // Whether CatchUp() would find nothing to do, given that a table of the same schema and
  // connection has just caught up at data version `version` (TableSync::CurrentAt; and no
  // allocation failure since this store was last loaded or caught up).
  bool CurrentAt(int64_t version) const;
  // After a rename: the bookkeeping's statements name the new tables.
  void RenameSync(absl::string_view schema, absl::string_view table);

  // OK unless a std::bad_alloc was caught since this transaction began (trampoline.h): the
  // store may hold part of a change, so the transaction must not commit (ResourceExhausted,
  // SQLITE_NOMEM, saying to roll back). Every xSync calls it first.
  absl::Status RefuseCommitAfterAllocationFailure() const;

  // At connect: what xConnect read of the config (ShadowTableSet::ReadStored): the figures to
  // plan with, and the generation the first load may take instead of reading it.
  void UseStored(const ShadowTableSet::Stored& stored) {
    sync_->UseStoredFigures(stored.figures);
    sync_->UseConnectGeneration(stored.generation, stored.pager_data_version);
  }
  // Stores the store's figures when their rounding moved (TableSync::SaveFigures). Called by xSync and by every
  // statement that rewrites the shadow tables, so that each commit leaves them current.
  absl::Status SaveFigures();

  // Hooks. LoadAll replaces the store by the shadow tables' content (calling sync().Loaded);
  // ReplayLogSince applies the log rows after `seq` (calling sync().Replayed for each).
  virtual absl::Status LoadAll() = 0;
  virtual absl::Status ReplayLogSince(int64_t seq) = 0;
  // The store's undo log.
  virtual size_t UndoMark() const = 0;
  virtual void UndoTo(size_t mark) = 0;
  virtual void ClearUndo() = 0;
  // A transaction begins, commits or rolls back: forget what the table counted of the log rows
  // it wrote (a rollback also takes them back).
  virtual void ResetTransaction(bool /*rolled_back*/) {}
  // The store's counts as PlanFigures (not rounded).
  virtual PlanFigures StoreFigures() const = 0;

 private:
  PlanFigures RoundedStoreFigures() const;

  sqlite3* db_;
  std::string module_;
  std::unique_ptr<TableSync> sync_;
  // AllocationFailures() when the store was last loaded or caught up: when it moves, the next
  // statement reloads the store.
  uint64_t allocation_failures_seen_;
  // AllocationFailures() at Begin.
  uint64_t allocation_failures_at_begin_;
};

}  // namespace crawldb
