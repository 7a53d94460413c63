// Prepared statements for shadow-table access, prepared once and reused.
//
// A table builds one StatementCache holding the SQL of every statement it runs against its shadow
// tables (one per slot, table names already filled in). Use(slot) prepares the statement the first
// time (SQLITE_PREPARE_PERSISTENT, like fts5_storage.c) and lends it out as a ScopedStatement,
// which resets it and clears its bindings when it goes out of scope. A slot is lent to one user at
// a time; asking for a slot that is still lent out is an error, not a silent re-prepare.
// Errors from SQLite keep their exact result code (SqliteError) and read "<module>: <errmsg>".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>
#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

class ScopedStatement {
 public:
  ScopedStatement(ScopedStatement&& other) noexcept;
  ScopedStatement& operator=(ScopedStatement&&) = delete;
  ~ScopedStatement();

  // Parameters are 1-based as in sqlite3_bind_*. Text and blobs are copied (SQLITE_TRANSIENT).
  absl::Status BindInt64(int index, int64_t value);
  absl::Status BindDouble(int index, double value);
  absl::Status BindText(int index, absl::string_view value);
  absl::Status BindBlob(int index, absl::Span<const uint8_t> value);
  // Not copied (SQLITE_STATIC): `value` must stay alive and unchanged until this statement is
  // released (its bindings are cleared then). For large blobs written once.
  absl::Status BindBlobView(int index, absl::Span<const uint8_t> value);
  absl::Status BindNull(int index);

  // One step: true when a row is ready, false when the statement is done.
  absl::StatusOr<bool> Step();
  // Steps until done; for statements that return no rows.
  absl::Status Run();

  // Columns of the current row (0-based). Text and blob views live until the next Step().
  int64_t ColumnInt64(int column) const;
  double ColumnDouble(int column) const;
  bool ColumnIsNull(int column) const;
  absl::string_view ColumnText(int column) const;
  absl::Span<const uint8_t> ColumnBlob(int column) const;

  sqlite3_stmt* get() const { return statement_; }

 private:
  friend class StatementCache;
  ScopedStatement(sqlite3_stmt* statement, bool* in_use, absl::string_view module)
      : statement_(statement), in_use_(in_use), module_(module) {}
  absl::Status Check(int rc) const;
  absl::Status BindBlobWith(int index, absl::Span<const uint8_t> value, void (*destructor)(void*));

  sqlite3_stmt* statement_;
  bool* in_use_;              // the cache's flag for this slot; cleared on destruction
  absl::string_view module_;  // owned by the cache
};

class StatementCache {
 public:
  // `db` must outlive the cache. `sql[slot]` is the text of each statement.
  StatementCache(sqlite3* db, std::string module, std::vector<std::string> sql);
  StatementCache(const StatementCache&) = delete;
  StatementCache& operator=(const StatementCache&) = delete;
  ~StatementCache();  // finalizes every prepared statement; none may be lent out

  absl::StatusOr<ScopedStatement> Use(size_t slot);

  sqlite3* db() const { return db_; }
  const std::string& module() const { return module_; }
  size_t size() const { return slots_.size(); }
  const std::string& sql(size_t slot) const { return slots_[slot].sql; }

 private:
  struct Slot {
    std::string sql;
    sqlite3_stmt* statement = nullptr;
    std::unique_ptr<bool> in_use = std::make_unique<bool>(false);
  };
  sqlite3* db_;
  std::string module_;
  std::vector<Slot> slots_;
};

// The status for a failed SQLite call on `db`: its exact extended code and error message.
absl::Status SqliteFailure(sqlite3* db, int rc, absl::string_view module);

// Runs `sql` (one or more statements, no rows wanted) without caching: DDL, rare commands.
absl::Status ExecSql(sqlite3* db, absl::string_view sql, absl::string_view module);

// Runs `body` inside SAVEPOINT `name` on `db`, so that the statements it runs are one
// transaction even outside one (where each would otherwise commit on its own as soon as it
// ended, the calling statement being a SELECT): released when `body` succeeds (a commit, outside
// a transaction), rolled back to and released when it fails. Returns body's error (undoing its
// writes cannot fail but on I/O), else the release's; a release that failed (a commit refused:
// SQLITE_BUSY, a commit hook) leaves no transaction open behind the caller.
absl::Status InSavepoint(sqlite3* db, absl::string_view name, absl::string_view module,
                         absl::FunctionRef<absl::Status()> body);

// `name` as an SQL identifier in double quotes, embedded quotes doubled.
std::string QuoteIdentifier(absl::string_view name);

}  // namespace crawldb
