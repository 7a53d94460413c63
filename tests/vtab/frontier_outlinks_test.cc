// crawl_add with the link tables of sql/crawldb.sql: every parent → url link lands in `outlinks`
// with the ids `urls` gave (checked against a set kept beside, on real Wikispeedia links, through
// transactions and a rollback), and the depth rule's registrable domains, which the frontier
// keeps per host, across new hosts, known hosts, hosts made by crawl_host_set and a reopen.
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr char kWiki[] = "https://en.wikipedia.org/wiki/";

SQLite::Database CrawlWithLinks(const std::string& path = ":memory:") {
  SQLite::Database db = LoadedDb(path);
  db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS urls USING crawldb_urls;"
      "CREATE VIRTUAL TABLE IF NOT EXISTS frontier USING crawldb_frontier(urls);"
      "CREATE VIRTUAL TABLE IF NOT EXISTS outlinks USING crawldb_links(urls);"
      "CREATE VIRTUAL TABLE IF NOT EXISTS inlinks USING crawldb_inlinks(outlinks);");
  return db;
}

// crawl_add(url, parent or NULL, NULL, 1000) as text ("1", "0", "NULL").
std::string Add(SQLite::Statement& add, const std::string& url, const std::string& parent) {
  add.reset();
  add.bind(1, url);
  if (parent.empty()) {
    add.bind(2);
  } else {
    add.bind(2, parent);
  }
  add.executeStep();
  return add.getColumn(0).isNull() ? "NULL" : add.getColumn(0).getString();
}

std::string Depth(SQLite::Database& db, const std::string& url) {
  SQLite::Statement select(db, "SELECT depth FROM frontier WHERE url = ?");
  select.bind(1, url);
  return select.executeStep() ? select.getColumn(0).getString() : "absent";
}

TEST(FrontierOutlinks, EveryLinkLandsInOutlinksWithTheIdsOfUrls) {
  SQLite::Database db = CrawlWithLinks();
  std::vector<std::pair<std::string, std::string>> links;  // real (page, linked page)
  for (const std::string& line : ReadXzLines(SharedDataPath("wikispeedia/links.tsv.xz"))) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    links.emplace_back(kWiki + line.substr(0, tab), kWiki + line.substr(tab + 1));
    if (links.size() == 6000) break;
  }
  ASSERT_EQ(links.size(), 6000u);

  SQLite::Statement add(db, "SELECT crawl_add(?1, ?2, NULL, 1000)");
  SQLite::Statement put(db, "INSERT OR IGNORE INTO urls(url) VALUES (?1)");
  std::set<std::string> in_urls;                           // what `urls` holds
  std::set<std::pair<std::string, std::string>> expected;  // parent → url, parent in urls
  // Batches of 500 links, each in a transaction; batch 3 is rolled back. Every 5th linked page
  // goes into `urls` first, so that crawl_add's INSERT OR IGNORE skips it and the link needs a
  // look-up; every 11th link has a parent never added (no link then).
  for (size_t first = 0; first < links.size(); first += 500) {
    const bool rolled_back = first / 500 == 3;
    std::set<std::string> urls_before = in_urls;
    std::set<std::pair<std::string, std::string>> expected_before = expected;
    db.exec("BEGIN");
    for (size_t i = first; i < first + 500; ++i) {
      auto [page, linked] = links[i];
      if (i % 11 == 0) page += "_never_added";
      if (i % 5 == 0) {
        put.reset();
        put.bind(1, linked);
        put.exec();
        in_urls.insert(linked);
      }
      if (i % 11 != 0 && !in_urls.contains(page)) {
        ASSERT_NE(Add(add, page, ""), "NULL");
        in_urls.insert(page);
      }
      ASSERT_NE(Add(add, linked, page), "NULL") << linked;
      in_urls.insert(linked);
      if (in_urls.contains(page) && page != linked) expected.emplace(page, linked);
    }
    db.exec(rolled_back ? "ROLLBACK" : "COMMIT");
    if (rolled_back) {
      in_urls = std::move(urls_before);
      expected = std::move(expected_before);
    }
  }
  std::set<std::pair<std::string, std::string>> stored;
  SQLite::Statement read(db,
                         "SELECT a.url, b.url FROM outlinks o JOIN urls a ON a.id = o.src "
                         "JOIN urls b ON b.id = o.dst");
  while (read.executeStep())
    stored.emplace(read.getColumn(0).getString(), read.getColumn(1).getString());
  EXPECT_GT(expected.size(), 4000u);
  EXPECT_EQ(stored, expected);
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), std::to_string(in_urls.size()));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST(FrontierOutlinks, DepthComparesRegistrableDomainsOfNewKnownAndReloadedHosts) {
  const std::string path = TempDbPath("frontier_outlinks_depth");
  {
    SQLite::Database db = CrawlWithLinks(path);
    SQLite::Statement add(db, "SELECT crawl_add(?1, ?2, NULL, 1000)");
    EXPECT_EQ(One(db, "SELECT crawl_host_set('c.example.co.uk', 2.0)"), "1");  // host, no URL
    EXPECT_EQ(Add(add, "http://a.example.co.uk/p", ""), "1");
    EXPECT_EQ(Add(add, "http://b.example.co.uk/x", "http://a.example.co.uk/p"), "1");  // new host
    EXPECT_EQ(Add(add, "http://b.example.co.uk/y", "http://b.example.co.uk/x"), "1");  // known
    EXPECT_EQ(Add(add, "http://example.co.uk/z", "http://b.example.co.uk/y"), "1");
    EXPECT_EQ(Add(add, "http://other.co.uk/", "http://example.co.uk/z"), "1");
    EXPECT_EQ(Add(add, "http://sub.other.co.uk/", "http://other.co.uk/"), "1");
    EXPECT_EQ(Add(add, "http://c.example.co.uk/w", "http://a.example.co.uk/p"), "1");
    EXPECT_EQ(Add(add, "http://co.uk/", "http://example.co.uk/z"), "1");  // a public suffix
    EXPECT_EQ(Depth(db, "http://a.example.co.uk/p"), "1");
    EXPECT_EQ(Depth(db, "http://b.example.co.uk/x"), "2");
    EXPECT_EQ(Depth(db, "http://b.example.co.uk/y"), "3");
    EXPECT_EQ(Depth(db, "http://example.co.uk/z"), "4");
    EXPECT_EQ(Depth(db, "http://other.co.uk/"), "1");
    EXPECT_EQ(Depth(db, "http://sub.other.co.uk/"), "2");
    EXPECT_EQ(Depth(db, "http://c.example.co.uk/w"), "2");
    EXPECT_EQ(Depth(db, "http://co.uk/"), "1");
    db.exec("INSERT INTO frontier(frontier) VALUES ('optimize')");
  }
  // Reopened: the hosts come back from the snapshot, their domains are worked out again.
  SQLite::Database db = CrawlWithLinks(path);
  SQLite::Statement add(db, "SELECT crawl_add(?1, ?2, NULL, 1000)");
  EXPECT_EQ(Add(add, "http://d.example.co.uk/", "http://b.example.co.uk/y"), "1");
  EXPECT_EQ(Add(add, "http://b.example.co.uk/v", "http://sub.other.co.uk/"), "1");
  EXPECT_EQ(Depth(db, "http://d.example.co.uk/"), "4");
  EXPECT_EQ(Depth(db, "http://b.example.co.uk/v"), "1");
  EXPECT_EQ(One(db, "SELECT count(*) FROM outlinks"), "9");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
