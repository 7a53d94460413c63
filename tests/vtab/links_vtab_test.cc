// The link tables through SQL, as a user drives them: inserts, both directions, plans, deletes,
// transactions, persistence, optimize and renumbering, the import functions, corruption.
#include <cstdio>
#include <fstream>
#include <map>
#include <set>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/shared_data.h"
#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kSchema[] =
    "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
    "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
    "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);";

// Writes `text` to a fresh file in the temp folder; returns its path.
std::string WriteTempFile(const std::string& name, const std::string& text) {
  std::string path = TempDbPath(name) + ".txt";
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

class LinksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_.exec(kSchema);
    // Six real pages of the wikispeedia set.
    db_.exec(
        "INSERT INTO urls(url) VALUES ('https://en.wikipedia.org/wiki/Bede'), "
        "('https://en.wikipedia.org/wiki/Columba'), ('https://en.wikipedia.org/wiki/Iona'), "
        "('https://en.wikipedia.org/wiki/Scotland'), ('https://en.wikipedia.org/wiki/England'), "
        "('https://en.wikipedia.org/wiki/Ireland')");
  }
  void TearDown() override { EXPECT_EQ(One(db_, "SELECT crawldb_check()"), "ok"); }
  SQLite::Database db_ = LoadedDb();
};

TEST_F(LinksTest, InsertedLinksShowInBothTablesInListOrder) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (2, 3), (2, 1), (1, 2), (4, 5), (4, 2), (6, 4)");
  EXPECT_EQ(db_.getLastInsertRowid(), (int64_t{6} << 32) | 4);
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM outlinks"),
            (std::vector<std::string>{"1|2|0", "2|1|0", "2|3|1", "4|2|0", "4|5|1", "6|4|0"}));
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM inlinks"),
            (std::vector<std::string>{"2|1|0", "1|2|0", "4|2|1", "2|3|0", "6|4|0", "4|5|0"}));
  EXPECT_EQ(Rows(db_, "SELECT rowid = (src << 32) + dst FROM outlinks WHERE src = 2"),
            (std::vector<std::string>{"1", "1"}));
}

TEST_F(LinksTest, EachLookUpAnswersFromTheRightDirection) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (2, 3), (2, 1), (1, 2), (4, 5), (4, 2), (6, 4)");
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM outlinks WHERE src = 4"),
            (std::vector<std::string>{"4|2|0", "4|5|1"}));
  // dst on outlinks comes from the transpose; pos is still the place in src's list.
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM outlinks WHERE dst = 2"),
            (std::vector<std::string>{"1|2|0", "4|2|0"}));
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM inlinks WHERE dst = 2"),
            (std::vector<std::string>{"1|2|0", "4|2|1"}));
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM inlinks WHERE src = 4"),
            (std::vector<std::string>{"4|2|1", "4|5|0"}));
  EXPECT_EQ(Rows(db_, "SELECT pos FROM outlinks WHERE src = 4 AND dst = 5"),
            (std::vector<std::string>{"1"}));
  EXPECT_EQ(Rows(db_, "SELECT dst FROM outlinks WHERE src IN (6, 1, 99) ORDER BY dst"),
            (std::vector<std::string>{"2", "4"}));
  EXPECT_EQ(Rows(db_, "SELECT src FROM inlinks WHERE dst IN (3, 5)"),
            (std::vector<std::string>{"2", "4"}));
  // Values that name no node match nothing.
  for (const char* value : {"NULL", "'abc'", "2.5", "-1", "4294967296"}) {
    EXPECT_EQ(One(db_, std::string("SELECT count(*) FROM outlinks WHERE src = ") + value), "0")
        << value;
  }
}

TEST_F(LinksTest, JoinsWithUrlsUseTheIndexes) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (2, 3), (2, 1), (1, 2), (4, 2)");
  const std::string out_query =
      "SELECT u.url FROM outlinks o JOIN urls u ON u.id = o.dst "
      "WHERE o.src = url_id('https://en.wikipedia.org/wiki/Columba')";
  const std::string in_query =
      "SELECT u.url FROM inlinks i JOIN urls u ON u.id = i.src "
      "WHERE i.dst = url_id('https://en.wikipedia.org/wiki/Columba')";
  EXPECT_EQ(Rows(db_, out_query), (std::vector<std::string>{"https://en.wikipedia.org/wiki/Bede",
                                                            "https://en.wikipedia.org/wiki/Iona"}));
  EXPECT_EQ(Rows(db_, in_query),
            (std::vector<std::string>{"https://en.wikipedia.org/wiki/Bede",
                                      "https://en.wikipedia.org/wiki/Scotland"}));
  // The link table is searched by its key (plan 1), urls by id (plan 1), in that order.
  auto plan = [&](const std::string& query) {
    std::vector<std::string> details;
    SQLite::Statement explain(db_, "EXPLAIN QUERY PLAN " + query);
    while (explain.executeStep()) details.push_back(explain.getColumn(3).getString());
    return details;
  };
  EXPECT_EQ(plan(out_query), (std::vector<std::string>{"SCAN o VIRTUAL TABLE INDEX 1:",
                                                       "SCAN u VIRTUAL TABLE INDEX 1:"}));
  EXPECT_EQ(plan(in_query), (std::vector<std::string>{"SCAN i VIRTUAL TABLE INDEX 1:",
                                                      "SCAN u VIRTUAL TABLE INDEX 1:"}));
}

