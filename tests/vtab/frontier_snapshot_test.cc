// The frontier's incremental snapshot on a file: commits rewrite a few parts each, the log stays
// about one snapshot long, a reopened file and a connection left behind by trimmed log rows see
// exactly the live state, files of format 3 are read and upgraded, and older ones are refused.
#include <sqlite3.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "extension/frontier/frontier_changes.h"
#include "tests/frontier_format3.h"
#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr int kParts = 1024;  // extension/frontier/record_map.h
constexpr char kEveryRow[] =
    "SELECT rowid, url, host, depth, priority, state, due, attempts, status FROM frontier "
    "ORDER BY rowid";

SQLite::Database Crawl(const std::string& path) {
  SQLite::Database db = LoadedDb(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0)");
  return db;
}

// One crawler commit: `count` reddit URLs from `start` added, then half of them leased.
void AddAndLease(SQLite::Database& db, const std::vector<std::string>& urls, size_t start,
                 size_t count, double now) {
  db.exec("BEGIN");
  SQLite::Statement add(db, "SELECT crawl_add(?, NULL, NULL, ?)");
  for (size_t i = start; i < start + count; ++i) {
    add.bind(1, urls[i]);
    add.bind(2, now);
    add.executeStep();
    add.reset();
  }
  db.exec("COMMIT");
  SQLite::Statement lease(db, "SELECT count(*) FROM crawl_lease(?, 60, ?)");
  lease.bind(1, static_cast<int64_t>(count / 2));
  lease.bind(2, now);
  lease.executeStep();
}

int64_t Number(SQLite::Database& db, const std::string& sql) { return std::stoll(One(db, sql)); }

TEST(FrontierSnapshot, CommitsRewriteAFewPartsEachAndTheLogStaysBounded) {
  std::string path = TempDbPath("frontier_snapshot");
  SQLite::Database db = Crawl(path);
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 40000);
  int64_t most_parts = 0, generation = 0;
  for (size_t start = 0, commit = 0; start < reddit.size(); start += 1000, ++commit) {
    AddAndLease(db, reddit, start, 1000, 1000 + static_cast<double>(commit));
    if (commit < 10) continue;
    // The parts the last commit wrote carry its log row.
    most_parts = std::max(most_parts, Number(db,
                                             "SELECT count(*) FROM frontier_snapshot WHERE seq = "
                                             "(SELECT max(seq) FROM frontier_snapshot)"));
    int64_t now_generation =
        Number(db, "SELECT value FROM frontier_config WHERE key = 'generation'");
    if (commit > 10) {
      EXPECT_EQ(now_generation, generation) << "a commit rewrote every part";
    }
    generation = now_generation;
  }
  EXPECT_GT(most_parts, 0);
  EXPECT_LT(most_parts, kParts / 8);
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier_snapshot"), kParts);
  EXPECT_GT(Number(db, "SELECT count(DISTINCT seq) FROM frontier_snapshot"), 10);
  // The log holds about one cycle of part writes: as many bytes as the snapshot, give or take
  // the growth of the state during the cycle.
  int64_t log = Number(db, "SELECT sum(length(data)) FROM frontier_log");
  int64_t snapshot = Number(db, "SELECT sum(length(data)) FROM frontier_snapshot");
  EXPECT_GT(snapshot, 0);
  EXPECT_LE(log, 2 * snapshot);
  // The log starts right after the part written longest ago, and no row is missing.
  EXPECT_LE(Number(db, "SELECT min(seq) FROM frontier_log"),
            Number(db, "SELECT min(seq) + 1 FROM frontier_snapshot"));
  EXPECT_EQ(Number(db, "SELECT max(seq) - min(seq) + 1 FROM frontier_log"),
            Number(db, "SELECT count(*) FROM frontier_log"));

  // A commit that rewrites parts leaves the user's last_insert_rowid() alone.
  db.exec("BEGIN");
  db.exec("SELECT count(*) FROM crawl_lease(1000, 60, 2000)");
  db.exec("INSERT INTO urls(url) VALUES ('http://rowid.example.com/')");
  const int64_t id = db.getLastInsertRowid();
  db.exec("COMMIT");
  EXPECT_EQ(db.getLastInsertRowid(), id);

  SQLite::Database reopened = LoadedDb(path);
  EXPECT_EQ(Rows(reopened, kEveryRow), Rows(db, kEveryRow));
  EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
  // And after optimize, which writes every part at once and empties the log.
  db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier_log"), 0);
  EXPECT_EQ(Number(db, "SELECT count(DISTINCT seq) FROM frontier_snapshot"), 1);
  AddAndLease(db, reddit, 0, 10, 5000);  // known URLs; leases only
  SQLite::Database after_optimize = LoadedDb(path);
  EXPECT_EQ(Rows(after_optimize, kEveryRow), Rows(db, kEveryRow));
}

