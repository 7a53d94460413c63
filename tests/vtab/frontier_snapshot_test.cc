// The frontier's parts on a file (frontier_table.h): commits stay in the log tail until a fold
// writes the parts they changed, merging a part's pending rows once they outweigh its snapshot;
// opening reads no part and a lease reads only its hosts' parts; a reopened file and a
// connection left behind by trimmed log rows see exactly the live state; format 5 is read and
// older formats are refused.
#include <algorithm>

#include <sqlite3.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kEveryRow[] =
    "SELECT rowid, url, host, depth, priority, state, due, attempts, status FROM frontier "
    "ORDER BY rowid";

SQLite::Database Crawl(const std::string& path, const std::string& options = "") {
  SQLite::Database db = LoadedDb(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0" + options +
          ")");
  return db;
}

// Every commit folds (log_tail_kb=0), or the commits stay in the log tail until it passes the
// default 1 MiB.
const std::vector<std::string> kTails = {", log_tail_kb=0", ""};

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

// A figure of the frontier's crawldb_stats() (which reads no part).
int64_t Stat(SQLite::Database& db, const std::string& key) {
  return Number(db, "SELECT json_extract(value, '$." + key +
                        "') FROM json_each(json_extract(crawldb_stats(), '$.tables')) "
                        "WHERE json_extract(value, '$.table') = 'frontier'");
}

TEST(FrontierParts, CommitsWriteTheirPartsAndMergeThemAsTheyGrow) {
  std::string path = TempDbPath("frontier_parts");
  SQLite::Database db = Crawl(path, ", log_tail_kb=0");
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 40000);
  for (size_t start = 0, commit = 0; start < reddit.size(); start += 1000, ++commit) {
    AddAndLease(db, reddit, start, 1000, 1000 + static_cast<double>(commit));
    // After every commit, no part's pending rows outweigh both 4 kB and its snapshot, or
    // number 16 and weigh its share of the snapshot ((2 + part % 4) eighths), or number 256.
    ASSERT_EQ(Number(db,
                     "SELECT count(*) FROM (SELECT row >> 40 AS part, sum(length(data)) AS bytes, "
                     "count(*) AS rows FROM frontier_pending WHERE row >= 0 GROUP BY part) p "
                     "LEFT JOIN frontier_snapshot s USING (part) "
                     "WHERE p.bytes >= max(4096, coalesce(length(s.data), 0)) "
                     "OR (p.rows >= 16 AND 8 * p.bytes >= (2 + p.part % 4) * "
                     "coalesce(length(s.data), 0)) OR p.rows >= 256"),
              0)
        << commit;
    // The hosts' rows (below 0) stay fewer than 64.
    ASSERT_LT(Number(db, "SELECT count(*) FROM frontier_pending WHERE row < 0"), 64) << commit;
  }
  // Two commits (add, lease) per batch, one log row each: the newest 64 are kept, in sequence.
  EXPECT_EQ(Number(db, "SELECT max(seq) FROM frontier_log"), 80);
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier_log"), 64);
  EXPECT_EQ(Number(db, "SELECT max(seq) - min(seq) + 1 FROM frontier_log"), 64);
  EXPECT_GT(Number(db, "SELECT count(*) FROM frontier_snapshot"), 0);
  EXPECT_GT(Number(db, "SELECT count(*) FROM frontier_pending"), 100);
  // Every pending row comes after its part's snapshot.
  EXPECT_EQ(Number(db,
                   "SELECT count(*) FROM frontier_pending p JOIN frontier_snapshot s "
                   "ON s.part = p.row >> 40 WHERE p.row >= 0 AND (p.row & 1099511627775) <= s.seq"),
            0);

  // A commit leaves the user's last_insert_rowid() alone.
  db.exec("BEGIN");
  db.exec("SELECT count(*) FROM crawl_lease(1000, 60, 2000)");
  db.exec("INSERT INTO urls(url) VALUES ('http://rowid.example.com/')");
  const int64_t id = db.getLastInsertRowid();
  db.exec("COMMIT");
  EXPECT_EQ(db.getLastInsertRowid(), id);

  SQLite::Database reopened = LoadedDb(path);
  EXPECT_EQ(Rows(reopened, kEveryRow), Rows(db, kEveryRow));
  EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
  // And after optimize, which writes every part's snapshot and keeps the newest log row.
  db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier_log"), 1);
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier_pending"), 0);
  EXPECT_EQ(Number(db, "SELECT count(DISTINCT seq) FROM frontier_snapshot"), 1);
  EXPECT_EQ(Rows(reopened, kEveryRow), Rows(db, kEveryRow));
  AddAndLease(db, reddit, 0, 10, 5000);  // known URLs; leases only
  SQLite::Database after_optimize = LoadedDb(path);
  EXPECT_EQ(Rows(after_optimize, kEveryRow), Rows(db, kEveryRow));
  EXPECT_EQ(One(after_optimize, "SELECT crawldb_check()"), "ok");
}