TEST_F(LinksTest, DuplicateAndSelfLinksAreDropped) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (1, 2), (3, 3), (2, 1)");
  EXPECT_EQ(Rows(db_, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"1|2", "2|1"}));
}

TEST_F(LinksTest, BadWritesAreClearErrorsAndChangeNothing) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2)");
  const std::string prefix = "crawldb_links: ";
  ExpectError(db_, "INSERT INTO outlinks(src, dst) VALUES (1, 99)", SQLITE_CONSTRAINT,
              prefix + "no URL has id 99 in urls; insert the URL first");
  ExpectError(db_, "INSERT INTO outlinks(src, dst) VALUES (NULL, 2)", SQLITE_CONSTRAINT,
              prefix + "src is NULL; give the URL ids of both ends, e.g. url_id('http://…')");
  ExpectError(db_, "INSERT INTO outlinks(src, dst) VALUES (1, 'x')", SQLITE_CONSTRAINT,
              prefix +
                  "dst is not an integer; give the URL ids of both ends, e.g. "
                  "url_id('http://…')");
  ExpectError(db_, "INSERT INTO outlinks(src, dst) VALUES (-5, 2)", SQLITE_CONSTRAINT,
              prefix + "src -5 is out of range; ids run from 0 to 4294967295");
  ExpectError(db_, "INSERT INTO outlinks(src, dst, pos) VALUES (1, 3, 0)", SQLITE_ERROR,
              prefix + "only src and dst can be inserted; pos and rowid follow from the ids");
  ExpectError(db_, "UPDATE outlinks SET dst = 3 WHERE src = 1", SQLITE_ERROR,
              prefix + "UPDATE is not supported; DELETE the link and INSERT the new one");
  ExpectError(db_, "INSERT INTO outlinks(outlinks) VALUES ('compact')", SQLITE_ERROR,
              prefix + "unknown command 'compact'; the command is 'optimize'");
  ExpectError(db_, "INSERT INTO outlinks(outlinks) VALUES ('import')", SQLITE_ERROR,
              prefix +
                  "'import' is run by crawldb_import_arcs and crawldb_import_links; call "
                  "one of those functions");
  ExpectError(db_, "INSERT INTO inlinks(src, dst) VALUES (1, 3)", SQLITE_ERROR,
              "table inlinks may not be modified");
  // A multi-row insert that fails midway keeps nothing of the statement; OR IGNORE skips.
  ExpectError(db_, "INSERT INTO outlinks(src, dst) VALUES (2, 3), (2, 77)", SQLITE_CONSTRAINT,
              prefix + "no URL has id 77 in urls; insert the URL first");
  db_.exec("INSERT OR IGNORE INTO outlinks(src, dst) VALUES (2, 77), (3, 4), ('x', 1)");
  EXPECT_EQ(Rows(db_, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"1|2", "3|4"}));
}

TEST_F(LinksTest, OptionsAreValidated) {
  ExpectError(
      db_, "CREATE VIRTUAL TABLE l2 USING crawldb_links(urls, codec=link9)", SQLITE_ERROR,
      "crawldb_links: option 'codec' must be one of: link1, link2, link3, link3+huff, bv, got "
      "'link9'");
  ExpectError(db_, "CREATE VIRTUAL TABLE l3 USING crawldb_links(urls, window=3)", SQLITE_ERROR,
              "crawldb_links: unknown option 'window'; expected one of: codec, cache_mb");
  ExpectError(db_, "CREATE VIRTUAL TABLE i2 USING crawldb_inlinks(urls); SELECT * FROM i2",
              SQLITE_ERROR,
              "crawldb_inlinks: table 'i2' reads 'urls', which is not a crawldb_links table; "
              "create it: CREATE VIRTUAL TABLE urls USING crawldb_links(urls)");
}

TEST_F(LinksTest, DeletesRemoveLinksAndDeletedUrlsHideTheirs) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (1, 3), (2, 3), (3, 1), (4, 3)");
  db_.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (5, 3)");
  db_.exec("DELETE FROM outlinks WHERE src = 1 AND dst = 3");  // a compressed link
  db_.exec("DELETE FROM outlinks WHERE dst = 1");
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM outlinks"),
            (std::vector<std::string>{"1|2|0", "2|3|0", "4|3|0", "5|3|0"}));
  db_.exec("DELETE FROM urls WHERE id = 2");
  EXPECT_EQ(Rows(db_, "SELECT src, dst, pos FROM inlinks"),
            (std::vector<std::string>{"4|3|0", "5|3|1"}));
  EXPECT_EQ(One(db_, "SELECT count(*) FROM outlinks WHERE src = 2 AND dst = 3"), "0");
  db_.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
  EXPECT_EQ(Rows(db_, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"4|3", "5|3"}));
}

TEST_F(LinksTest, RollbackAndSavepointsUndoLinkChanges) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2)");
  db_.exec(
      "BEGIN; INSERT INTO outlinks(src, dst) VALUES (1, 3); DELETE FROM outlinks WHERE dst = 2");
  EXPECT_EQ(Rows(db_, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"1|3"}));
  db_.exec("ROLLBACK");
  EXPECT_EQ(Rows(db_, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"1|2"}));
  db_.exec(
      "BEGIN; INSERT INTO outlinks(src, dst) VALUES (2, 1); SAVEPOINT s;"
      "INSERT INTO outlinks(src, dst) VALUES (3, 1); DELETE FROM outlinks WHERE src = 1;"
      "ROLLBACK TO s; INSERT INTO outlinks(src, dst) VALUES (4, 1); COMMIT");
  EXPECT_EQ(Rows(db_, "SELECT src, dst FROM inlinks"),
            (std::vector<std::string>{"2|1", "4|1", "1|2"}));
  ExpectError(db_, "BEGIN; INSERT INTO outlinks(outlinks) VALUES ('optimize')", SQLITE_ERROR,
              "crawldb_links: optimize and import cannot run inside a transaction; COMMIT first");
  db_.exec("ROLLBACK");
}

