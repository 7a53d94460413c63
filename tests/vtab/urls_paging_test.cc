// Opening a `urls` table and a `frontier` reads no part (urls_table.h, frontier_table.h): the
// pages a new connection reads to open them, answer a look-up by id and one by URL, and lease
// one URL stay a handful as the crawl grows from 100,000 to 1,000,000 URLs, while the file grows
// ten times. An optimized table's base is read a group of blocks at a time (url_base.h).
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

// A crawl of `count` URLs over 5,000 hosts, added by crawl_add 20,000 per transaction (so
// that commits merge parts), then a new connection's reads for one look-up of each kind and
// one lease.
Reads OpenAndLookUp(int count) {
  const std::string path = TempDbPath("urls_paging_" + std::to_string(count));
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls)");
    for (int start = 0; start < count; start += 20000) {
      db.exec("BEGIN");
      db.exec("WITH RECURSIVE n(i) AS (SELECT " + std::to_string(start) +
              " UNION ALL SELECT i + 1 FROM n WHERE i < " + std::to_string(start + 19999) +
              ") SELECT count(crawl_add('http://h' || (i % 5000) || '.example/p/' || i)) "
              "FROM n");
      db.exec("COMMIT");
    }
  }
  SQLite::Database db = LoadedDb(path);
  const int before = PagesRead(db);
  EXPECT_EQ(One(db, "SELECT url FROM urls WHERE id = " + std::to_string(count / 2 + 1)),
            Url(count / 2));
  EXPECT_EQ(One(db, "SELECT id FROM urls WHERE url = '" + Url(count / 3) + "'"),
            std::to_string(count / 3 + 1));
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(1)"), "1");
  const int read = PagesRead(db) - before;
  return {read, std::stoi(One(db, "PRAGMA page_count"))};
}

// Runs `open_and_look_up` at 100,000 and 1,000,000 URLs: the pages read stay under
// `large_bound`, and at 1,000,000 URLs are at most `growth` more than at 100,000, while the file
// grows ten times.
void ExpectAHandfulOfPagesAtAnySize(Reads (*open_and_look_up)(int), int large_bound, int growth,
                                    const char* what) {
  const Reads small = open_and_look_up(100000);
  const Reads large = open_and_look_up(1000000);
  EXPECT_GT(large.file_pages, 6 * small.file_pages);
  EXPECT_LT(large.pages_read, large_bound) << "of " << large.file_pages;
  EXPECT_LE(large.pages_read, small.pages_read + growth) << small.pages_read;
  std::printf("pages read to %s: %d of %d at 100,000 URLs, %d of %d at 1,000,000\n", what,
              small.pages_read, small.file_pages, large.pages_read, large.file_pages);
}

TEST(UrlsPaging, OpeningAndALookUpReadAHandfulOfPagesAtAnySize) {
  // The parts read grow with the table (a thousandth of it each, or less); the rest does not.
  ExpectAHandfulOfPagesAtAnySize(&OpenAndLookUp, 150, 60, "open, look up and lease");
}

// `count` URLs over 5,000 hosts inserted and optimized, then a new connection's reads for one
// look-up by id and one by URL: the base's header, model and group heads, and one group of
// blocks each (url_base.h), a small share of the base.
Reads OpenOptimizedAndLookUp(int count) {
  const std::string path = TempDbPath("urls_paging_optimized_" + std::to_string(count));
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < " +
            std::to_string(count - 1) +
            ") INSERT INTO urls(url) SELECT 'http://h' || (i % 5000) || '.example/p/' || i FROM n");
    db.exec("SELECT crawldb_optimize()");
  }
  SQLite::Database db = LoadedDb(path);
  const int before = PagesRead(db);
  const std::string id = std::to_string(count / 2 + 1);
  const std::string url = One(db, "SELECT url FROM urls WHERE id = " + id);
  EXPECT_EQ(url.substr(0, 8), "http://h");
  EXPECT_FALSE(One(db, "SELECT id FROM urls WHERE url = '" + Url(count / 3) + "'").empty());
  const int read = PagesRead(db) - before;
  EXPECT_EQ(One(db, "SELECT id FROM urls WHERE url = '" + url + "'"), id);
  return {read, std::stoi(One(db, "PRAGMA page_count"))};
}

TEST(UrlsPaging, AnOptimizedBaseIsReadAGroupOfBlocksAtATime) {
  // The group heads grow with the table (one head per 2,048 URLs: 2 pages at 1,000,000 here);
  // the model and the groups read do not.
  ExpectAHandfulOfPagesAtAnySize(&OpenOptimizedAndLookUp, 40, 6,
                                 "open an optimized table and look up an id and a URL");
}

}  // namespace
}  // namespace crawldb::testing
