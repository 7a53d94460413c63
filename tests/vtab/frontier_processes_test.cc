// Crawler processes on one WAL-mode file: (a) a crawler SIGKILLed at random points of its
// lease → confirm loop, many times over; (b) four crawlers at once over 50,000 URLs. Nothing is
// lost, nothing is confirmed twice, expired leases come back, politeness is never violated.
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

double Clock() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// Appends `line` to `path` with one write(2): it survives a SIGKILL right after.
void AppendLine(const std::string& path, const std::string& line) {
  int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  std::string text = line + "\n";
  ssize_t written = write(fd, text.data(), text.size());
  (void)written;
  close(fd);
}

std::vector<std::string> FileLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

struct Lease {
  std::string url;
  double now;
};

// One crawler step: leases up to `n` URLs in BEGIN IMMEDIATE … COMMIT at time `now` (the clock
// when now < 0, read once the write lock is held), "fetches" them (sleeps `fetch` per URL),
// confirms them in a second transaction, and logs each lease and each successful confirm.
// Returns the number leased.
size_t CrawlStep(SQLite::Database& db, int n, double lease_s, double now,
                 const std::string& leases_log, const std::string& confirms_log,
                 std::chrono::microseconds fetch = {}) {
  std::vector<Lease> leased;
  while (true) {
    try {
      leased.clear();
      SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
      double at = now >= 0 ? now : Clock();
      SQLite::Statement lease(db, "SELECT url FROM crawl_lease(?, ?, ?)");
      lease.bind(1, n);
      lease.bind(2, lease_s);
      lease.bind(3, at);
      while (lease.executeStep()) leased.push_back({lease.getColumn(0).getString(), at});
      transaction.commit();
      break;
    } catch (const SQLite::Exception& e) {
      if (e.getErrorCode() != SQLITE_BUSY) throw;
    }
  }
  for (const Lease& lease : leased) {
    std::ostringstream line;
    line.precision(17);
    line << lease.url << '\t' << lease.now;
    AppendLine(leases_log, line.str());
  }
  if (leased.empty()) return 0;
  std::this_thread::sleep_for(fetch * leased.size());  // "fetching" the pages
  while (true) {
    try {
      SQLite::Transaction transaction(db, SQLite::TransactionBehavior::IMMEDIATE);
      std::vector<std::string> confirmed;
      SQLite::Statement confirm(db, "SELECT crawl_confirm(?, 200, NULL, ?)");
      for (const Lease& lease : leased) {
        confirm.bind(1, lease.url);
        confirm.bind(2, now >= 0 ? now : Clock());
        confirm.executeStep();
        if (confirm.getColumn(0).getInt() == 1) confirmed.push_back(lease.url);
        confirm.reset();
      }
      transaction.commit();
      for (const std::string& url : confirmed) AppendLine(confirms_log, url);
      break;
    } catch (const SQLite::Exception& e) {
      if (e.getErrorCode() != SQLITE_BUSY) throw;
    }
  }
  return leased.size();
}

std::string CreateCrawl(const std::string& name, const std::string& options,
                        const std::vector<std::string>& urls) {
  std::string path = TempDbPath(name);
  SQLite::Database db = LoadedDb(path);
  db.exec("PRAGMA journal_mode = WAL");
  // cache_mb=0: every lease reads the parts of the URLs it hands out, and of their hosts, from
  // the file again; log_tail_kb=8: the processes' commits stay in the log tail a few at a time,
  // then one of them folds it.
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(cache_mb=0)");
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, cache_mb=0, log_tail_kb=8" +
          options + ")");
  db.exec("BEGIN");
  SQLite::Statement add(db, "SELECT crawl_add(?, NULL, NULL, 0)");
  for (const std::string& url : urls) {
    add.bind(1, url);
    add.executeStep();
    add.reset();
  }
  db.exec("COMMIT");
  return path;
}

std::vector<std::string> FrontierUrls(const std::string& path) {
  SQLite::Database db = LoadedDb(path);
  return Rows(db, "SELECT url FROM frontier");
}