// A new database file `path` with the schema and URLs 1 to 3, open.
SQLite::Database FileWithThreeUrls(const std::string& path) {
  SQLite::Database db = LoadedDb(path);
  db.exec(kSchema);
  db.exec(
      "INSERT INTO urls(url) VALUES ('http://a.example/'), ('http://b.example/'), "
      "('http://c.example/')");
  return db;
}

TEST(LinksFile, PersistAcrossReopenAndReachOtherConnections) {
  std::string path = TempDbPath("links_persist");
  {
    SQLite::Database db = FileWithThreeUrls(path);
    db.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (2, 3)");
    db.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
    db.exec("INSERT INTO outlinks(src, dst) VALUES (3, 1)");
    db.exec("DELETE FROM outlinks WHERE src = 1");
  }
  SQLite::Database first = LoadedDb(path);
  SQLite::Database second = LoadedDb(path);
  EXPECT_EQ(Rows(first, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"2|3", "3|1"}));
  EXPECT_EQ(Rows(second, "SELECT src, dst FROM inlinks"), (std::vector<std::string>{"3|1", "2|3"}));
  first.exec("INSERT INTO outlinks(src, dst) VALUES (1, 3)");
  EXPECT_EQ(Rows(second, "SELECT src FROM inlinks WHERE dst = 3"),
            (std::vector<std::string>{"1", "2"}));
  first.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
  second.exec("INSERT INTO outlinks(src, dst) VALUES (2, 1)");
  EXPECT_EQ(Rows(first, "SELECT src, dst FROM outlinks"),
            (std::vector<std::string>{"1|3", "2|1", "2|3", "3|1"}));
  EXPECT_EQ(One(first, "SELECT crawldb_check()"), "ok");
}

// More links added since the last optimize than the store's buffer holds (65,536): they are
// frozen into compressed runs, in the writer and in a connection that replays the log, and read
// the same as a plain edges table, removed ones included, before and after optimize.
TEST(LinksFile, LinksPastTheBufferAreFrozenIntoRunsAndReadTheSame) {
  std::string path = TempDbPath("links_runs");
  SQLite::Database writer = LoadedDb(path);
  writer.exec(kSchema);
  writer.exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) "
      "INSERT INTO urls(url) SELECT 'http://h' || (i % 37) || '.example/p' || i FROM n");
  writer.exec("CREATE TABLE edges(src INTEGER, dst INTEGER, PRIMARY KEY (src, dst))");
  // A crawl-like pattern: each page links pages after it, a few hundred thousand tries.
  writer.exec(
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 150000) "
      "INSERT OR IGNORE INTO edges SELECT 1 + (i * 7919) % 2000, 1 + (i * 7919 + i / 97) % 2000 "
      "FROM n");
  writer.exec("DELETE FROM edges WHERE src = dst");
  writer.exec("INSERT INTO outlinks(src, dst) SELECT src, dst FROM edges");
  writer.exec("CREATE TABLE removed AS SELECT src, dst FROM edges WHERE src % 11 = 0");
  writer.exec("DELETE FROM outlinks WHERE src % 11 = 0");
  writer.exec("DELETE FROM edges WHERE src % 11 = 0");
  SQLite::Database reader = LoadedDb(path);
  const std::string delta =
      "SELECT value ->> 'delta_links' > 65536, value ->> 'delta_runs' > 0 FROM "
      "json_each(crawldb_stats(), '$.tables') WHERE value ->> 'table' = 'outlinks'";
  auto expect_same = [&](SQLite::Database& db) {
    EXPECT_EQ(Rows(db, "SELECT src, dst FROM outlinks"),
              Rows(db, "SELECT src, dst FROM edges ORDER BY src, dst"));
    EXPECT_EQ(Rows(db, "SELECT src, dst FROM inlinks"),
              Rows(db, "SELECT src, dst FROM edges ORDER BY dst, src"));
    for (const char* node : {"1", "2", "1000", "1999"}) {
      EXPECT_EQ(Rows(db, std::string("SELECT dst FROM outlinks WHERE src = ") + node),
                Rows(db, std::string("SELECT dst FROM edges WHERE src = ") + node));
      EXPECT_EQ(Rows(db, std::string("SELECT count(*) FROM inlinks WHERE dst = ") + node),
                Rows(db, std::string("SELECT count(*) FROM edges WHERE dst = ") + node));
    }
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  };
  for (SQLite::Database* db : {&writer, &reader}) {
    EXPECT_EQ(Rows(*db, delta), std::vector<std::string>{"1|1"});
    expect_same(*db);
  }
  // The removed links back and new ones, in one transaction of more than a buffer's worth: a new
  // connection replays the three log rows, the last one's additions sorted into runs, the
  // removed arcs among them losing their tombstones.
  writer.exec(
      "CREATE TABLE more AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
      "WHERE i < 90000) SELECT DISTINCT 1 + (i * 104729) % 2000 AS src, "
      "1 + (i * 7 + i / 53) % 2000 AS dst FROM n");
  writer.exec("DELETE FROM more WHERE src = dst OR (src, dst) IN (SELECT src, dst FROM edges)");
  EXPECT_GT(std::stoll(One(writer, "SELECT count(*) FROM more")), 65536);
  writer.exec(
      "INSERT INTO outlinks(src, dst) SELECT src, dst FROM removed UNION SELECT src, dst FROM "
      "more");
  writer.exec("INSERT OR IGNORE INTO edges SELECT src, dst FROM removed UNION SELECT * FROM more");
  SQLite::Database late = LoadedDb(path);
  for (SQLite::Database* db : {&writer, &reader, &late}) expect_same(*db);
  writer.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
  EXPECT_EQ(Rows(reader, delta), std::vector<std::string>{"0|0"});
  expect_same(reader);
}

