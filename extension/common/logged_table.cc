#include "extension/common/logged_table.h"

#include "extension/common/status.h"

namespace crawldb {

LoggedTable::LoggedTable(sqlite3* db, std::string module, absl::string_view schema,
                         absl::string_view table)
    : db_(db),
      module_(std::move(module)),
      sync_(std::make_unique<TableSync>(db, module_, schema, table)),
      schema_(schema),
      table_(table) {}

void LoggedTable::RenameSync(absl::string_view schema, absl::string_view table) {
  auto sync = std::make_unique<TableSync>(db_, module_, schema, table);
  sync_.swap(sync);
  schema_ = std::string(schema);
  table_ = std::string(table);
}

PlanFigures LoggedTable::planning_figures() const {
  if (!sync_->loaded()) return stored_figures_;
  PlanFigures store = StoreFigures();
  return PlanFigures::Rounded(store.rows, store.keys);
}

absl::Status LoggedTable::ReadStoredFigures() {
  CRAWLDB_ASSIGN_OR_RETURN(stored_figures_, ReadPlanFigures(db_, module_, schema_, table_));
  stored_figures_known_ = true;
  return absl::OkStatus();
}

absl::Status LoggedTable::SaveFigures() {
  PlanFigures store = StoreFigures();
  PlanFigures rounded = PlanFigures::Rounded(store.rows, store.keys);
  if (stored_figures_known_ && rounded == stored_figures_) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(WritePlanFigures(db_, module_, schema_, table_, rounded));
  stored_figures_ = rounded;
  stored_figures_known_ = true;
  return absl::OkStatus();
}

absl::Status LoggedTable::CatchUp() {
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

absl::Status LoggedTable::Begin() {
  CRAWLDB_RETURN_IF_ERROR(sync_->TakeWriteLock());
  CRAWLDB_RETURN_IF_ERROR(CatchUp());
  ClearUndo();
  sync_->Began();
  ResetTransaction(false);
  return absl::OkStatus();
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
  stored_figures_known_ = false;  // a figure this transaction wrote is gone
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
  stored_figures_known_ = false;
  return absl::OkStatus();
}

}  // namespace crawldb