void ExpectOpeningReadsNoPart(const std::string& path, const std::vector<std::string>& reddit) {
  SQLite::Database db = LoadedDb(path);
  EXPECT_GT(Stat(db, "urls"), 9000);
  EXPECT_EQ(Stat(db, "parts_held"), 0);
  // Before the first leases expire (at 1060): no timer is due, one host's part is read.
  EXPECT_EQ(Number(db, "SELECT count(*) FROM crawl_lease(1, 60, 1050)"), 1);
  EXPECT_EQ(Stat(db, "parts_held"), 1);
  db.exec("SELECT crawldb_cache_mb(0)");
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier WHERE url = '" + reddit[7777] + "'"), 1);
  EXPECT_EQ(Stat(db, "parts_held"), 1);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

// Opening reads the hosts, no part; a lease of one URL reads its host's part only, and with
// cache_mb=0 a look-up keeps only the part it reads.
// Log rows before the tail are kept for connections a little behind: the newest 64, of at most
// 1 MiB together, so that large commits (here 10,000 URLs with their hosts) do not fill the file.
TEST(FrontierParts, TheLogKeepsAtMostAMebibyteBeforeTheTail) {
  std::string path = TempDbPath("frontier_log_bytes");
  SQLite::Database db = Crawl(path, ", log_tail_kb=0");
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 80000);
  int64_t written = 0;  // bytes of every log row written
  for (size_t start = 0; start < reddit.size(); start += 10000) {
    const int64_t newest = Number(db, "SELECT coalesce(max(seq), 0) FROM frontier_log");
    AddAndLease(db, reddit, start, 10000, 1000 + static_cast<double>(start));
    written += Number(
        db, "SELECT sum(length(data)) FROM frontier_log WHERE seq > " + std::to_string(newest));
    EXPECT_LE(Number(db,
                     "SELECT coalesce(sum(length(data)), 0) FROM frontier_log "
                     "WHERE seq < (SELECT max(seq) FROM frontier_log)"),
              int64_t{1} << 20);
  }
  EXPECT_GT(written, int64_t{2} << 20);  // the bound did trim rows
  EXPECT_LT(Number(db, "SELECT count(*) FROM frontier_log"), 16);
  SQLite::Database reopened = LoadedDb(path);
  EXPECT_EQ(Rows(reopened, kEveryRow), Rows(db, kEveryRow));
  EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
}

TEST(FrontierParts, OpeningReadsNoPartAndALeaseOnlyItsHosts) {
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 10000);
  for (const std::string& tail : kTails) {
    SCOPED_TRACE(tail);
    std::string path = TempDbPath("frontier_opening");
    {
      SQLite::Database db = Crawl(path, tail);
      for (size_t start = 0, commit = 0; start < reddit.size(); start += 1000, ++commit) {
        AddAndLease(db, reddit, start, 1000, 1000 + static_cast<double>(commit));
      }
      // Folded into many parts, or all in the tail (20 commits of under 60 kB each).
      const int64_t parts =
          Number(db, "SELECT count(DISTINCT row >> 40) FROM frontier_pending WHERE row >= 0");
      if (tail.empty()) {
        ASSERT_EQ(parts, 0);
        ASSERT_EQ(Number(db, "SELECT count(*) FROM frontier_log"), 20);
      } else {
        ASSERT_GT(parts, 100);
      }
    }
    ExpectOpeningReadsNoPart(path, reddit);
  }
}