// A connection that has not loaded urls reads lists without it while no id is deleted
// (UrlIds::CatchUpDeletions), and hides the links of URLs another connection deletes.
TEST(LinksFile, ConnectionsThatNeverLoadedUrlsHideLinksOfDeletedUrls) {
  std::string path = TempDbPath("links_deleted_elsewhere");
  SQLite::Database writer = FileWithThreeUrls(path);
  writer.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (2, 3), (3, 1)");
  writer.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
  SQLite::Database reader = LoadedDb(path);
  EXPECT_EQ(Rows(reader, "SELECT src, dst FROM outlinks"),
            (std::vector<std::string>{"1|2", "2|3", "3|1"}));
  writer.exec("DELETE FROM urls WHERE id = 2");
  EXPECT_EQ(Rows(reader, "SELECT src, dst FROM outlinks"), (std::vector<std::string>{"3|1"}));
  EXPECT_EQ(Rows(reader, "SELECT src FROM inlinks WHERE dst = 3"), std::vector<std::string>{});
  SQLite::Database fresh = LoadedDb(path);
  EXPECT_EQ(Rows(fresh, "SELECT src, dst FROM inlinks"), (std::vector<std::string>{"3|1"}));
  // Inserting checks every id: the store is loaded then.
  fresh.exec("INSERT INTO outlinks(src, dst) VALUES (1, 3)");
  ExpectError(fresh, "INSERT INTO outlinks(src, dst) VALUES (2, 1)", SQLITE_CONSTRAINT,
              "crawldb_links: no URL has id 2 in urls; insert the URL first");
  EXPECT_EQ(Rows(reader, "SELECT src, dst FROM outlinks"),
            (std::vector<std::string>{"1|3", "3|1"}));
  EXPECT_EQ(One(fresh, "SELECT crawldb_check()"), "ok");
}

// A connection whose urls is loaded takes it as caught up when outlinks has just caught up at
// the same data version (UrlIds::CatchUpDeletions): deletes by another connection still show,
// outside and inside a transaction, and after the reader rolls back a write of its own.
TEST(LinksFile, ALoadedUrlsTableSeesDeletesAtEveryCursorOpen) {
  std::string path = TempDbPath("links_loaded_urls_deletes");
  SQLite::Database writer = FileWithThreeUrls(path);
  writer.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (2, 3), (3, 1)");
  SQLite::Database reader = LoadedDb(path);
  EXPECT_EQ(One(reader, "SELECT count(*) FROM urls"), "3");  // loads urls
  const std::string links = "SELECT src, dst FROM outlinks ORDER BY src";
  EXPECT_EQ(Rows(reader, links), (std::vector<std::string>{"1|2", "2|3", "3|1"}));
  writer.exec("DELETE FROM urls WHERE id = 2");
  EXPECT_EQ(Rows(reader, links), (std::vector<std::string>{"3|1"}));
  reader.exec("BEGIN");
  EXPECT_EQ(Rows(reader, links), (std::vector<std::string>{"3|1"}));
  reader.exec("COMMIT");
  writer.exec("DELETE FROM urls WHERE id = 3");
  reader.exec("BEGIN");
  EXPECT_EQ(Rows(reader, links), std::vector<std::string>{});
  reader.exec("INSERT INTO urls(url) VALUES ('http://example.com/new')");
  reader.exec("ROLLBACK");
  writer.exec("INSERT INTO urls(url) VALUES ('http://example.com/four')");
  writer.exec("INSERT INTO outlinks(src, dst) VALUES (1, 4)");
  EXPECT_EQ(Rows(reader, links), std::vector<std::string>{"1|4"});
  writer.exec("DELETE FROM urls WHERE id = 4");
  EXPECT_EQ(Rows(reader, links), std::vector<std::string>{});
  EXPECT_EQ(One(reader, "SELECT crawldb_check()"), "ok");
}

TEST_F(LinksTest, UrlsOptimizeRenumbersTheGraph) {
  // Ids 1..6 arrive in insertion order; optimize sorts the URLs canonically.
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (2, 3), (4, 6), (6, 1)");
  db_.exec("DELETE FROM urls WHERE id = 5");
  const std::string by_url =
      "SELECT a.url || ' -> ' || b.url FROM outlinks o JOIN urls a ON a.id = o.src "
      "JOIN urls b ON b.id = o.dst ORDER BY 1";
  std::vector<std::string> before = Rows(db_, by_url);
  db_.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(Rows(db_, by_url), before);
  EXPECT_EQ(One(db_, "SELECT max(id) FROM urls"), "5");
  EXPECT_EQ(One(db_, "SELECT count(*) FROM outlinks o JOIN urls u ON u.id = o.dst"), "4");
}

