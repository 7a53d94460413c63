// The frontier table and the crawl_* functions through the loaded crawldb.so: the depth rule on
// real links, refusals of real junk, argument misuse, leases, re-crawl, back-off, politeness,
// budgets, UPDATE / DELETE, plans, rollback and savepoints, reopening, other connections, and
// corrupt shadow tables.
#include <sqlite3.h>

#include <map>
#include <set>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kWiki[] = "https://en.wikipedia.org/wiki/";

SQLite::Database Crawl(const std::string& options = "", const std::string& path = ":memory:") {
  SQLite::Database db = LoadedDb(path);
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls" + options + ")");
  return db;
}

// crawl_add's result as text ("1", "0", "NULL").
std::string Add(SQLite::Database& db, const std::string& url, const std::string& parent = "",
                const std::string& priority = "NULL", double now = 1000) {
  SQLite::Statement add(db, "SELECT crawl_add(?, ?, " + priority + ", ?)");
  add.bind(1, url);
  if (parent.empty()) {
    add.bind(2);
  } else {
    add.bind(2, parent);
  }
  add.bind(3, now);
  add.executeStep();
  return add.getColumn(0).isNull() ? "NULL" : add.getColumn(0).getString();
}

std::string Scalar(SQLite::Database& db, const std::string& sql, const std::string& text) {
  SQLite::Statement statement(db, sql);
  statement.bind(1, text);
  statement.executeStep();
  return statement.getColumn(0).isNull() ? "NULL" : statement.getColumn(0).getString();
}

void ExpectChecked(SQLite::Database& db) { EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok"); }

TEST(FrontierVtab, DepthFollowsTheRegistrableDomainOnRealLinks) {
  SQLite::Database db = Crawl(", max_depth=3");
  // Real Wikispeedia links: a seed, its links (same domain: depth 2) and theirs (depth 3).
  std::vector<std::string> lines = ReadXzLines(SharedDataPath("wikispeedia/links.tsv.xz"));
  std::multimap<std::string, std::string> links;
  for (const std::string& line : lines) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab != std::string::npos) links.emplace(line.substr(0, tab), line.substr(tab + 1));
  }
  ASSERT_GT(links.size(), 100000u);
  const std::string seed = "Bede";
  ASSERT_EQ(Add(db, kWiki + seed), "1");
  std::set<std::string> level2, level3;
  auto [begin, end] = links.equal_range(seed);
  for (auto it = begin; it != end; ++it) {
    if (Add(db, kWiki + it->second, kWiki + seed) == "1") level2.insert(it->second);
  }
  ASSERT_GT(level2.size(), 5u);
  for (const std::string& page : level2) {
    auto [from, to] = links.equal_range(page);
    for (auto it = from; it != to; ++it) {
      std::string result = Add(db, kWiki + it->second, kWiki + page);
      if (result == "1") level3.insert(it->second);
      // Level 4 would be past max_depth=3: links of level-3 pages are refused.
    }
  }
  ASSERT_GT(level3.size(), 50u);
  EXPECT_EQ(One(db, "SELECT depth FROM frontier WHERE url = '" + std::string(kWiki) + seed + "'"),
            "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE depth = 2"),
            std::to_string(level2.size()));
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE depth = 3"),
            std::to_string(level3.size()));
  const std::string deep = kWiki + *level3.begin();
  auto [from, to] = links.equal_range(*level3.begin());
  std::string refused;
  for (auto it = from; it != to && refused.empty(); ++it) {
    if (Add(db, kWiki + it->second + "?x", deep) == "NULL") refused = kWiki + it->second + "?x";
  }
  ASSERT_FALSE(refused.empty());
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"),
            "depth limit: depth 4 is past max_depth 3: " + refused);
  // Another host of the same registrable domain continues the depth; another domain restarts.
  EXPECT_EQ(Add(db, "https://fr.wikipedia.org/wiki/B%C3%A8de", kWiki + seed), "1");
  EXPECT_EQ(Scalar(db, "SELECT depth FROM frontier WHERE url = ?",
                   "https://fr.wikipedia.org/wiki/B%C3%A8de"),
            "2");
  EXPECT_EQ(Add(db, "http://www.bbc.co.uk/history/", deep), "1");
  EXPECT_EQ(One(db, "SELECT depth FROM frontier WHERE url = 'http://www.bbc.co.uk/history/'"), "1");
  // A parent the frontier does not hold counts as no parent.
  EXPECT_EQ(Add(db, std::string(kWiki) + "Nowhere_page", "https://en.wikipedia.org/wiki/Not_added"),
            "1");
  EXPECT_EQ(
      One(db, "SELECT depth FROM frontier WHERE url = '" + std::string(kWiki) + "Nowhere_page'"),
      "1");
  // Every frontier URL is in urls with the id the frontier shows; every link was recorded.
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier f JOIN urls u ON u.id = f.id AND u.url = f.url"),
            One(db, "SELECT count(*) FROM frontier"));
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier_links WHERE src = url_fp('" +
                        std::string(kWiki) + seed + "')"),
            std::to_string(std::distance(begin, end) + 1));
  ExpectChecked(db);
}

