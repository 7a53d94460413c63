#include "extension/common/statement_cache.h"

#include <vector>

#include <gtest/gtest.h>

#include "tests/common/test_db.h"

namespace crawldb {
namespace {

using testing::TestDb;

class StatementCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(db_.Exec("CREATE TABLE kv(k INTEGER PRIMARY KEY, v BLOB)"), SQLITE_OK);
  }
  TestDb db_;
  StatementCache cache_{db_.get(),
                        "crawldb_test",
                        {"INSERT INTO kv(k, v) VALUES (?1, ?2)", "SELECT v FROM kv WHERE k = ?1",
                         "SELECT * FROM no_such_table", "SELECT count(*) FROM kv"}};
};

TEST_F(StatementCacheTest, BindsStepsAndReads) {
  {
    absl::StatusOr<ScopedStatement> insert = cache_.Use(0);
    ASSERT_TRUE(insert.ok()) << insert.status();
    ASSERT_TRUE(insert->BindInt64(1, 7).ok());
    const uint8_t bytes[] = {0, 1, 2, 0};
    ASSERT_TRUE(insert->BindBlob(2, bytes).ok());
    ASSERT_TRUE(insert->Run().ok());
  }
  absl::StatusOr<ScopedStatement> select = cache_.Use(1);
  ASSERT_TRUE(select.ok());
  ASSERT_TRUE(select->BindInt64(1, 7).ok());
  absl::StatusOr<bool> row = select->Step();
  ASSERT_TRUE(row.ok() && *row);
  absl::Span<const uint8_t> blob = select->ColumnBlob(0);
  EXPECT_EQ(std::vector<uint8_t>(blob.begin(), blob.end()), (std::vector<uint8_t>{0, 1, 2, 0}));
}

TEST_F(StatementCacheTest, EmptyBlobIsNotNull) {
  {
    absl::StatusOr<ScopedStatement> insert = cache_.Use(0);
    ASSERT_TRUE(insert->BindInt64(1, 1).ok());
    ASSERT_TRUE(insert->BindBlob(2, {}).ok());
    ASSERT_TRUE(insert->Run().ok());
  }
  EXPECT_EQ(db_.Text("SELECT typeof(v) FROM kv"), "blob");
}

// BindBlobView hands SQLite the caller's bytes; the statement, once released, holds no pointer to
// them (its bindings are cleared), so the buffer may change or go.
TEST_F(StatementCacheTest, BlobViewsAreWrittenAndNotKeptAfterRelease) {
  std::vector<uint8_t> buffer = {9, 8, 7};
  {
    absl::StatusOr<ScopedStatement> insert = cache_.Use(0);
    ASSERT_TRUE(insert->BindInt64(1, 1).ok());
    ASSERT_TRUE(insert->BindBlobView(2, buffer).ok());
    ASSERT_TRUE(insert->Run().ok());
  }
  buffer.assign(100000, 5);  // reallocated: the old bytes are gone
  {
    absl::StatusOr<ScopedStatement> insert = cache_.Use(0);
    ASSERT_TRUE(insert->BindInt64(1, 2).ok());
    ASSERT_TRUE(insert->BindBlobView(2, {}).ok());
    ASSERT_TRUE(insert->Run().ok());
  }
  {
    // Parameter 2 left unbound: NULL, not the first statement's released view.
    absl::StatusOr<ScopedStatement> insert = cache_.Use(0);
    ASSERT_TRUE(insert->BindInt64(1, 3).ok());
    ASSERT_TRUE(insert->Run().ok());
  }
  EXPECT_EQ(db_.Text("SELECT group_concat(k || ':' || typeof(v) || ':' || quote(v), ' ') FROM kv"),
            "1:blob:X'090807' 2:blob:X'' 3:null:NULL");
}

TEST_F(StatementCacheTest, ReusesOnePreparedStatement) {
  sqlite3_stmt* first = nullptr;
  {
    absl::StatusOr<ScopedStatement> count = cache_.Use(3);
    ASSERT_TRUE(count.ok());
    first = count->get();
  }
  absl::StatusOr<ScopedStatement> again = cache_.Use(3);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->get(), first);
}

TEST_F(StatementCacheTest, ResetsAndClearsBindingsAfterUse) {
  {
    absl::StatusOr<ScopedStatement> select = cache_.Use(1);
    ASSERT_TRUE(select->BindInt64(1, 42).ok());
    ASSERT_TRUE(select->Step().ok());
  }
  absl::StatusOr<ScopedStatement> select = cache_.Use(1);
  EXPECT_EQ(sqlite3_stmt_busy(select->get()), 0);
  EXPECT_EQ(sqlite3_bind_parameter_count(select->get()), 1);
  // A cleared binding is NULL, so nothing matches.
  absl::StatusOr<bool> row = select->Step();
  ASSERT_TRUE(row.ok());
  EXPECT_FALSE(*row);
}

TEST_F(StatementCacheTest, OneUserPerSlot) {
  absl::StatusOr<ScopedStatement> first = cache_.Use(1);
  ASSERT_TRUE(first.ok());
  absl::StatusOr<ScopedStatement> second = cache_.Use(1);
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().message(), "crawldb_test: statement 1 is already in use");
  EXPECT_FALSE(cache_.Use(99).ok());
}

TEST_F(StatementCacheTest, PrepareErrorsNameModuleAndCause) {
  absl::StatusOr<ScopedStatement> bad = cache_.Use(2);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(SqliteCode(bad.status()), SQLITE_ERROR);
  EXPECT_EQ(bad.status().message(), "crawldb_test: no such table: no_such_table");
}

TEST_F(StatementCacheTest, StepErrorsKeepTheExtendedCode) {
  ASSERT_EQ(db_.Exec("INSERT INTO kv VALUES (1, x'00')"), SQLITE_OK);
  absl::StatusOr<ScopedStatement> insert = cache_.Use(0);
  ASSERT_TRUE(insert->BindInt64(1, 1).ok());
  absl::Status status = insert->Run();
  EXPECT_EQ(SqliteCode(status), SQLITE_CONSTRAINT_PRIMARYKEY);
  EXPECT_EQ(status.message(), "crawldb_test: UNIQUE constraint failed: kv.k");
}

TEST(ExecSql, ReportsErrorsWithTheirCode) {
  TestDb db;
  EXPECT_TRUE(ExecSql(db.get(), "CREATE TABLE a(x); CREATE TABLE b(y)", "m").ok());
  absl::Status status = ExecSql(db.get(), "CREATE TABLE a(x)", "m");
  EXPECT_EQ(SqliteCode(status), SQLITE_ERROR);
  EXPECT_EQ(status.message(), "m: table a already exists");
}

TEST(QuoteIdentifier, DoublesQuotes) {
  EXPECT_EQ(QuoteIdentifier("plain"), "\"plain\"");
  EXPECT_EQ(QuoteIdentifier("a\"b"), "\"a\"\"b\"");
}

}  // namespace
}  // namespace crawldb
