// The log tail of `urls` (urls_table.h): a commit writes its URLs into its <t>_log row and no
// pending row until the tail passes log_tail_kb or kTailRows (256 rows), when a commit folds it
// into <t>_pending; other connections and reopened files see the URLs of the tail; rollbacks
// and savepoints leave it as committed.
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "tests/vtab/loaded_db.h"
#include "tests/vtab/url_rows.h"

namespace crawldb::testing {
namespace {

int64_t Stat(SQLite::Database& db, const std::string& key) {
  return std::stoll(One(db, "SELECT json_extract(crawldb_stats(), '$.tables[0]." + key + "')"));
}

int64_t PendingRows(SQLite::Database& db) {
  return std::stoll(One(db, "SELECT count(*) FROM urls_pending"));
}

std::string Url(int i) {
  return "http://h" + std::to_string(i % 13) + ".example/page/" + std::to_string(i);
}

// Url(0) … Url(999).
const std::vector<std::string>& Urls() {
  static const std::vector<std::string> urls = [] {
    std::vector<std::string> made;
    for (int i = 0; i < 1000; ++i) made.push_back(Url(i));
    return made;
  }();
  return urls;
}

// Adds Url(begin) … Url(end − 1) in one transaction.
void AddUrls(SQLite::Database& db, int begin, int end) {
  InsertBatches(db, Urls(), static_cast<size_t>(begin), static_cast<size_t>(end),
                static_cast<size_t>(end - begin));
}

SQLite::Database FileDb(const std::string& path) {
  SQLite::Database db = LoadedDb(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = OFF");
  return db;
}

TEST(UrlsLogTail, SmallCommitsWriteNoPendingRowUntilTheTailHas256Rows) {
  const std::string path = TempDbPath("urls_tail_rows");
  std::map<std::string, std::string> before;
  {
    SQLite::Database db = FileDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    for (int i = 0; i < 256; ++i) AddUrls(db, i, i + 1);
    EXPECT_EQ(PendingRows(db), 0);
    EXPECT_EQ(Stat(db, "log_tail_rows"), 256);
    EXPECT_EQ(Stat(db, "log_tail_urls"), 256);
    EXPECT_EQ(Stat(db, "pending_urls"), 256);
    before = UrlIds(db);
    EXPECT_EQ(before.size(), 256u);
  }
  {
    // Reopened: the tail is read at open.
    SQLite::Database db = FileDb(path);
    EXPECT_EQ(Stat(db, "log_tail_rows"), 256);
    EXPECT_EQ(UrlIds(db), before);
    EXPECT_EQ(One(db, "SELECT url_id('" + Url(255) + "')"), "256");
    // The 257th row folds: the tail goes to one pending row per part it added to.
    AddUrls(db, 256, 257);
    EXPECT_EQ(Stat(db, "log_tail_rows"), 0);
    EXPECT_EQ(PendingRows(db), 13);
    EXPECT_EQ(Stat(db, "pending_urls"), 257);
    before = UrlIds(db);
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  }
  SQLite::Database db = FileDb(path);
  EXPECT_EQ(Stat(db, "log_tail_rows"), 0);
  EXPECT_EQ(UrlIds(db), before);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(UrlsLogTail, ATailPastLogTailKbFoldsAtTheNextCommitAndABigCommitAtOnce) {
  SQLite::Database db = FileDb(TempDbPath("urls_tail_bytes"));
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=1)");
  int64_t last_tail_rows = 0;
  int next = 0;
  while (PendingRows(db) == 0) {
    ASSERT_LT(next, 600) << "the tail never folded";
    last_tail_rows = Stat(db, "log_tail_rows");
    AddUrls(db, next, next + 5);
    next += 5;
    EXPECT_LE(Stat(db, "log_tail_bytes"), 1024);
  }
  // The commit that passed 1 KiB folded a tail of several rows, its own included.
  EXPECT_GE(last_tail_rows, 2);
  EXPECT_EQ(Stat(db, "log_tail_rows"), 0);
  EXPECT_EQ(Stat(db, "pending_urls"), next);
  // A commit whose own row would pass log_tail_kb folds at once.
  AddUrls(db, next, next + 300);
  EXPECT_EQ(Stat(db, "log_tail_rows"), 0);
  EXPECT_EQ(Stat(db, "pending_urls"), next + 300);
  EXPECT_EQ(UrlIds(db).size(), static_cast<size_t>(next + 300));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(UrlsLogTail, OtherConnectionsSeeTheTailAndItsFolds) {
  const std::string path = TempDbPath("urls_tail_readers");
  SQLite::Database writer = FileDb(path);
  writer.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=2, merge_bytes=512)");
  SQLite::Database reader = FileDb(path);
  EXPECT_EQ(One(reader, "SELECT crawldb_cache_mb(0)"), "0");  // parts evicted at once
  bool tail_seen = false;
  for (int commit = 0; commit < 40; ++commit) {
    const int first = commit * 20;
    // The reader holds the part the next URL goes to before the writer adds to it.
    EXPECT_EQ(One(reader, "SELECT url_id('" + Url(first) + "')"), "NULL");
    AddUrls(writer, first, first + 20);
    tail_seen = tail_seen || Stat(writer, "log_tail_rows") > 0;
    EXPECT_EQ(One(reader, "SELECT url_id('" + Url(first) + "')"), std::to_string(first + 1));
    EXPECT_EQ(One(reader, "SELECT url FROM urls WHERE id = " + std::to_string(first + 20)),
              Url(first + 19));
    if (commit % 8 == 7) {
      ASSERT_EQ(UrlIds(reader), UrlIds(writer)) << commit;
      SQLite::Database opened = FileDb(path);  // reads the tail at open
      ASSERT_EQ(UrlIds(opened), UrlIds(writer)) << commit;
    }
  }
  EXPECT_TRUE(tail_seen);
  EXPECT_GT(PendingRows(writer) + std::stoll(One(writer, "SELECT count(*) FROM urls_parts")), 0);
  // The reader's commits reach the writer the same way.
  AddUrls(reader, 800, 830);
  EXPECT_EQ(One(writer, "SELECT url_id('" + Url(829) + "')"), "830");
  EXPECT_EQ(UrlIds(writer), UrlIds(reader));
  EXPECT_EQ(One(reader, "SELECT crawldb_check()"), "ok");
  EXPECT_EQ(One(writer, "SELECT crawldb_check()"), "ok");
}

TEST(UrlsLogTail, RollbacksAndSavepointsLeaveTheTailAsCommitted) {
  const std::string path = TempDbPath("urls_tail_rollback");
  std::map<std::string, std::string> before;
  {
    SQLite::Database db = FileDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    AddUrls(db, 0, 10);
    db.exec("BEGIN");
    db.exec("INSERT INTO urls(url) VALUES ('" + Url(10) + "')");
    db.exec("SAVEPOINT s");
    db.exec("INSERT INTO urls(url) VALUES ('" + Url(11) + "')");
    db.exec("ROLLBACK TO s");
    db.exec("RELEASE s");
    db.exec("COMMIT");
    db.exec("BEGIN");
    db.exec("INSERT INTO urls(url) VALUES ('" + Url(12) + "')");
    db.exec("ROLLBACK");
    EXPECT_EQ(Stat(db, "log_tail_urls"), 11);
    EXPECT_EQ(One(db, "SELECT url_id('" + Url(11) + "')"), "NULL");
    EXPECT_EQ(One(db, "SELECT url_id('" + Url(12) + "')"), "NULL");
    db.exec("INSERT INTO urls(url) VALUES ('" + Url(13) + "')");
    EXPECT_EQ(One(db, "SELECT url_id('" + Url(13) + "')"), "12");
    before = UrlIds(db);
    EXPECT_EQ(before.size(), 12u);
  }
  SQLite::Database db = FileDb(path);
  EXPECT_EQ(UrlIds(db), before);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