TEST(FrontierVtab, JunkLinksAreRefusalsWithReasons) {
  SQLite::Database db = Crawl();
  EXPECT_EQ(Add(db, "mailto:someone@example.com"), "NULL");
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"),
            "invalid URL: unsupported scheme 'mailto': mailto:someone@example.com");
  EXPECT_EQ(Add(db, "javascript:void(0)"), "NULL");
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"),
            "invalid URL: unsupported scheme 'javascript': javascript:void(0)");
  EXPECT_EQ(Add(db, "http://exa%zzmple.com/"), "NULL");
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"),
            "invalid URL: invalid host: http://exa%zzmple.com/");
  EXPECT_EQ(Add(db, std::string("http://a.com/\0x", 15)), "NULL");
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"),
            "invalid URL: embedded NUL byte: http://a.com/\\x00x");
  EXPECT_EQ(Add(db, "http://a.com/" + std::string(10000, 'a')), "NULL");
  EXPECT_EQ(One(db, "SELECT substr(crawldb_last_refusal(), 1, 25)"), "invalid URL: longer than ");
  EXPECT_EQ(Add(db, "http://a.com/ok", "javascript:x"), "NULL");
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"),
            "invalid parent URL: unsupported scheme 'javascript': javascript:x");
  EXPECT_EQ(One(db, "SELECT crawl_add(NULL)"), "NULL");
  EXPECT_EQ(One(db, "SELECT crawldb_last_refusal()"), "url is NULL");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "0");
  // Real hostile input: every refusal is exactly what url_problem reports.
  std::vector<std::string> phish =
      ReadXzLines(SharedDataPath("phish/phishstorm-urls.txt.xz"), 3000);
  SQLite::Statement add(
      db, "SELECT crawl_add(?1, NULL, NULL, 1000), crawldb_last_refusal(), url_problem(?1)");
  size_t refused = 0;
  db.exec("BEGIN");
  for (const std::string& url : phish) {
    add.bind(1, url);
    ASSERT_TRUE(add.executeStep());
    bool is_null = add.getColumn(0).isNull();
    EXPECT_EQ(is_null, !add.getColumn(2).isNull()) << url;
    if (is_null) {
      ++refused;
      EXPECT_EQ(add.getColumn(1).getString(), "invalid URL: " + add.getColumn(2).getString());
    }
    add.reset();
  }
  db.exec("COMMIT");
  EXPECT_GT(refused, 0u);
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), One(db, "SELECT count(*) FROM urls"));
  ExpectChecked(db);
}

// A `urls` table with stricter options than the frontier's normalisation refuses some URLs: the
// frontier then refuses them too, with the table's reason, and queues nothing.
TEST(FrontierVtab, UrlsTheUrlsTableRefusesAreRefusals) {
  SQLite::Database db = LoadedDb();
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(max_url_length=64)");
  db.exec("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls)");
  const std::string long_url = "http://a.com/" + std::string(100, 'x');
  EXPECT_EQ(Add(db, long_url), "NULL");
  EXPECT_EQ(One(db, "SELECT substr(crawldb_last_refusal(), 1, 52)"),
            "invalid URL for table 'urls': longer than 64 bytes: ");
  EXPECT_EQ(Add(db, "http://a.com/short"), "1");
  ExpectError(db, "INSERT INTO frontier(url) VALUES ('" + long_url + "')", SQLITE_CONSTRAINT,
              "crawldb_frontier: invalid URL for table 'urls': longer than 64 bytes: " +
                  long_url.substr(0, 100) + "…");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "1");
  ExpectChecked(db);
}

