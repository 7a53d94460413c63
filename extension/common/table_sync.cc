#include "extension/common/table_sync.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/status.h"

namespace crawldb {
namespace {

enum Slot { kDataVersion, kReadGeneration, kWriteGeneration, kTakeWriteLock };

// The pager's data version as DataVersion() reports it: tagged, so that it never equals a value
// of PRAGMA data_version, which counts differently.
int64_t TaggedPagerVersion(unsigned int version) { return (int64_t{1} << 40) + version; }

}  // namespace

TableSync::TableSync(sqlite3* db, std::string module, absl::string_view schema,
                     absl::string_view table)
    : db_(db), schema_(schema), table_(table) {
  std::string config = ShadowTableSet::QualifiedName(schema, table, "config");
  std::vector<std::string> sql(kTakeWriteLock + 1);
  sql[kDataVersion] = absl::StrCat("PRAGMA ", QuoteIdentifier(schema), ".data_version");
  sql[kReadGeneration] = absl::StrCat("SELECT value FROM ", config, " WHERE key = 'generation'");
  sql[kWriteGeneration] =
      absl::StrCat("INSERT OR REPLACE INTO ", config, "(key, value) VALUES ('generation', ?1)");
  sql[kTakeWriteLock] =
      absl::StrCat("UPDATE ", config, " SET value = value WHERE key = 'format_version'");
  statements_ = std::make_unique<StatementCache>(db, std::move(module), std::move(sql));
}

absl::StatusOr<int64_t> TableSync::DataVersion() {
  // Inside a transaction the pager's counter is current and costs no statement (it also moves
  // on this connection's own commits: a harmless replay of nothing). Outside one — a function
  // in a statement that reads no table — PRAGMA data_version starts a read transaction first.
  // The two count differently: the pager's values are tagged (TaggedPagerVersion) so that they
  // never equal the pragma's, and a change of source reads as a change.
  if (sqlite3_txn_state(db_, schema_.c_str()) != SQLITE_TXN_NONE) {
    if (std::optional<unsigned int> version = PagerDataVersion(db_, schema_.c_str())) {
      return TaggedPagerVersion(*version);
    }
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement pragma, statements_->Use(kDataVersion));
  CRAWLDB_ASSIGN_OR_RETURN(bool row, pragma.Step());
  return row ? pragma.ColumnInt64(0) : 0;
}

absl::StatusOr<TableSync::Action> TableSync::Poll() {
  // In a transaction this table began, the write lock it took at xBegin keeps every other
  // connection from committing: there is nothing to catch up with (crawl_add polls per call).
  if (writing_ && !reload_) return Action::kNone;
  CRAWLDB_ASSIGN_OR_RETURN(polled_version_, DataVersion());
  if (reload_) return Action::kReload;
  if (polled_version_ == data_version_) return Action::kNone;
  CRAWLDB_ASSIGN_OR_RETURN(int64_t generation, StoredGeneration());
  return generation != generation_ ? Action::kReload : Action::kReplay;
}

void TableSync::Loaded(int64_t generation) {
  generation_ = generation;
  last_seq_ = 0;
  reload_ = false;
  loaded_ = true;
  synced_mark_ = 0;
  savepoint_marks_.clear();
}

std::optional<unsigned int> TableSync::PagerDataVersion(sqlite3* db, const char* schema) {
  unsigned int version = 0;
  if (sqlite3_file_control(db, schema, SQLITE_FCNTL_DATA_VERSION, &version) != SQLITE_OK) {
    return std::nullopt;
  }
  return version;
}

void TableSync::UseConnectGeneration(std::optional<int64_t> generation,
                                     std::optional<unsigned int> pager_version) {
  if (!generation.has_value() || !pager_version.has_value()) return;
  connect_generation_ = *generation;
  connect_version_ = TaggedPagerVersion(*pager_version);
}

absl::StatusOr<int64_t> TableSync::StoredGeneration() {
  // The first call comes from the first load, right after a Poll: polled_version_ is current.
  if (const int64_t connect_version = std::exchange(connect_version_, -1);
      connect_version >= 0 && polled_version_ == connect_version) {
    return connect_generation_;
  }
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
  LastInsertRowidGuard keep_last_rowid(db_);
  CRAWLDB_RETURN_IF_ERROR(write.Run());
  ++generation_;
  return absl::OkStatus();
}

absl::Status TableSync::TakeWriteLock() {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement lock, statements_->Use(kTakeWriteLock));
  LastInsertRowidGuard keep_last_rowid(db_);
  CRAWLDB_RETURN_IF_ERROR(lock.Run());
  return absl::OkStatus();
}

absl::Status TableSync::SaveFigures(const PlanFigures& figures) {
  if (stored_figures_known_ && figures == stored_figures_) return absl::OkStatus();
  CRAWLDB_RETURN_IF_ERROR(WritePlanFigures(db_, statements_->module(), schema_, table_, figures));
  stored_figures_ = figures;
  stored_figures_known_ = true;
  return absl::OkStatus();
}

void TableSync::RolledBack() {
  stored_figures_known_ = false;
  last_seq_ -= synced_rows_;  // the log rows xSync wrote are rolled back too
  if (reload_on_rollback_) reload_ = true;
  EndTransaction();
}

bool TableSync::RolledBackTo(int level, size_t* mark) {
  stored_figures_known_ = false;
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
  writing_ = false;
  synced_mark_ = 0;
  synced_rows_ = 0;
  reload_on_rollback_ = false;
  savepoint_marks_.clear();
}

}  // namespace crawldb
