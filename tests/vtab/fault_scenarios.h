// What the fault tests (io_faults_test.cc, alloc_faults_test.cc) share: the template file every
// scenario starts from, a one-line summary of a file's state, and the representative commits.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {

// What a commit can change, in one line: every table's rows, summed up.
inline std::string State(SQLite::Database& db) {
  return One(db,
             "SELECT (SELECT count(*) || '/' || total(id) || '/' || total(length(url)) FROM urls) "
             "|| ' ' || (SELECT count(*) || '/' || total(depth) || '/' || group_concat(DISTINCT "
             "state) FROM frontier) || ' ' || (SELECT count(*) || '/' || total(src * 7 + dst) "
             "FROM outlinks)");
}

// How the template is made.
struct FaultTemplate {
  bool wal = false;  // journal_mode=WAL, else the rollback journal
  // The tables' log_tail_kb: 0 folds the tail at every commit (urls with merge_bytes=0 then
  // merges at every commit too).
  int urls_log_tail_kb = 0;
  int frontier_log_tail_kb = 1024;
};

// The template at `path`: every table, 300 URLs crawled with parents, 40 of them leased.
inline void WriteFaultTemplate(const std::string& path, const FaultTemplate& options = {}) {
  SQLite::Database db = LoadedDb(path);
  if (options.wal) db.exec("PRAGMA journal_mode=WAL");
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, log_tail_kb=" +
          std::to_string(options.urls_log_tail_kb) +
          ");"
          "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0, log_tail_kb=" +
          std::to_string(options.frontier_log_tail_kb) +
          ");"
          "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
          "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);");
  db.exec(
      "SELECT count(crawl_add('http://h' || (x % 5) || '.example/p' || x, CASE WHEN x > 1 "
      "THEN 'http://h' || ((x - 1) % 5) || '.example/p' || (x - 1) END, 0, 1000)) FROM "
      "(WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 300) "
      "SELECT x FROM n)");
  db.exec("SELECT count(*) FROM crawl_lease(40, 60, 1000)");
}

// The connection `db`, which saw a fault, goes on (out of the transaction a failed script left
// open, as an application would): it adds a URL, then agrees with `fresh`, a connection opened
// after the fault.
inline void ExpectConnectionGoesOn(SQLite::Database& db, SQLite::Database& fresh) {
  if (!sqlite3_get_autocommit(db.getHandle())) db.exec("ROLLBACK");
  try {
    db.exec("SELECT count(crawl_add('http://after.example/', NULL, 0, 3000))");
  } catch (const SQLite::Exception& e) {
    ADD_FAILURE() << "after the fault: " << e.what();
  }
  EXPECT_EQ(State(db), State(fresh));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

struct FaultScenario {
  std::string name;
  std::string commit;
};

// A representative commit of each table, optimize and an import (of an arcs file written
// beside `template_path`).
inline std::vector<FaultScenario> FaultScenarios(const std::string& template_path) {
  const std::string arcs = std::filesystem::path(template_path).replace_extension(".arcs");
  std::ofstream(arcs) << "1\t2\n2\t3\n3\t1\n4\t1\n";
  return {
      {"crawl_add_batch",
       "BEGIN; SELECT count(crawl_add('http://h1.example/new' || x, 'http://h1.example/p1', 0, "
       "2000)) FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < "
       "50) SELECT x FROM n); COMMIT"},
      // Outside a transaction one call is one transaction: its URL and its link together.
      {"crawl_add_autocommit",
       "SELECT crawl_add('http://h1.example/alone', 'http://h1.example/p1', 0, 2000)"},
      {"urls_insert",
       "INSERT INTO urls(url) SELECT 'http://n' || (x % 3) || '.example/q' || x FROM (WITH "
       "RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 50) SELECT x FROM n)"},
      {"lease", "SELECT count(*) FROM crawl_lease(30, 60, 2000)"},
      {"confirm",
       "BEGIN; SELECT count(crawl_confirm(url, 200, 0, 2001)) FROM frontier WHERE state = "
       "'leased'; COMMIT"},
      {"outlinks_insert",
       "INSERT OR IGNORE INTO outlinks(src, dst) SELECT id, id % 50 + 1 FROM urls WHERE id <= 80"},
      {"urls_delete", "DELETE FROM urls WHERE id % 10 = 0"},
      {"optimize", "SELECT crawldb_optimize()"},
      {"import_arcs", "SELECT crawldb_import_arcs('" + arcs + "')"},
  };
}

}  // namespace crawldb::testing