TEST_F(LinksTest, StatsReportBitsPerLinkByComponent) {
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (1, 2), (2, 3), (3, 1)");
  db_.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
  db_.exec("INSERT INTO outlinks(src, dst) VALUES (4, 1)");
  std::string stats =
      One(db_,
          "SELECT value FROM json_each(crawldb_stats(), '$.tables') WHERE value ->> 'table' = "
          "'outlinks'");
  SQLite::Statement query(db_,
                          "SELECT ?1 ->> 'codec', ?1 ->> 'links', ?1 ->> 'delta_links', "
                          "?1 ->> '$.outlinks.bits_per_link' > 0, "
                          "?1 ->> '$.inlinks.adds_bits_per_link' > 0");
  query.bind(1, stats);
  ASSERT_TRUE(query.executeStep());
  EXPECT_EQ(query.getColumn(0).getString(), "link3");
  EXPECT_EQ(query.getColumn(1).getInt(), 4);
  EXPECT_EQ(query.getColumn(2).getInt(), 1);
  EXPECT_EQ(query.getColumn(3).getInt(), 1);
  EXPECT_EQ(query.getColumn(4).getInt(), 1);
}

// crawl_add's links: into outlinks when it exists, else into the frontier's own <t>_links.
TEST(LinksFromCrawl, CrawlAddRecordsItsLinksInOutlinks) {
  SQLite::Database db = LoadedDb();
  db.exec(kSchema);
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls)");
  const std::string links_by_url =
      "SELECT a.url || ' -> ' || b.url FROM outlinks o JOIN urls a ON a.id = o.src "
      "JOIN urls b ON b.id = o.dst ORDER BY 1";
  EXPECT_EQ(One(db, "SELECT crawl_add('http://a.example/', NULL, NULL, 1000)"), "1");
  EXPECT_EQ(One(db, "SELECT crawl_add('http://a.example/x', 'http://a.example/', NULL, 1000)"),
            "1");
  EXPECT_EQ(One(db, "SELECT crawl_add('http://b.example/', 'http://a.example/', NULL, 1000)"), "1");
  // A known URL: no new URL, but the link is new.
  EXPECT_EQ(One(db, "SELECT crawl_add('http://A.example/x', 'http://b.example/', NULL, 1000)"),
            "0");
  // Refused links and self links record nothing.
  EXPECT_EQ(One(db, "SELECT crawl_add('mailto:x@y.z', 'http://a.example/', NULL, 1000)"), "NULL");
  EXPECT_EQ(One(db, "SELECT crawl_add('http://a.example/#top', 'http://a.example/', NULL, 1000)"),
            "0");
  std::vector<std::string> expected = {"http://a.example/ -> http://a.example/x",
                                       "http://a.example/ -> http://b.example/",
                                       "http://b.example/ -> http://a.example/x"};
  EXPECT_EQ(Rows(db, links_by_url), expected);
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier_links"), "0");
  // A rolled-back crawl_add leaves no link behind.
  db.exec("BEGIN");
  EXPECT_EQ(One(db, "SELECT crawl_add('http://c.example/', 'http://b.example/', NULL, 1000)"), "1");
  EXPECT_EQ(Rows(db, links_by_url).size(), 4u);
  db.exec("ROLLBACK");
  EXPECT_EQ(Rows(db, links_by_url), expected);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(LinksFromCrawl, WithoutOutlinksTheFrontierKeepsTheLinks) {
  SQLite::Database db = LoadedDb();
  db.exec(
      "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
      "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls)");
  db.exec(
      "SELECT crawl_add('http://a.example/', NULL, NULL, 1000), "
      "crawl_add('http://a.example/x', 'http://a.example/', NULL, 1000)");
  EXPECT_EQ(Rows(db,
                 "SELECT a.url, b.url FROM frontier_links l JOIN urls a ON a.fp = l.src "
                 "JOIN urls b ON b.fp = l.dst"),
            (std::vector<std::string>{"http://a.example/|http://a.example/x"}));
}

// ---------------------------------------------------------------------------------------------
// Import functions.

