// A writer whose frontier is larger than its cache adds a new URL without reading the URL's part,
// when `urls` vouches for it: `urls` does not hold the URL and has lost none since the frontier,
// holding nothing, recorded its lineage (frontier_table.h, urls_table.h). A known URL still
// reads its part; a delete from `urls`, `urls` created again or a table of an older format stop
// the vouching; what such adds commit reads back as the same crawl. The writers here take
// crawldb_cache_mb(0), so that the frontier is larger than the cache; parts_read counts reads.
#include <sqlite3.h>

#include <algorithm>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kEveryRow[] =
    "SELECT rowid, id, url, host, depth, priority, state FROM frontier ORDER BY rowid";

SQLite::Database Crawl(const std::string& path) {
  SQLite::Database db = LoadedDb(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0)");
  return db;
}

// URL `page` of host `host` out of 60 hosts.
std::string Url(int host, int page) {
  return "http://h" + std::to_string(host) + ".example.com/p" + std::to_string(page);
}

// Adds pages [from, to) of each of 60 hosts in one transaction, page `from` a seed, the others
// with it as their parent; returns crawl_add's results.
std::vector<std::string> AddPages(SQLite::Database& db, int from, int to) {
  std::vector<std::string> results;
  db.exec("BEGIN");
  SQLite::Statement add(db, "SELECT crawl_add(?, ?, ?, 1000)");
  for (int page = from; page < to; ++page) {
    for (int host = 0; host < 60; ++host) {
      add.bind(1, Url(host, page));
      if (page == from) {
        add.bind(2);
      } else {
        add.bind(2, Url(host, from));
      }
      add.bind(3, page % 3);
      add.executeStep();
      results.push_back(add.getColumn(0).isNull() ? "NULL" : add.getColumn(0).getString());
      add.reset();
    }
  }
  db.exec("COMMIT");
  return results;
}

// A figure of the frontier's crawldb_stats() (which reads no part).
int64_t Stat(SQLite::Database& db, const std::string& key) {
  return std::stoll(One(db, "SELECT json_extract(value, '$." + key +
                                "') FROM json_each(json_extract(crawldb_stats(), '$.tables')) "
                                "WHERE json_extract(value, '$.table') = 'frontier'"));
}
int64_t PartsRead(SQLite::Database& db) { return Stat(db, "parts_read"); }