TEST(FrontierVtab, MisuseIsAnErrorNamingTheArgument) {
  SQLite::Database db = Crawl();
  ExpectError(
      db, "SELECT crawl_add()", SQLITE_ERROR,
      "crawl_add: expected 1 to 4 arguments (url [, parent_url [, priority]] [, now]), got 0");
  ExpectError(db, "SELECT crawl_add(1)", SQLITE_ERROR,
              "crawl_add: argument 1 (url) must be text, got an integer");
  ExpectError(db, "SELECT crawl_add('http://a.com/', x'00')", SQLITE_ERROR,
              "crawl_add: argument 2 (parent_url) must be text, got a blob");
  ExpectError(db, "SELECT crawl_add('http://a.com/', NULL, 1.5)", SQLITE_ERROR,
              "crawl_add: argument 3 (priority) must be an integer, got a real");
  ExpectError(db, "SELECT crawl_add('http://a.com/', NULL, NULL, 'now')", SQLITE_ERROR,
              "crawl_add: argument 4 (now) must be a number, got text");
  ExpectError(db, "SELECT crawl_confirm('http://a.com/', '200')", SQLITE_ERROR,
              "crawl_confirm: argument 2 (status) must be an integer, got text");
  ExpectError(db, "SELECT crawl_confirm('a', 1, 2, 3, 4)", SQLITE_ERROR,
              "crawl_confirm: expected 1 to 4 arguments (url [, status [, recrawl_after_s]] [, "
              "now]), got 5");
  ExpectError(db, "SELECT crawl_host_set('a.com')", SQLITE_ERROR,
              "crawl_host_set: expected 2 to 4 arguments (host, delay_s [, budget [, "
              "blocked_until]]), got 1");
  ExpectError(db, "SELECT crawl_host_set('a.com', -1)", SQLITE_ERROR,
              "crawl_host_set: argument 2 (delay_s) must not be negative");
  ExpectError(db, "SELECT crawl_host_set('a b', 1)", SQLITE_ERROR,
              "crawldb_frontier: host: 'a b' is not a host name");
  ExpectError(db, "SELECT * FROM crawl_lease", SQLITE_ERROR,
              "crawl_lease: argument 1 (n) is required: crawl_lease(n [, lease_s] [, now])");
  ExpectError(db, "SELECT * FROM crawl_lease(0)", SQLITE_ERROR,
              "crawl_lease: argument 1 (n) must be an integer from 1 to 100000, got an integer");
  ExpectError(db, "SELECT * FROM crawl_lease(1, -5)", SQLITE_ERROR,
              "crawl_lease: argument 2 (lease_s) must be a positive number, got an integer");
  ExpectError(db, "INSERT INTO frontier(frontier) VALUES ('vacuum')", SQLITE_ERROR,
              "crawldb_frontier: unknown command 'vacuum'; the commands are add, lease, confirm, "
              "host and optimize");
  ExpectError(db, "CREATE VIRTUAL TABLE f2 USING crawldb_frontier(urls, leese=3)", SQLITE_ERROR,
              "crawldb_frontier: unknown option 'leese'; expected one of: lease, max_depth, "
              "host_delay, host_budget, max_attempts, retry_base, cache_mb, log_tail_kb, clock");
  ExpectError(db, "CREATE VIRTUAL TABLE f2 USING crawldb_frontier(urls, max_attempts=0)",
              SQLITE_ERROR,
              "crawldb_frontier: option 'max_attempts' must be an integer from 1 to 255, got '0'");
  SQLite::Database bare = LoadedDb();
  ExpectError(bare, "SELECT crawl_add('http://a.com/')", SQLITE_ERROR,
              "crawl_add: there is no crawldb_frontier table named 'frontier'; create it with "
              "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls)");
}

TEST(FrontierVtab, PlainInsertAddsSeedsAndFollowsTheConflictClause) {
  SQLite::Database db = Crawl(", host_budget=3");
  // Real scraped URLs, junk included, in one statement: valid new ones become seeds.
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 300);
  db.exec("CREATE TEMP TABLE scraped(url TEXT)");
  SQLite::Statement stage(db, "INSERT INTO scraped VALUES (?)");
  for (const std::string& url : reddit) {
    stage.bind(1, url);
    stage.exec();
    stage.reset();
  }
  db.exec(
      "INSERT INTO scraped VALUES ('mailto:someone@example.com'), ('javascript:void(0)'), (NULL)");
  db.exec("INSERT OR IGNORE INTO frontier(url, priority) SELECT url, 2 FROM scraped");
  // What crawl_add would have taken: the same URLs, the same host budget.
  SQLite::Database oracle = Crawl(", host_budget=3");
  for (const std::string& url : reddit) Add(oracle, url, "", "2");
  EXPECT_EQ(Rows(db, "SELECT url, host, depth, priority, state FROM frontier ORDER BY url"),
            Rows(oracle, "SELECT url, host, depth, priority, state FROM frontier ORDER BY url"));
  EXPECT_EQ(
      One(db, "SELECT count(*) FROM frontier WHERE id IS NULL OR priority != 2 OR depth != 1"),
      "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), One(db, "SELECT count(*) FROM frontier"));

  db.exec("INSERT INTO frontier(url, priority) VALUES ('HTTP://Seed.Example.ORG:80/a/../b', -4)");
  EXPECT_EQ(One(db, "SELECT last_insert_rowid() = url_fp('http://seed.example.org/b')"), "1");
  EXPECT_EQ(One(db,
                "SELECT depth || ' ' || priority || ' ' || state || ' ' || (id = url_id(url)) "
                "FROM frontier WHERE url = 'http://seed.example.org/b'"),
            "1 -4 queued 1");
  ExpectError(db, "INSERT INTO frontier(url) VALUES ('http://seed.example.org/b')",
              SQLITE_CONSTRAINT,
              "crawldb_frontier: 'http://seed.example.org/b' is already in the frontier; use "
              "INSERT OR IGNORE to skip known URLs");
  ExpectError(db, "INSERT INTO frontier(url) VALUES ('http://seed.example.org/' || char(0))",
              SQLITE_CONSTRAINT,
              "crawldb_frontier: invalid URL: " +
                  One(db, "SELECT url_problem('http://seed.example.org/' || char(0))"));
  ExpectError(db, "INSERT INTO frontier(url) VALUES (42)", SQLITE_CONSTRAINT,
              "crawldb_frontier: url must be text");
  ExpectError(
      db, "INSERT INTO frontier(url, priority) VALUES ('http://seed.example.org/c', 'high')",
      SQLITE_ERROR, "crawldb_frontier: priority must be an integer from -2147483648 to 2147483647");
  ExpectError(db, "INSERT INTO frontier(url, state) VALUES ('http://seed.example.org/c', 'done')",
              SQLITE_ERROR,
              "crawldb_frontier: INSERT takes url and priority only; the other "
              "columns are the crawl's state");
  db.exec(
      "INSERT INTO frontier(url) VALUES ('http://budget.example.net/1'), "
      "('http://budget.example.net/2'), ('http://budget.example.net/3')");
  ExpectError(db, "INSERT INTO frontier(url) VALUES ('http://budget.example.net/4')",
              SQLITE_CONSTRAINT,
              "crawldb_frontier: host budget: host budget.example.net already holds 3 URLs: "
              "http://budget.example.net/4");
  // OR REPLACE keeps the crawl state and takes the new priority.
  db.exec("SELECT count(*) FROM crawl_lease(1000, 60, 1000)");
  db.exec("INSERT OR REPLACE INTO frontier(url, priority) VALUES ('http://seed.example.org/b', 9)");
  EXPECT_EQ(
      One(db,
          "SELECT priority || ' ' || state FROM frontier WHERE url = 'http://seed.example.org/b'"),
      "9 leased");
  // A rolled-back INSERT leaves neither table changed.
  std::string urls_before = One(db, "SELECT count(*) FROM urls");
  db.exec("BEGIN");
  db.exec("INSERT INTO frontier(url) VALUES ('http://rolled.example.com/')");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE host = 'rolled.example.com'"), "1");
  db.exec("ROLLBACK");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE host = 'rolled.example.com'"), "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), urls_before);
  ExpectChecked(db);
}