TEST(FrontierSnapshot, AConnectionLeftBehindTrimmedLogRowsReloads) {
  std::string path = TempDbPath("frontier_left_behind");
  SQLite::Database writer = Crawl(path);
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 30000);
  AddAndLease(writer, reddit, 0, 1000, 1000);
  SQLite::Database reader = LoadedDb(path);
  ASSERT_EQ(Rows(reader, kEveryRow), Rows(writer, kEveryRow));
  int64_t first_unread = Number(writer, "SELECT max(seq) + 1 FROM frontier_log");
  for (size_t start = 1000; start < reddit.size(); start += 1000) {
    AddAndLease(writer, reddit, start, 1000, 1000 + static_cast<double>(start));
  }
  // The rows the reader has not read are partly gone, and no checkpoint bumped the generation.
  ASSERT_GT(Number(writer, "SELECT min(seq) FROM frontier_log"), first_unread);
  EXPECT_EQ(Rows(reader, kEveryRow), Rows(writer, kEveryRow));
  EXPECT_EQ(One(reader, "SELECT crawldb_check()"), "ok");
  // The reader writes on top of what it reloaded; the writer replays it.
  reader.exec("SELECT count(*) FROM crawl_lease(100, 60, 99999)");
  EXPECT_EQ(Rows(writer, kEveryRow), Rows(reader, kEveryRow));
}

// Version 1 kept the snapshot whole; version 2 split it by the fingerprint's top bits, which
// this build's parts (record_map.h) would misread.
TEST(FrontierSnapshot, OlderFormatVersionsAreRefused) {
  for (std::string version : {"1", "2"}) {
    SCOPED_TRACE(version);
    std::string path = TempDbPath("frontier_version" + version);
    {
      SQLite::Database db = Crawl(path);
      db.exec("UPDATE frontier_config SET value = '" + version + "' WHERE key = 'format_version'");
    }
    SQLite::Database db = LoadedDb(path);
    ExpectError(db, "SELECT count(*) FROM frontier", SQLITE_ERROR,
                "crawldb_frontier: table 'frontier' has format version " + version +
                    ", older than this build reads (3 to 4); export it with the crawldb that "
                    "wrote it and import it again");
  }
}

// Rewrites every change set of the frontier's shadow tables as format 3 wrote them: new records
// carry their URL's text instead of its id.
void RewriteAsFormatThree(SQLite::Database& db) {
  auto rewrite = [&](const std::string& table, const std::string& key) {
    SQLite::Statement select(db, "SELECT " + key + ", data FROM " + table);
    std::vector<std::pair<int64_t, std::string>> rows;
    while (select.executeStep()) {
      SQLite::Column data = select.getColumn(1);
      const auto* bytes = static_cast<const uint8_t*>(data.getBlob());
      absl::StatusOr<frontier::ChangeSet> changes =
          frontier::DecodeChangeSet({bytes, static_cast<size_t>(data.getBytes())});
      ASSERT_TRUE(changes.ok()) << changes.status();
      std::vector<std::string> texts;
      texts.reserve(changes->urls.size());
      for (frontier::UrlChange& url : changes->urls) {
        if (url.kind != frontier::UrlChangeKind::kNew) continue;
        texts.push_back(
            One(db, "SELECT url FROM urls WHERE id = " + std::to_string(url.record.url_id)));
        url.text = texts.back();
      }
      rows.emplace_back(select.getColumn(0).getInt64(), EncodeVersionOneChangeSet(*changes));
    }
    SQLite::Statement update(db, "UPDATE " + table + " SET data = ? WHERE " + key + " = ?");
    for (const auto& [row, blob] : rows) {
      update.bind(1, blob.data(), static_cast<int>(blob.size()));
      update.bind(2, row);
      update.exec();
      update.reset();
    }
  };
  rewrite("frontier_snapshot", "part");
  rewrite("frontier_log", "seq");
  db.exec("UPDATE frontier_config SET value = '3' WHERE key = 'format_version'");
}

TEST(FrontierSnapshot, FormatThreeIsReadAndBecomesFourAtItsFirstWrite) {
  std::string path = TempDbPath("frontier_format3");
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 6000);
  std::vector<std::string> before;
  {
    SQLite::Database db = Crawl(path);
    for (size_t start = 0, commit = 0; start < 5000; start += 1000, ++commit) {
      AddAndLease(db, reddit, start, 1000, 1000 + static_cast<double>(commit));
    }
    db.exec(
        "SELECT crawl_confirm(url, 200, 0, 1010) FROM frontier WHERE state = 'leased' "
        "LIMIT 100");
    before = Rows(db, kEveryRow);
    ASSERT_GT(Number(db, "SELECT count(*) FROM frontier_log"), 0);
    // The crawl's file as format 3 had written it.
    RewriteAsFormatThree(db);
    EXPECT_EQ(One(db,
                  "SELECT count(*) FROM (SELECT data FROM frontier_snapshot UNION ALL "
                  "SELECT data FROM frontier_log) WHERE substr(data, 1, 1) != x'01'"),
              "0");
  }
  const char kVersion[] = "SELECT value FROM frontier_config WHERE key = 'format_version'";
  {
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(Rows(db, kEveryRow), before);
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    EXPECT_EQ(One(db, kVersion), "3");
    // Its first write makes it format 4; the leases hand out the URLs' texts.
    std::vector<std::string> leased =
        Rows(db, "SELECT url FROM crawl_lease(10, 60, 2000) ORDER BY url");
    ASSERT_EQ(leased.size(), 10u);
    for (const std::string& url : leased) {
      EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE url = '" + url + "'"), "1") << url;
    }
    EXPECT_EQ(One(db, kVersion), "4");
    before = Rows(db, kEveryRow);
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(Rows(db, kEveryRow), before);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
