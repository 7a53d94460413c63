// Random mixed operations on the urls table and, in the same database and transactions, on a
// plain SQLite table of normalised URLs (the oracle). Every result must agree. Ids are compared
// through the URL they name, since optimize renumbers.
#include <algorithm>
#include <random>
#include <set>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

class Differential {
 public:
  // `create`: the CREATE VIRTUAL TABLE statement of the urls table.
  Differential(uint32_t seed, const std::string& create)
      : random_(seed),
        // Each run its own file: ctest runs the two tests below at once.
        path_(TempDbPath("urls_differential_" + std::to_string(seed))) {
    Open();
    db_->exec(create);
    db_->exec("CREATE TABLE oracle(url TEXT PRIMARY KEY)");
    std::vector<std::string> reddit =
        ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 200000);
    for (size_t i = 0; i < reddit.size(); i += 97) pool_.push_back(reddit[i]);
    // Hostile inputs: invalid, odd, and variants that normalise to a pool URL.
    for (const char* junk : {"mailto:x@y.z", "javascript:void(0)", "", "http://", "ftp://a.b/",
                             "http://a.com/%zz", "HTTP://WWW.Example.COM:80/./a/../b#x",
                             "http://[::1]:8080/x", "http://xn--bcher-kva.de/", "not a url"}) {
      pool_.push_back(junk);
    }
    for (size_t i = 0; i < 50; ++i) pool_.push_back(Upcase(pool_[i * 13]));
  }

  void Run(int steps) {
    for (int step = 0; step < steps; ++step) {
      SCOPED_TRACE("step " + std::to_string(step));
      int op = Pick(100);
      if (op < 30) {
        Insert();
      } else if (op < 45) {
        InsertOrIgnoreBatch();
      } else if (op < 55) {
        Delete();
      } else if (op < 65) {
        Lookup();
      } else if (op < 75) {
        IdRoundTrip();
      } else if (op < 82) {
        HostScan();
      } else if (op < 92) {
        Transaction();
      } else if (op < 95 && depth_ == 0) {
        Reopen();
      } else if (op < 97 && depth_ == 0) {
        db_->exec("INSERT INTO urls(urls) VALUES ('optimize')");
      } else {
        CompareAll();
      }
      if (::testing::Test::HasFailure()) return;
    }
    while (depth_ > 0) Transaction();
    CompareAll();
  }

 private:
  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }
  const std::string& AnyUrl() {
    return pool_[static_cast<size_t>(Pick(static_cast<int>(pool_.size())))];
  }
  static std::string Upcase(std::string text) {
    size_t host_end = text.find('/', 8);
    std::transform(text.begin(),
                   text.begin() + static_cast<ptrdiff_t>(std::min(host_end, text.size())),
                   text.begin(), ::toupper);
    return text;
  }

  void Open() { db_ = std::make_unique<SQLite::Database>(LoadedDb(path_)); }
  void Reopen() {
    db_.reset();
    Open();
    ++reopens_;
  }

  std::string Normalized(const std::string& url) {
    SQLite::Statement statement(*db_, "SELECT url_normalize(?)");
    statement.bind(1, url);
    statement.executeStep();
    return statement.getColumn(0).isNull() ? "" : statement.getColumn(0).getString();
  }
  bool InOracle(const std::string& normalized) {
    SQLite::Statement statement(*db_, "SELECT count(*) FROM oracle WHERE url = ?");
    statement.bind(1, normalized);
    statement.executeStep();
    return statement.getColumn(0).getInt() == 1;
  }

  void Insert() {
    const std::string& url = AnyUrl();
    std::string normalized = Normalized(url);
    bool should_fail = normalized.empty() || InOracle(normalized);
    SQLite::Statement insert(*db_, "INSERT INTO urls(url) VALUES (?)");
    insert.bind(1, url);
    try {
      insert.exec();
      EXPECT_FALSE(should_fail) << url;
      // The new id is the rowid, and names the URL.
      EXPECT_EQ(One(*db_, "SELECT url_text(" + std::to_string(db_->getLastInsertRowid()) + ")"),
                normalized);
      SQLite::Statement oracle(*db_, "INSERT INTO oracle(url) VALUES (?)");
      oracle.bind(1, normalized);
      oracle.exec();
    } catch (const SQLite::Exception& e) {
      EXPECT_TRUE(should_fail) << url << ": " << e.what();
      EXPECT_EQ(e.getErrorCode(), SQLITE_CONSTRAINT) << e.what();
    }
  }

  void InsertOrIgnoreBatch() {
    std::vector<std::string> batch;
    for (int i = 0; i < 5; ++i) batch.push_back(AnyUrl());
    int expected = 0;
    std::set<std::string> fresh;
    for (const std::string& url : batch) {
      std::string normalized = Normalized(url);
      if (!normalized.empty() && !InOracle(normalized) && fresh.insert(normalized).second) {
        ++expected;
      }
    }
    SQLite::Statement insert(*db_,
                             "INSERT OR IGNORE INTO urls(url) VALUES (?), (?), (?), (?), (?)");
    SQLite::Statement oracle(
        *db_,
        "INSERT OR IGNORE INTO oracle(url) SELECT url_normalize(value) FROM "
        "(SELECT ? AS value UNION ALL SELECT ? UNION ALL SELECT ? UNION ALL SELECT ? "
        "UNION ALL SELECT ?) WHERE url_normalize(value) IS NOT NULL");
    for (int i = 0; i < 5; ++i) {
      insert.bind(i + 1, batch[static_cast<size_t>(i)]);
      oracle.bind(i + 1, batch[static_cast<size_t>(i)]);
    }
    EXPECT_EQ(insert.exec(), expected);
    EXPECT_EQ(oracle.exec(), expected);
  }

  void Delete() {
    const std::string& url = AnyUrl();
    SQLite::Statement remove(*db_, "DELETE FROM urls WHERE url = ?");
    remove.bind(1, url);
    SQLite::Statement oracle(*db_, "DELETE FROM oracle WHERE url = url_normalize(?)");
    oracle.bind(1, url);
    EXPECT_EQ(remove.exec(), oracle.exec()) << url;
  }

  void Lookup() {
    const std::string& url = AnyUrl();
    SQLite::Statement ours(*db_,
                           "SELECT count(*), url_id(?1) IS NOT NULL FROM urls WHERE url = ?1");
    ours.bind(1, url);
    ours.executeStep();
    bool expected = InOracle(Normalized(url));
    EXPECT_EQ(ours.getColumn(0).getInt(), expected ? 1 : 0) << url;
    EXPECT_EQ(ours.getColumn(1).getInt(), expected ? 1 : 0) << url;
  }

  void IdRoundTrip() {
    std::string max_id = One(*db_, "SELECT max(id) FROM urls");
    if (max_id == "NULL") return;
    int id = 1 + Pick(std::stoi(max_id));
    SQLite::Statement row(*db_,
                          "SELECT url, url_text(id), url_id(url), fp = url_fp(url) FROM urls "
                          "WHERE id = ?");
    row.bind(1, id);
    if (!row.executeStep()) {
      EXPECT_EQ(One(*db_, "SELECT url_text(" + std::to_string(id) + ")"), "NULL");
      return;
    }
    std::string url = row.getColumn(0).getString();
    EXPECT_TRUE(InOracle(url)) << url;
    EXPECT_EQ(row.getColumn(1).getString(), url);
    EXPECT_EQ(row.getColumn(2).getInt64(), id);
    EXPECT_EQ(row.getColumn(3).getInt(), 1);
  }

  void HostScan() {
    std::string normalized = Normalized(AnyUrl());
    if (normalized.empty()) return;
    std::string host = One(*db_, "SELECT url_host('" + Escape(normalized) + "')");
    std::string prefix = normalized.substr(0, normalized.find('/', 8) + 1);
    EXPECT_EQ(Rows(*db_, "SELECT url FROM urls WHERE host = '" + Escape(host) + "' ORDER BY url"),
              Rows(*db_, "SELECT url FROM oracle WHERE url_host(url) = '" + Escape(host) +
                             "' ORDER BY url"));
    EXPECT_EQ(
        Rows(*db_, "SELECT url FROM urls WHERE url GLOB '" + Escape(prefix) + "*' ORDER BY url"),
        Rows(*db_, "SELECT url FROM oracle WHERE url GLOB '" + Escape(prefix) + "*' ORDER BY url"));
    std::string upper = prefix.substr(0, prefix.size() - 1) + "0";  // '0' follows '/'
    EXPECT_EQ(Rows(*db_, "SELECT url FROM urls WHERE url >= '" + Escape(prefix) + "' AND url < '" +
                             Escape(upper) + "' ORDER BY url"),
              Rows(*db_, "SELECT url FROM oracle WHERE url >= '" + Escape(prefix) +
                             "' AND url < '" + Escape(upper) + "' ORDER BY url"));
    // Ranges inside one host's paths, which the cursor narrows to the keys between the bounds:
    // from a URL cut short to it or another URL of the host, the upper bound's last byte
    // sometimes raised; each bound strict or not.
    std::string lower = normalized.substr(
        0, prefix.size() + static_cast<size_t>(Pick(normalized.size() - prefix.size() + 1)));
    std::vector<std::string> host_urls =
        Rows(*db_, "SELECT url FROM oracle WHERE url_host(url) = '" + Escape(host) + "'");
    host_urls.push_back(normalized);  // which may not be stored
    std::string high = host_urls[static_cast<size_t>(Pick(static_cast<int>(host_urls.size())))];
    if (Pick(2) == 0) high.back() = static_cast<char>(high.back() + 1);
    const char* low_op = Pick(2) == 0 ? ">=" : ">";
    const char* high_op = Pick(2) == 0 ? "<=" : "<";
    const std::string bounds = std::string(" WHERE url ") + low_op + " '" + Escape(lower) +
                               "' AND url " + high_op + " '" + Escape(high) + "' ORDER BY url";
    EXPECT_EQ(Rows(*db_, "SELECT url FROM urls" + bounds),
              Rows(*db_, "SELECT url FROM oracle" + bounds))
        << bounds;
  }

  static std::string Escape(const std::string& text) {
    std::string out;
    for (char c : text) {
      out.push_back(c);
      if (c == '\'') out.push_back('\'');
    }
    return out;
  }

  void Transaction() {
    int op = Pick(6);
    if (depth_ == 0) {
      db_->exec("BEGIN");
      depth_ = 1;
    } else if (op == 0 && depth_ < 4) {
      db_->exec("SAVEPOINT s" + std::to_string(depth_));
      ++depth_;
    } else if (op == 1 && depth_ > 1) {
      --depth_;
      db_->exec("ROLLBACK TO s" + std::to_string(depth_));
      db_->exec("RELEASE s" + std::to_string(depth_));
      ++rollbacks_;
    } else if (op == 2 && depth_ > 1) {
      --depth_;
      db_->exec("RELEASE s" + std::to_string(depth_));
    } else if (op == 3) {
      db_->exec("ROLLBACK");
      depth_ = 0;
      ++rollbacks_;
    } else {
      db_->exec("COMMIT");
      depth_ = 0;
    }
  }

  void CompareAll() {
    EXPECT_EQ(Rows(*db_, "SELECT url FROM urls ORDER BY url"),
              Rows(*db_, "SELECT url FROM oracle ORDER BY url"));
    EXPECT_EQ(One(*db_, "SELECT count(DISTINCT id) = count(*) FROM urls"), "1");
    EXPECT_EQ(One(*db_, "SELECT crawldb_check()"), "ok");
    max_merged_ = std::max(
        max_merged_,
        std::stoi(One(*db_, "SELECT json_extract(crawldb_stats(), '$.tables[0].merged_urls')")));
  }

 public:
  int reopens_ = 0;
  int rollbacks_ = 0;
  int max_merged_ = 0;  // the most URLs seen in parts

 private:
  std::mt19937 random_;
  std::string path_;
  std::unique_ptr<SQLite::Database> db_;
  std::vector<std::string> pool_;
  int depth_ = 0;  // 0: no transaction; 1: BEGIN; n > 1: n − 1 savepoints open
};

