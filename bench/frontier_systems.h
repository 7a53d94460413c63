// Paper 004's frontier as the benchmarks drive it, shared by bench/frontier_benchmark.cc and
// bench/scale_benchmark.cc: crawldb's tables behind `crawl_add`, the same model as plain SQLite
// tables with the logic in prepared statements, one interface over both, and the loop of a
// process leasing and confirming URLs. Plus the few SQLite C API helpers they are written with.
// Every failure ends the program through Die: a benchmark has nothing to recover.
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/string_view.h"
#include "bench/figures.h"

namespace crawldb::bench {

using Clock = std::chrono::steady_clock;

// Prints "<program>: <what>" on stderr and exits with status 1.
[[noreturn]] void Die(absl::string_view what);

// "http://a.example/x" -> "a.example".
absl::string_view HostOf(absl::string_view url);

// Opens (creates) the file and loads `extension` when it is not empty; busy_timeout 10 min.
sqlite3* OpenSqlite(const std::string& path, const std::string& extension);

void Exec(sqlite3* db, const std::string& sql);

// A prepared statement (SQLITE_PREPARE_PERSISTENT), reset after each use.
class Statement {
 public:
  Statement(sqlite3* db, const std::string& sql);
  ~Statement() { sqlite3_finalize(statement_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Bind(int index, int64_t value) {
    sqlite3_bind_int64(statement_, index, value);
    return *this;
  }
  // A std::string is bound with its terminating NUL (length -1): SQLite then hands it to
  // functions without copying it to add one. The text must outlive the step.
  Statement& Bind(int index, const std::string& text) {
    sqlite3_bind_text(statement_, index, text.c_str(), -1, SQLITE_STATIC);
    return *this;
  }
  Statement& Bind(int index, absl::string_view text) {
    sqlite3_bind_text(statement_, index, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
    return *this;
  }
  // Steps once: true with a row (read it, then Reset), false when done (reset already).
  bool Step();
  void Reset() {
    sqlite3_reset(statement_);
    sqlite3_clear_bindings(statement_);
  }
  bool IsNull(int column) { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
  int64_t Int(int column) { return sqlite3_column_int64(statement_, column); }
  std::string Text(int column);

 private:
  sqlite3* db_;
  std::string sql_;
  sqlite3_stmt* statement_ = nullptr;
};

// One row of `columns` integers from `sql`.
std::vector<int64_t> SqliteRow(sqlite3* db, const std::string& sql, int columns);

// What a frontier holds after a run: every system must give the same.
struct Totals {
  int64_t urls = 0;
  int64_t depth_sum = 0;
  int64_t links = 0;
  bool operator==(const Totals&) const = default;
};

class Frontier {
 public:
  virtual ~Frontier() = default;
  virtual void Begin() = 0;
  virtual void Commit() = 0;
  // 1 new, 0 already known, -1 refused. `parent` is nullptr for a seed; `now` in unix s.
  virtual int Add(const std::string& url, const std::string* parent, int64_t now) = 0;
  virtual Totals Read() = 0;
};

// crawldb: the four tables of sql/crawldb.sql in a new file, the frontier created with
// `frontier_options` after its urls argument (e.g. "host_delay=0"), `settings` run first (PRAGMAs);
// one add is the prepared `SELECT crawl_add(?1, ?2, 0, ?3)`.
class CrawldbFrontier : public Frontier {
 public:
  CrawldbFrontier(const std::string& path, const std::string& extension,
                  const std::string& settings, const std::string& frontier_options);
  ~CrawldbFrontier() override;
  void Begin() override { Exec(db_, "BEGIN"); }
  void Commit() override { Exec(db_, "COMMIT"); }
  int Add(const std::string& url, const std::string* parent, int64_t now) override;
  Totals Read() override;

 private:
  sqlite3* db_;
  std::unique_ptr<Statement> add_;
};

// What a user writes instead of crawldb, in plain tables: urls(id, url UNIQUE); frontier(id,
// depth, priority, state, due, attempts, status, host, hash) indexed on (state, depth, priority,
// hash) and on host; hosts(id, name UNIQUE, budget, urls: the host's URL count for the budget
// check); links(src, dst) one direction only. The add is written once over primitive
// statements that each system provides: URL known? parent's id and depth; host row (inserted
// when new); budget check; insert the URL, queue it, count it on its host; record the link.
// The client computes the host, the registrable domain (libpsl, as crawldb does; remembered per
// host) for the depth rule, and a 64-bit FNV-1a of the URL for the queue order; it does not
// normalise.
class PlainFrontier : public Frontier {
 public:
  // `host_budget`: most URLs of a host; 0 = unlimited (then no add is refused).
  explicit PlainFrontier(int64_t host_budget) : host_budget_(host_budget) {}
  int Add(const std::string& url, const std::string* parent, int64_t now) override;

 protected:
  struct ParentRow {
    int64_t id;
    int64_t depth;
  };
  struct HostRow {
    int64_t id;
    int64_t urls;
    int64_t budget;  // 0: the table's (host_budget)
  };
  // The schema and the statements, in SQLite's syntax (a PostgreSQL subclass rewrites them).
  static std::string Schema(absl::string_view id_type, absl::string_view links_suffix);
  static constexpr char kFindUrl[] = "SELECT id FROM urls WHERE url = ?1";
  static constexpr char kFindParent[] =
      "SELECT u.id, f.depth FROM urls u JOIN frontier f ON f.id = u.id WHERE u.url = ?1";
  static constexpr char kFindHost[] = "SELECT id, urls, budget FROM hosts WHERE name = ?1";
  static constexpr char kInsertHost[] = "INSERT INTO hosts(name) VALUES (?1)";
  static constexpr char kInsertUrl[] = "INSERT INTO urls(url) VALUES (?1)";
  static constexpr char kQueue[] =
      "INSERT INTO frontier(id, depth, priority, state, due, attempts, status, host, hash) "
      "VALUES (?1, ?2, 0, 0, NULL, 0, NULL, ?3, ?4)";
  static constexpr char kCountHost[] = "UPDATE hosts SET urls = urls + 1 WHERE id = ?1";
  static constexpr char kReadFrontier[] = "SELECT count(*), sum(depth) FROM frontier";
  static constexpr char kReadLinks[] = "SELECT count(*) FROM links";

  virtual std::optional<int64_t> FindUrl(const std::string& url) = 0;
  virtual std::optional<ParentRow> FindParent(const std::string& url) = 0;
  virtual std::optional<HostRow> FindHost(absl::string_view host) = 0;
  virtual int64_t InsertHost(absl::string_view host) = 0;
  virtual int64_t InsertUrl(const std::string& url) = 0;
  virtual void Queue(int64_t id, int64_t depth, int64_t host, int64_t hash) = 0;
  virtual void CountHost(int64_t host) = 0;
  virtual void InsertLink(int64_t src, int64_t dst) = 0;

 private:
  const std::string& DomainOf(absl::string_view host);

  int64_t host_budget_;
  std::unordered_map<std::string, std::string> domains_;
};

// The plain model in SQLite tables (links WITHOUT ROWID), `settings` run first.
class SqliteFrontier : public PlainFrontier {
 public:
  SqliteFrontier(const std::string& path, const std::string& settings, int64_t host_budget);
  ~SqliteFrontier() override;
  void Begin() override { Exec(db_, "BEGIN"); }
  void Commit() override { Exec(db_, "COMMIT"); }
  Totals Read() override;

 protected:
  std::optional<int64_t> FindUrl(const std::string& url) override;
  std::optional<ParentRow> FindParent(const std::string& url) override;
  std::optional<HostRow> FindHost(absl::string_view host) override;
  int64_t InsertHost(absl::string_view host) override;
  int64_t InsertUrl(const std::string& url) override;
  void Queue(int64_t id, int64_t depth, int64_t host, int64_t hash) override;
  void CountHost(int64_t host) override;
  void InsertLink(int64_t src, int64_t dst) override;

 private:
  sqlite3* db_;
  std::unique_ptr<Statement> find_url_, find_parent_, find_host_, insert_host_, insert_url_, queue_,
      count_host_, insert_link_;
};

// How long a lease of LeaseLoop lasts (s): longer than any run, so no URL is leased twice.
inline constexpr int kLeaseSeconds = 300;

struct LeaseReport {
  uint64_t confirmed = 0;         // URLs leased and confirmed
  uint64_t refused_confirms = 0;  // crawl_confirm returning 0 for a URL just leased
};

// One crawler process on a crawldb file: repeats BEGIN IMMEDIATE; SELECT url FROM
// crawl_lease(min(n, what is left of `share`), kLeaseSeconds, now); COMMIT; BEGIN IMMEDIATE;
// crawl_confirm(url, 200, NULL, now) for each; COMMIT — until `share` URLs are confirmed,
// `deadline` has passed (checked after each batch) or the queue is empty.
LeaseReport LeaseLoop(sqlite3* db, uint64_t share, size_t n, int64_t now,
                      Clock::time_point deadline = Clock::time_point::max());

}  // namespace crawldb::bench
