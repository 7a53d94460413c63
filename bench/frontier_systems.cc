#include "bench/frontier_systems.h"

#include <errno.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "extension/identity/registrable_domain.h"

namespace crawldb::bench {

void Die(absl::string_view what) {
  std::fprintf(stderr, "%s: %.*s\n", program_invocation_short_name, static_cast<int>(what.size()),
               what.data());
  std::exit(1);
}

absl::string_view HostOf(absl::string_view url) {
  size_t start = url.find("://");
  start = start == absl::string_view::npos ? 0 : start + 3;
  size_t end = url.find('/', start);
  return url.substr(start, end == absl::string_view::npos ? absl::string_view::npos : end - start);
}

sqlite3* OpenSqlite(const std::string& path, const std::string& extension) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) Die("cannot open " + path);
  if (!extension.empty()) {
    sqlite3_enable_load_extension(db, 1);
    char* error = nullptr;
    if (sqlite3_load_extension(db, extension.c_str(), nullptr, &error) != SQLITE_OK) {
      Die(absl::StrFormat("cannot load %s: %s", extension, error ? error : "?"));
    }
  }
  sqlite3_busy_timeout(db, 600'000);
  return db;
}

void Exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    Die(absl::StrFormat("%s: %s", sql, error ? error : "?"));
  }
}

Statement::Statement(sqlite3* db, const std::string& sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v3(db, sql.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement_, nullptr) !=
      SQLITE_OK) {
    Die(absl::StrFormat("%s: %s", sql, sqlite3_errmsg(db)));
  }
}

bool Statement::Step() {
  int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc != SQLITE_DONE) Die(absl::StrFormat("%s: %s", sql_, sqlite3_errmsg(db_)));
  Reset();
  return false;
}

std::string Statement::Text(int column) {
  const unsigned char* text = sqlite3_column_text(statement_, column);
  return text ? reinterpret_cast<const char*>(text) : "";
}

std::vector<int64_t> SqliteRow(sqlite3* db, const std::string& sql, int columns) {
  Statement select(db, sql);
  if (!select.Step()) Die(sql + ": no row");
  std::vector<int64_t> row;
  for (int i = 0; i < columns; ++i) row.push_back(select.Int(i));
  select.Reset();
  return row;
}

// ---------------------------------------------------------------------------------------------
// crawldb.

CrawldbFrontier::CrawldbFrontier(const std::string& path, const std::string& extension,
                                 const std::string& settings, const std::string& frontier_options)
    : db_(OpenSqlite(path, extension)) {
  Exec(db_, settings);
  Exec(db_, absl::StrFormat("CREATE VIRTUAL TABLE urls USING crawldb_urls;"
                            "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, %s);"
                            "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
                            "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);",
                            frontier_options));
  add_ = std::make_unique<Statement>(db_, "SELECT crawl_add(?1, ?2, 0, ?3)");
}

CrawldbFrontier::~CrawldbFrontier() {
  add_.reset();
  sqlite3_close(db_);
}

int CrawldbFrontier::Add(const std::string& url, const std::string* parent, int64_t now) {
  add_->Bind(1, url).Bind(3, now);
  if (parent != nullptr) add_->Bind(2, *parent);
  if (!add_->Step()) Die("crawl_add returned no row");
  int result = add_->IsNull(0) ? -1 : static_cast<int>(add_->Int(0));
  add_->Reset();
  return result;
}

Totals CrawldbFrontier::Read() {
  std::vector<int64_t> frontier = SqliteRow(db_, "SELECT count(*), sum(depth) FROM frontier", 2);
  return {frontier[0], frontier[1], SqliteRow(db_, "SELECT count(*) FROM outlinks", 1)[0]};
}

// ---------------------------------------------------------------------------------------------
// The plain model.

namespace {

// 64-bit FNV-1a: the queue order's h(K).
int64_t Fnv1a(absl::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (char c : text) hash = (hash ^ static_cast<uint8_t>(c)) * 0x100000001b3ull;
  return static_cast<int64_t>(hash);
}

}  // namespace

int PlainFrontier::Add(const std::string& url, const std::string* parent, int64_t /*now*/) {
  std::optional<int64_t> known = FindUrl(url);
  std::optional<ParentRow> from;
  if (parent != nullptr) from = FindParent(*parent);
  if (known.has_value()) {
    if (from.has_value()) InsertLink(from->id, *known);
    return 0;
  }
  const absl::string_view host = HostOf(url);
  int64_t depth = 1;
  if (from.has_value() && DomainOf(HostOf(*parent)) == DomainOf(host)) {
    depth = from->depth + 1;
  }
  std::optional<HostRow> host_row = FindHost(host);
  if (!host_row.has_value()) host_row = HostRow{InsertHost(host), 0, 0};
  const int64_t budget = host_row->budget > 0 ? host_row->budget : host_budget_;
  if (budget > 0 && host_row->urls >= budget) return -1;
  const int64_t id = InsertUrl(url);
  Queue(id, depth, host_row->id, Fnv1a(url));
  CountHost(host_row->id);
  if (from.has_value()) InsertLink(from->id, id);
  return 1;
}

