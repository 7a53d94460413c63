// Seeding: the routes by which a crawl's first URLs reach the frontier (issue 12), timed on the
// same URLs in one run, each on a new database file:
//   (1) crawl_add     SELECT count(crawl_add(url, NULL, 0, 1000)) FROM staging
//   (2) frontier      INSERT OR IGNORE INTO frontier(url, priority) SELECT url, 0 FROM staging
//   (3) urls alone    INSERT OR IGNORE INTO urls(url) SELECT url FROM staging (what (1) and (2)
//                     pay to the URL store; no frontier)
//   (4) plain tables  the frontier model of bench/frontier_benchmark.cc, (b), as plain SQLite
//                     tables filled set-wise: INSERT OR IGNORE INTO urls SELECT …; INSERT OR
//                     IGNORE INTO hosts SELECT DISTINCT host …; INSERT INTO frontier SELECT … JOIN
//                     urls JOIN hosts; UPDATE hosts SET urls = the host's count. Host and queue
//                     hash are computed by the client while it fills the staging table (not timed),
//                     which favours (4).
// (1)–(3) use the four tables of sql/crawldb.sql. Every route runs in one transaction (BEGIN …
// COMMIT, timed with the commit) on a file in WAL mode with synchronous=NORMAL and a 1 GiB page
// cache, from a staging table of the URLs in a TEMP table filled before the clock starts.
// URLs: paper 004 §3's generator (paper004_urls.h), 10,000 domains, --urls=N (default 1,000,000).
// Printed: µs per URL for each route, the ratios (1) ÷ (2) — issue 12's target is ≤ 1.05 — and
// (4) ÷ (1), and the rows each route left (they must agree).
//
//   seeding_benchmark [--urls=N] [--seed=N] [--tmpdir=DIR] [--extension=PATH]
// --extension loads another build of the module (say, main before a change) for (1)–(3).
#include <sqlite3.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "bench/paper004_urls.h"
#include "extension/identity/url_normalizer.h"

namespace {

namespace fs = std::filesystem;

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "seeding_benchmark: %s\n", message.c_str());
  std::exit(1);
}

void Exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error != nullptr ? error : "unknown error";
    sqlite3_free(error);
    Die(message + " in: " + sql);
  }
}

int64_t QueryInt(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    Die(std::string(sqlite3_errmsg(db)) + " in: " + sql);
  }
  int64_t value = sqlite3_step(statement) == SQLITE_ROW ? sqlite3_column_int64(statement, 0) : -1;
  sqlite3_finalize(statement);
  return value;
}

// 64-bit FNV-1a, the queue hash of the plain model (as in frontier_benchmark.cc).
int64_t Fnv1a(absl::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
  return static_cast<int64_t>(hash);
}

sqlite3* Open(const fs::path& path, bool crawldb, const std::string& extension) {
  fs::remove(path);
  fs::remove(path.string() + "-wal");
  fs::remove(path.string() + "-shm");
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) Die("cannot open " + path.string());
  Exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-1048576;");
  if (crawldb) {
    sqlite3_enable_load_extension(db, 1);
    char* error = nullptr;
    if (sqlite3_load_extension(db, extension.c_str(), nullptr, &error) != SQLITE_OK) {
      Die("cannot load " + extension + ": " + (error ? error : ""));
    }
    Exec(db,
         "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
         "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls);"
         "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
         "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);");
  } else {
    Exec(db,
         "CREATE TABLE urls(id INTEGER PRIMARY KEY, url TEXT NOT NULL UNIQUE);"
         "CREATE TABLE hosts(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, delay REAL, "
         "budget INTEGER NOT NULL DEFAULT 0, blocked_until REAL, next_allowed REAL NOT NULL "
         "DEFAULT 0, urls INTEGER NOT NULL DEFAULT 0);"
         "CREATE TABLE frontier(id INTEGER PRIMARY KEY, depth INTEGER NOT NULL, priority INTEGER "
         "NOT NULL, state INTEGER NOT NULL, due REAL, attempts INTEGER NOT NULL, status INTEGER, "
         "host INTEGER NOT NULL, hash INTEGER NOT NULL);"
         "CREATE INDEX frontier_queue ON frontier(state, depth, priority, hash);"
         "CREATE INDEX frontier_host ON frontier(host);");
  }
  return db;
}

void FillStaging(sqlite3* db, const std::vector<std::string>& urls) {
  Exec(db, "CREATE TEMP TABLE staging(url TEXT, host TEXT, hash INTEGER); BEGIN");
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO temp.staging VALUES (?1, ?2, ?3)", -1, &insert, nullptr);
  for (const std::string& url : urls) {
    absl::string_view host = crawldb::identity::UrlHost(url);
    sqlite3_bind_text(insert, 1, url.data(), static_cast<int>(url.size()), SQLITE_STATIC);
    sqlite3_bind_text(insert, 2, host.data(), static_cast<int>(host.size()), SQLITE_STATIC);
    sqlite3_bind_int64(insert, 3, Fnv1a(url));
    if (sqlite3_step(insert) != SQLITE_DONE) Die(sqlite3_errmsg(db));
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);
  Exec(db, "COMMIT");
}

