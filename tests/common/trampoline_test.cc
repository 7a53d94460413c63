#include "extension/common/trampoline.h"

#include <new>
#include <stdexcept>

#include <gtest/gtest.h>

#include "tests/common/test_db.h"

namespace crawldb {
namespace {

using testing::TestDb;

TEST(Trampoline, VtabErrorsReachSqliteWithTheirCodeAndMessage) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK) << db.last_error();

  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'busy')"), SQLITE_BUSY);
  EXPECT_EQ(db.last_error(), "crawldb_test_kv: simulated busy");
  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'full')"), SQLITE_FULL);
  EXPECT_EQ(db.last_error(), "crawldb_test_kv: simulated full");

  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'corrupt')"), SQLITE_CORRUPT);
  EXPECT_EQ(db.ExtendedCode(), SQLITE_CORRUPT_VTAB);
  EXPECT_EQ(db.last_error(),
            "crawldb_test_kv: simulated bad block; the stored data is damaged; restore the file "
            "from a backup");

  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'duplicate')"), SQLITE_CONSTRAINT);
  EXPECT_EQ(db.last_error(), "crawldb_test_kv: value 'duplicate' exists; use INSERT OR IGNORE");

  ASSERT_EQ(db.Exec("INSERT INTO t VALUES (1, 'fine')"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Exec("DELETE FROM t"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(), "crawldb_test_kv: only INSERT is supported");
}

TEST(Trampoline, ExceptionsNeverReachSqlite) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'throw-bad-alloc')"), SQLITE_NOMEM);
  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'throw-runtime')"), SQLITE_INTERNAL);
  EXPECT_EQ(db.last_error(),
            "crawldb: internal error: unexpected C++ exception (boom); please report it");
  // The connection is still usable and nothing was stored by the failed statements.
  ASSERT_EQ(db.Exec("INSERT INTO t VALUES (2, 'fine')"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Text("SELECT group_concat(key || '=' || value) FROM t"), "2=fine");
}

TEST(Trampoline, ConstructorErrorsAreReported) {
  TestDb db;
  EXPECT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv(limit=0)"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(),
            "crawldb_test_kv: option 'limit' must be an integer from 1 to 1000, got '0'");
  EXPECT_EQ(db.Text("SELECT count(*) FROM sqlite_schema"), "0");
}

TEST(Trampoline, TableErrorsStopTheStatement) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv(limit=2)"), SQLITE_OK);
  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(), "crawldb_test_kv: row limit reached");
}

absl::Status ThrowBadAlloc(sqlite3_context*, int, sqlite3_value**) { throw std::bad_alloc(); }
absl::Status ThrowRuntime(sqlite3_context*, int, sqlite3_value**) {
  throw std::logic_error("nope");
}
absl::Status ReturnBusy(sqlite3_context*, int, sqlite3_value**) {
  return SqliteError(SQLITE_BUSY, "f: busy");
}
absl::Status ReturnCorrupt(sqlite3_context*, int, sqlite3_value**) {
  return CorruptError("f", "bad bytes");
}
absl::Status ReturnUserError(sqlite3_context*, int, sqlite3_value**) {
  return UserError("f", "argument 1 must be a URL", "pass text");
}
absl::Status ReturnSeven(sqlite3_context* context, int, sqlite3_value**) {
  sqlite3_result_int(context, 7);
  return absl::OkStatus();
}

void Register(sqlite3* db, const char* name, void (*fn)(sqlite3_context*, int, sqlite3_value**)) {
  ASSERT_EQ(
      sqlite3_create_function_v2(db, name, 0, SQLITE_UTF8, nullptr, fn, nullptr, nullptr, nullptr),
      SQLITE_OK);
}

TEST(Trampoline, FunctionErrorsKeepTheirCodeAndMessage) {
  TestDb db;
  Register(db.get(), "bad_alloc", &SqlFunction<ThrowBadAlloc>);
  Register(db.get(), "logic", &SqlFunction<ThrowRuntime>);
  Register(db.get(), "busy", &SqlFunction<ReturnBusy>);
  Register(db.get(), "corrupt", &SqlFunction<ReturnCorrupt>);
  Register(db.get(), "user", &SqlFunction<ReturnUserError>);
  Register(db.get(), "seven", &SqlFunction<ReturnSeven>);

  EXPECT_EQ(db.Exec("SELECT bad_alloc()"), SQLITE_NOMEM);
  EXPECT_EQ(db.Exec("SELECT logic()"), SQLITE_INTERNAL);
  EXPECT_EQ(db.last_error(),
            "crawldb: internal error: unexpected C++ exception (nope); please report it");
  EXPECT_EQ(db.Exec("SELECT busy()"), SQLITE_BUSY);
  EXPECT_EQ(db.last_error(), "f: busy");
  EXPECT_EQ(db.Exec("SELECT corrupt()"), SQLITE_CORRUPT);
  EXPECT_EQ(db.ExtendedCode(), SQLITE_CORRUPT_VTAB);
  EXPECT_EQ(db.Exec("SELECT user()"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(), "f: argument 1 must be a URL; pass text");
  EXPECT_EQ(db.Text("SELECT seven()"), "7");
}

}  // namespace
}  // namespace crawldb
