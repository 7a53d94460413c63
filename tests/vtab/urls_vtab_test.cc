// The urls table through SQL, as a user drives it: writes, conflict clauses, look-up plans,
// transactions, persistence, other connections, functions and corruption.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdio>

#include "codecs/varint.h"
#include "extension/urls/url_log_format.h"
#include "tests/stores/url_base_version2.h"
#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kConstraintPrefix[] = "crawldb_urls: ";

class UrlsTest : public ::testing::Test {
 protected:
  void SetUp() override { db_.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls"); }
  void TearDown() override { EXPECT_EQ(One(db_, "SELECT crawldb_check()"), "ok"); }
  void Insert(const std::string& url) {
    SQLite::Statement insert(db_, "INSERT INTO urls(url) VALUES (?)");
    insert.bind(1, url);
    insert.exec();
  }
  SQLite::Database db_ = LoadedDb();
};

TEST_F(UrlsTest, InsertAssignsDenseIdsAndNormalises) {
  Insert("HTTP://Example.COM:80/a/./b/../c#frag");
  EXPECT_EQ(db_.getLastInsertRowid(), 1);
  Insert("https://www.example.com/");
  EXPECT_EQ(db_.getLastInsertRowid(), 2);
  EXPECT_EQ(Rows(db_, "SELECT id, url, host FROM urls"),
            (std::vector<std::string>{"1|http://example.com/a/c|example.com",
                                      "2|https://www.example.com/|www.example.com"}));
  EXPECT_EQ(One(db_, "SELECT fp = url_fp('http://example.com/a/c') FROM urls WHERE id = 1"), "1");
}

TEST_F(UrlsTest, KnownUrlIsAConstraintErrorNamingIt) {
  Insert("http://example.com/a");
  ExpectError(db_, "INSERT INTO urls(url) VALUES ('http://EXAMPLE.com/a')", SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) +
                  "URL already stored: http://example.com/a (id 1); use INSERT OR IGNORE to skip "
                  "known URLs");
  EXPECT_EQ(One(db_, "SELECT count(*) FROM urls"), "1");
}

TEST_F(UrlsTest, OrIgnoreSkipsKnownAndInvalidUrls) {
  Insert("http://example.com/a");
  db_.exec(
      "INSERT OR IGNORE INTO urls(url) VALUES ('http://example.com/a'), ('mailto:x@y.z'), "
      "('javascript:void(0)'), (NULL), (42), ('http://example.com/b')");
  EXPECT_EQ(db_.getChanges(), 1);
  EXPECT_EQ(db_.getLastInsertRowid(), 2);
  EXPECT_EQ(Rows(db_, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://example.com/a", "2|http://example.com/b"}));
}

TEST_F(UrlsTest, OrReplaceKeepsTheExistingId) {
  Insert("http://example.com/a");
  Insert("http://example.com/b");
  db_.exec("INSERT OR REPLACE INTO urls(url) VALUES ('http://example.com/a')");
  EXPECT_EQ(db_.getLastInsertRowid(), 1);
  EXPECT_EQ(One(db_, "SELECT count(*) FROM urls"), "2");
}

TEST_F(UrlsTest, InvalidUrlsAreConstraintErrorsWithTheReason) {
  ExpectError(
      db_, "INSERT INTO urls(url) VALUES ('mailto:x@y.z')", SQLITE_CONSTRAINT,
      std::string(kConstraintPrefix) + "invalid URL: unsupported scheme 'mailto': mailto:x@y.z");
  ExpectError(db_, "INSERT INTO urls(url) VALUES ('http://a' || char(0) || 'b/')",
              SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) + "invalid URL: embedded NUL byte: http://a\\x00b/");
  ExpectError(db_, "INSERT INTO urls(url) VALUES (NULL)", SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) + "url is NULL");
  ExpectError(db_, "INSERT INTO urls(url) VALUES (3.5)", SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) + "url must be text, got a number or blob");
  ExpectError(db_, "INSERT INTO urls(url) VALUES ('http://x.com/' || printf('%.9000c', 'a'))",
              SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) +
                  "invalid URL: longer than 8192 bytes: http://x.com/" + std::string(87, 'a') +
                  "…");
  EXPECT_EQ(One(db_, "SELECT count(*) FROM urls"), "0");
}

TEST_F(UrlsTest, MaxUrlLengthIsAnOption) {
  db_.exec("CREATE VIRTUAL TABLE short USING crawldb_urls(max_url_length=64)");
  ExpectError(db_, "INSERT INTO short(url) VALUES ('http://x.com/' || printf('%.60c', 'a'))",
              SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) + "invalid URL: longer than 64 bytes: http://x.com/" +
                  std::string(60, 'a'));
  ExpectError(db_, "CREATE VIRTUAL TABLE bad USING crawldb_urls(max_url_length=10)", SQLITE_ERROR,
              "crawldb_urls: option 'max_url_length' must be an integer from 64 to 1048576, got "
              "'10'");
  ExpectError(db_, "CREATE VIRTUAL TABLE bad USING crawldb_urls(lenght=10)", SQLITE_ERROR,
              "crawldb_urls: unknown option 'lenght'; expected one of: max_url_length, "
              "merge_bytes, cache_mb, log_tail_kb");
}

TEST_F(UrlsTest, MultiRowInsertFailingMidwayKeepsNothingOfTheStatement) {
  Insert("http://example.com/a");
  ExpectError(db_,
              "INSERT INTO urls(url) VALUES ('http://example.com/b'), ('http://example.com/a'), "
              "('http://example.com/c')",
              SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) +
                  "URL already stored: http://example.com/a (id 1); use INSERT OR IGNORE to skip "
                  "known URLs");
  EXPECT_EQ(Rows(db_, "SELECT url FROM urls"), (std::vector<std::string>{"http://example.com/a"}));
  // OR FAIL keeps the rows before the failing one.
  ExpectError(db_,
              "INSERT OR FAIL INTO urls(url) VALUES ('http://example.com/b'), "
              "('http://example.com/a'), ('http://example.com/c')",
              SQLITE_CONSTRAINT,
              std::string(kConstraintPrefix) +
                  "URL already stored: http://example.com/a (id 1); use INSERT OR IGNORE to skip "
                  "known URLs");
  EXPECT_EQ(Rows(db_, "SELECT url FROM urls"),
            (std::vector<std::string>{"http://example.com/a", "http://example.com/b"}));
}