TEST(FrontierVtab, LeaseConfirmRecrawlAndBackOff) {
  SQLite::Database db = Crawl(", host_delay=0, max_attempts=2, retry_base=10");
  ASSERT_EQ(Add(db, "http://a.example.com/", "", "5"), "1");
  ASSERT_EQ(Add(db, "http://b.example.com/", "", "1"), "1");
  ASSERT_EQ(Add(db, "http://c.example.com/", "", "3"), "1");
  EXPECT_EQ(Rows(db, "SELECT id, url, depth, lease_until FROM crawl_lease(2, 60, 1000)"),
            (std::vector<std::string>{"2|http://b.example.com/|1|1060",
                                      "3|http://c.example.com/|1|1060"}));
  EXPECT_EQ(One(db, "SELECT state || ' ' || due FROM frontier WHERE id = 2"), "leased 1060");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://b.example.com/', 200, 3600, 1010)"), "1");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://b.example.com/', 200, 3600, 1011)"), "0");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://nowhere.example.com/', 200, NULL, 1011)"), "0");
  EXPECT_EQ(One(db, "SELECT state || ' ' || due || ' ' || status FROM frontier WHERE id = 2"),
            "done 4610 200");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://c.example.com/', 503, NULL, 1020)"), "1");
  EXPECT_EQ(One(db, "SELECT state || ' ' || due || ' ' || attempts FROM frontier WHERE id = 3"),
            "queued 1030 1");
  EXPECT_EQ(Rows(db, "SELECT url FROM crawl_lease(5, 60, 1025)"),
            (std::vector<std::string>{"http://a.example.com/"}));
  EXPECT_EQ(Rows(db, "SELECT url FROM crawl_lease(5, 60, 1030)"),
            (std::vector<std::string>{"http://c.example.com/"}));
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://c.example.com/', -1, NULL, 1031)"), "1");
  EXPECT_EQ(One(db, "SELECT state || ' ' || attempts || ' ' || status FROM frontier WHERE id = 3"),
            "failed 2 -1");
  // The lease on a expired: back in the queue at the next lease; the re-crawl of b is due.
  EXPECT_EQ(Rows(db, "SELECT url FROM crawl_lease(5, 60, 5000)"),
            (std::vector<std::string>{"http://b.example.com/", "http://a.example.com/"}));
  EXPECT_EQ(Rows(db, "SELECT state, count(*) FROM frontier GROUP BY state ORDER BY state"),
            (std::vector<std::string>{"failed|1", "leased|2"}));
  ExpectChecked(db);
}

TEST(FrontierVtab, PolitenessBudgetAndHostSettings) {
  SQLite::Database db = Crawl(", host_delay=10, host_budget=3");
  for (int i = 0; i < 5; ++i) Add(db, "http://trap.example.com/cal/" + std::to_string(i));
  EXPECT_EQ(Add(db, "http://trap.example.com/cal/9"), "NULL");
  EXPECT_EQ(
      One(db, "SELECT crawldb_last_refusal()"),
      "host budget: host trap.example.com already holds 3 URLs: http://trap.example.com/cal/9");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE host = 'trap.example.com'"), "3");
  EXPECT_EQ(One(db, "SELECT crawl_host_set('TRAP.example.com', 2, 5)"), "1");
  EXPECT_EQ(Add(db, "http://trap.example.com/cal/9"), "1");
  EXPECT_EQ(Add(db, "http://other.example.org/"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(10, 5000, 1000)"), "2");  // one per host
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(10, 5000, 1001.9)"), "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(10, 5000, 1002)"),
            "1");  // trap's 2 s override
  EXPECT_EQ(One(db, "SELECT crawl_host_set('trap.example.com', NULL, NULL, 2000)"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(10, 5000, 1999)"), "0");
  EXPECT_EQ(One(db, "SELECT url_host(url) || ' ' || count(*) FROM crawl_lease(10, 5000, 2000)"),
            "trap.example.com 1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(10, 5000, 2009)"), "0");  // table delay: 10 s
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(10, 5000, 2010)"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'leased'"), "5");
  ExpectChecked(db);
}