TEST(FrontierProcesses, KilledCrawlersLoseNothingAndConfirmNothingTwice) {
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 1500);
  std::string path = CreateCrawl("frontier_kill", ", host_delay=0", reddit);
  std::vector<std::string> all = FrontierUrls(path);
  ASSERT_GT(all.size(), 1400u);
  std::string leases_log = path + ".leases", confirms_log = path + ".confirms";
  std::remove(leases_log.c_str());
  std::remove(confirms_log.c_str());
  std::mt19937 random(42);
  // Run k works at virtual times [k * 1000, k * 1000 + 1) with 500 s leases: whatever a killed
  // run held has expired when the next run starts.
  size_t orphaned = 0;  // leases held by a crawler when it was killed
  for (int run = 0; run < 25; ++run) {
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        close(ready[0]);
        SQLite::Database db = LoadedDb(path);
        db.exec("PRAGMA busy_timeout = 10000");
        for (int step = 0;; ++step) {
          // The kill is timed from the end of the first step, once the tables are loaded (a
          // slow load, under ASan say, would otherwise take the whole kill window).
          if (step == 1) {
            ssize_t sent = write(ready[1], "r", 1);
            (void)sent;
          }
          if (CrawlStep(db, 7, 500, run * 1000.0 + step * 1e-3, leases_log, confirms_log,
                        std::chrono::microseconds(1000)) == 0) {
            break;
          }
          if (step % 20 == 19) db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
        }
        _exit(0);
      } catch (const std::exception& e) {
        fprintf(stderr, "crawler failed: %s\n", e.what());
        _exit(1);
      }
    }
    close(ready[1]);
    char byte;
    ssize_t got = read(ready[0], &byte, 1);
    close(ready[0]);
    std::this_thread::sleep_for(std::chrono::microseconds(5000 + random() % 40000));
    kill(pid, SIGKILL);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    // Killed, or finished cleanly; never a failure.
    EXPECT_TRUE(got == 1 || WIFEXITED(status)) << "crawler died before it was ready";
    EXPECT_TRUE(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) == 0));
    SQLite::Database db = LoadedDb(path);
    orphaned += std::stoul(One(db, "SELECT count(*) FROM frontier WHERE state = 'leased'"));
  }
  EXPECT_GT(orphaned, 0u);  // the kills did hit crawlers holding leases
  // A last crawler, never killed, much later: it gets every URL not confirmed yet, including
  // those whose leases died with their crawler.
  {
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    while (CrawlStep(db, 50, 500, 1e6, leases_log, confirms_log) > 0) {
    }
  }
  std::vector<std::string> confirms = FileLines(confirms_log);
  std::map<std::string, int> confirmed;
  for (const std::string& url : confirms) ++confirmed[url];
  for (const auto& [url, times] : confirmed) EXPECT_EQ(times, 1) << url << " confirmed twice";
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), std::to_string(all.size()));
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'done'"),
            std::to_string(all.size()));
  // Confirms lost with a killed crawler (committed, not yet logged) are at most a few batches.
  EXPECT_GE(confirmed.size() + 25 * 7, all.size());
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(FrontierProcesses, FourCrawlersFetchEveryUrlOnceAndStayPolite) {
  constexpr int kHosts = 1000, kPerHost = 50, kCrawlers = 4;
  constexpr double kDelay = 0.05;
  std::vector<std::string> urls;
  for (int page = 0; page < kPerHost; ++page) {
    for (int host = 0; host < kHosts; ++host) {
      urls.push_back("http://site" + std::to_string(host) + ".example" + std::to_string(host % 7) +
                     ".com/articles/" + std::to_string(page * 7919 % 1000) + "/p" +
                     std::to_string(page));
    }
  }
  std::string path = CreateCrawl("frontier_four", ", host_delay=0.05, lease=600", urls);
  ASSERT_EQ(FrontierUrls(path).size(), urls.size());
  std::vector<pid_t> children;
  for (int crawler = 0; crawler < kCrawlers; ++crawler) {
    std::string leases_log = path + ".leases" + std::to_string(crawler);
    std::string confirms_log = path + ".confirms" + std::to_string(crawler);
    std::remove(leases_log.c_str());
    std::remove(confirms_log.c_str());
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        SQLite::Database db = LoadedDb(path);
        db.exec("PRAGMA busy_timeout = 20000");
        while (true) {
          if (CrawlStep(db, 100, 600, -1, leases_log, confirms_log) > 0) continue;
          if (One(db, "SELECT count(*) FROM frontier WHERE state = 'queued'") == "0") break;
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        _exit(0);
      } catch (const std::exception& e) {
        fprintf(stderr, "crawler failed: %s\n", e.what());
        _exit(1);
      }
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::map<std::string, int> leased, confirmed;
  std::map<std::string, std::vector<double>> host_times;
  std::set<int> active;
  for (int crawler = 0; crawler < kCrawlers; ++crawler) {
    std::vector<std::string> leases = FileLines(path + ".leases" + std::to_string(crawler));
    if (!leases.empty()) active.insert(crawler);
    for (const std::string& line : leases) {
      size_t tab = line.find('\t');
      std::string url = line.substr(0, tab);
      ++leased[url];
      host_times[url.substr(7, url.find('/', 7) - 7)].push_back(std::stod(line.substr(tab + 1)));
    }
    for (const std::string& url : FileLines(path + ".confirms" + std::to_string(crawler)))
      ++confirmed[url];
  }
  EXPECT_EQ(active.size(), static_cast<size_t>(kCrawlers));  // all four took part
  EXPECT_EQ(leased.size(), urls.size());
  EXPECT_EQ(confirmed.size(), urls.size());
  for (const auto& [url, times] : leased) EXPECT_EQ(times, 1) << url;
  for (const auto& [url, times] : confirmed) EXPECT_EQ(times, 1) << url;
  size_t violations = 0;
  for (auto& [host, times] : host_times) {
    ASSERT_EQ(times.size(), static_cast<size_t>(kPerHost)) << host;
    std::sort(times.begin(), times.end());
    for (size_t i = 1; i < times.size(); ++i) {
      if (times[i] - times[i - 1] < kDelay) ++violations;
    }
  }
  EXPECT_EQ(violations, 0u);
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'done'"),
            std::to_string(urls.size()));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
