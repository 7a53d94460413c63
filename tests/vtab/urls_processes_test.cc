// Two processes insert overlapping URL sets into one WAL-mode file at the same time: every URL
// must end up stored exactly once, with one id.
#include <sys/wait.h>
#include <unistd.h>

#include <set>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

// Inserts `urls` in batches of `batch` per transaction (BEGIN IMMEDIATE, or one multi-row
// autocommit INSERT when `immediate` is false), retrying a batch that meets SQLITE_BUSY (another
// writer holds the lock, or committed after this one's snapshot began). Returns 0 on success,
// 1 on any other error.
int InsertAll(const std::string& path, const std::vector<std::string>& urls, size_t batch,
              bool immediate) {
  try {
    SQLite::Database db = LoadedDb(path);
    db.exec("PRAGMA busy_timeout = 10000");
    for (size_t start = 0; start < urls.size(); start += batch) {
      while (true) {
        try {
          size_t end = std::min(urls.size(), start + batch);
          if (immediate) {
            SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
            SQLite::Statement insert(db, "INSERT OR IGNORE INTO urls(url) VALUES (?)");
            for (size_t i = start; i < end; ++i) {
              insert.bind(1, urls[i]);
              insert.exec();
              insert.reset();
            }
            transaction.commit();
          } else {
            std::string sql = "INSERT OR IGNORE INTO urls(url) VALUES (?)";
            for (size_t i = start + 1; i < end; ++i) sql += ", (?)";
            SQLite::Statement insert(db, sql);
            for (size_t i = start; i < end; ++i)
              insert.bind(static_cast<int>(i - start + 1), urls[i]);
            insert.exec();
          }
          break;
        } catch (const SQLite::Exception& e) {
          if (e.getErrorCode() != SQLITE_BUSY) throw;
        }
      }
    }
    return 0;
  } catch (const std::exception& e) {
    fprintf(stderr, "child failed: %s\n", e.what());
    return 1;
  }
}

// The parameter: BEGIN IMMEDIATE batches or autocommit ones, and whether every commit merges
// parts (merge_bytes=0), so that each process also reads again the parts the other rewrote —
// with no part kept between look-ups (cache_mb=0), so that each process reads parts all the
// time.
struct Mode {
  bool immediate;
  bool merges;
};
void PrintTo(const Mode& mode, std::ostream* out) {
  *out << (mode.immediate ? "BEGIN IMMEDIATE" : "autocommit") << (mode.merges ? ", merging" : "");
}
class UrlsProcesses : public ::testing::TestWithParam<Mode> {};

TEST_P(UrlsProcesses, OverlappingInsertsStoreEachUrlOnce) {
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 30000);
  ASSERT_GE(reddit.size(), 30000u);
  // Process A takes URLs 0..19999, process B 10000..29999: a third of them overlap.
  std::vector<std::string> a(reddit.begin(), reddit.begin() + 20000);
  std::vector<std::string> b(reddit.begin() + 10000, reddit.end());

  std::string path = TempDbPath(std::string("urls_processes_") +
                                (GetParam().immediate ? "immediate" : "autocommit") +
                                (GetParam().merges ? "_merges" : ""));
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(GetParam().merges
                ? "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, cache_mb=0)"
                : "CREATE VIRTUAL TABLE urls USING crawldb_urls");
  }
  std::vector<pid_t> children;
  for (const std::vector<std::string>* urls : {&a, &b}) {
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) _exit(InsertAll(path, *urls, 50, GetParam().immediate));
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }

  SQLite::Database db = LoadedDb(path);
  std::set<std::string> expected;
  {
    SQLite::Statement normalize(db, "SELECT url_normalize(?)");
    for (const std::string& url : reddit) {
      normalize.bind(1, url);
      normalize.executeStep();
      if (!normalize.getColumn(0).isNull()) expected.insert(normalize.getColumn(0).getString());
      normalize.reset();
    }
  }
  EXPECT_EQ(One(db, "SELECT count(*)"), "1");
  EXPECT_EQ(std::stoul(One(db, "SELECT count(*) FROM urls")), expected.size());
  EXPECT_EQ(std::stoul(One(db, "SELECT count(DISTINCT url) FROM urls")), expected.size());
  // Ids are dense: both processes drew from one sequence.
  EXPECT_EQ(std::stoul(One(db, "SELECT max(id) FROM urls")), expected.size());
  std::vector<std::string> stored = Rows(db, "SELECT url FROM urls");
  EXPECT_EQ(std::set<std::string>(stored.begin(), stored.end()), expected);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  if (GetParam().merges) {
    EXPECT_GT(
        std::stoul(One(db, "SELECT json_extract(crawldb_stats(), '$.tables[0].merged_urls')")),
        expected.size() / 2);
  }
}

INSTANTIATE_TEST_SUITE_P(Transactions, UrlsProcesses,
                         ::testing::Values(Mode{true, false}, Mode{false, false}, Mode{true, true},
                                           Mode{false, true}),
                         [](const auto& param_info) {
                           return std::string(param_info.param.immediate ? "BeginImmediate"
                                                                         : "Autocommit") +
                                  (param_info.param.merges ? "Merging" : "");
                         });

}  // namespace
}  // namespace crawldb::testing