TEST(FrontierVtab, UpdatePriorityDeleteAndPlans) {
  SQLite::Database db = Crawl(", host_delay=0");
  for (const char* url :
       {"http://a.example.com/1", "http://a.example.com/2", "http://b.example.com/"}) {
    Add(db, url);
  }
  db.exec("UPDATE frontier SET priority = -1 WHERE url = 'http://b.example.com/'");
  EXPECT_EQ(One(db, "SELECT url FROM crawl_lease(1, 60, 1000)"), "http://b.example.com/");
  ExpectError(db, "UPDATE frontier SET depth = 5", SQLITE_ERROR,
              "crawldb_frontier: only priority can be updated; DELETE a URL to drop it; "
              "crawl_confirm and crawl_lease change its state");
  EXPECT_EQ(db.exec("DELETE FROM frontier WHERE host = 'a.example.com'"), 2);
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "3");  // DELETE leaves urls alone
  EXPECT_EQ(Add(db, "http://a.example.com/1"), "1");     // and the URL can come back
  for (const char* where : {"state = 'queued'", "host = 'x'", "id = 3", "url = 'x'"}) {
    std::vector<std::string> plan =
        Rows(db, "EXPLAIN QUERY PLAN SELECT * FROM frontier WHERE " + std::string(where));
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_NE(plan[0].find("VIRTUAL TABLE INDEX "), std::string::npos) << plan[0];
    EXPECT_EQ(plan[0].find("INDEX 0:"), std::string::npos) << where << ": " << plan[0];
  }
  EXPECT_EQ(One(db, "SELECT url FROM frontier WHERE id = 1"), "http://a.example.com/1");
  EXPECT_EQ(One(db, "SELECT url FROM frontier WHERE state = 'leased'"), "http://b.example.com/");
  EXPECT_EQ(One(db, "SELECT url FROM frontier WHERE state = 'queued'"), "http://a.example.com/1");
  EXPECT_EQ(One(db, "SELECT rowid = url_fp(url) FROM frontier WHERE url = 'HTTP://B.example.com'"),
            "1");
  ExpectChecked(db);
}

TEST(FrontierVtab, RollbackAndSavepointsUndoAddLeaseAndConfirm) {
  SQLite::Database db = Crawl(", host_delay=5");
  Add(db, "http://a.example.com/");
  Add(db, "http://b.example.com/");
  const std::string before = One(db, "SELECT group_concat(url || state, ',') FROM frontier");
  db.exec("BEGIN");
  EXPECT_EQ(Add(db, "http://c.example.com/"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(5, 60, 1000)"), "3");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://a.example.com/', 200, NULL, 1001)"), "1");
  db.exec("ROLLBACK");
  EXPECT_EQ(One(db, "SELECT group_concat(url || state, ',') FROM frontier"), before);
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "2");
  // The politeness times were rolled back too: both hosts lease at once.
  EXPECT_EQ(One(db, "SELECT count(*) FROM crawl_lease(5, 60, 1000)"), "2");
  db.exec("BEGIN");
  db.exec("SAVEPOINT s");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://a.example.com/', 200, NULL, 1001)"), "1");
  db.exec("ROLLBACK TO s");
  EXPECT_EQ(One(db, "SELECT state FROM frontier WHERE url = 'http://a.example.com/'"), "leased");
  db.exec("SAVEPOINT t");
  EXPECT_EQ(Add(db, "http://d.example.com/"), "1");
  db.exec("RELEASE t");
  EXPECT_EQ(One(db, "SELECT crawl_confirm('http://b.example.com/', 200, NULL, 1001)"), "1");
  db.exec("COMMIT");
  EXPECT_EQ(One(db,
                "SELECT group_concat(x, ',') FROM "
                "(SELECT url || ' ' || state AS x FROM frontier ORDER BY url)"),
            "http://a.example.com/ leased,http://b.example.com/ done,http://d.example.com/ queued");
  ExpectChecked(db);
}