TEST_F(UrlsTest, UpdateIsRefusedAndIdsAreNotUserSet) {
  Insert("http://example.com/a");
  ExpectError(db_, "UPDATE urls SET url = 'http://example.com/b' WHERE id = 1", SQLITE_ERROR,
              "crawldb_urls: UPDATE is not supported: a URL's text is its identity; DELETE the "
              "row and INSERT the new URL");
  ExpectError(db_, "INSERT INTO urls(id, url) VALUES (7, 'http://example.com/b')", SQLITE_ERROR,
              "crawldb_urls: id is assigned by crawldb; insert only the url column");
  ExpectError(db_, "INSERT INTO urls(url, fp) VALUES ('http://example.com/b', 5)", SQLITE_ERROR,
              "crawldb_urls: host and fp are computed from the url; insert only the url column");
  ExpectError(db_, "INSERT INTO urls(urls) VALUES ('defragment')", SQLITE_ERROR,
              "crawldb_urls: unknown command 'defragment'; the command is 'optimize'");
}

TEST_F(UrlsTest, DeleteDoesNotReuseIdsUntilOptimize) {
  Insert("http://b.com/");
  Insert("http://a.com/");
  Insert("http://c.com/");
  db_.exec("DELETE FROM urls WHERE url = 'http://a.com/'");
  EXPECT_EQ(db_.getChanges(), 1);
  Insert("http://d.com/");
  EXPECT_EQ(db_.getLastInsertRowid(), 4);
  Insert("http://a.com/");  // re-added: a new id
  EXPECT_EQ(db_.getLastInsertRowid(), 5);
  EXPECT_EQ(Rows(db_, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://b.com/", "3|http://c.com/", "4|http://d.com/",
                                      "5|http://a.com/"}));
  EXPECT_EQ(One(db_, "SELECT url_id('http://a.com')"), "5");
  EXPECT_EQ(One(db_, "SELECT url_text(2)"), "NULL");
  // Optimize renumbers into canonical order: dense ids 1..N.
  db_.exec("INSERT INTO urls(urls) VALUES ('optimize')");
  EXPECT_EQ(Rows(db_, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://a.com/", "2|http://b.com/", "3|http://c.com/",
                                      "4|http://d.com/"}));
}

TEST_F(UrlsTest, CanonicalOrderGroupsDomainsAndHosts) {
  for (const char* url : {"http://www.example.com/b", "https://example.com/", "http://zeta.org/",
                          "http://example-shop.com/", "http://shop.example.com/",
                          "http://example.com/a", "http://10.0.0.1/"}) {
    Insert(url);
  }
  EXPECT_EQ(One(db_, "SELECT crawldb_optimize() IS NOT NULL"), "1");
  EXPECT_EQ(
      Rows(db_, "SELECT url FROM urls ORDER BY id"),
      (std::vector<std::string>{"http://10.0.0.1/", "http://example.com/a", "https://example.com/",
                                "http://shop.example.com/", "http://www.example.com/b",
                                "http://example-shop.com/", "http://zeta.org/"}));
}

TEST_F(UrlsTest, LookupsThroughEveryPlan) {
  for (const char* url : {"http://example.com/a", "http://example.com/b", "https://example.com/c",
                          "http://www.example.com/a", "http://other.org/x"}) {
    Insert(url);
  }
  for (bool optimized : {false, true}) {
    SCOPED_TRACE(optimized ? "after optimize" : "before optimize");
    if (optimized) db_.exec("SELECT crawldb_optimize()");
    std::string id_b = One(db_, "SELECT url_id('http://example.com/b')");
    EXPECT_EQ(One(db_, "SELECT url FROM urls WHERE id = " + id_b), "http://example.com/b");
    EXPECT_EQ(One(db_, "SELECT count(*) FROM urls WHERE id IN (1, 3, 5, 99)"), "3");
    EXPECT_EQ(One(db_, "SELECT url FROM urls WHERE url = 'HTTP://EXAMPLE.COM/b'"),
              "http://example.com/b");
    EXPECT_EQ(One(db_,
                  "SELECT count(*) FROM urls WHERE url IN ('http://example.com/a', "
                  "'http://other.org/x', 'http://nowhere/', 'not a url')"),
              "2");
    EXPECT_EQ(One(db_, "SELECT url FROM urls WHERE fp = url_fp('http://other.org/x')"),
              "http://other.org/x");
    EXPECT_EQ(Rows(db_, "SELECT url FROM urls WHERE host = 'EXAMPLE.com' ORDER BY url"),
              (std::vector<std::string>{"http://example.com/a", "http://example.com/b",
                                        "https://example.com/c"}));
    EXPECT_EQ(Rows(db_, "SELECT url FROM urls WHERE url LIKE 'http://example.com/%' ORDER BY url"),
              (std::vector<std::string>{"http://example.com/a", "http://example.com/b"}));
    EXPECT_EQ(Rows(db_, "SELECT url FROM urls WHERE url GLOB 'http*://example.com/*' ORDER BY url"),
              (std::vector<std::string>{"http://example.com/a", "http://example.com/b",
                                        "https://example.com/c"}));
    EXPECT_EQ(Rows(db_,
                   "SELECT url FROM urls WHERE url >= 'http://example.com/b' AND "
                   "url < 'http://example.com/c' ORDER BY url"),
              (std::vector<std::string>{"http://example.com/b"}));
    EXPECT_EQ(Rows(db_, "SELECT url FROM urls WHERE url > 'http://o' ORDER BY url"),
              (std::vector<std::string>{"http://other.org/x", "http://www.example.com/a",
                                        "https://example.com/c"}));
    EXPECT_EQ(One(db_, "SELECT group_concat(id) FROM urls WHERE id > 2 AND id <= 4"), "3,4");
    EXPECT_EQ(One(db_, "SELECT group_concat(id) FROM urls WHERE id >= 4.5"), "5");
    EXPECT_EQ(One(db_, "SELECT count(*) FROM urls WHERE id < 1"), "0");
  }
}