TEST(UrlsDifferential, AgreesWithAPlainTable) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Differential run(seed, "CREATE VIRTUAL TABLE urls USING crawldb_urls");
    run.Run(1500);
    // The run exercised what it is meant to.
    EXPECT_GT(run.reopens_, 5);
    EXPECT_GT(run.rollbacks_, 5);
  }
}

// The same with parts merged at every fold of the log tail (merge_bytes=0), which folds once it
// passes 1 KiB: look-ups, scans, rollbacks and reopens over merged parts, pending keys, the
// tail and the base at once.
TEST(UrlsDifferential, AgreesWithAPlainTableWhenEveryCommitMerges) {
  for (uint32_t seed : {4u, 5u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Differential run(seed,
                     "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, log_tail_kb=1)");
    run.Run(1500);
    EXPECT_GT(run.reopens_, 5);
    EXPECT_GT(run.rollbacks_, 5);
    EXPECT_GT(run.max_merged_, 100);
  }
}

// The same with no part kept between look-ups (cache_mb=0): every look-up, scan and commit reads
// the parts it needs from the file again, while uncommitted adds stay.
TEST(UrlsDifferential, AgreesWithAPlainTableWhenNothingIsCached) {
  Differential run(
      6, "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, cache_mb=0, log_tail_kb=1)");
  run.Run(1500);
  EXPECT_GT(run.reopens_, 5);
  EXPECT_GT(run.rollbacks_, 5);
  EXPECT_GT(run.max_merged_, 100);
}

}  // namespace
}  // namespace crawldb::testing
