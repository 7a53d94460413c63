// Opening a `urls` table reads no part (urls_table.h): the pages a new connection reads to open
// the table and answer a look-up by id and one by URL stay a handful as the table grows from
// 100,000 to 1,000,000 URLs, while the file grows ten times.
#include <cstdio>
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

// Pages the connection's page cache had to read from the file so far.
int PagesRead(SQLite::Database& db) {
  int current = 0, highest = 0;
  sqlite3_db_status(db.getHandle(), SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0);
  return current;
}

std::string Url(int i) {
  return "http://h" + std::to_string(i % 5000) + ".example/p/" + std::to_string(i);
}

struct Reads {
  int pages_read;
  int file_pages;
};

// A table of `count` URLs over 5,000 hosts, added 20,000 per transaction (so that commits merge
// parts), then a new connection's reads for one look-up of each kind.
Reads OpenAndLookUp(int count) {
  const std::string path = TempDbPath("urls_paging_" + std::to_string(count));
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    for (int start = 0; start < count; start += 20000) {
      db.exec("WITH RECURSIVE n(i) AS (SELECT " + std::to_string(start) +
              " UNION ALL SELECT i + 1 FROM n WHERE i < " + std::to_string(start + 19999) +
              ") INSERT INTO urls(url) SELECT 'http://h' || (i % 5000) || '.example/p/' || i "
              "FROM n");
    }
  }
  SQLite::Database db = LoadedDb(path);
  const int before = PagesRead(db);
  EXPECT_EQ(One(db, "SELECT url FROM urls WHERE id = " + std::to_string(count / 2 + 1)),
            Url(count / 2));
  EXPECT_EQ(One(db, "SELECT id FROM urls WHERE url = '" + Url(count / 3) + "'"),
            std::to_string(count / 3 + 1));
  const int read = PagesRead(db) - before;
  return {read, std::stoi(One(db, "PRAGMA page_count"))};
}

TEST(UrlsPaging, OpeningAndALookUpReadAHandfulOfPagesAtAnySize) {
  const Reads small = OpenAndLookUp(100000);
  const Reads large = OpenAndLookUp(1000000);
  EXPECT_GT(large.file_pages, 8 * small.file_pages);
  // The two parts looked up grow with the table (a thousandth of it each); the rest does not.
  EXPECT_LT(large.pages_read, 100) << "of " << large.file_pages;
  EXPECT_LT(large.pages_read, 3 * small.pages_read + 20) << small.pages_read;
  std::printf("pages read to open and look up: %d of %d at 100,000 URLs, %d of %d at 1,000,000\n",
              small.pages_read, small.file_pages, large.pages_read, large.file_pages);
}

}  // namespace
}  // namespace crawldb::testing