// The first crawl_add of a transaction enlists the frontier through a nested statement, the
// later ones call it directly: both kinds are undone by a rollback to a savepoint and by the
// abort of the statement that made them, and leave last_insert_rowid() alone.
TEST(FrontierVtab, AddsAfterTheFirstOfATransactionAreUndoneLikeIt) {
  SQLite::Database db = Crawl();
  db.exec("CREATE TABLE picked(v INTEGER UNIQUE)");
  db.exec("CREATE TABLE t(x INTEGER PRIMARY KEY)");
  auto add_all = [](const std::string& first, const std::string& second) {
    return "SELECT crawl_add(u, NULL, 0, 1000) FROM (SELECT column1 AS u FROM (VALUES ('" + first +
           "'), ('" + second + "')))";
  };
  const std::string counts = "SELECT (SELECT count(*) FROM frontier) || ' ' || count(*) FROM urls";
  db.exec("BEGIN");
  EXPECT_EQ(Add(db, "http://a.example/"), "1");
  // Both adds return 1; the second 1 breaks UNIQUE and the statement is undone, adds included.
  ExpectError(db, "INSERT INTO picked " + add_all("http://x1.example/", "http://x2.example/"),
              SQLITE_CONSTRAINT, "UNIQUE constraint failed: picked.v");
  EXPECT_EQ(One(db, counts), "1 1");
  db.exec("SAVEPOINT s");
  EXPECT_EQ(Rows(db, add_all("http://y1.example/", "http://y2.example/")),
            (std::vector<std::string>{"1", "1"}));
  EXPECT_EQ(One(db, counts), "3 3");
  db.exec("ROLLBACK TO s");
  EXPECT_EQ(One(db, counts), "1 1");
  db.exec("INSERT INTO t VALUES (43)");
  EXPECT_EQ(Rows(db, add_all("http://y1.example/", "http://a.example/")),
            (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(One(db, "SELECT last_insert_rowid()"), "43");
  db.exec("COMMIT");
  EXPECT_EQ(One(db, "SELECT group_concat(url, ' ') FROM (SELECT url FROM frontier ORDER BY url)"),
            "http://a.example/ http://y1.example/");
  db.exec("BEGIN");
  EXPECT_EQ(Add(db, "http://z1.example/"), "1");
  EXPECT_EQ(Add(db, "http://z2.example/"), "1");
  db.exec("ROLLBACK");
  EXPECT_EQ(One(db, counts), "2 2");
  ExpectChecked(db);
}

TEST(FrontierVtab, ReopenOptimizeAndOtherConnections) {
  std::string path = TempDbPath("frontier_reopen");
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 3000);
  {
    SQLite::Database db = Crawl(", host_delay=0", path);
    db.exec("PRAGMA journal_mode = WAL");
    SQLite::Database other = LoadedDb(path);
    db.exec("BEGIN");
    for (const std::string& url : reddit) Add(db, url);
    db.exec("COMMIT");
    std::string count = One(db, "SELECT count(*) FROM frontier");
    EXPECT_EQ(One(other, "SELECT count(*) FROM frontier"), count);  // caught up from the log
    EXPECT_EQ(One(other, "SELECT count(*) FROM crawl_lease(100, 60, 1000)"), "100");
    EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'leased'"), "100");
    db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
    EXPECT_EQ(One(db, "SELECT count(*) FROM frontier_log"), "1");  // the newest: the counts
    EXPECT_EQ(One(other, "SELECT count(*) FROM frontier WHERE state = 'leased'"), "100");
    EXPECT_EQ(One(other,
                  "SELECT crawl_confirm(url, 200, NULL, 1001) FROM frontier WHERE state = 'leased' "
                  "LIMIT 1"),
              "1");
    ExpectChecked(db);
    ExpectChecked(other);
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'leased'"), "99");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE state = 'done'"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier f JOIN urls u ON u.id = f.id"),
            One(db, "SELECT count(*) FROM frontier"));
  // Each host's scan (the first builds the hosts' lists) finds the rows a full scan finds (`+`
  // keeps the constraint from the plan), also after adds and deletes.
  const std::string hosts_differ =
      "SELECT count(*) FROM (SELECT DISTINCT host FROM frontier) h WHERE "
      "(SELECT group_concat(rowid) FROM (SELECT rowid FROM frontier WHERE host = h.host "
      "ORDER BY rowid)) IS NOT "
      "(SELECT group_concat(rowid) FROM (SELECT rowid FROM frontier WHERE +host = h.host "
      "ORDER BY rowid))";
  EXPECT_EQ(One(db, hosts_differ), "0");
  for (size_t i = 0; i < 100; ++i)
    Add(db, "http://new" + std::to_string(i % 3) + ".example.com/" + std::to_string(i));
  db.exec("DELETE FROM frontier WHERE rowid % 3 = 0");
  EXPECT_EQ(One(db, hosts_differ), "0");
  ExpectChecked(db);
}

// Large transactions checkpoint by themselves: the log never grows much past the snapshot.
TEST(FrontierVtab, UrlsOptimizeRenumbersTheFrontiersIds) {
  std::string path = TempDbPath("frontier_renumber");
  {
    SQLite::Database db = Crawl("", path);
    // Ids in arrival order, which optimize replaces by key order; some URLs deleted.
    for (const char* page : {"Zebra", "Apple", "Mango", "Kiwi", "Banana", "Cherry"}) {
      ASSERT_EQ(Add(db, std::string(kWiki) + page), "1");
    }
    db.exec("DELETE FROM urls WHERE url LIKE '%Mango'");
    db.exec("INSERT INTO urls(urls) VALUES ('optimize')");
    EXPECT_EQ(One(db,
                  "SELECT count(*) FROM frontier JOIN urls USING (id) "
                  "WHERE frontier.url = urls.url"),
              "5");
    EXPECT_EQ(One(db, "SELECT group_concat(id) FROM (SELECT id FROM frontier ORDER BY url)"),
              "1,2,3,4,5");
    ExpectChecked(db);
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db,
                "SELECT count(*) FROM frontier JOIN urls USING (id) "
                "WHERE frontier.url = urls.url"),
            "5");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE id IS NULL AND url IS NULL"), "1");
  ExpectChecked(db);
}