TEST(LinksImport, ArcsFileKeepsTheGraphAsGiven) {
  // The first 100,000 arcs of cnr-2000, against a plain table loaded from the same lines.
  std::vector<std::string> lines =
      ReadXzLines(SharedDataPath("cnr-2000/cnr-2000.arcs.tsv.xz"), 100000);
  ASSERT_EQ(lines.size(), 100000u);
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  text += "# a comment, then a self link and a duplicate\n7\t7\n" + lines[10] + "\n";
  std::string path = WriteTempFile("cnr_slice", text);

  SQLite::Database db = LoadedDb();
  db.exec(kSchema);
  db.exec("CREATE TABLE plain(src INTEGER, dst INTEGER, PRIMARY KEY(src, dst)) WITHOUT ROWID");
  {
    SQLite::Transaction transaction(db);
    SQLite::Statement insert(db, "INSERT OR IGNORE INTO plain VALUES (?, ?)");
    for (const std::string& line : lines) {
      size_t tab = line.find('\t');
      insert.bind(1, static_cast<int64_t>(std::stoll(line.substr(0, tab))));
      insert.bind(2, static_cast<int64_t>(std::stoll(line.substr(tab + 1))));
      insert.exec();
      insert.reset();
    }
    db.exec("INSERT OR IGNORE INTO plain VALUES (7, 7)");
    transaction.commit();
  }
  SQLite::Statement import(db, "SELECT crawldb_import_arcs(?)");
  import.bind(1, path);
  ASSERT_TRUE(import.executeStep());
  EXPECT_EQ(import.getColumn(0).getString().substr(0, 40),
            "{\"lines\":100003,\"arcs_read\":100002,\"link");
  EXPECT_EQ(
      One(db, "SELECT count(*) || ' ' || sum(dst) || ' ' || sum(src * 7 + pos) FROM outlinks"),
      One(db,
          "SELECT count(*) || ' ' || sum(dst) || ' ' || sum(src * 7 + "
          "(SELECT count(*) FROM plain q WHERE q.src = p.src AND q.dst < p.dst)) "
          "FROM plain p"));
  EXPECT_EQ(One(db, "SELECT count(*) || ' ' || sum(src) FROM inlinks"),
            One(db, "SELECT count(*) || ' ' || sum(src) FROM plain"));
  EXPECT_EQ(Rows(db, "SELECT src FROM inlinks WHERE dst = 7"),
            Rows(db, "SELECT src FROM plain WHERE dst = 7 ORDER BY src"));
  EXPECT_EQ(Rows(db, "SELECT dst FROM outlinks WHERE src = 5000"),
            Rows(db, "SELECT dst FROM plain WHERE src = 5000 ORDER BY dst"));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(LinksImport, BadArcsFilesAreRefusedNamingTheLine) {
  SQLite::Database db = LoadedDb();
  db.exec(kSchema);
  std::string path = WriteTempFile("bad_arcs", "0\t1\n1\t2\n2 x\n");
  ExpectError(db, "SELECT crawldb_import_arcs('" + path + "')", SQLITE_ERROR,
              "crawldb_import_arcs: '" + path +
                  "': line 3: expected two ids from 0 to 4294967295 separated by a tab");
  path = WriteTempFile("bad_arcs2", "0\t1\n4294967296\t2\n");
  ExpectError(db, "SELECT crawldb_import_arcs('" + path + "')", SQLITE_ERROR,
              "crawldb_import_arcs: '" + path +
                  "': line 2: expected two ids from 0 to 4294967295 separated by a tab");
  ExpectError(db, "SELECT crawldb_import_arcs('/nonexistent/arcs.tsv')", SQLITE_ERROR,
              "crawldb_import_arcs: '/nonexistent/arcs.tsv': cannot open "
              "'/nonexistent/arcs.tsv': No such file or directory");
  ExpectError(db, "SELECT crawldb_import_arcs(42)", SQLITE_ERROR,
              "crawldb_import_arcs: the path must be text");
  ExpectError(db, "SELECT crawldb_import_arcs()", SQLITE_ERROR,
              "wrong number of arguments to function crawldb_import_arcs()");
  path = WriteTempFile("good_arcs", "0\t1\n");
  ExpectError(db, "BEGIN; SELECT crawldb_import_arcs('" + path + "')", SQLITE_ERROR,
              "crawldb_import_arcs: cannot run inside a transaction (it rewrites the link lists); "
              "COMMIT first");
  db.exec("ROLLBACK");
  // SQLITE_DIRECTONLY: not from a view or trigger.
  db.exec("CREATE VIEW v AS SELECT crawldb_import_arcs('" + path + "')");
  ExpectError(db, "SELECT * FROM v", SQLITE_ERROR, "unsafe use of crawldb_import_arcs()");
  EXPECT_EQ(One(db, "SELECT count(*) FROM outlinks"), "0");
}

// The wikispeedia graph as a links file (paper 001 §2.1), one record per source article.
struct WikispeediaLinks {
  std::string text;
  std::set<std::pair<std::string, std::string>> links;  // (source URL, destination URL)
};

WikispeediaLinks MakeWikispeediaLinks() {
  const std::string wiki = "https://en.wikipedia.org/wiki/";
  WikispeediaLinks result;
  std::string source;
  for (const std::string& line : ReadXzLines(SharedDataPath("wikispeedia/links.tsv.xz"))) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    std::string from = line.substr(0, tab), to = line.substr(tab + 1);
    if (from != source) {
      result.text += "\n" + wiki + from + "\n";
      source = from;
    }
    result.text += "  " + wiki + to + "\n";
    result.links.insert({wiki + from, wiki + to});
  }
  return result;
}

