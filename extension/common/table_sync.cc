#include "extension/common/table_sync.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/status.h"

namespace crawldb {
namespace {

enum Slot { kDataVersion, kReadGeneration, kWriteGeneration, kTakeWriteLock };

}  // namespace

TableSync::TableSync(sqlite3* db, std::string module, absl::string_view schema,
                     absl::string_view table)
    : db_(db) {
  std::string config = ShadowTableSet::QualifiedName(schema, table, "config");
  std::vector<std::string> sql(kTakeWriteLock + 1);
  // PRAGMA data_version rather than SQLITE_FCNTL_DATA_VERSION: the pragma starts a read
  // transaction, so it is current even in a statement that has not read the file yet (a
  // function call), and it ignores this connection's own commits.
  sql[kDataVersion] = absl::StrCat("PRAGMA ", QuoteIdentifier(schema), ".data_version");
  sql[kReadGeneration] = absl::StrCat("SELECT value FROM ", config, " WHERE key = 'generation'");
  sql[kWriteGeneration] =
      absl::StrCat("INSERT OR REPLACE INTO ", config, "(key, value) VALUES ('generation', ?1)");
  sql[kTakeWriteLock] =
      absl::StrCat("UPDATE ", config, " SET value = value WHERE key = 'format_version'");
  statements_ = std::make_unique<StatementCache>(db, std::move(module), std::move(sql));
}

absl::StatusOr<TableSync::Action> TableSync::Poll() {
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement pragma, statements_->Use(kDataVersion));
    CRAWLDB_ASSIGN_OR_RETURN(bool row, pragma.Step());
    polled_version_ = row ? pragma.ColumnInt64(0) : 0;
  }
  if (reload_) return Action::kReload;
  if (polled_version_ == data_version_) return Action::kNone;
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, StoredGeneration());
  return generation != generation_ ? Action::kReload : Action::kReplay;
}

void TableSync::Loaded(int64_t generation) {
  generation_ = generation;
  last_seq_ = 0;
  reload_ = false;
  synced_mark_ = 0;
  savepoint_marks_.clear();
}

absl::StatusOr<int64_t> TableSync::StoredGeneration() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, statements_->Use(kReadGeneration));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
  int64_t generation = 0;
  if (!row || !absl::SimpleAtoi(select.ColumnText(0), &generation)) {
    return CorruptError(statements_->module(), "the config table has no valid generation");
  }
  return generation;
}

absl::Status TableSync::BumpGeneration() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, statements_->Use(kWriteGeneration));
  CRAWLDB_RETURN_IF_ERROR(write.BindText(1, absl::StrCat(generation_ + 1)));
  sqlite3_int64 last_rowid = sqlite3_last_insert_rowid(db_);
  CRAWLDB_RETURN_IF_ERROR(write.Run());
  sqlite3_set_last_insert_rowid(db_, last_rowid);
  ++generation_;
  return absl::OkStatus();
}

absl::Status TableSync::TakeWriteLock() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement lock, statements_->Use(kTakeWriteLock));
  sqlite3_int64 last_rowid = sqlite3_last_insert_rowid(db_);
  CRAWLDB_RETURN_IF_ERROR(lock.Run());
  sqlite3_set_last_insert_rowid(db_, last_rowid);
  return absl::OkStatus();
}

void TableSync::RolledBack() {
  last_seq_ -= synced_rows_;  // the log rows xSync wrote are rolled back too
  if (reload_on_rollback_) reload_ = true;
  EndTransaction();
}

bool TableSync::RolledBackTo(int level, size_t* mark) {
  // A rewrite in between changed the shadow tables, which SQLite has rolled back.
  if (reload_on_rollback_) reload_ = true;
  if (static_cast<size_t>(level) >= savepoint_marks_.size()) return false;
  *mark = savepoint_marks_[static_cast<size_t>(level)];
  savepoint_marks_.resize(static_cast<size_t>(level) + 1);
  return true;
}

void TableSync::SetSavepoint(int level, size_t mark) {
  savepoint_marks_.resize(static_cast<size_t>(level) + 1, mark);
  savepoint_marks_[static_cast<size_t>(level)] = mark;
}

void TableSync::ReleaseSavepoint(int level) {
  if (static_cast<size_t>(level) < savepoint_marks_.size()) {
    savepoint_marks_.resize(static_cast<size_t>(level));
  }
}

void TableSync::EndTransaction() {
  synced_mark_ = 0;
  synced_rows_ = 0;
  reload_on_rollback_ = false;
  savepoint_marks_.clear();
}

}  // namespace crawldb