// crawl_hosts shows each host as of the last commit, also to another connection while the
// commits are still in the log tail: its counts are the frontier's own, and once optimize folds
// the tail, a new connection reads the same from the host group.
TEST(FrontierVtab, CrawlHostsShowsEveryHostAsOfTheLastCommit) {
  std::string path = TempDbPath("frontier_crawl_hosts");
  SQLite::Database db = Crawl(", host_delay=2", path);
  SQLite::Database other = LoadedDb(path);
  ASSERT_EQ(One(other, "SELECT count(*) FROM crawl_hosts"), "0");
  db.exec("BEGIN");
  for (int i = 0; i < 60; ++i) {
    Add(db, "http://h" + std::to_string(i % 6) + ".example.com/" + std::to_string(i));
  }
  db.exec("COMMIT");
  db.exec("SELECT crawl_host_set('h0.example.com', 30, 4, 5000)");
  std::vector<std::string> leased = Rows(db, "SELECT url FROM crawl_lease(10, 60, 1000)");
  ASSERT_EQ(leased.size(), 5u);  // one per host but the blocked h0
  db.exec("SELECT crawl_confirm('" + leased[0] + "', 503, NULL, 1001)");
  for (SQLite::Database* reader : {&db, &other}) {
    EXPECT_EQ(Rows(*reader,
                   "SELECT host, delay, budget, blocked_until, next_allowed, urls, queued, timed, "
                   "next_due FROM crawl_hosts WHERE host IN ('h0.example.com', '" +
                       One(db, "SELECT host FROM frontier WHERE url = '" + leased[1] + "'") +
                       "') ORDER BY host"),
              (std::vector<std::string>{
                  "h0.example.com|30.0|4|5000|0|10|10|0|NULL",
                  One(db, "SELECT host FROM frontier WHERE url = '" + leased[1] + "'") +
                      "|2.0|0|0|1002|10|9|1|1060"}));
    // Every host's counts are the frontier's own.
    EXPECT_EQ(One(*reader,
                  "SELECT count(*) FROM crawl_hosts h WHERE urls != (SELECT count(*) FROM "
                  "frontier f WHERE f.host = h.host) OR timed != (SELECT count(*) FROM frontier f "
                  "WHERE f.host = h.host AND due IS NOT NULL)"),
              "0");
  }
  // The host groups lag until the tail is folded.
  EXPECT_EQ(One(other, "SELECT count(*) FROM frontier_snapshot WHERE part < 0"), "0");
  db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
  EXPECT_EQ(One(other, "SELECT count(*) FROM frontier_snapshot WHERE part < 0"), "1");
  SQLite::Database opened = LoadedDb(path);
  EXPECT_EQ(Rows(opened, "SELECT * FROM crawl_hosts ORDER BY host"),
            Rows(db, "SELECT * FROM crawl_hosts ORDER BY host"));
}

TEST(FrontierVtab, AUrlDeletedFromUrlsLeavesTheCrawlAtItsLease) {
  SQLite::Database db = Crawl(", host_delay=0");
  for (const char* page : {"A", "B", "C"}) ASSERT_EQ(Add(db, std::string(kWiki) + page), "1");
  db.exec("DELETE FROM urls WHERE url = 'https://en.wikipedia.org/wiki/B'");
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier WHERE url IS NULL AND id IS NULL"), "1");
  EXPECT_EQ(Rows(db, "SELECT url FROM crawl_lease(3, 60, 1000) ORDER BY url"),
            (std::vector<std::string>{std::string(kWiki) + "A", std::string(kWiki) + "C"}));
  EXPECT_EQ(One(db, "SELECT count(*) FROM frontier"), "2");
  ExpectChecked(db);
}