TEST(LinksImport, LinksFileOfWikispeediaMatchesItsLinks) {
  WikispeediaLinks graph = MakeWikispeediaLinks();
  ASSERT_GT(graph.links.size(), 100000u);
  // A newer record of one source replaces the older one; junk links are skipped.
  const std::string wiki = "https://en.wikipedia.org/wiki/";
  std::string newer =
      wiki + "Zulu\n  " + wiki + "Zambia\n  mailto:someone@example.com\n  " + wiki + "Zulu\n";
  for (auto it = graph.links.begin(); it != graph.links.end();) {
    it = it->first == wiki + "Zulu" ? graph.links.erase(it) : std::next(it);
  }
  graph.links.insert({wiki + "Zulu", wiki + "Zambia"});
  std::string path = WriteTempFile("wikispeedia_links", graph.text + "\n" + newer);

  SQLite::Database db = LoadedDb();
  db.exec(kSchema);
  std::string result = One(db, "SELECT crawldb_import_links('" + path + "')");
  EXPECT_NE(result.find("\"superseded\":1,"), std::string::npos) << result;
  EXPECT_NE(result.find("\"invalid_urls\":1,"), std::string::npos) << result;
  std::set<std::pair<std::string, std::string>> stored;
  SQLite::Statement query(db,
                          "SELECT a.url, b.url FROM outlinks o JOIN urls a ON a.id = o.src "
                          "JOIN urls b ON b.id = o.dst");
  while (query.executeStep()) stored.insert({query.getColumn(0), query.getColumn(1)});
  // Stored URLs are normalised: compare through url_normalize.
  std::set<std::pair<std::string, std::string>> expected;
  SQLite::Statement normalize(db, "SELECT url_normalize(?)");
  auto norm = [&](const std::string& url) {
    normalize.bind(1, url);
    normalize.executeStep();
    std::string text = normalize.getColumn(0).getString();
    normalize.reset();
    return text;
  };
  for (const auto& [from, to] : graph.links) {
    if (from != to) expected.insert({norm(from), norm(to)});
  }
  EXPECT_EQ(stored.size(), expected.size());
  EXPECT_TRUE(stored == expected);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(LinksImport, ThresholdDropsRarelyLinkedDestinations) {
  std::string path = WriteTempFile("threshold_links",
                                   "http://a.example/\n  http://x.example/\n  http://y.example/\n"
                                   "http://b.example/\n  http://x.example/\n\thttp://a.example/\n"
                                   "\n"
                                   "http://c.example/\n");
  SQLite::Database db = LoadedDb();
  db.exec(kSchema);
  std::string result = One(db, "SELECT crawldb_import_links('" + path + "', 2)");
  EXPECT_NE(result.find("\"urls\":4,"), std::string::npos) << result;
  EXPECT_NE(result.find("\"dropped_urls\":1,"), std::string::npos) << result;
  EXPECT_EQ(Rows(db,
                 "SELECT a.url, b.url FROM outlinks o JOIN urls a ON a.id = o.src "
                 "JOIN urls b ON b.id = o.dst ORDER BY 1, 2"),
            (std::vector<std::string>{"http://a.example/|http://x.example/",
                                      "http://b.example/|http://a.example/",
                                      "http://b.example/|http://x.example/"}));
  std::string bad = WriteTempFile("bad_links", "  http://x.example/\nhttp://a.example/\n");
  ExpectError(db, "SELECT crawldb_import_links('" + bad + "')", SQLITE_ERROR,
              "crawldb_import_links: '" + bad +
                  "': line 1: an indented destination URL before any source URL");
  ExpectError(db, "SELECT crawldb_import_links('" + path + "', 0)", SQLITE_ERROR,
              "crawldb_import_links: threshold must be an integer ≥ 1");
}

// crawldb_import_links runs outside a transaction; its URLs and its links are one commit, so that
// a crash leaves all of the file or none of it (it used to commit each URL on its own: one
// commit per URL, and a SIGKILL mid-import kept a few URLs and no links, issue 15's kill
// campaign). A commit hook counts the commits, then vetoes the import's one commit.
TEST(LinksImport, LinksFileIsOneTransaction) {
  std::string text;
  for (int i = 0; i < 20; ++i) {
    text += "http://a.example/" + std::to_string(i) + "\n  http://b.example/" + std::to_string(i) +
            "\n  http://a.example/" + std::to_string((i + 1) % 20) + "\n";
  }
  std::string path = WriteTempFile("one_commit_links", text);
  SQLite::Database db = LoadedDb(TempDbPath("import_one_commit"));
  db.exec(kSchema);
  int commits = 0;
  bool veto = true;
  struct Hook {
    int* commits;
    bool* veto;
  } counter{&commits, &veto};
  sqlite3_commit_hook(
      db.getHandle(),
      [](void* data) {
        auto* hook = static_cast<Hook*>(data);
        ++*hook->commits;
        return *hook->veto ? 1 : 0;
      },
      &counter);
  ExpectError(db, "SELECT crawldb_import_links('" + path + "')", SQLITE_CONSTRAINT_COMMITHOOK,
              "crawldb_import_links: constraint failed");
  EXPECT_EQ(commits, 1);
  EXPECT_TRUE(db.getHandle() != nullptr && sqlite3_get_autocommit(db.getHandle()));
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM outlinks"), "0");
  veto = false;
  commits = 0;
  std::string result = One(db, "SELECT crawldb_import_links('" + path + "')");
  EXPECT_NE(result.find("\"urls\":40,"), std::string::npos) << result;
  EXPECT_EQ(commits, 1);
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "40");
  EXPECT_EQ(One(db, "SELECT count(*) FROM outlinks"), "40");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  sqlite3_commit_hook(db.getHandle(), nullptr, nullptr);
}

// ---------------------------------------------------------------------------------------------
// Corruption.

