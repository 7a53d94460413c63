// An in-memory SQLite connection for the boundary-layer tests (SQLITE_CORE build), with the
// crawldb functions and the test-only crawldb_test_kv module registered.
#pragma once

#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "extension/common/sqlite_api.h"
#include "tests/common/kv_test_table.h"

extern "C" int sqlite3_crawldb_init(sqlite3*, char**, const sqlite3_api_routines*);

namespace crawldb::testing {

class TestDb {
 public:
  explicit TestDb(const std::string& path = ":memory:") {
    EXPECT_EQ(sqlite3_open(path.c_str(), &db_), SQLITE_OK);
    EXPECT_EQ(sqlite3_crawldb_init(db_, nullptr, nullptr), SQLITE_OK);
    EXPECT_EQ(RegisterKvModule(db_), SQLITE_OK);
  }
  ~TestDb() { sqlite3_close_v2(db_); }
  TestDb(const TestDb&) = delete;
  TestDb& operator=(const TestDb&) = delete;

  sqlite3* get() const { return db_; }

  // Runs `sql`; returns the result code. The message of the last failure is in last_error().
  int Exec(const std::string& sql) {
    char* error = nullptr;
    int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    last_error_ = error != nullptr ? error : "";
    sqlite3_free(error);
    return rc;
  }
  int ExtendedCode() const { return sqlite3_extended_errcode(db_); }
  const std::string& last_error() const { return last_error_; }

  // The first column of the first row of `sql` as text (nullopt: no row or NULL).
  std::optional<std::string> Text(const std::string& sql) {
    sqlite3_stmt* statement = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db_);
    std::optional<std::string> out;
    if (sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_type(statement, 0) != SQLITE_NULL) {
      out = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    }
    sqlite3_finalize(statement);
    return out;
  }

 private:
  sqlite3* db_ = nullptr;
  std::string last_error_;
};

}  // namespace crawldb::testing