// A table keeps its last closed cursor for the next statement: what the cursor cached (a
// decoded block, the current URL) must not outlive the store it was read from.
TEST_F(UrlsTest, StatementsRunAgainSeeTheStoreAsItIsNow) {
  const auto url = [](char letter, int n) {
    char text[32];
    std::snprintf(text, sizeof text, "http://example.com/%c%03d", letter, n);
    return std::string(text);
  };
  for (int i = 0; i < 100; ++i) Insert(url('p', i));
  db_.exec("INSERT INTO urls(urls) VALUES ('optimize')");
  SQLite::Statement by_id(db_, "SELECT url FROM urls WHERE id = ?");
  SQLite::Statement by_url(db_, "SELECT id FROM urls WHERE url = ?");
  SQLite::Statement scan(db_, "SELECT group_concat(url, ' ') FROM urls");
  // Each statement is reset at once, so that its cursor is the one the next statement gets.
  const auto text_of = [&](int64_t id) {
    by_id.bind(1, id);
    const std::string text = by_id.executeStep() ? by_id.getColumn(0).getString() : "none";
    by_id.reset();
    return text;
  };
  const auto id_of = [&](const std::string& text) {
    by_url.bind(1, text);
    const int64_t id = by_url.executeStep() ? by_url.getColumn(0).getInt64() : 0;
    by_url.reset();
    return id;
  };
  const auto all = [&] {
    const std::string text = scan.executeStep() ? scan.getColumn(0).getString() : "";
    scan.reset();
    return text;
  };
  std::string expected;
  for (int i = 0; i < 100; ++i) expected += (i == 0 ? "" : " ") + url('p', i);
  EXPECT_EQ(text_of(5), url('p', 4));
  EXPECT_EQ(id_of(url('p', 50)), 51);
  EXPECT_EQ(all(), expected);
  // Every id changes: ten URLs go, ten come after the others, optimize renumbers.
  db_.exec("DELETE FROM urls WHERE id <= 10");
  for (int i = 0; i < 10; ++i) Insert(url('q', i));
  db_.exec("INSERT INTO urls(urls) VALUES ('optimize')");
  expected.clear();
  for (int i = 10; i < 100; ++i) expected += (i == 10 ? "" : " ") + url('p', i);
  for (int i = 0; i < 10; ++i) expected += " " + url('q', i);
  EXPECT_EQ(text_of(5), url('p', 14));
  EXPECT_EQ(text_of(100), url('q', 9));
  EXPECT_EQ(id_of(url('p', 50)), 41);
  EXPECT_EQ(id_of(url('p', 0)), 0);
  EXPECT_EQ(all(), expected);
  // Two cursors of one table at once: one is kept when both close, the other freed.
  EXPECT_EQ(Rows(db_, "SELECT a.id, b.id FROM urls a JOIN urls b ON b.url = a.url WHERE a.id <= 2"),
            (std::vector<std::string>{"1|1", "2|2"}));
  EXPECT_EQ(text_of(1), url('p', 10));
}

TEST_F(UrlsTest, PlansUseTheIndex) {
  // Estimates follow the table's size, as they should: give it a realistic one.
  db_.exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
      "INSERT INTO urls(url) SELECT 'http://example.com/' || i FROM n");
  db_.exec("CREATE TABLE pages(url_id INTEGER, title TEXT)");
  auto plan = [&](const std::string& sql) {
    std::string text;
    for (const std::string& row : Rows(db_, "EXPLAIN QUERY PLAN " + sql)) text += row + "\n";
    return text;
  };
  EXPECT_NE(plan("SELECT * FROM urls WHERE id = 1").find("VIRTUAL TABLE INDEX 1:"),
            std::string::npos);
  EXPECT_NE(
      plan("SELECT * FROM urls WHERE url = 'http://example.com/a'").find("VIRTUAL TABLE INDEX 2:"),
      std::string::npos);
  EXPECT_NE(plan("SELECT * FROM urls WHERE fp = 5").find("VIRTUAL TABLE INDEX 3:"),
            std::string::npos);
  EXPECT_NE(plan("SELECT * FROM urls WHERE host = 'example.com'").find("VIRTUAL TABLE INDEX 4:"),
            std::string::npos);
  // In a join the planner looks urls up by id for each row of the other table.
  std::string join = plan("SELECT u.url, p.title FROM pages p JOIN urls u ON u.id = p.url_id");
  EXPECT_NE(join.find("SCAN p"), std::string::npos) << join;
  EXPECT_NE(join.find("SCAN u VIRTUAL TABLE INDEX 1:"), std::string::npos) << join;
}