// Damages the blobs of an outlinks table of `codec` in many ways; every read fails with
// SQLITE_CORRUPT_VTAB or reads a valid graph.
void ExpectDamagedBlobsCorruptVtab(const std::string& codec) {
  std::string path = TempDbPath("links_corrupt_" + codec);
  {
    SQLite::Database db = LoadedDb(path);
    db.exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
        "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls, codec=" +
        codec +
        ");"
        "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);");
    SQLite::Transaction transaction(db);
    SQLite::Statement insert(db, "INSERT INTO urls(url) VALUES (?)");
    for (int i = 0; i < 300; ++i) {
      insert.bind(1, "http://site" + std::to_string(i % 7) + ".example/page" + std::to_string(i));
      insert.exec();
      insert.reset();
    }
    for (int i = 1; i <= 300; ++i) {
      for (int j : {1, 3, 7, 50}) {
        db.exec("INSERT OR IGNORE INTO outlinks(src, dst) VALUES (" + std::to_string(i) + ", " +
                std::to_string((i + j) % 300 + 1) + ")");
      }
    }
    transaction.commit();
    db.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
    db.exec("INSERT INTO outlinks(src, dst) VALUES (1, 200), (2, 200)");
  }
  std::vector<std::string> damages = {
      "UPDATE outlinks_graph SET data = substr(data, 1, length(data) / 2) WHERE part = 1",
      "UPDATE outlinks_graph SET data = substr(data, 1, 2) WHERE part = 0",
      "DELETE FROM outlinks_graph WHERE part = 2",
      "UPDATE outlinks_log SET changes = substr(changes, 1, 4)",
      "UPDATE outlinks_log SET changes = x'01020105ff'",
      "UPDATE outlinks_graph SET data = x'03' || substr(data, 2) WHERE part = 0",
  };
  for (int at = 0; at < 120; ++at) {
    damages.push_back("UPDATE outlinks_graph SET data = flip(data, " + std::to_string(at * 13) +
                      ") WHERE part = " + std::to_string(1 + at % 2));
  }
  int corrupt = 0;
  for (const std::string& damage : damages) {
    SCOPED_TRACE(damage);
    std::string copy = TempDbPath("links_corrupt_copy_" + codec);
    std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
    SQLite::Database db = LoadedDb(copy);
    db.createFunction("flip", 2, true, nullptr, &FlipByte);
    db.exec(damage);
    try {
      db.execAndGet("SELECT count(*), sum(dst), sum(pos) FROM outlinks");
      db.execAndGet("SELECT count(*), sum(src) FROM inlinks WHERE dst = 200");
      // A look-up reads its own lists' starts and records only: the scan reads the rest.
      db.execAndGet("SELECT count(*), sum(src), sum(pos) FROM inlinks");
    } catch (const SQLite::Exception& e) {
      ++corrupt;
      std::string message = e.what();
      EXPECT_TRUE(e.getExtendedErrorCode() == SQLITE_CORRUPT_VTAB ||
                  message.find("format version") != std::string::npos)
          << message;
      EXPECT_EQ(message.rfind("crawldb_links: table 'outlinks': ", 0), 0u) << message;
      // Nothing rewrites the damaged graph as if its corrupt lists were empty.
      const std::string stored = One(db, "SELECT hex(group_concat(data)) FROM outlinks_graph");
      EXPECT_THROW(db.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')"),
                   SQLite::Exception);
      EXPECT_EQ(One(db, "SELECT hex(group_concat(data)) FROM outlinks_graph"), stored);
    }
  }
  // Every structural damage is caught; a flipped byte may also decode to another valid graph.
  EXPECT_GE(corrupt, 6 + 60);
}

// A base's lists are checked as they are read (link_graph_format.h): a new connection looks
// one list up without decoding the rest, and a base whose lists do not hold the arc count its
// header records is found by crawldb_check() and refused by optimize, which keeps it.
TEST(LinksCorruption, AMiscountedBaseIsFoundByCheckAndKeptByOptimize) {
  std::string path = TempDbPath("links_miscounted");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
        "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
        "INSERT INTO urls(url) VALUES ('http://a.example/'), ('http://b.example/'),"
        " ('http://c.example/');"
        "INSERT INTO outlinks(src, dst) VALUES (1, 2), (1, 3), (2, 3);"
        "INSERT INTO outlinks(outlinks) VALUES ('optimize');");
    // The header's last byte is its arc count, 3: make it 4.
    ASSERT_EQ(One(db, "SELECT hex(substr(data, -1)) FROM outlinks_graph WHERE part = 0"), "03");
    db.exec(
        "UPDATE outlinks_graph SET data = substr(data, 1, length(data) - 1) || x'04' "
        "WHERE part = 0");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT group_concat(dst) FROM outlinks WHERE src = 1"), "2,3");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"),
            "outlinks: links: link3: the lists hold 3 arcs; 4 were recorded");
  const std::string stored = One(db, "SELECT hex(group_concat(data)) FROM outlinks_graph");
  try {
    db.exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
    ADD_FAILURE() << "optimize rewrote a miscounted base";
  } catch (const SQLite::Exception& e) {
    EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB) << e.what();
    EXPECT_EQ(std::string(e.what()),
              "crawldb_links: table 'outlinks': link3: the lists hold 3 arcs; 4 were recorded; "
              "the stored data is damaged; restore the file from a backup");
  }
  EXPECT_EQ(One(db, "SELECT hex(group_concat(data)) FROM outlinks_graph"), stored);
}

TEST(LinksCorruption, DamagedBlobsAreCorruptVtabNeverACrash) {
  ExpectDamagedBlobsCorruptVtab("link3");
}

TEST(LinksCorruption, DamagedBvBlobsAreCorruptVtabNeverACrash) {
  ExpectDamagedBlobsCorruptVtab("bv");
}

}  // namespace
}  // namespace crawldb::testing