TEST(FrontierParts, AConnectionLeftBehindTrimmedLogRowsReadsTheHostsAgain) {
  std::string path = TempDbPath("frontier_left_behind");
  SQLite::Database writer = Crawl(path);
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 6000);
  AddAndLease(writer, reddit, 0, 1000, 1000);
  SQLite::Database reader = LoadedDb(path);
  ASSERT_EQ(Rows(reader, kEveryRow), Rows(writer, kEveryRow));
  const int64_t first_unread = Number(writer, "SELECT max(seq) + 1 FROM frontier_log");
  for (size_t start = 1000; start < reddit.size(); start += 1000) {
    AddAndLease(writer, reddit, start, 1000, 1000 + static_cast<double>(start));
  }
  writer.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
  // The rows the reader has not read are gone.
  ASSERT_GT(Number(writer, "SELECT min(seq) FROM frontier_log"), first_unread);
  EXPECT_EQ(Rows(reader, kEveryRow), Rows(writer, kEveryRow));
  EXPECT_EQ(One(reader, "SELECT crawldb_check()"), "ok");
  // The reader writes on top of what it read again; the writer catches up.
  reader.exec("SELECT count(*) FROM crawl_lease(100, 60, 99999)");
  EXPECT_EQ(Rows(writer, kEveryRow), Rows(reader, kEveryRow));
}

void ExpectConnectionsAgree(const std::string& tail) {
  std::string path = TempDbPath("frontier_take_in");
  SQLite::Database a = Crawl(path, tail);
  SQLite::Database b = LoadedDb(path);
  for (int i = 0; i < 600; ++i) {
    a.exec("SELECT crawl_add('http://h" + std::to_string(i % 40) + ".example/p" +
           std::to_string(i) + "')");
  }
  double now = 1000;
  for (int step = 0; step < 120; ++step) {
    SQLite::Database& db = step % 2 == 0 ? b : a;
    now += 1;
    std::vector<std::string> leased =
        Rows(db, "SELECT url FROM crawl_lease(5, 30, " + std::to_string(now) + ") ORDER BY url");
    db.exec("BEGIN");
    for (const std::string& url : leased) {
      db.exec("SELECT crawl_confirm('" + url + "', " + (step % 3 == 0 ? "503" : "200") + ", " +
              (step % 4 == 0 ? "100" : "0") + ", " + std::to_string(now) + ")");
      db.exec("SELECT crawl_add('" + url + "x', '" + url + "')");
    }
    db.exec("COMMIT");
    ASSERT_EQ(Rows(a, kEveryRow), Rows(b, kEveryRow)) << step;
  }
  EXPECT_GT(Stat(a, "parts_held"), 20);
  EXPECT_GT(Stat(b, "parts_held"), 20);
  EXPECT_EQ(One(a, "SELECT crawldb_check()"), "ok");
  EXPECT_EQ(One(b, "SELECT crawldb_check()"), "ok");
  EXPECT_GT(Number(a, "SELECT count(*) FROM frontier WHERE state = 'done'"), 100);
}

// Two connections crawl in turn: each takes in the other's commits from their log rows, applying
// their URL changes to the parts it holds and to its tail, and both see the same rows.
TEST(FrontierParts, ConnectionsTakeInEachOthersCommitsToThePartsTheyHold) {
  for (const std::string& tail : kTails) {
    SCOPED_TRACE(tail);
    ExpectConnectionsAgree(tail);
  }
}

