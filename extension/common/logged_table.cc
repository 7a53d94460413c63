#include "extension/common/logged_table.h"

#include "absl/strings/str_cat.h"
#include "extension/common/replicated_writes.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"

namespace crawldb {

LoggedTable::LoggedTable(sqlite3* db, std::string module, absl::string_view schema,
                         absl::string_view table)
    : db_(db),
      module_(std::move(module)),
      sync_(std::make_unique<TableSync>(db, module_, schema, table)),
      allocation_failures_seen_(AllocationFailures()),
      allocation_failures_at_begin_(allocation_failures_seen_) {}

void LoggedTable::RenameSync(absl::string_view schema, absl::string_view table) {
  auto sync = std::make_unique<TableSync>(db_, module_, schema, table);
  sync->TakeFiguresFrom(*sync_);
  sync_.swap(sync);
}

PlanFigures LoggedTable::planning_figures() const {
  return sync_->loaded() ? RoundedStoreFigures() : sync_->stored_figures();
}

absl::Status LoggedTable::SaveFigures() { return sync_->SaveFigures(RoundedStoreFigures()); }

PlanFigures LoggedTable::RoundedStoreFigures() const {
  PlanFigures store = StoreFigures();
  return PlanFigures::Rounded(store.rows, store.keys);
}

absl::Status LoggedTable::CatchUp() {
  if (const uint64_t failures = AllocationFailures(); failures != allocation_failures_seen_) {
    sync_->RequireReload();  // the store may hold part of a change
    allocation_failures_seen_ = failures;
  }
  CRAWLDB_ASSIGN_OR_RETURN(TableSync::Action action, sync_->Poll());
  absl::Status status;
  if (action == TableSync::Action::kReload) {
    status = LoadAll();
  } else if (action == TableSync::Action::kReplay) {
    status = ReplayLogSince(sync_->last_seq());
  }
  if (!status.ok()) {
    sync_->RequireReload();  // the store may hold part of what it read: never trust it again
    return status;
  }
  sync_->CaughtUp();
  return absl::OkStatus();
}

bool LoggedTable::CurrentAt(int64_t version) const {
  return AllocationFailures() == allocation_failures_seen_ && sync_->CurrentAt(version);
}

absl::Status LoggedTable::Begin() {
  CRAWLDB_RETURN_IF_ERROR(CheckReplicatedWrite(db_));
  CRAWLDB_RETURN_IF_ERROR(sync_->TakeWriteLock());
  allocation_failures_at_begin_ = AllocationFailures();
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  ClearUndo();
  sync_->Began();
  ResetTransaction(false);
  return absl::OkStatus();
}

absl::Status LoggedTable::RefuseCommitAfterAllocationFailure() const {
  if (AllocationFailures() == allocation_failures_at_begin_) return absl::OkStatus();
  return absl::ResourceExhaustedError(
      absl::StrCat(module_,
                   ": out of memory during this transaction, which may have left part "
                   "of a change in memory; it cannot commit: roll it back and retry"));
}

absl::Status LoggedTable::Commit() {
  ClearUndo();
  sync_->Committed();
  ResetTransaction(false);
  // This connection's own commit leaves data_version as it was: nothing to catch up with.
  return absl::OkStatus();
}

absl::Status LoggedTable::Rollback() {
  UndoTo(0);
  sync_->RolledBack();
  ResetTransaction(true);
  return absl::OkStatus();
}

absl::Status LoggedTable::Savepoint(int level) {
  sync_->SetSavepoint(level, UndoMark());
  return absl::OkStatus();
}

absl::Status LoggedTable::Release(int level) {
  sync_->ReleaseSavepoint(level);
  return absl::OkStatus();
}

absl::Status LoggedTable::RollbackTo(int level) {
  size_t mark = 0;
  if (sync_->RolledBackTo(level, &mark)) UndoTo(mark);
  return absl::OkStatus();
}

}  // namespace crawldb
