// Random mixed operations on outlinks / inlinks and, in the same database and transactions, on
// a plain edges table keyed by URL text (the oracle). Every query's result set must agree.
// Links are compared through the URLs they join, since optimize renumbers ids. One run bounds
// the connection's caches to nothing (crawldb_cache_mb(0)), so that the stores drop and read
// again what they page from the file all the time.
#include <array>
#include <optional>
#include <random>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/shared_data.h"
#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

class LinksDifferential {
 public:
  explicit LinksDifferential(uint32_t seed, std::optional<int> cache_mb = std::nullopt)
      // Each run its own file: ctest runs the two tests side by side.
      : random_(seed),
        path_(TempDbPath(cache_mb.has_value()
                             ? "links_differential_cache_" + std::to_string(*cache_mb)
                             : "links_differential")),
        cache_mb_(cache_mb) {
    Open();
    db_->exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
        "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
        "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);"
        "CREATE TABLE oracle_urls(url TEXT PRIMARY KEY);"
        "CREATE TABLE oracle_links(src TEXT, dst TEXT, PRIMARY KEY(src, dst));");
    std::vector<std::string> reddit =
        ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 60000);
    for (size_t i = 0; i < reddit.size(); i += 150) pool_.push_back(reddit[i]);
  }

  void Run(int steps) {
    for (int step = 0; step < steps; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      int op = Pick(100);
      if (op < 15) {
        AddUrl();
      } else if (op < 60) {
        AddLinks();
      } else if (op < 68) {
        DeleteLink();
      } else if (op < 72) {
        DeleteUrl();
      } else if (op < 75) {
        db_->exec("SELECT crawldb_optimize()");
      } else if (op < 77) {
        db_->exec("INSERT INTO outlinks(outlinks) VALUES ('optimize')");
      } else if (op < 80) {
        Reopen();
      } else if (op < 84) {
        RolledBackTransaction();
      } else if (op < 88) {
        SavepointRollback();
      } else {
        Compare();
      }
    }
    Compare();
    EXPECT_EQ(One(*db_, "SELECT crawldb_check()"), "ok");
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  const std::string& AnyUrl() {
    return pool_[static_cast<size_t>(Pick(static_cast<int>(pool_.size())))];
  }

  void Open() {
    db_ = std::make_unique<SQLite::Database>(LoadedDb(path_));
    if (cache_mb_.has_value())
      One(*db_, "SELECT crawldb_cache_mb(" + std::to_string(*cache_mb_) + ")");
  }
  void Reopen() {
    db_.reset();
    Open();
  }

  void AddUrl() {
    SQLite::Statement insert(*db_, "INSERT OR IGNORE INTO urls(url) VALUES (?)");
    insert.bind(1, AnyUrl());
    insert.exec();
    db_->exec("INSERT OR IGNORE INTO oracle_urls SELECT url FROM urls");
  }

  void AddLinks() {
    // A few links between stored URLs, some repeated, some self links.
    int count = 1 + Pick(6);
    for (int i = 0; i < count; ++i) {
      SQLite::Statement pick(*db_, "SELECT url FROM oracle_urls ORDER BY random() LIMIT 2");
      std::vector<std::string> ends;
      while (pick.executeStep()) ends.push_back(pick.getColumn(0).getString());
      if (ends.empty()) return;
      if (ends.size() == 1 || Pick(10) == 0) ends.assign(2, ends[0]);  // a self link
      SQLite::Statement insert(*db_,
                               "INSERT INTO outlinks(src, dst) VALUES (url_id(?1), url_id(?2))");
      insert.bind(1, ends[0]);
      insert.bind(2, ends[1]);
      insert.exec();
      if (ends[0] != ends[1]) {
        SQLite::Statement oracle(*db_, "INSERT OR IGNORE INTO oracle_links VALUES (?1, ?2)");
        oracle.bind(1, ends[0]);
        oracle.bind(2, ends[1]);
        oracle.exec();
      }
    }
  }

  void DeleteLink() {
    SQLite::Statement pick(*db_, "SELECT src, dst FROM oracle_links ORDER BY random() LIMIT 1");
    if (!pick.executeStep()) return;
    std::string src = pick.getColumn(0), dst = pick.getColumn(1);
    SQLite::Statement remove(*db_,
                             "DELETE FROM outlinks WHERE src = url_id(?1) AND dst = url_id(?2)");
    remove.bind(1, src);
    remove.bind(2, dst);
    EXPECT_EQ(remove.exec(), 1);
    SQLite::Statement oracle(*db_, "DELETE FROM oracle_links WHERE src = ?1 AND dst = ?2");
    oracle.bind(1, src);
    oracle.bind(2, dst);
    oracle.exec();
  }

  void DeleteUrl() {
    SQLite::Statement pick(*db_, "SELECT url FROM oracle_urls ORDER BY random() LIMIT 1");
    if (!pick.executeStep()) return;
    std::string url = pick.getColumn(0);
    SQLite::Statement remove(*db_, "DELETE FROM urls WHERE id = url_id(?1)");
    remove.bind(1, url);
    remove.exec();
    SQLite::Statement oracle(*db_, "DELETE FROM oracle_links WHERE src = ?1 OR dst = ?1");
    oracle.bind(1, url);
    oracle.exec();
    SQLite::Statement oracle_url(*db_, "DELETE FROM oracle_urls WHERE url = ?1");
    oracle_url.bind(1, url);
    oracle_url.exec();
  }

  void RolledBackTransaction() {
    db_->exec("BEGIN");
    AddUrl();
    AddLinks();
    DeleteLink();
    Compare();
    db_->exec("ROLLBACK");
  }

  void SavepointRollback() {
    db_->exec("BEGIN");
    AddLinks();
    db_->exec("SAVEPOINT s");
    AddLinks();
    DeleteLink();
    DeleteUrl();
    db_->exec("ROLLBACK TO s");
    AddLinks();
    db_->exec("COMMIT");
  }

  void Compare() {
    // Every link, both tables, by URL text.
    const std::string oracle_all = "SELECT src, dst FROM oracle_links ORDER BY 1, 2";
    EXPECT_EQ(Rows(*db_,
                   "SELECT a.url, b.url FROM outlinks o JOIN urls a ON a.id = o.src "
                   "JOIN urls b ON b.id = o.dst ORDER BY 1, 2"),
              Rows(*db_, oracle_all));
    EXPECT_EQ(Rows(*db_,
                   "SELECT a.url, b.url FROM inlinks i JOIN urls a ON a.id = i.src "
                   "JOIN urls b ON b.id = i.dst ORDER BY 1, 2"),
              Rows(*db_, oracle_all));
    EXPECT_EQ(One(*db_, "SELECT count(*) FROM outlinks"),
              One(*db_, "SELECT count(*) FROM oracle_links"));
    // Degrees both ways through each table's look-ups, which count a list instead of decoding
    // it when the statement uses no other column; a rowid asked for anyway decodes it.
    EXPECT_EQ(Rows(*db_,
                   "SELECT u.url, (SELECT count(*) FROM outlinks o WHERE o.src = u.id), "
                   "(SELECT count(*) FROM outlinks o WHERE o.dst = u.id), "
                   "(SELECT count(*) FROM inlinks i WHERE i.dst = u.id), "
                   "(SELECT count(*) FROM inlinks i WHERE i.src = u.id), "
                   "EXISTS (SELECT 1 FROM outlinks o WHERE o.src = u.id) FROM urls u ORDER BY 1"),
              Rows(*db_,
                   "SELECT u.url, (SELECT count(*) FROM oracle_links WHERE src = u.url), "
                   "(SELECT count(*) FROM oracle_links WHERE dst = u.url), "
                   "(SELECT count(*) FROM oracle_links WHERE dst = u.url), "
                   "(SELECT count(*) FROM oracle_links WHERE src = u.url), "
                   "EXISTS (SELECT 1 FROM oracle_links WHERE src = u.url) FROM oracle_urls u "
                   "ORDER BY 1"));
    EXPECT_EQ(One(*db_,
                  "SELECT count(*) FROM urls u WHERE (SELECT max(rowid) FROM outlinks o WHERE "
                  "o.src = u.id) IS NOT (SELECT max(o.src * 4294967296 + o.dst) FROM outlinks o "
                  "WHERE o.src = u.id)"),
              "0");
    // Reciprocal links, each probed as an arc (src = ? AND dst = ?) from a scan.
    const std::string oracle_reciprocal =
        "SELECT a.src, a.dst FROM oracle_links a JOIN oracle_links b ON b.src = a.dst AND "
        "b.dst = a.src ORDER BY 1, 2";
    for (const char* probed : {"outlinks", "inlinks"}) {
      EXPECT_EQ(Rows(*db_, std::string("SELECT x.url, y.url FROM outlinks a JOIN ") + probed +
                               " b ON b.src = a.dst AND b.dst = a.src JOIN urls x ON x.id = "
                               "a.src JOIN urls y ON y.id = a.dst ORDER BY 1, 2"),
                Rows(*db_, oracle_reciprocal))
          << probed;
    }
    // Each table scanned in the other side's order (its transpose's lists), positions included,
    // is its primary scan sorted that way (`+` keeps the ORDER BY from the table).
    for (auto [table, other, primary] : {std::array<std::string, 3>{"outlinks", "dst", "src"},
                                         std::array<std::string, 3>{"inlinks", "src", "dst"}}) {
      const std::string by_other =
          "SELECT src, dst, pos FROM " + table + " ORDER BY " + other + ", " + primary;
      SQLite::Statement plan(*db_, "EXPLAIN QUERY PLAN " + by_other);
      ASSERT_TRUE(plan.executeStep());
      EXPECT_EQ(plan.getColumn(3).getString(),
                "SCAN " + table + " VIRTUAL TABLE INDEX 5:scan in " + other + " order");
      EXPECT_EQ(Rows(*db_, by_other), Rows(*db_, "SELECT src, dst, pos FROM " + table +
                                                     " ORDER BY +" + other + ", +" + primary));
    }
    // One list each way, with positions: ids order the list.
    const std::string& url = AnyUrl();
    SQLite::Statement ours(*db_,
                           "SELECT b.url, o.pos FROM outlinks o JOIN urls b ON b.id = o.dst "
                           "WHERE o.src = url_id(?1) ORDER BY o.pos");
    SQLite::Statement theirs(
        *db_,
        "SELECT l.dst, (SELECT count(*) FROM oracle_links m WHERE m.src = l.src AND "
        "url_id(m.dst) < url_id(l.dst)) AS pos FROM oracle_links l WHERE l.src = "
        "url_normalize(?1) ORDER BY pos");
    ours.bind(1, url);
    theirs.bind(1, url);
    while (true) {
      bool a = ours.executeStep(), b = theirs.executeStep();
      ASSERT_EQ(a, b);
      if (!a) break;
      EXPECT_EQ(ours.getColumn(0).getString(), theirs.getColumn(0).getString());
      EXPECT_EQ(ours.getColumn(1).getInt(), theirs.getColumn(1).getInt());
    }
    SQLite::Statement in_ours(*db_,
                              "SELECT a.url FROM inlinks i JOIN urls a ON a.id = i.src "
                              "WHERE i.dst = url_id(?1) ORDER BY 1");
    SQLite::Statement in_theirs(*db_,
                                "SELECT src FROM oracle_links WHERE dst = url_normalize(?1) "
                                "ORDER BY 1");
    in_ours.bind(1, url);
    in_theirs.bind(1, url);
    while (true) {
      bool a = in_ours.executeStep(), b = in_theirs.executeStep();
      ASSERT_EQ(a, b);
      if (!a) break;
      EXPECT_EQ(in_ours.getColumn(0).getString(), in_theirs.getColumn(0).getString());
    }
  }

  std::mt19937 random_;
  std::string path_;
  std::vector<std::string> pool_;
  std::optional<int> cache_mb_;
  std::unique_ptr<SQLite::Database> db_;
};

TEST(LinksDifferential, AgreesWithAPlainEdgesTable) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    LinksDifferential(seed).Run(400);
  }
}

TEST(LinksDifferential, AgreesWithAPlainEdgesTableWithoutCaches) {
  LinksDifferential(4, /*cache_mb=*/0).Run(400);
}

}  // namespace
}  // namespace crawldb::testing