// Versions 1 to 4 kept the records whole or in parts by fingerprint; this build's parts are by
// host. Versions 1 and 2 are refused at open; 3 and 4 at the first statement, with the way out,
// which works: the table can be dropped and made again.
TEST(FrontierParts, OlderFormatVersionsAreRefused) {
  for (std::string version : {"1", "2", "3", "4"}) {
    SCOPED_TRACE(version);
    std::string path = TempDbPath("frontier_version" + version);
    {
      SQLite::Database db = Crawl(path);
      db.exec("SELECT crawl_add('http://example.com/')");
      db.exec("UPDATE frontier_config SET value = '" + version + "' WHERE key = 'format_version'");
    }
    SQLite::Database db = LoadedDb(path);
    if (version < "3") {
      ExpectError(db, "SELECT count(*) FROM frontier", SQLITE_ERROR,
                  "crawldb_frontier: table 'frontier' has format version " + version +
                      ", older than this build reads (3 to 9); export it with the crawldb that "
                      "wrote it and import it again");
      continue;
    }
    ExpectError(db, "SELECT count(*) FROM frontier", SQLITE_ERROR,
                "crawldb_frontier: table 'frontier' is in format " + version +
                    ", whose crawl state this build cannot read (it keeps it by host since "
                    "format 5); finish the crawl with the crawldb build that wrote it, or drop "
                    "the table and queue its URLs again: DROP TABLE \"frontier\"; CREATE "
                    "VIRTUAL TABLE \"frontier\" USING crawldb_frontier(\"urls\"); SELECT "
                    "count(crawl_add(url)) FROM \"urls\"");
    db.exec("DROP TABLE \"frontier\"");
    db.exec("CREATE VIRTUAL TABLE \"frontier\" USING crawldb_frontier(\"urls\")");
    EXPECT_EQ(One(db, "SELECT count(crawl_add(url)) FROM \"urls\""), "1");
    EXPECT_EQ(Rows(db, "SELECT url, state FROM frontier"),
              std::vector<std::string>{"http://example.com/|queued"});
  }
}

// Makes the file at `path`, whose hosts each hold one queued URL and whose tail is folded, a file
// of format `version` (5 or 6): one <t>_hosts row per host instead of the host groups.
void KeepHostsInRows(const std::string& path, const std::string& version) {
  SQLite::Database db = LoadedDb(path);
  SQLite::Statement hosts(db,
                          "SELECT f.host, f.depth, f.priority, u.fp FROM frontier f "
                          "JOIN urls u ON u.id = f.id ORDER BY f.id");
  SQLite::Statement insert(db,
                           "INSERT INTO frontier_hosts VALUES (?, ?, -1.0, -1, 0.0, 0.0, 1, 1, ?, "
                           "?, ?, 0, 0.0)");
  for (int id = 0; hosts.executeStep(); ++id) {  // a host's id is its rank of creation
    insert.bind(1, id);
    insert.bind(2, hosts.getColumn(0).getString());
    insert.bind(3, hosts.getColumn(1).getInt64());
    insert.bind(4, hosts.getColumn(2).getInt64());
    insert.bind(5, hosts.getColumn(3).getInt64());
    insert.exec();
    insert.reset();
  }
  db.exec("DELETE FROM frontier_snapshot WHERE part < 0");
  db.exec("UPDATE frontier_config SET value = '" + version + "' WHERE key = 'format_version'");
}

// Formats 5 and 6 kept one <t>_hosts row per host (5 also folded every commit at once, so that its
// log is read as one whose every row is folded). Their files are read; the first commit writes
// format 9, and the first fold moves the hosts into groups and empties <t>_hosts.
TEST(FrontierParts, FormatsFiveAndSixAreReadAndMovedToHostGroups) {
  for (std::string version : {"5", "6"}) {
    SCOPED_TRACE(version);
    std::string path = TempDbPath("frontier_version" + version);
    {
      SQLite::Database db = Crawl(path);
      for (const char* host : {"a", "b", "c"}) {
        db.exec(std::string("SELECT crawl_add('http://") + host + ".example.com/', NULL, 0)");
      }
      db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
    }
    KeepHostsInRows(path, version);
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(
        Rows(db, "SELECT url, state FROM frontier ORDER BY url"),
        (std::vector<std::string>{"http://a.example.com/|queued", "http://b.example.com/|queued",
                                  "http://c.example.com/|queued"}));
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");  // the rows agree with the parts
    EXPECT_EQ(One(db, "SELECT value FROM frontier_config WHERE key = 'format_version'"), version);
    db.exec("SELECT crawl_add('http://d.example.com/')");
    EXPECT_EQ(One(db, "SELECT value FROM frontier_config WHERE key = 'format_version'"), "9");
    {
      SQLite::Database opened = LoadedDb(path);  // hosts from the rows, the new URL from the tail
      EXPECT_EQ(Rows(opened, kEveryRow), Rows(db, kEveryRow));
    }
    db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
    EXPECT_EQ(One(db, "SELECT count(*) FROM frontier_hosts"), "0");
    EXPECT_EQ(One(db, "SELECT count(*) FROM frontier_snapshot WHERE part < 0"), "1");
    SQLite::Database reopened = LoadedDb(path);
    EXPECT_EQ(Rows(reopened, kEveryRow), Rows(db, kEveryRow));
    EXPECT_EQ(Rows(reopened, "SELECT * FROM crawl_hosts ORDER BY host"),
              Rows(db, "SELECT * FROM crawl_hosts ORDER BY host"));
    EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
  }
}