TEST(FrontierVtab, LogIsCheckpointedAutomatically) {
  std::string path = TempDbPath("frontier_checkpoint");
  SQLite::Database db = Crawl(", host_delay=0, log_tail_kb=64", path);
  std::vector<std::string> reddit =
      ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 30000);
  for (size_t start = 0; start < reddit.size(); start += 300) {
    db.exec("BEGIN");
    for (size_t i = start; i < start + 300; ++i) Add(db, reddit[i]);
    db.exec("COMMIT");
    db.exec("SELECT count(*) FROM crawl_lease(150, 60, 1000)");
  }
  // 200 commits: the log keeps the newest 64 rows and the tail, which folds past 64 kB.
  EXPECT_EQ(One(db, "SELECT max(seq) FROM frontier_log"), "200");
  EXPECT_LE(std::stoll(One(db,
                           "SELECT coalesce(sum(length(data)), 0) FROM frontier_log "
                           "WHERE seq <= (SELECT max(seq) - 64 FROM frontier_log)")),
            64 << 10);
  EXPECT_GT(std::stoll(One(db, "SELECT count(*) FROM frontier_snapshot")), 0);
  EXPECT_GT(std::stoll(One(db, "SELECT count(*) FROM frontier_pending")), 0);
  SQLite::Database reopened = LoadedDb(path);
  EXPECT_EQ(One(reopened, "SELECT count(*) FROM frontier"),
            One(db, "SELECT count(*) FROM frontier"));
  EXPECT_EQ(One(reopened, "SELECT count(*) FROM frontier WHERE state = 'leased'"), "15000");
  ExpectChecked(reopened);
}

// a, b, optimize, c, d on a file with `options`, then `damage`: the next statement of a new
// connection fails SQLITE_CORRUPT_VTAB with a crawldb_frontier message.
void ExpectCorrupt(const std::string& options, const std::string& damage) {
  std::string path = TempDbPath("frontier_corrupt");
  {
    SQLite::Database db = Crawl(options, path);
    Add(db, "http://a.example.com/some/page");
    Add(db, "http://b.example.com/other/page");
    db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
    Add(db, "http://c.example.com/third/page");
    Add(db, "http://d.example.com/fourth/page");
    db.exec(damage);
  }
  SQLite::Database db = LoadedDb(path);
  try {
    db.exec("SELECT count(*) FROM frontier");
    ADD_FAILURE() << "no error after: " << damage;
  } catch (const SQLite::Exception& e) {
    EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB) << damage << ": " << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("crawldb_frontier: ", 0), 0u) << e.what();
  }
}

TEST(FrontierVtab, CorruptShadowTablesAreCorruptVtab) {
  for (const std::string& damage : std::vector<std::string>{
           "UPDATE frontier_log SET data = substr(data, 1, length(data) - 3)",
           "UPDATE frontier_log SET data = x'00' || substr(data, 2)",
           "UPDATE frontier_log SET data = substr(data, 1, 20) || "
           "  CASE WHEN substr(data, 21, 1) = x'41' THEN x'42' ELSE x'41' END || substr(data, 22)",
           "UPDATE frontier_snapshot SET data = substr(data, 1, 30) || "
           "  CASE WHEN substr(data, 31, 1) = x'41' THEN x'42' ELSE x'41' END || substr(data, 32)",
           "DELETE FROM frontier_snapshot", "UPDATE frontier_pending SET row = row + (1 << 40)",
           "UPDATE frontier_snapshot SET data = (SELECT data FROM frontier_snapshot "
           "  WHERE length(data) > 20 ORDER BY part DESC LIMIT 1) "
           "  WHERE part = (SELECT min(part) FROM frontier_snapshot "
           "  WHERE part >= 0 AND length(data) > 20)",
           "DELETE FROM frontier_log",
           // The host group (snapshot row -1): cut, missing, moved, or another kind of change set.
           "UPDATE frontier_snapshot SET data = substr(data, 1, length(data) - 3) WHERE part = -1",
           "DELETE FROM frontier_snapshot WHERE part = -1",
           "UPDATE frontier_snapshot SET part = -2 WHERE part = -1",
           "UPDATE frontier_snapshot SET data = (SELECT data FROM frontier_log "
           "  ORDER BY seq DESC LIMIT 1) WHERE part = -1",
           "UPDATE frontier_config SET value = 'x' WHERE key = 'generation'",
           // A hosts' row of <t>_pending (below 0): not a change set, a log row (with counts),
           // or with no host groups under it.
           "INSERT INTO frontier_pending(row, data) VALUES (-1000, x'0102')",
           "INSERT INTO frontier_pending(row, data) SELECT -1000, data FROM frontier_log "
           "  ORDER BY seq DESC LIMIT 1",
           "INSERT INTO frontier_pending(row, data) SELECT -1000, data FROM frontier_snapshot "
           "  WHERE part = -1; DELETE FROM frontier_snapshot WHERE part < 0"}) {
    // Every commit folds; cache_mb=0: every statement reads the parts it needs again.
    ExpectCorrupt(", log_tail_kb=0, cache_mb=0", damage);
  }
  // The default log tail: c and d are in it, not folded.
  for (const std::string& damage : std::vector<std::string>{
           "DELETE FROM frontier_log WHERE seq = (SELECT max(seq) - 1 FROM frontier_log)",
           "UPDATE frontier_log SET data = (SELECT data FROM frontier_log ORDER BY seq LIMIT 1) "
           "  WHERE seq = (SELECT max(seq) FROM frontier_log)",
           "DELETE FROM frontier_snapshot WHERE part = -1"}) {
    ExpectCorrupt("", damage);
  }
}

}  // namespace
}  // namespace crawldb::testing