TEST_F(UrlsTest, RollbackAndSavepointsLeaveNoTrace) {
  Insert("http://keep.com/");
  db_.exec("BEGIN");
  Insert("http://gone.com/");
  db_.exec("DELETE FROM urls WHERE url = 'http://keep.com/'");
  EXPECT_EQ(One(db_, "SELECT count(*) FROM urls"), "1");
  db_.exec("ROLLBACK");
  EXPECT_EQ(Rows(db_, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://keep.com/"}));

  db_.exec("BEGIN");
  Insert("http://one.com/");
  db_.exec("SAVEPOINT s");
  Insert("http://two.com/");
  db_.exec("DELETE FROM urls WHERE id = 1");
  db_.exec("ROLLBACK TO s");
  Insert("http://three.com/");
  db_.exec("RELEASE s");
  db_.exec("COMMIT");
  EXPECT_EQ(
      Rows(db_, "SELECT id, url FROM urls"),
      (std::vector<std::string>{"1|http://keep.com/", "2|http://one.com/", "3|http://three.com/"}));
}

TEST_F(UrlsTest, OptimizeIsRefusedInsideATransaction) {
  db_.exec("BEGIN");
  Insert("http://a.com/");
  ExpectError(db_, "INSERT INTO urls(urls) VALUES ('optimize')", SQLITE_ERROR,
              "crawldb_urls: optimize cannot run inside a transaction; COMMIT first, then "
              "optimize");
  db_.exec("COMMIT");
  EXPECT_EQ(One(db_, "SELECT count(*) FROM urls"), "1");
}

TEST_F(UrlsTest, FunctionsHandleBadInput) {
  EXPECT_EQ(One(db_, "SELECT url_normalize('HTTP://A.com:80')"), "http://a.com/");
  EXPECT_EQ(One(db_, "SELECT url_normalize('nonsense')"), "NULL");
  EXPECT_EQ(One(db_, "SELECT url_normalize(NULL)"), "NULL");
  EXPECT_EQ(One(db_, "SELECT url_host('https://WWW.a.com/x')"), "www.a.com");
  EXPECT_EQ(One(db_, "SELECT url_domain('https://www.a.co.uk/x')"), "a.co.uk");
  EXPECT_EQ(One(db_, "SELECT url_problem('http://a.com/')"), "NULL");
  EXPECT_EQ(One(db_, "SELECT url_problem('ftp://a.com/')"),
            "unsupported scheme 'ftp': ftp://a.com/");
  EXPECT_EQ(One(db_, "SELECT url_problem(x'687474703a2f2f61002f')"),
            "embedded NUL byte: http://a\\x00/");
  EXPECT_EQ(One(db_, "SELECT url_id('http://absent.com/')"), "NULL");
  EXPECT_EQ(One(db_, "SELECT url_text('abc')"), "NULL");
  EXPECT_EQ(One(db_, "SELECT url_text(0)"), "NULL");
  ExpectError(db_, "SELECT url_id()", SQLITE_ERROR,
              "wrong number of arguments to function url_id()");
  // The fingerprint is XXH3-64 of the normalised text, as `xxhsum -H3` prints it.
  EXPECT_EQ(One(db_, "SELECT printf('%016x', url_fp('HTTP://example.com'))"), "b97a010e03af1e2b");
}

TEST(UrlsHostileInput, PhishingCorpusLoadsInOneStatement) {
  std::vector<std::string> lines = ReadXzLines(SharedDataPath("phish/phishstorm-urls.txt.xz"));
  ASSERT_GT(lines.size(), 90000u);
  SQLite::Database db = LoadedDb();
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec("CREATE TEMP TABLE staging(url)");
  {
    SQLite::Transaction transaction(db);
    SQLite::Statement insert(db, "INSERT INTO staging VALUES (?)");
    for (const std::string& line : lines) {
      insert.bind(1, line);
      insert.exec();
      insert.reset();
    }
    transaction.commit();
  }
  int added = db.exec("INSERT OR IGNORE INTO urls(url) SELECT url FROM staging");
  std::string valid_distinct = One(db,
                                   "SELECT count(DISTINCT url_normalize(url)) FROM staging "
                                   "WHERE url_normalize(url) IS NOT NULL");
  EXPECT_EQ(std::to_string(added), valid_distinct);
  EXPECT_GT(added, 90000);
  // Every stored URL is its own normal form, and the refused ones all have a reason.
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls WHERE url_normalize(url) IS NOT url"), "0");
  EXPECT_EQ(One(db,
                "SELECT count(*) FROM staging WHERE url_normalize(url) IS NULL AND "
                "url_problem(url) IS NULL"),
            "0");
  db.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), valid_distinct);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(UrlsFunctions, NeedAUrlsTable) {
  SQLite::Database db = LoadedDb();
  ExpectError(db, "SELECT url_id('http://a.com/')", SQLITE_ERROR,
              "url_id: there is no crawldb_urls table named 'urls'; create it with CREATE "
              "VIRTUAL TABLE urls USING crawldb_urls");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  EXPECT_EQ(One(db, "SELECT crawldb_stats()"), "{\"tables\":[]}");
}

TEST(UrlsPersistence, ReopenReadsWhatWasCommitted) {
  std::string path = TempDbPath("urls_reopen");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("INSERT INTO urls(url) VALUES ('http://b.com/'), ('http://a.com/')");
    db.exec("SELECT crawldb_optimize()");
    db.exec("INSERT INTO urls(url) VALUES ('http://c.com/'), ('http://d.com/')");
    db.exec("DELETE FROM urls WHERE url = 'http://b.com/'");
    db.exec("BEGIN");
    db.exec("INSERT INTO urls(url) VALUES ('http://uncommitted.com/')");
  }  // closed with the transaction open: rolled back
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://a.com/", "3|http://c.com/", "4|http://d.com/"}));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// Makes the table `urls` look as format 3 wrote it: no <t>_pending, no <t>_ids.
void MakeFormatThree(SQLite::Database& db) {
  db.exec("DROP TABLE urls_pending");
  db.exec("DROP TABLE urls_ids");
  db.exec("UPDATE urls_config SET value = '3' WHERE key = 'format_version'");
}

// A table of format 3 kept its added keys in <t>_log and had no <t>_pending or <t>_ids: right
// after an optimize it holds nothing of them, is read, and its first commit makes it format 7.
TEST(UrlsPersistence, FormatThreeIsReadAfterOptimizeAndBecomesSevenAtItsFirstWrite) {
  std::string path = TempDbPath("urls_format3");
  std::vector<std::string> before;
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("INSERT INTO urls(url) VALUES ('http://b.com/'), ('http://a.com/x')");
    db.exec("DELETE FROM urls WHERE url = 'http://b.com/'");
    db.exec("INSERT INTO urls(url) VALUES ('http://c.com/')");
    db.exec("SELECT crawldb_optimize()");
    before = Rows(db, "SELECT id, url FROM urls");
    MakeFormatThree(db);
  }
  const char kVersion[] = "SELECT value FROM urls_config WHERE key = 'format_version'";
  {
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"), before);
    EXPECT_EQ(One(db, "SELECT url_id('http://c.com/')"), "2");
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    EXPECT_EQ(One(db, kVersion), "3");
    db.exec("INSERT INTO urls(url) VALUES ('http://f.net/')");
    EXPECT_EQ(One(db, kVersion), "7");
    EXPECT_EQ(One(db, "SELECT count(*) FROM urls_pending"), "0");  // in the log tail
    before = Rows(db, "SELECT id, url FROM urls");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"), before);
  EXPECT_EQ(before.size(), 3u);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// Makes the table `urls`, created with log_tail_kb=0 (every commit folds), look as format 4
// wrote it: log rows without the last fold (url_log_format.h), no log_tail_kb option.
void MakeFormatFour(SQLite::Database& db) {
  SQLite::Statement select(db, "SELECT seq, first_id, added FROM urls_log");
  SQLite::Statement update(db, "UPDATE urls_log SET added = ?2 WHERE seq = ?1");
  std::string scratch;
  while (select.executeStep()) {
    const auto* data = static_cast<const uint8_t*>(select.getColumn(2).getBlob());
    absl::StatusOr<urls::LogAdds> adds =
        urls::DecodeLogAdds({data, static_cast<size_t>(select.getColumn(2).getBytes())},
                            select.getColumn(1).getInt64(), &scratch);
    ASSERT_TRUE(adds.ok()) << adds.status();
    ASSERT_EQ(adds->folded, select.getColumn(0).getInt64());  // its adds are pending rows
    std::string blob(1, static_cast<char>(urls::kLogPartsFormatVersion));
    codecs::AppendVarint(static_cast<uint64_t>(adds->added_count), &blob);
    codecs::AppendVarint(adds->parts.size(), &blob);
    size_t previous = 0;
    for (size_t part : adds->parts) {
      codecs::AppendVarint(part - previous, &blob);
      previous = part;
    }
    update.bind(1, select.getColumn(0).getInt64());
    update.bind(2, blob.data(), static_cast<int>(blob.size()));
    update.exec();
    update.reset();
  }
  db.exec("UPDATE urls_config SET value = '4' WHERE key = 'format_version'");
  db.exec("DELETE FROM urls_config WHERE key = 'option.log_tail_kb'");
  db.exec("PRAGMA writable_schema = ON");
  db.exec(
      "UPDATE sqlite_schema SET sql = 'CREATE VIRTUAL TABLE urls USING crawldb_urls' "
      "WHERE name = 'urls'");
  db.exec("PRAGMA writable_schema = OFF");
}

// Format 4 wrote every commit's URLs to <t>_pending, and its log rows name no fold: it is read
// as it was (an empty log tail), and its first commit makes it format 7, that commit's URLs in
// the tail.
TEST(UrlsPersistence, FormatFourIsReadAndBecomesSevenAtItsFirstWrite) {
  std::string path = TempDbPath("urls_format4");
  std::vector<std::string> before;
  std::string pending_rows;
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=0)");
    db.exec("INSERT INTO urls(url) VALUES ('http://b.com/'), ('http://a.com/x')");
    db.exec("DELETE FROM urls WHERE url = 'http://b.com/'");
    db.exec("INSERT INTO urls(url) VALUES ('http://c.com/'), ('http://a.com/y')");
    pending_rows = One(db, "SELECT count(*) FROM urls_pending");
    EXPECT_NE(pending_rows, "0");
    before = Rows(db, "SELECT id, url FROM urls");
    MakeFormatFour(db);
  }
  const char kVersion[] = "SELECT value FROM urls_config WHERE key = 'format_version'";
  {
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"), before);
    EXPECT_EQ(One(db, "SELECT url_id('http://c.com/')"), "3");
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    EXPECT_EQ(One(db, kVersion), "4");
    db.exec("INSERT INTO urls(url) VALUES ('http://f.net/'), ('http://a.com/z')");
    EXPECT_EQ(One(db, kVersion), "7");
    // The new URLs are in the log tail.
    EXPECT_EQ(One(db, "SELECT count(*) FROM urls_pending"), pending_rows);
    EXPECT_EQ(One(db, "SELECT json_extract(crawldb_stats(), '$.tables[0].log_tail_urls')"), "2");
    before = Rows(db, "SELECT id, url FROM urls");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"), before);
  EXPECT_EQ(before.size(), 5u);
  EXPECT_EQ(One(db, "SELECT url_id('http://a.com/z')"), "6");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// Makes the optimized table `urls` look as format 5 wrote it: its base in version 2
// (url_base.h), every block's head in part 2.
void MakeFormatFive(SQLite::Database& db) {
  std::vector<std::vector<uint8_t>> parts;
  SQLite::Statement select(db, "SELECT data FROM urls_base ORDER BY part");
  while (select.executeStep()) {
    const auto* data = static_cast<const uint8_t*>(select.getColumn(0).getBlob());
    parts.emplace_back(data, data + select.getColumn(0).getBytes());
  }
  parts = urls::Version2Parts(std::move(parts));
  SQLite::Statement update(db, "UPDATE urls_base SET data = ?2 WHERE part = ?1");
  for (size_t part = 0; part < parts.size(); ++part) {
    update.bind(1, static_cast<int64_t>(part));
    update.bind(2, parts[part].data(), static_cast<int>(parts[part].size()));
    update.exec();
    update.reset();
  }
  db.exec("UPDATE urls_config SET value = '5' WHERE key = 'format_version'");
}

// Format 5's base (url_base.h version 2) is read as it is, look-ups and scans alike; its first
// commit makes the table format 7 and leaves the base as it was, and the next optimize writes
// it in version 3.
TEST(UrlsPersistence, FormatFiveIsReadAndItsBaseRewrittenAtTheNextOptimize) {
  std::string path = TempDbPath("urls_format5");
  std::vector<std::string> before;
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    // 5,000 URLs: 157 blocks in 3 groups.
    db.exec(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 4999) "
        "INSERT INTO urls(url) SELECT 'http://h' || (i % 70) || '.example/p/' || i FROM n");
    db.exec("SELECT crawldb_optimize()");
    before = Rows(db, "SELECT id, url FROM urls");
    MakeFormatFive(db);
  }
  const char kVersion[] = "SELECT value FROM urls_config WHERE key = 'format_version'";
  const char kBaseVersion[] = "SELECT hex(substr(data, 1, 1)) FROM urls_base WHERE part = 0";
  {
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(One(db, kBaseVersion), "02");
    EXPECT_EQ(One(db, "SELECT url FROM urls WHERE id = 4321"), before[4320].substr(5));
    EXPECT_EQ(One(db, "SELECT id FROM urls WHERE url = 'http://h7.example/p/2177'"),
              One(db, "SELECT url_id('http://h7.example/p/2177')"));
    EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"), before);
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    EXPECT_EQ(One(db, kVersion), "5");
    db.exec("INSERT INTO urls(url) VALUES ('http://f.net/')");
    EXPECT_EQ(One(db, kVersion), "7");
    EXPECT_EQ(One(db, kBaseVersion), "02");
    db.exec("SELECT crawldb_optimize()");
    EXPECT_EQ(One(db, kBaseVersion), "03");
    before = Rows(db, "SELECT id, url FROM urls");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(Rows(db, "SELECT id, url FROM urls"), before);
  EXPECT_EQ(before.size(), 5001u);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// Format 3 with URLs added since its last optimize (keys in its log rows) is refused, saying how
// to move it over; nothing is changed.
TEST(UrlsPersistence, FormatThreeWithUrlsSinceOptimizeIsRefusedWithTheWayOut) {
  std::string path = TempDbPath("urls_format3_log");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("INSERT INTO urls(url) VALUES ('http://a.com/')");
    MakeFormatThree(db);
  }
  SQLite::Database db = LoadedDb(path);
  ExpectError(db, "SELECT count(*) FROM urls", SQLITE_ERROR,
              "crawldb_urls: table 'urls' is in format 3, which this build reads only right after "
              "an optimize: it holds URLs added since its last one; open it with the crawldb "
              "build that wrote it and run INSERT INTO \"urls\"(\"urls\") VALUES ('optimize') (or "
              "SELECT crawldb_optimize()), then open it here");
  EXPECT_EQ(One(db, "SELECT value FROM urls_config WHERE key = 'format_version'"), "3");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_log"), "1");
}

TEST(UrlsPersistence, AnotherConnectionSeesCommitsAtItsNextStatement) {
  std::string path = TempDbPath("urls_two_connections");
  SQLite::Database first = LoadedDb(path);
  first.exec("PRAGMA journal_mode=WAL");
  first.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  SQLite::Database second = LoadedDb(path);
  second.exec("PRAGMA busy_timeout=5000");
  EXPECT_EQ(One(second, "SELECT count(*) FROM urls"), "0");
  first.exec("INSERT INTO urls(url) VALUES ('http://a.com/'), ('http://b.com/')");
  EXPECT_EQ(One(second, "SELECT group_concat(url) FROM urls"), "http://a.com/,http://b.com/");
  second.exec("INSERT INTO urls(url) VALUES ('http://c.com/')");
  EXPECT_EQ(second.getLastInsertRowid(), 3);
  EXPECT_EQ(One(first, "SELECT url_id('http://c.com/')"), "3");
  first.exec("DELETE FROM urls WHERE id = 1");
  first.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(Rows(second, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://b.com/", "2|http://c.com/"}));
  second.exec("INSERT INTO urls(url) VALUES ('http://d.com/')");
  EXPECT_EQ(One(first, "SELECT url_text(3)"), "http://d.com/");
  EXPECT_EQ(One(first, "SELECT crawldb_check()"), "ok");
  EXPECT_EQ(One(second, "SELECT crawldb_check()"), "ok");
}

// xConnect reads the generation with the config; the first load takes it only when nothing was
// committed since. Here an optimize comes in between: a load that took the old generation would
// make this connection's own optimize store the generation the other one already holds for its
// rewrite (a rewrite must move it past every connection's, or they replay instead of reloading).
TEST(UrlsPersistence, AConnectionPreparedBeforeAnOptimizeLoadsTheGenerationAfterIt) {
  std::string path = TempDbPath("urls_generation_at_connect");
  SQLite::Database first = LoadedDb(path);
  first.exec("PRAGMA journal_mode=WAL");
  first.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  first.exec(
      "INSERT INTO urls(url) VALUES ('http://a.com/'), ('http://b.com/'), ('http://c.com/')");
  const std::string generation = "SELECT value FROM urls_config WHERE key = 'generation'";
  SQLite::Database second = LoadedDb(path);
  second.exec("PRAGMA busy_timeout=5000");
  SQLite::Statement id_of_c(second, "SELECT id FROM urls WHERE url = 'http://c.com/'");
  first.exec("DELETE FROM urls WHERE id = 1");
  first.exec("SELECT crawldb_optimize()");
  const int64_t after_first = std::stoll(One(first, generation));
  ASSERT_TRUE(id_of_c.executeStep());
  EXPECT_EQ(id_of_c.getColumn(0).getInt64(), 2);
  id_of_c.reset();
  second.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(std::stoll(One(second, generation)), after_first + 1);
  first.exec("INSERT INTO urls(url) VALUES ('http://0.com/')");
  EXPECT_EQ(Rows(second, "SELECT id, url FROM urls"),
            (std::vector<std::string>{"1|http://b.com/", "2|http://c.com/", "3|http://0.com/"}));
  EXPECT_EQ(One(second, "SELECT crawldb_check()"), "ok");
}

TEST(UrlsPersistence, CommitWritesOneLogRowPerTransaction) {
  SQLite::Database db = LoadedDb();
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec("BEGIN");
  for (int i = 0; i < 100; ++i) {
    db.exec("INSERT INTO urls(url) VALUES ('http://a.com/" + std::to_string(i) + "')");
  }
  db.exec("COMMIT");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_log"), "1");
  db.exec("INSERT INTO urls(url) VALUES ('http://b.com/')");
  EXPECT_EQ(One(db, "SELECT count(*) || ' ' || max(seq) FROM urls_log"), "2 2");
  db.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_log"), "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "101");
}

TEST(UrlsPersistence, LargeTransactionsSplitTheirLogUnderTheLengthLimit) {
  std::string path = TempDbPath("urls_large_transaction");
  {
    SQLite::Database db = LoadedDb(path);
    sqlite3_limit(db.getHandle(), SQLITE_LIMIT_LENGTH, 100000);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=0)");
    db.exec(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) "
        "INSERT INTO urls(url) SELECT 'http://example.com/some/longer/path/' || i FROM n");
    // One host, so one part: its pending rows split.
    EXPECT_EQ(One(db, "SELECT count(*) FROM urls_log"), "1");
    EXPECT_GT(std::stoi(One(db, "SELECT count(*) FROM urls_pending")), 3);
    EXPECT_EQ(One(db, "SELECT max(length(keys)) <= 50000 + 64 FROM urls_pending"), "1");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT count(*) || ' ' || max(id) FROM urls"), "5000 5000");
  EXPECT_EQ(One(db, "SELECT url_id('http://example.com/some/longer/path/4321')"), "4321");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(UrlsCorruption, DamagedBlobsAreCorruptVtabNeverACrash) {
  std::string path = TempDbPath("urls_corrupt");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=1)");
    db.exec("BEGIN");
    for (int i = 0; i < 3000; ++i) {  // 94 blocks: urls_base parts 3 and 4
      db.exec("INSERT INTO urls(url) VALUES ('http://site" + std::to_string(i % 7) + ".com/page/" +
              std::to_string(i) + "')");
    }
    db.exec("COMMIT");
    db.exec("SELECT crawldb_optimize()");
    // A commit past log_tail_kb alone, folded into pending rows, then one in the log tail.
    db.exec(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 600) "
        "INSERT INTO urls(url) SELECT 'http://late' || (i % 5) || '.com/' || (i * 7919 % 10007) "
        "FROM n");
    db.exec("INSERT INTO urls(url) VALUES ('http://late.com/1'), ('http://late.com/2')");
    EXPECT_GT(std::stoi(One(db, "SELECT count(*) FROM urls_pending")), 0);
    EXPECT_EQ(One(db, "SELECT json_extract(crawldb_stats(), '$.tables[0].log_tail_urls')"), "2");
  }
  // Truncate or flip bytes of every stored blob, one damage at a time, and read everything back.
  // Parts of urls_base (url_base.h): 0 header, 1 model, 2 block heads, 3 and 4 blocks.
  const std::vector<std::string> damages = {
      "UPDATE urls_base SET data = substr(data, 1, length(data) / 2) WHERE part = 3",
      "UPDATE urls_base SET data = substr(data, 1, length(data) - 1) WHERE part = 4",
      "UPDATE urls_base SET data = substr(data, 1, length(data) / 2) WHERE part = 2",
      "UPDATE urls_base SET data = substr(data, 1, length(data) - 1) WHERE part = 1",
      "UPDATE urls_base SET data = x'' WHERE part = 1",
      "UPDATE urls_base SET data = x'' WHERE part = 2",
      "UPDATE urls_base SET data = x'02ff' WHERE part = 0",
      "UPDATE urls_base SET data = x'09' WHERE part = 0",
      "DELETE FROM urls_base WHERE part = 2",
      "DELETE FROM urls_base WHERE part = 4",
      "UPDATE urls_base SET part = 5 WHERE part = 4",
      "UPDATE urls_log SET added = substr(added, 1, 2)",
      // The tail's row: its keys cut short, a byte of them flipped, or its row gone.
      "UPDATE urls_log SET added = substr(added, 1, length(added) - 1) WHERE seq = 2",
      "UPDATE urls_log SET added = flip(added, length(added) - 2) WHERE seq = 2",
      "DELETE FROM urls_log WHERE seq = 2",
      "UPDATE urls_pending SET keys = substr(keys, 1, 5)",
      "UPDATE urls_pending SET ids = x'010100'",
      "UPDATE urls_pending SET row = row + 1",
      "UPDATE urls_pending SET row = row + 1099511627776",
      "UPDATE urls_ids SET data = substr(data, 1, 3)",
      "DELETE FROM urls_ids",
      "UPDATE urls_log SET deleted = x'0101'",
      "UPDATE urls_log SET first_id = 2",
      "UPDATE urls_config SET value = 'x' WHERE key = 'generation'",
  };
  std::vector<std::string> flips;
  for (int part = 1; part <= 4; ++part) {
    for (size_t at = 0; at < 40; ++at) {
      // One byte XOR 0x5A (any byte value, through a blob function), at 40 places spread over
      // the model, the heads and the blocks.
      flips.push_back("UPDATE urls_base SET data = flip(data, length(data) * " +
                      std::to_string(at) + " / 40) WHERE part = " + std::to_string(part));
    }
  }
  const std::vector<std::string> reads = {
      "SELECT url, host, fp FROM urls", "SELECT * FROM urls WHERE url = 'http://site3.com/page/3'",
      "SELECT * FROM urls WHERE id = 17", "SELECT * FROM urls WHERE host = 'site3.com'"};
  for (const std::string& flip : flips) {
    SCOPED_TRACE(flip);
    SQLite::Database reader = LoadedDb(DamagedCopy(path, "urls_corrupt_copy", flip));
    ExpectReadOrCorrupt(reader, reads, "crawldb_urls: ");
    One(reader, "SELECT crawldb_check()");
  }
  for (const std::string& damage : damages) {
    SCOPED_TRACE(damage);
    SQLite::Database reader = LoadedDb(DamagedCopy(path, "urls_corrupt_copy", damage));
    ExpectReadOrCorrupt(reader, reads, "crawldb_urls: ");
    EXPECT_NE(One(reader, "SELECT crawldb_check()"), "ok") << "a damage went unnoticed";
  }
}