std::string PlainFrontier::Schema(absl::string_view id_type, absl::string_view links_suffix) {
  return absl::StrFormat(
      "CREATE TABLE urls(id %s PRIMARY KEY, url TEXT NOT NULL UNIQUE);"
      "CREATE TABLE hosts(id %s PRIMARY KEY, name TEXT NOT NULL UNIQUE, delay REAL, "
      "budget BIGINT NOT NULL DEFAULT 0, blocked_until REAL, next_allowed REAL NOT NULL "
      "DEFAULT 0, urls BIGINT NOT NULL DEFAULT 0);"
      "CREATE TABLE frontier(id BIGINT PRIMARY KEY, depth INTEGER NOT NULL, priority INTEGER "
      "NOT NULL, state INTEGER NOT NULL, due REAL, attempts INTEGER NOT NULL, status INTEGER, "
      "host BIGINT NOT NULL, hash BIGINT NOT NULL);"
      "CREATE INDEX frontier_queue ON frontier(state, depth, priority, hash);"
      "CREATE INDEX frontier_host ON frontier(host);"
      "CREATE TABLE links(src BIGINT NOT NULL, dst BIGINT NOT NULL, PRIMARY KEY(src, dst))%s;",
      id_type, id_type, links_suffix);
}

// The registrable domain of `host` by crawldb's rule (libpsl), remembered per host as a client
// would.
const std::string& PlainFrontier::DomainOf(absl::string_view host) {
  auto [it, added] = domains_.try_emplace(std::string(host));
  if (added) it->second = std::string(crawldb::identity::RegistrableDomain(it->first));
  return it->second;
}

SqliteFrontier::SqliteFrontier(const std::string& path, const std::string& settings,
                               int64_t host_budget)
    : PlainFrontier(host_budget), db_(OpenSqlite(path, "")) {
  Exec(db_, settings);
  Exec(db_, Schema("INTEGER", " WITHOUT ROWID"));
  find_url_ = std::make_unique<Statement>(db_, kFindUrl);
  find_parent_ = std::make_unique<Statement>(db_, kFindParent);
  find_host_ = std::make_unique<Statement>(db_, kFindHost);
  insert_host_ = std::make_unique<Statement>(db_, kInsertHost);
  insert_url_ = std::make_unique<Statement>(db_, kInsertUrl);
  queue_ = std::make_unique<Statement>(db_, kQueue);
  count_host_ = std::make_unique<Statement>(db_, kCountHost);
  insert_link_ =
      std::make_unique<Statement>(db_, "INSERT OR IGNORE INTO links(src, dst) VALUES (?1, ?2)");
}

SqliteFrontier::~SqliteFrontier() {
  for (auto* statement : {&find_url_, &find_parent_, &find_host_, &insert_host_, &insert_url_,
                          &queue_, &count_host_, &insert_link_}) {
    statement->reset();
  }
  sqlite3_close(db_);
}

Totals SqliteFrontier::Read() {
  std::vector<int64_t> frontier = SqliteRow(db_, kReadFrontier, 2);
  return {frontier[0], frontier[1], SqliteRow(db_, kReadLinks, 1)[0]};
}

std::optional<int64_t> SqliteFrontier::FindUrl(const std::string& url) {
  if (!find_url_->Bind(1, url).Step()) return std::nullopt;
  int64_t id = find_url_->Int(0);
  find_url_->Reset();
  return id;
}

std::optional<PlainFrontier::ParentRow> SqliteFrontier::FindParent(const std::string& url) {
  if (!find_parent_->Bind(1, url).Step()) return std::nullopt;
  ParentRow row{find_parent_->Int(0), find_parent_->Int(1)};
  find_parent_->Reset();
  return row;
}

std::optional<PlainFrontier::HostRow> SqliteFrontier::FindHost(absl::string_view host) {
  if (!find_host_->Bind(1, host).Step()) return std::nullopt;
  HostRow row{find_host_->Int(0), find_host_->Int(1), find_host_->Int(2)};
  find_host_->Reset();
  return row;
}

int64_t SqliteFrontier::InsertHost(absl::string_view host) {
  insert_host_->Bind(1, host).Step();
  return sqlite3_last_insert_rowid(db_);
}

int64_t SqliteFrontier::InsertUrl(const std::string& url) {
  insert_url_->Bind(1, url).Step();
  return sqlite3_last_insert_rowid(db_);
}

void SqliteFrontier::Queue(int64_t id, int64_t depth, int64_t host, int64_t hash) {
  queue_->Bind(1, id).Bind(2, depth).Bind(3, host).Bind(4, hash).Step();
}

void SqliteFrontier::CountHost(int64_t host) { count_host_->Bind(1, host).Step(); }

void SqliteFrontier::InsertLink(int64_t src, int64_t dst) {
  insert_link_->Bind(1, src).Bind(2, dst).Step();
}

// ---------------------------------------------------------------------------------------------
// Leasing.

LeaseReport LeaseLoop(sqlite3* db, uint64_t share, size_t n, int64_t now,
                      Clock::time_point deadline) {
  Statement lease(db, absl::StrFormat("SELECT url FROM crawl_lease(?1, %d, ?2)", kLeaseSeconds));
  Statement confirm(db, "SELECT crawl_confirm(?1, 200, NULL, ?2)");
  LeaseReport report;
  std::vector<std::string> urls;
  while (report.confirmed < share && Clock::now() < deadline) {
    urls.clear();
    Exec(db, "BEGIN IMMEDIATE");
    lease.Bind(1, static_cast<int64_t>(std::min<uint64_t>(n, share - report.confirmed)))
        .Bind(2, now);
    while (lease.Step()) urls.push_back(lease.Text(0));
    Exec(db, "COMMIT");
    if (urls.empty()) break;
    Exec(db, "BEGIN IMMEDIATE");
    for (const std::string& url : urls) {
      if (!confirm.Bind(1, url).Bind(2, now).Step()) Die("crawl_confirm returned no row");
      if (confirm.Int(0) != 1) ++report.refused_confirms;
      confirm.Reset();
    }
    Exec(db, "COMMIT");
    report.confirmed += urls.size();
  }
  return report;
}

}  // namespace crawldb::bench