struct Route {
  const char* name;
  bool crawldb;
  std::vector<std::string> statements;
  const char* count;  // the rows the route left
};

}  // namespace

int main(int argc, char** argv) {
  size_t count = 1000000;
  uint64_t seed = 4;
  fs::path tmpdir = std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp";
  std::string extension = CRAWLDB_EXTENSION_PATH;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--urls=") && absl::SimpleAtoi(arg, &count)) continue;
    if (absl::ConsumePrefix(&arg, "--seed=") && absl::SimpleAtoi(arg, &seed)) continue;
    if (absl::ConsumePrefix(&arg, "--extension=")) {
      extension = std::string(arg);
      continue;
    }
    if (absl::ConsumePrefix(&arg, "--tmpdir=")) {
      tmpdir = std::string(arg);
      continue;
    }
    Die(absl::StrFormat(
        "unknown argument %s; use --urls=N, --seed=N, --tmpdir=DIR, --extension=PATH", argv[i]));
  }
  crawldb::bench::Paper004Options options;
  options.seed = seed;
  const std::vector<std::string> urls = crawldb::bench::GeneratePaper004Urls(count, options);
  const fs::path dir = tmpdir / absl::StrFormat("crawldb-seeding-%d", getpid());
  fs::create_directories(dir);

  const std::vector<Route> routes = {
      {"(1) crawl_add",
       true,
       {"SELECT count(crawl_add(url, NULL, 0, 1000)) FROM staging"},
       "SELECT count(*) FROM frontier"},
      {"(2) INSERT INTO frontier",
       true,
       {"INSERT OR IGNORE INTO frontier(url, priority) SELECT url, 0 FROM staging"},
       "SELECT count(*) FROM frontier"},
      {"(3) INSERT INTO urls alone",
       true,
       {"INSERT OR IGNORE INTO urls(url) SELECT url FROM staging"},
       "SELECT count(*) FROM urls"},
      {"(4) plain tables, set-wise",
       false,
       {"INSERT OR IGNORE INTO urls(url) SELECT url FROM staging",
        "INSERT OR IGNORE INTO hosts(name) SELECT DISTINCT host FROM staging",
        "INSERT INTO frontier(id, depth, priority, state, due, attempts, status, host, hash) "
        "SELECT u.id, 1, 0, 0, NULL, 0, NULL, h.id, s.hash FROM staging s "
        "JOIN urls u ON u.url = s.url JOIN hosts h ON h.name = s.host",
        "UPDATE hosts SET urls = urls + (SELECT count(*) FROM frontier f WHERE f.host = hosts.id)"},
       "SELECT count(*) FROM frontier"},
  };

  std::printf("module: %s\n", extension.c_str());
  std::printf(
      "seeding %zu paper-004 URLs (10,000 domains, seed %llu), one transaction per route\n\n",
      count, static_cast<unsigned long long>(seed));
  std::printf("| route | s | µs/URL | rows |\n|---|---:|---:|---:|\n");
  std::vector<double> micros;
  for (const Route& route : routes) {
    sqlite3* db = Open(dir / "seed.db", route.crawldb, extension);
    FillStaging(db, urls);
    auto start = std::chrono::steady_clock::now();
    Exec(db, "BEGIN");
    for (const std::string& sql : route.statements) Exec(db, sql);
    Exec(db, "COMMIT");
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int64_t rows = QueryInt(db, route.count);
    sqlite3_close(db);
    micros.push_back(seconds * 1e6 / static_cast<double>(count));
    std::printf("| %s | %.2f | %.2f | %lld |\n", route.name, seconds, micros.back(),
                static_cast<long long>(rows));
    if (rows != static_cast<int64_t>(count)) {
      std::printf("WARNING: %s left %lld rows, not %zu\n", route.name, static_cast<long long>(rows),
                  count);
    }
  }
  fs::remove_all(dir);
  const double ratio = micros[0] / micros[1];
  std::printf("\ncrawl_add ÷ INSERT INTO frontier: %.3f (issue 12 target ≤ 1.05: %s)\n", ratio,
              ratio <= 1.05 ? "met" : "MISSED");
  std::printf("plain tables ÷ crawl_add: %.2f; plain tables ÷ INSERT INTO frontier: %.2f\n",
              micros[3] / micros[0], micros[3] / micros[1]);
  return 0;
}