TEST(UrlsCorruption, AnOldBaseFormatIsRefusedWithWhatToDo) {
  std::string path = TempDbPath("urls_old_base");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    // The empty base as format version 1 wrote it (url_base.h): version, 0 keys, 64 keys per
    // block, 32 blocks per part.
    db.exec("UPDATE urls_base SET data = x'01004020' WHERE part = 0");
  }
  SQLite::Database db = LoadedDb(path);
  ExpectError(db, "SELECT count(*) FROM urls", SQLITE_ERROR,
              "crawldb_urls: table 'urls': url base: format version 1 (plain front-coded blocks) "
              "is no longer read, this build reads versions 2 and 3; export the URLs with the "
              "crawldb that wrote the table, then create it again and insert them");
}

TEST(UrlsStats, CountTheBytesOfEveryStructure) {
  SQLite::Database db = LoadedDb();
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=0)");  // no log tail
  auto stat = [&](const std::string& key) {
    return std::stoll(One(db, "SELECT json_extract(crawldb_stats(), '$.tables[0]." + key + "')"));
  };
  EXPECT_EQ(stat("base_bytes"), 4);  // the header alone
  EXPECT_EQ(stat("base_model_bytes") + stat("base_head_bytes") + stat("base_block_bytes"), 0);
  EXPECT_EQ(stat("parts_bytes") + stat("merged_urls") + stat("pending_urls"), 0);
  db.exec(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) "
      "INSERT INTO urls(url) SELECT 'http://site' || (i % 9) || '.com/p/' || i FROM n");
  EXPECT_EQ(stat("log_rows"), 1);
  EXPECT_EQ(stat("log_bytes"), std::stoll(One(db,
                                              "SELECT sum(length(added) + length(deleted)) "
                                              "FROM urls_log")));
  EXPECT_EQ(stat("pending_urls"), 1000);
  EXPECT_EQ(stat("pending_rows"), std::stoll(One(db, "SELECT count(*) FROM urls_pending")));
  const int64_t pending_bytes = stat("pending_bytes");
  EXPECT_GT(pending_bytes, 1000);  // compressed: these URLs differ by a few characters
  EXPECT_LT(pending_bytes, stat("pending_key_bytes") / 2);
  EXPECT_EQ(pending_bytes, std::stoll(One(db,
                                          "SELECT sum(length(ids) + length(keys)) "
                                          "FROM urls_pending")));
  db.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(stat("log_rows") + stat("log_bytes") + stat("pending_rows") + stat("pending_bytes"), 0);
  EXPECT_EQ(stat("pending_urls") + stat("pending_key_bytes") + stat("parts_bytes"), 0);
  EXPECT_EQ(stat("base_blocks"), 32);  // 1000 keys, 32 per block
  const int64_t model = stat("base_model_bytes");
  const int64_t heads = stat("base_head_bytes");
  const int64_t blocks = stat("base_block_bytes");
  EXPECT_GT(model, 0);
  EXPECT_GT(heads, 32);
  EXPECT_GT(blocks, 0);
  // The parts hold the three, plus the header and each group's count, heads size and block sizes.
  EXPECT_EQ(stat("base_bytes"), std::stoll(One(db, "SELECT sum(length(data)) FROM urls_base")));
  EXPECT_GT(stat("base_bytes"), model + heads + blocks);
  EXPECT_LT(stat("base_bytes"), model + heads + blocks + 4 + 2 + 3 + 2 * 32);
  EXPECT_EQ(One(db, "SELECT length(data) FROM urls_base WHERE part = 1"), std::to_string(model));
  // Heads in two levels: the group heads (part 2, one group here) and the group's own.
  EXPECT_LT(std::stoll(One(db, "SELECT length(data) FROM urls_base WHERE part = 2")), heads / 8);
  // The fp index is built by the first fp look-up: 16 bytes per URL or more.
  EXPECT_EQ(stat("fp_index_bytes"), 0);
  EXPECT_EQ(One(db, "SELECT url FROM urls WHERE fp = url_fp('http://site1.com/p/10')"),
            "http://site1.com/p/10");
  EXPECT_GE(stat("fp_index_bytes"), 16 * 1000);
  EXPECT_GT(stat("memory_bytes"), model);
}