// Runs `sql`, which must fail as damage (SQLITE_CORRUPT_VTAB) with a message holding `what`.
void ExpectFailure(SQLite::Database& db, const std::string& sql, const std::string& what) {
  try {
    db.exec(sql);
    ADD_FAILURE() << "no error from: " << sql;
  } catch (const SQLite::Exception& e) {
    EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB) << sql << ": " << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

// A file holding pages [0, pages) of every host, written by a connection closed since.
std::string CrawlFile(const std::string& name, int pages) {
  const std::string path = TempDbPath(name);
  SQLite::Database db = Crawl(path);
  AddPages(db, 0, pages);
  return path;
}

// A writer on `path` whose cache holds no part beyond those with uncommitted changes.
SQLite::Database SmallCacheWriter(const std::string& path) {
  SQLite::Database db = LoadedDb(path);
  db.exec("SELECT crawldb_cache_mb(0)");
  return db;
}

// The crawl of the first test built in one connection, which holds every part.
std::vector<std::string> Reference(const std::string& name) {
  SQLite::Database db = Crawl(TempDbPath(name));
  AddPages(db, 0, 5);
  AddPages(db, 5, 10);
  return Rows(db, kEveryRow);
}

TEST(FrontierUnreadAdds, AReopenedWriterAddsNewUrlsWithoutReadingParts) {
  const std::string path = CrawlFile("frontier_unread_reopened", 5);
  SQLite::Database db = SmallCacheWriter(path);
  // New URLs of known hosts, their parents added in the same transaction: no part is read.
  const std::vector<std::string> added = AddPages(db, 5, 10);
  EXPECT_EQ(added, std::vector<std::string>(300, "1"));
  EXPECT_EQ(PartsRead(db), 0);
  EXPECT_EQ(Rows(db, kEveryRow), Reference("frontier_unread_reference"));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  SQLite::Database fresh = LoadedDb(path);
  EXPECT_EQ(Rows(fresh, kEveryRow), Rows(db, kEveryRow));
  // A known URL reads its part.
  SQLite::Database another = SmallCacheWriter(path);
  EXPECT_EQ(One(another, "SELECT crawl_add('" + Url(7, 3) + "', NULL, 0, 1000)"), "0");
  EXPECT_GE(PartsRead(another), 1);
}

TEST(FrontierUnreadAdds, SeedsWithoutParentsReadNoPartAndLeaseInOrder) {
  const std::string path = CrawlFile("frontier_unread_seeds", 1);
  SQLite::Database db = SmallCacheWriter(path);
  db.exec("BEGIN");
  for (int page = 1; page < 4; ++page) {
    for (int host = 0; host < 60; ++host) {
      db.exec("SELECT crawl_add('" + Url(host, page) + "', NULL, " + std::to_string(-page) +
              ", 1000)");
    }
  }
  EXPECT_EQ(PartsRead(db), 0);
  // The lease reads the parts it leases from; the URLs' priorities order it.
  const std::vector<std::string> leased =
      Rows(db, "SELECT url FROM crawl_lease(60, 60, 1001) ORDER BY url");
  db.exec("COMMIT");
  std::vector<std::string> expected;
  for (int host = 0; host < 60; ++host) expected.push_back(Url(host, 3));  // priority -3 first
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(leased, expected);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(FrontierUnreadAdds, ARollbackTakesUnreadAddsBack) {
  const std::string path = CrawlFile("frontier_unread_rollback", 3);
  std::vector<std::string> before;
  {
    SQLite::Database scan = LoadedDb(path);  // a scan reads every part
    before = Rows(scan, kEveryRow);
  }
  const std::string count_of = "SELECT count(*) FROM frontier WHERE url IN ('" + Url(1, 50) +
                               "', '" + Url(2, 50) + "', '" + Url(3, 50) + "', '" + Url(4, 50) +
                               "')";
  SQLite::Database db = SmallCacheWriter(path);
  db.exec("BEGIN");
  db.exec("SELECT crawl_add('" + Url(1, 50) + "', NULL, 0, 1000)");
  db.exec("SAVEPOINT s");
  db.exec("SELECT crawl_add('" + Url(2, 50) + "', NULL, 0, 1000)");
  db.exec("ROLLBACK TO s");
  EXPECT_EQ(PartsRead(db), 0);
  db.exec("SELECT crawl_add('" + Url(3, 50) + "', NULL, 0, 1000)");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");  // reads every part, unread adds joined
  db.exec("COMMIT");
  {
    SQLite::Database fresh = LoadedDb(path);
    EXPECT_EQ(Rows(fresh, kEveryRow).size(), before.size() + 2);
    EXPECT_EQ(One(fresh, count_of), "2");
    EXPECT_EQ(One(fresh, "SELECT count(*) FROM frontier WHERE url = '" + Url(2, 50) + "'"), "0");
  }
  const std::vector<std::string> committed = Rows(db, kEveryRow);
  db.exec("BEGIN");
  db.exec("SELECT crawl_add('" + Url(4, 50) + "', NULL, 0, 1000)");
  db.exec("ROLLBACK");
  EXPECT_EQ(Rows(db, kEveryRow), committed);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// A URL deleted from `urls` keeps its frontier record: from then on `urls` no longer vouches,
// and adding the URL again finds the record (0), in this transaction and in later ones.
TEST(FrontierUnreadAdds, ADeleteFromUrlsEndsTheVouching) {
  const std::string path = CrawlFile("frontier_unread_delete", 3);
  SQLite::Database db = SmallCacheWriter(path);
  db.exec("BEGIN");
  db.exec("DELETE FROM urls WHERE url = '" + Url(5, 1) + "'");
  EXPECT_EQ(One(db, "SELECT crawl_add('" + Url(5, 1) + "', NULL, 0, 1000)"), "0");
  db.exec("COMMIT");
  EXPECT_EQ(One(db, "SELECT value FROM urls_config WHERE key = 'deletions'"), "1");
  SQLite::Database again = SmallCacheWriter(path);
  EXPECT_EQ(One(again, "SELECT crawl_add('" + Url(6, 40) + "', NULL, 0, 1000)"), "1");
  EXPECT_GE(PartsRead(again), 1);  // read, though new
  EXPECT_EQ(One(again, "SELECT crawldb_check()"), "ok");
}

// The net under the vouching: a forged pairing makes `urls` vouch for a URL the frontier holds.
// The part read that meets it fails, the commit is refused and rolls back, leaving the crawl whole.
TEST(FrontierUnreadAdds, AnAddVouchedForWronglyIsNeverCommitted) {
  const std::string path = CrawlFile("frontier_unread_forged", 3);
  SQLite::Database db = SmallCacheWriter(path);
  db.exec("DELETE FROM urls WHERE url = '" + Url(5, 1) + "'");
  db.exec(
      "UPDATE frontier_config SET value = (SELECT (SELECT value FROM urls_config WHERE key = "
      "'lineage') || '/' || (SELECT value FROM urls_config WHERE key = 'deletions')) WHERE "
      "key = 'urls_lineage'");
  const std::vector<std::string> before = Rows(db, kEveryRow);
  db.exec("BEGIN");
  EXPECT_EQ(One(db, "SELECT crawl_add('" + Url(5, 1) + "', NULL, 0, 1000)"), "1");  // wrongly
  ExpectFailure(db, "SELECT count(*) FROM frontier", "added to it as new");  // reads each part
  ExpectFailure(db, "COMMIT", "was already in its part");
  EXPECT_TRUE(sqlite3_get_autocommit(db.getHandle()));  // the failed commit rolled back
  EXPECT_EQ(Rows(db, kEveryRow), before);
  // The connection trusts `urls` no more: the same add, made again, finds the URL.
  EXPECT_EQ(One(db, "SELECT crawl_add('" + Url(5, 1) + "', NULL, 0, 1000)"), "0");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// `urls` dropped and created again starts a new lineage: the frontier's records of URLs the new
// table does not hold are found by reading their parts.
TEST(FrontierUnreadAdds, UrlsCreatedAgainIsNotTrusted) {
  const std::string path = CrawlFile("frontier_unread_recreated", 3);
  SQLite::Database db = SmallCacheWriter(path);
  const std::string lineage = One(db, "SELECT value FROM urls_config WHERE key = 'lineage'");
  db.exec("DROP TABLE urls");
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  EXPECT_NE(One(db, "SELECT value FROM urls_config WHERE key = 'lineage'"), lineage);
  EXPECT_EQ(One(db, "SELECT crawl_add('" + Url(8, 2) + "', NULL, 0, 1000)"), "0");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// A `urls` table of format 6 has no lineage: nothing is vouched for, every add reads its part.
TEST(FrontierUnreadAdds, AUrlsTableWithoutLineageIsNotTrusted) {
  const std::string path = CrawlFile("frontier_unread_format6", 2);
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("DELETE FROM urls_config WHERE key IN ('lineage', 'deletions')");
  }
  SQLite::Database db = SmallCacheWriter(path);
  EXPECT_EQ(One(db, "SELECT crawl_add('" + Url(9, 30) + "', NULL, 0, 1000)"), "1");
  EXPECT_GE(PartsRead(db), 1);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
