#include "extension/common/statement_cache.h"

#include "absl/strings/str_cat.h"
#include "extension/common/status.h"

namespace crawldb {

absl::Status SqliteFailure(sqlite3* db, int rc, absl::string_view module) {
  // The extended code says more (SQLITE_CONSTRAINT_UNIQUE, SQLITE_IOERR_WRITE) when it belongs
  // to the same primary code as rc.
  int extended = sqlite3_extended_errcode(db);
  if ((extended & 0xff) == (rc & 0xff)) rc = extended;
  return SqliteError(rc, absl::StrCat(module, ": ", sqlite3_errmsg(db)));
}

absl::Status ExecSql(sqlite3* db, absl::string_view sql, absl::string_view module) {
  std::string text(sql);
  int rc = sqlite3_exec(db, text.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, module);
  return absl::OkStatus();
}

absl::Status InSavepoint(sqlite3* db, absl::string_view name, absl::string_view module,
                         absl::FunctionRef<absl::Status()> body) {
  const std::string savepoint = QuoteIdentifier(name);
  CRAWLDB_RETURN_IF_ERROR(ExecSql(db, absl::StrCat("SAVEPOINT ", savepoint), module));
  absl::Status status = body();
  if (!status.ok()) {
    ExecSql(db, absl::StrCat("ROLLBACK TO ", savepoint, "; RELEASE ", savepoint), module)
        .IgnoreError();
    return status;
  }
  absl::Status released = ExecSql(db, absl::StrCat("RELEASE ", savepoint), module);
  if (!released.ok() && !sqlite3_get_autocommit(db)) ExecSql(db, "ROLLBACK", module).IgnoreError();
  return released;
}

std::string QuoteIdentifier(absl::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted.push_back(c);
    if (c == '"') quoted.push_back('"');
  }
  quoted.push_back('"');
  return quoted;
}

ScopedStatement::ScopedStatement(ScopedStatement&& other) noexcept
    : statement_(other.statement_), in_use_(other.in_use_), module_(other.module_) {
  other.statement_ = nullptr;
  other.in_use_ = nullptr;
}

ScopedStatement::~ScopedStatement() {
  if (statement_ == nullptr) return;
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
  *in_use_ = false;
}

absl::Status ScopedStatement::Check(int rc) const {
  if (rc == SQLITE_OK) return absl::OkStatus();
  return SqliteFailure(sqlite3_db_handle(statement_), rc, module_);
}

absl::Status ScopedStatement::BindInt64(int index, int64_t value) {
  return Check(sqlite3_bind_int64(statement_, index, value));
}
absl::Status ScopedStatement::BindDouble(int index, double value) {
  return Check(sqlite3_bind_double(statement_, index, value));
}
absl::Status ScopedStatement::BindText(int index, absl::string_view value) {
  return Check(sqlite3_bind_text64(statement_, index, value.data(), value.size(), SQLITE_TRANSIENT,
                                   SQLITE_UTF8));
}
absl::Status ScopedStatement::BindBlob(int index, absl::Span<const uint8_t> value) {
  return BindBlobWith(index, value, SQLITE_TRANSIENT);
}
absl::Status ScopedStatement::BindBlobView(int index, absl::Span<const uint8_t> value) {
  return BindBlobWith(index, value, SQLITE_STATIC);
}
absl::Status ScopedStatement::BindBlobWith(int index, absl::Span<const uint8_t> value,
                                           void (*destructor)(void*)) {
  // A zero-length blob must still be a blob, not NULL: give SQLite a non-null pointer.
  static const uint8_t kEmpty = 0;
  return Check(sqlite3_bind_blob64(statement_, index, value.empty() ? &kEmpty : value.data(),
                                   value.size(), destructor));
}
absl::Status ScopedStatement::BindNull(int index) {
  return Check(sqlite3_bind_null(statement_, index));
}

absl::StatusOr<bool> ScopedStatement::Step() {
  int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return Check(rc);
}

absl::Status ScopedStatement::Run() {
  while (true) {
    absl::StatusOr<bool> row = Step();
    if (!row.ok()) return row.status();
    if (!*row) return absl::OkStatus();
  }
}

int64_t ScopedStatement::ColumnInt64(int column) const {
  return sqlite3_column_int64(statement_, column);
}
double ScopedStatement::ColumnDouble(int column) const {
  return sqlite3_column_double(statement_, column);
}
bool ScopedStatement::ColumnIsNull(int column) const {
  return sqlite3_column_type(statement_, column) == SQLITE_NULL;
}
absl::string_view ScopedStatement::ColumnText(int column) const {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text),
          static_cast<size_t>(sqlite3_column_bytes(statement_, column))};
}
absl::Span<const uint8_t> ScopedStatement::ColumnBlob(int column) const {
  const void* blob = sqlite3_column_blob(statement_, column);
  if (blob == nullptr) return {};
  return {static_cast<const uint8_t*>(blob),
          static_cast<size_t>(sqlite3_column_bytes(statement_, column))};
}

StatementCache::StatementCache(sqlite3* db, std::string module, std::vector<std::string> sql)
    : db_(db), module_(std::move(module)) {
  slots_.resize(sql.size());
  for (size_t i = 0; i < sql.size(); ++i) slots_[i].sql = std::move(sql[i]);
}

StatementCache::~StatementCache() {
  for (Slot& slot : slots_) sqlite3_finalize(slot.statement);
}

absl::StatusOr<ScopedStatement> StatementCache::Use(size_t slot) {
  if (slot >= slots_.size()) {
    return absl::InternalError(absl::StrCat(module_, ": no statement in slot ", slot));
  }
  Slot& entry = slots_[slot];
  if (*entry.in_use) {
    return absl::InternalError(absl::StrCat(module_, ": statement ", slot, " is already in use"));
  }
  if (entry.statement == nullptr) {
    int rc = sqlite3_prepare_v3(db_, entry.sql.data(), static_cast<int>(entry.sql.size()),
                                SQLITE_PREPARE_PERSISTENT, &entry.statement, nullptr);
    if (rc != SQLITE_OK) {
      absl::Status status = SqliteFailure(db_, rc, module_);
      sqlite3_finalize(entry.statement);
      entry.statement = nullptr;
      return status;
    }
  }
  *entry.in_use = true;
  return ScopedStatement(entry.statement, entry.in_use.get(), module_);
}

}  // namespace crawldb
