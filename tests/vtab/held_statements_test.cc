// The statements crawl_add, crawl_lease, crawl_confirm and crawl_host_set keep between calls
// (extension/common/held_statements.h): listed by crawldb_statements, and finalised when the
// connection closes, so that sqlite3_close (not only sqlite3_close_v2) succeeds after the
// functions ran, whatever trace callback the application installed.
#include <sqlite3.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace {

class RawDb {
 public:
  RawDb() {
    EXPECT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    sqlite3_enable_load_extension(db_, 1);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_load_extension(db_, CRAWLDB_EXTENSION_PATH, nullptr, &error), SQLITE_OK)
        << (error != nullptr ? error : "");
    sqlite3_free(error);
  }
  ~RawDb() {
    if (db_ != nullptr) sqlite3_close_v2(db_);
  }
  sqlite3* db() const { return db_; }

  void Exec(const std::string& sql) {
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << sql << ": " << (error != nullptr ? error : "");
    sqlite3_free(error);
  }
  // The first column of every row of `sql`.
  std::vector<std::string> Column(const std::string& sql) {
    std::vector<std::string> values;
    sqlite3_stmt* statement = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr), SQLITE_OK) << sql;
    while (sqlite3_step(statement) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(statement, 0);
      values.emplace_back(text == nullptr ? "NULL" : reinterpret_cast<const char*>(text));
    }
    sqlite3_finalize(statement);
    return values;
  }
  // sqlite3_close: SQLITE_BUSY when a statement is left unfinalised.
  int Close() {
    int rc = sqlite3_close(db_);
    if (rc == SQLITE_OK) db_ = nullptr;
    return rc;
  }

 private:
  sqlite3* db_ = nullptr;
};

int CountStatements(unsigned, void* count, void*, void*) {
  ++*static_cast<int*>(count);
  return 0;
}

constexpr char kTables[] =
    "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
    "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls);"
    "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);";

TEST(HeldStatements, NoneBeforeAFunctionRuns) {
  RawDb db;
  db.Exec(kTables);
  EXPECT_EQ(db.Column("SELECT count(*) FROM crawldb_statements"), std::vector<std::string>{"0"});
  EXPECT_EQ(db.Close(), SQLITE_OK);
}

TEST(HeldStatements, ListedAfterCrawlAddAndFinalisedAtClose) {
  RawDb db;
  db.Exec(kTables);
  db.Exec("SELECT crawl_add('http://a.example/', NULL, 0, 1000)");
  db.Exec("SELECT crawl_add('http://a.example/x', 'http://a.example/', 0, 1000)");
  std::vector<std::string> owners =
      db.Column("SELECT owner || ' ' || target FROM crawldb_statements GROUP BY 1 ORDER BY 1");
  EXPECT_EQ(owners,
            (std::vector<std::string>{"crawl functions frontier", "crawl_add links outlinks"}));
  EXPECT_EQ(db.Column("SELECT count(*) FROM crawldb_statements WHERE sql LIKE 'INSERT INTO %'"),
            std::vector<std::string>{"5"});
  EXPECT_EQ(db.Close(), SQLITE_OK);
}

// crawldb kept its nested statements alive with a SQLITE_TRACE_CLOSE callback before; an
// application's own trace callback replaced it, and sqlite3_close then failed with SQLITE_BUSY.
TEST(HeldStatements, CloseSucceedsUnderTheApplicationsTraceCallback) {
  RawDb db;
  int traced = 0;
  ASSERT_EQ(sqlite3_trace_v2(db.db(), SQLITE_TRACE_STMT, &CountStatements, &traced), SQLITE_OK);
  db.Exec(kTables);
  db.Exec("SELECT crawl_add('http://a.example/', NULL, 0, 1000)");
  db.Exec("SELECT crawl_add('http://a.example/x', 'http://a.example/', 0, 1000)");
  db.Exec("SELECT crawl_add('http://b.example/', NULL, 0, 1000)");
  EXPECT_EQ(db.Column("SELECT count(*) FROM crawl_lease(2, 60, 1000)"),
            std::vector<std::string>{"2"});
  db.Exec("SELECT crawl_confirm('http://a.example/', 200, NULL, 1001)");
  db.Exec("SELECT crawl_host_set('a.example', 2)");
  EXPECT_GT(traced, 0);
  EXPECT_EQ(db.Close(), SQLITE_OK);
}

// Closing inside an open transaction that the functions wrote to: the statements are finalised,
// the transaction rolled back, the connection closed.
TEST(HeldStatements, CloseSucceedsInsideATransaction) {
  RawDb db;
  db.Exec(kTables);
  db.Exec("BEGIN; SELECT crawl_add('http://a.example/', NULL, 0, 1000);");
  EXPECT_EQ(db.Close(), SQLITE_OK);
}

// A table of the user's named crawldb_statements hides crawldb's: the functions say so.
TEST(HeldStatements, AUserTableOfTheSameNameIsNamedInTheError) {
  RawDb db;
  db.Exec(kTables);
  db.Exec("CREATE TABLE crawldb_statements(x)");
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db.db(), "SELECT crawl_add('http://a.example/', NULL, 0, 1000)", nullptr,
                         nullptr, &error),
            SQLITE_ERROR);
  EXPECT_EQ(std::string(error != nullptr ? error : ""),
            "crawldb_statements: a table of this name in the main schema hides crawldb's own; "
            "rename that table: crawl_add and the other crawl functions need the name");
  sqlite3_free(error);
  EXPECT_EQ(db.Column("SELECT count(*) FROM urls"), std::vector<std::string>{"0"});
  EXPECT_EQ(db.Close(), SQLITE_OK);
}

// A statement of the application's own that is still open keeps sqlite3_close refusing, as
// SQLite does without crawldb; the held statements are not what holds it.
TEST(HeldStatements, AnApplicationsOpenStatementStillBlocksClose) {
  RawDb db;
  db.Exec(kTables);
  db.Exec("SELECT crawl_add('http://a.example/', NULL, 0, 1000)");
  sqlite3_stmt* open = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db.db(), "SELECT url FROM urls", -1, &open, nullptr), SQLITE_OK);
  EXPECT_EQ(db.Close(), SQLITE_BUSY);
  sqlite3_finalize(open);
  // The failed close disconnected the tables; the functions connect them again.
  EXPECT_EQ(db.Column("SELECT crawl_add('http://a.example/y', 'http://a.example/', 0, 1000)"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(db.Column("SELECT count(*) FROM outlinks"), std::vector<std::string>{"1"});
  EXPECT_EQ(db.Close(), SQLITE_OK);
}

}  // namespace