// The parts a connection holds stay within its cache bound: crawldb_cache_mb() sets it for the
// tables whose cache_mb option is not given, open or opened later.
TEST(UrlsCache, TheConnectionBoundAppliesToTablesWithoutTheirOwn) {
  const std::string path = TempDbPath("urls_cache");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("CREATE VIRTUAL TABLE own USING crawldb_urls(cache_mb=0)");
    for (const char* table : {"urls", "own"}) {
      db.exec(std::string("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE "
                          "i < 2000) INSERT INTO ") +
              table + "(url) SELECT 'http://h' || i || '.example/' FROM n");
    }
  }
  SQLite::Database db = LoadedDb(path);
  auto held = [&](const std::string& table) {
    return std::stoll(One(db,
                          "SELECT json_extract(value, '$.held_parts') FROM "
                          "json_each(crawldb_stats(), '$.tables') WHERE "
                          "json_extract(value, '$.table') = '" +
                              table + "'"));
  };
  auto look_up = [&](const std::string& table) {
    for (int i = 1; i <= 50; ++i) {
      EXPECT_EQ(One(db, "SELECT id FROM " + table + " WHERE url = 'http://h" + std::to_string(i) +
                            ".example/'"),
                std::to_string(i));
    }
  };
  EXPECT_EQ(One(db, "SELECT crawldb_cache_mb()"), "256");
  look_up("urls");
  EXPECT_GT(held("urls"), 40);  // 50 hosts: about 49 parts of 1,024
  EXPECT_EQ(One(db, "SELECT crawldb_cache_mb(0)"), "0");
  look_up("urls");
  EXPECT_LE(held("urls"), 1);
  EXPECT_EQ(One(db, "SELECT crawldb_cache_mb(64)"), "64");
  look_up("urls");
  look_up("own");
  EXPECT_GT(held("urls"), 40);
  EXPECT_LE(held("own"), 1);  // its own option holds
  ExpectError(db, "SELECT crawldb_cache_mb(-1)", SQLITE_ERROR,
              "crawldb_cache_mb: the cache bound must be an integer from 0 to 1048576 (MiB); e.g. "
              "SELECT crawldb_cache_mb(512)");
  ExpectError(db, "SELECT crawldb_cache_mb('a lot')", SQLITE_ERROR,
              "crawldb_cache_mb: the cache bound must be an integer from 0 to 1048576 (MiB); e.g. "
              "SELECT crawldb_cache_mb(512)");
}

}  // namespace
}  // namespace crawldb::testing