// Hosts h0 … h599.example.com, a URL each, in one transaction.
void AddHosts(SQLite::Database& db) {
  db.exec("BEGIN");
  for (int i = 0; i < 600; ++i) {
    db.exec("SELECT crawl_add('http://h" + std::to_string(i) + ".example.com/', NULL, 0, 1000)");
  }
  db.exec("COMMIT");
}

// Step i of a run of commits: sets the delay of host h(i mod cycle), adds a URL of a new host;
// returns the hosts' rows of <t>_pending then.
int64_t ChangeAndAddHost(SQLite::Database& db, int i, int cycle) {
  db.exec("SELECT crawl_host_set('h" + std::to_string(i % cycle) + ".example.com', " +
          std::to_string(i + 1) + ", 0, 0)");
  db.exec("SELECT crawl_add('http://new" + std::to_string(i) + ".example.org/', NULL, 0, 1000)");
  return Number(db, "SELECT count(*) FROM frontier_pending WHERE row < 0");
}

// A fold writes the hosts it touched as one <t>_pending row below 0, not their groups; the
// groups are rewritten (and those rows deleted) once the rows weigh half of them or are 64.
TEST(FrontierParts, AFoldWritesTheHostsItTouchedAndTheGroupsLater) {
  std::string path = TempDbPath("frontier_host_groups");
  SQLite::Database db = Crawl(path, ", log_tail_kb=0");
  AddHosts(db);
  // The first fold writes the groups: there were none to add to.
  EXPECT_EQ(Rows(db, "SELECT part FROM frontier_snapshot WHERE part < 0 ORDER BY part DESC"),
            (std::vector<std::string>{"-1", "-2", "-3"}));
  EXPECT_EQ(Number(db, "SELECT count(*) FROM frontier_pending WHERE row < 0"), 0);
  const std::string groups_seq = One(db, "SELECT max(seq) FROM frontier_snapshot WHERE part < 0");
  db.exec("SELECT crawl_host_set('h300.example.com', 5, 0, 0)");
  const int64_t seq = Number(db, "SELECT max(seq) FROM frontier_log");
  EXPECT_EQ(Rows(db, "SELECT row FROM frontier_pending WHERE row < 0"),
            std::vector<std::string>{std::to_string(-seq)});
  EXPECT_EQ(One(db, "SELECT max(seq) FROM frontier_snapshot WHERE part < 0"), groups_seq);
  {
    SQLite::Database reopened = LoadedDb(path);  // groups, then the row
    EXPECT_EQ(One(reopened, "SELECT delay FROM crawl_hosts WHERE host = 'h300.example.com'"),
              "5.0");
    EXPECT_EQ(Rows(reopened, "SELECT * FROM crawl_hosts ORDER BY host"),
              Rows(db, "SELECT * FROM crawl_hosts ORDER BY host"));
    EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
  }
  // More folds, each a row, until the rows are merged into the groups; a host changed twice
  // and new hosts among them.
  int64_t most_rows = 0;
  bool merged = false;
  for (int i = 0; i < 80 && !merged; ++i) {
    const int64_t rows = ChangeAndAddHost(db, i, 50);
    most_rows = std::max(most_rows, rows);
    merged = rows == 0;
  }
  EXPECT_TRUE(merged);
  EXPECT_LT(most_rows, 64);
  EXPECT_GT(most_rows, 10);
  EXPECT_NE(One(db, "SELECT max(seq) FROM frontier_snapshot WHERE part < 0"), groups_seq);
  SQLite::Database reopened = LoadedDb(path);
  EXPECT_EQ(Rows(reopened, "SELECT * FROM crawl_hosts ORDER BY host"),
            Rows(db, "SELECT * FROM crawl_hosts ORDER BY host"));
  EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
}

