// What a database file from elsewhere can make crawldb do (docs/sql.md, "Security notes"): its
// views and triggers run crawldb's tables and functions with the reader's connection.
//   - crawl_lease changes the frontier as it is read: SQLITE_VTAB_DIRECTONLY, refused in views
//     and triggers whatever trusted_schema says; the writing functions are SQLITE_DIRECTONLY.
//   - under PRAGMA trusted_schema=OFF no crawldb table is reachable from a view or a trigger
//     (none is SQLITE_VTAB_INNOCUOUS), so such a file cannot read or change them.
//   - SQLITE_DBCONFIG_DEFENSIVE makes the shadow tables read-only to SQL (xShadowName); crawldb
//     itself still writes them.
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kTables[] =
    "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
    "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls);"
    "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
    "SELECT crawl_add('http://example.com/');";

std::string Unsafe(const std::string& table) {
  return "unsafe use of virtual table \"" + table + "\"";
}

TEST(Security, LeaseIsRefusedInViewsAndTriggers) {
  SQLite::Database db = LoadedDb();
  db.exec(kTables);
  db.exec("CREATE VIEW leases AS SELECT url FROM crawl_lease(1)");
  ExpectError(db, "SELECT * FROM leases", SQLITE_ERROR, Unsafe("crawl_lease"));
  db.exec(
      "CREATE TABLE log(x);"
      "CREATE TRIGGER lease_on_log AFTER INSERT ON log BEGIN "
      "  SELECT url FROM crawl_lease(1); END;");
  ExpectError(db, "INSERT INTO log VALUES (1)", SQLITE_ERROR, Unsafe("crawl_lease"));
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'leased'"), "0");
  EXPECT_EQ(One(db, "SELECT url FROM crawl_lease(1)"), "http://example.com/");
}

TEST(Security, AnUntrustedSchemaReachesNoTable) {
  const std::string path = TempDbPath("security_untrusted");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec(kTables);
    db.exec(
        "CREATE VIEW read_urls AS SELECT url FROM urls;"
        "CREATE VIEW read_frontier AS SELECT url FROM frontier;"
        "CREATE VIEW read_links AS SELECT * FROM outlinks;"
        "CREATE VIEW add_url AS SELECT crawl_add('http://evil.example/') AS added;"
        "CREATE TABLE pages(url TEXT);"
        "CREATE TRIGGER insert_url AFTER INSERT ON pages BEGIN "
        "  INSERT INTO urls(url) VALUES (new.url); END;"
        "CREATE TRIGGER delete_from_frontier AFTER DELETE ON pages BEGIN "
        "  DELETE FROM frontier; END;");
  }
  SQLite::Database db = LoadedDb(path);
  db.exec("PRAGMA trusted_schema = OFF");
  ExpectError(db, "SELECT * FROM read_urls", SQLITE_ERROR, Unsafe("urls"));
  ExpectError(db, "SELECT * FROM read_frontier", SQLITE_ERROR, Unsafe("frontier"));
  ExpectError(db, "SELECT * FROM read_links", SQLITE_ERROR, Unsafe("outlinks"));
  ExpectError(db, "SELECT * FROM add_url", SQLITE_ERROR, "unsafe use of crawl_add()");
  ExpectError(db, "INSERT INTO pages VALUES ('http://evil.example/')", SQLITE_ERROR,
              Unsafe("urls"));
  ExpectError(db, "DELETE FROM pages", SQLITE_ERROR, Unsafe("frontier"));
  EXPECT_EQ(Rows(db, "SELECT url FROM urls"), std::vector<std::string>{"http://example.com/"});
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), "1");
}

TEST(Security, DefensiveKeepsShadowTablesReadOnly) {
  SQLite::Database db = LoadedDb();
  ASSERT_EQ(sqlite3_db_config(db.getHandle(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr), SQLITE_OK);
  db.exec(kTables);
  db.exec("INSERT INTO outlinks(src, dst) VALUES (1, 1)");
  const std::vector<std::string> shadows =
      Rows(db,
           "SELECT name FROM sqlite_schema WHERE type = 'table' AND "
           "(name LIKE 'urls\\_%' ESCAPE '\\' OR name LIKE 'frontier\\_%' ESCAPE '\\' OR "
           " name LIKE 'outlinks\\_%' ESCAPE '\\') ORDER BY name");
  ASSERT_GE(shadows.size(), 10u);
  for (const std::string& table : shadows) {
    const std::string refused = "table " + table + " may not be modified";
    ExpectError(db, "DELETE FROM " + table, SQLITE_ERROR, refused);
    ExpectError(db, "UPDATE " + table + " SET rowid = rowid", SQLITE_ERROR, refused);
    ExpectError(db, "DROP TABLE " + table, SQLITE_ERROR, "table " + table + " may not be dropped");
    EXPECT_NO_THROW(db.exec("SELECT * FROM " + table)) << table;
  }
  // crawldb writes them all the same.
  db.exec("SELECT crawl_add('http://example.com/a')");
  db.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2)");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "2");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