// With a log tail, a reopened file reads the groups, the hosts' rows, then the tail on top; a
// connection open all along takes in the commits across a rewrite of the groups.
TEST(FrontierParts, HostRowsUnderATailAndAcrossARewriteOfTheGroups) {
  std::string path = TempDbPath("frontier_host_rows_tail");
  SQLite::Database db = Crawl(path, ", log_tail_kb=1");
  AddHosts(db);
  SQLite::Database other = LoadedDb(path);
  EXPECT_EQ(Number(other, "SELECT count(*) FROM crawl_hosts"), 600);
  const std::string hosts = "SELECT * FROM crawl_hosts ORDER BY host";
  bool rows_seen = false;
  bool merged_after_rows = false;
  for (int i = 0; i < 5000 && !merged_after_rows; ++i) {
    const int64_t rows = ChangeAndAddHost(db, i, 600);
    merged_after_rows = rows_seen && rows == 0;
    rows_seen = rows_seen || rows > 0;
    if (i % 64 == 0) {
      ASSERT_EQ(Rows(other, hosts), Rows(db, hosts)) << i;
    }
  }
  EXPECT_TRUE(merged_after_rows);
  EXPECT_EQ(Rows(other, hosts), Rows(db, hosts));
  // Some rows again, and commits in the tail above them.
  for (int i = 0; i < 100; ++i) {
    db.exec("SELECT crawl_host_set('h" + std::to_string(i) + ".example.com', 7, 0, 0)");
  }
  EXPECT_GT(Number(db, "SELECT count(*) FROM frontier_pending WHERE row < 0"), 0);
  EXPECT_GT(Number(db,
                   "SELECT count(*) FROM frontier_log WHERE seq > (SELECT max(-row) FROM "
                   "frontier_pending WHERE row < 0)"),
            0);
  SQLite::Database reopened = LoadedDb(path);
  EXPECT_EQ(Rows(reopened, hosts), Rows(db, hosts));
  EXPECT_EQ(Rows(other, hosts), Rows(db, hosts));
  EXPECT_EQ(One(reopened, "SELECT crawldb_check()"), "ok");
}

// A host group written after a fold whose hosts' row it holds (a build of format 8 folding
// in a file this build wrote to) keeps its hosts: the older row yields.
TEST(FrontierParts, AHostRowYieldsToANewerGroup) {
  std::string path = TempDbPath("frontier_host_row_older");
  {
    SQLite::Database db = Crawl(path, ", log_tail_kb=0");
    AddHosts(db);
    db.exec("SELECT crawl_host_set('h300.example.com', 5, 0, 0)");
    db.exec("SELECT crawl_host_set('h10.example.com', 6, 0, 0)");
    ASSERT_EQ(Number(db, "SELECT count(*) FROM frontier_pending WHERE row < 0"), 2);
    // Group 1 (h300's) as if written after both folds, still with h300's old delay.
    db.exec(
        "UPDATE frontier_snapshot SET seq = (SELECT max(seq) + 1 FROM frontier_log) "
        "WHERE part = -2");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT delay FROM crawl_hosts WHERE host = 'h300.example.com'"), "0.0");
  EXPECT_EQ(One(db, "SELECT delay FROM crawl_hosts WHERE host = 'h10.example.com'"), "6.0");
}

}  // namespace
}  // namespace crawldb::testing
