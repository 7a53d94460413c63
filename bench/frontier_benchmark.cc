// Paper 004 §3 reproduced side by side (issue 4, "Benchmark"): the mean delay of adding one URL
// to the crawl frontier, per 100,000 adds, while the database grows from 1,000,000 to 4,000,000
// URLs; then crawldb's lease + confirm throughput with 1 and with 4 processes.
// bench/frontier.sh runs it (and the PostgreSQL server, and gnuplot); bench/README.md explains
// how to read the tables.
//
// Workload (the same for every system):
//   URLs     preload + adds distinct URLs generated as paper 004 §3 describes
//            (bench/paper004_urls.h: 10,000 random domains, http:// + domain + weighted path).
//   preload  the first --preload URLs (default 1,000,000) are added as seeds (no parent), not
//            timed, in the same transactions as below.
//   adds     the next --adds URLs (default 3,000,000) are added with a parent URL, as a crawler
//            adds the links it found on a page, so that the depth rule and link recording run.
//            Parent of add k: with probability 1/2 a uniformly random earlier URL of the same
//            host (when there is one: the depth rule then gives parent depth + 1), otherwise a
//            uniformly random earlier URL (almost always of another domain: depth 1). Parents
//            are drawn once from --parent-seed, before any system runs.
//   batches  one transaction per --batch adds (default 1,000: a crawler commits the links of a
//            few pages at once), for every system, preload included.
//   order    the systems run interleaved: the preload batch by batch, the timed adds window by
//            window — each window of --window adds (default 100,000) goes to (a), then (b), then
//            (c) — so that a change of load on a shared machine falls on all three alike, while
//            each system's transactions follow one another as a crawler's do. (Interleaving
//            batch by batch made every crawldb transaction start with caches the other systems
//            had just filled: crawldb ran twice as slow as alone.) (PostgreSQL's background
//            processes — WAL writer, autovacuum — may run during the others' windows.) The
//            figure of a window is the sum of the wall times of the system's transactions in it
//            (commits included) ÷ its adds.
//            A batch's URLs and parents are copied out of the workload before its clock starts,
//            as a crawler holds the page it just fetched (see RunAdds).
//   now      `now` of add i is kStartTime + i / 1,000 (unix s).
//   repeats  after the interleaved run, crawldb runs the adds --repeat − 1 more times alone
//            (default --repeat=5: four runs), one after the other, each on a new file. Its flatness is
//            judged on the median over those runs of each window's mean, so that a slow spell of
//            a shared machine (other VMs; it lasts seconds and falls on one run's windows) does
//            not pass for a property of the volume; each run's own max/min is printed too. The
//            interleaved run is left out of the median: the other systems' windows between its
//            own leave it cold caches at each window's start. The ratios to (b) and (c) use the
//            interleaved run; the alone runs' totals and the ratios to their median are printed as
//            information. With --repeat=1 the flatness figure is the interleaved run's.
// Every add must be new (the generator draws distinct URLs and NormalizeUrl leaves them as they
// are); any other answer is counted and printed as a WARNING.
//
// Systems ((a) and (b) are in bench/frontier_systems.h, shared with bench/scale_benchmark.cc):
//   (a) crawldb   a file database in WAL mode, synchronous=NORMAL, 1 GiB page cache, with the
//                 tables of sql/crawldb.sql (urls, frontier, outlinks, inlinks; the frontier with
//                 host_delay=0 for the lease test and host_budget=1000000 so that the budget is
//                 checked on every add); one prepared `SELECT crawl_add(?1, ?2, 0, ?3)`.
//                 The links go to `outlinks`.
//   (b) SQLite    what a user writes instead, in plain tables: urls(id INTEGER PRIMARY KEY, url
//                 TEXT UNIQUE); frontier(id PRIMARY KEY, depth, priority, state, due, attempts,
//                 status, host, hash) with an index on (state, depth, priority, hash) for the
//                 queue order and one on host for politeness; hosts(id, name UNIQUE, budget,
//                 urls) holding each host's URL count for the budget check (cheaper than
//                 count(*)); links(src, dst, PRIMARY KEY(src, dst)) WITHOUT ROWID (one direction
//                 only: crawldb's inlinks has no counterpart here). Same file settings as (a).
//                 One add = prepared statements: URL known? (SELECT id FROM urls WHERE url = ?);
//                 parent's id and depth (urls JOIN frontier); host row (SELECT, INSERT when new);
//                 budget check; INSERT INTO urls; INSERT INTO frontier; UPDATE hosts SET urls =
//                 urls + 1; INSERT OR IGNORE INTO links. The client computes host, registrable
//                 domain (the same libpsl rule as crawldb: extension/identity/registrable_domain.h,
//                 remembered per host as crawldb's frontier does) and a 64-bit FNV-1a hash of
//                 the URL for the queue order; it does not normalise (the generated URLs need
//                 none), which favours (b) and (c).
//   (c) PostgreSQL  the same schema (BIGSERIAL ids, C collation) and the same statements through
//                 libpq (PQprepare / PQexecPrepared, text parameters) on the server given by
//                 --postgres (a libpq connection string; bench/frontier.sh starts a private
//                 server with synchronous_commit=off, the counterpart of synchronous=NORMAL).
// After each run the frontier's count(*) and sum(depth) and the number of links are read back;
// all systems must agree, or a WARNING says so.
//
// Lease + confirm (crawldb only), on the file (a) left: P processes (fork, each its own
// connection with (a)'s settings, busy_timeout 10 min) each repeat: BEGIN IMMEDIATE; SELECT url
// FROM crawl_lease(--lease-n, 300, now); COMMIT; BEGIN IMMEDIATE; crawl_confirm(url, 200, NULL,
// now) for each URL; COMMIT; until they together have confirmed --lease-urls URLs (default
// 200,000). host_delay=0, so politeness does not cap the rate. Each process opens the file and
// loads the tables before the clock starts; URLs/s = confirmed ÷ the wall time from start to the
// last exit.
//
// Flags:
//   --quick            10× smaller: 100,000 + 300,000 URLs, windows of 10,000, 20,000 leased
//   --preload=N --adds=N --window=N (a multiple of --batch) --batch=N
//   --repeat=N         crawldb add runs for the flatness figure (default 5; 1 = the interleaved
//                      run only)
//   --lease-urls=N --lease-n=N     lease test size (0: no lease test), URLs per crawl_lease
//                      call (default 100)
//   --systems=LIST     crawldb,sqlite,postgres (default all three; postgres needs --postgres)
//   --postgres=CONNINFO  libpq connection string of an empty database
//   --seed=N           URL generator seed (default 4)      --parent-seed=N  (default 1)
//   --data=PATH        also write the window means as tab-separated columns (for gnuplot)
//   --tmpdir=DIR       where the SQLite files go (default $TMPDIR or /tmp); removed at the end
//   --keep             leave them, and print the folder
//   --extension=PATH   crawldb.so (default: the one this program was built with)
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#ifdef CRAWLDB_HAVE_LIBPQ
#include <libpq-fe.h>
#endif

#include "absl/hash/hash.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "bench/figures.h"
#include "bench/frontier_systems.h"
#include "bench/paper004_urls.h"

namespace crawldb::bench {
namespace {

namespace fs = std::filesystem;

constexpr double kFlatTarget = 1.5;       // max/min of crawldb's window means
constexpr double kSqliteTargetRatio = 5;  // (b) total ÷ (a) total
constexpr double kPostgresTargetRatio = 20;
constexpr int64_t kStartTime = 1'700'000'000;  // unix s
constexpr int64_t kHostBudget = 1'000'000;

struct Flags {
  size_t preload = 1'000'000;
  size_t adds = 3'000'000;
  size_t window = 100'000;
  size_t batch = 1'000;
  size_t lease_urls = 200'000;
  size_t lease_n = 100;
  size_t repeat = 5;
  bool run_crawldb = true, run_sqlite = true, run_postgres = true;
  std::string postgres;
  uint64_t seed = 4;
  uint64_t parent_seed = 1;
  std::string data;
  std::string tmpdir;
  bool keep = false;
  std::string extension = CRAWLDB_EXTENSION_PATH;
};

// ---------------------------------------------------------------------------------------------
// The workload.

struct Workload {
  std::vector<std::string> urls;  // the preload, then the adds
  std::vector<uint32_t> parents;  // parents[k]: index into urls of the parent of add k
  size_t preload = 0;
};

// Uniform in [0, bound) (std::mt19937_64's output is fixed by the standard).
uint64_t Below(std::mt19937_64& rng, uint64_t bound) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(rng()) * bound) >> 64);
}

Workload MakeWorkload(const Flags& flags) {
  Workload workload;
  workload.preload = flags.preload;
  Paper004Options options;
  options.seed = flags.seed;
  workload.urls = GeneratePaper004Urls(flags.preload + flags.adds, options);
  std::mt19937_64 rng(flags.parent_seed);
  std::unordered_map<absl::string_view, std::vector<uint32_t>, absl::Hash<absl::string_view>>
      by_host;
  workload.parents.reserve(flags.adds);
  for (size_t i = 0; i < workload.urls.size(); ++i) {
    std::vector<uint32_t>& same_host = by_host[HostOf(workload.urls[i])];
    if (i >= flags.preload) {
      bool internal = (rng() & 1) != 0 && !same_host.empty();
      workload.parents.push_back(internal ? same_host[Below(rng, same_host.size())]
                                          : static_cast<uint32_t>(Below(rng, i)));
    }
    same_host.push_back(static_cast<uint32_t>(i));
  }
  return workload;
}

int64_t NowOf(size_t index) { return kStartTime + static_cast<int64_t>(index / 1000); }

// ---------------------------------------------------------------------------------------------
// The systems: (a) and (b) in bench/frontier_systems.h, (c) here.

constexpr char kSqliteSettings[] =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-1048576;";
// (a)'s frontier: see "Systems" above.
std::string FrontierOptions() {
  return absl::StrFormat("host_delay=0, host_budget=%d", kHostBudget);
}

#ifdef CRAWLDB_HAVE_LIBPQ
// (c) PostgreSQL through libpq.
class PostgresFrontier : public PlainFrontier {
 public:
  explicit PostgresFrontier(const std::string& conninfo)
      : PlainFrontier(kHostBudget), pg_(PQconnectdb(conninfo.c_str())) {
    if (PQstatus(pg_) != CONNECTION_OK) Die(absl::StrFormat("postgres: %s", PQerrorMessage(pg_)));
    Exec("SET client_min_messages = warning");
    Exec("DROP TABLE IF EXISTS links, frontier, hosts, urls");
    Exec(Schema("BIGSERIAL", ""));
    Prepare("find_url", kFindUrl);
    Prepare("find_parent", kFindParent);
    Prepare("find_host", kFindHost);
    Prepare("insert_host", absl::StrCat(kInsertHost, " RETURNING id"));
    Prepare("insert_url", absl::StrCat(kInsertUrl, " RETURNING id"));
    Prepare("queue", kQueue);
    Prepare("count_host", kCountHost);
    Prepare("insert_link", "INSERT INTO links(src, dst) VALUES (?1, ?2) ON CONFLICT DO NOTHING");
  }
  ~PostgresFrontier() override { PQfinish(pg_); }
  void Begin() override { Exec("BEGIN"); }
  void Commit() override { Exec("COMMIT"); }
  Totals Read() override {
    Result frontier = Query(kReadFrontier);
    Result links = Query(kReadLinks);
    return {Int(frontier, 0), Int(frontier, 1), Int(links, 0)};
  }

 protected:
  std::optional<int64_t> FindUrl(const std::string& url) override {
    Result result = Run("find_url", {url});
    if (PQntuples(result.get()) == 0) return std::nullopt;
    return Int(result, 0);
  }
  std::optional<ParentRow> FindParent(const std::string& url) override {
    Result result = Run("find_parent", {url});
    if (PQntuples(result.get()) == 0) return std::nullopt;
    return ParentRow{Int(result, 0), Int(result, 1)};
  }
  std::optional<HostRow> FindHost(absl::string_view host) override {
    Result result = Run("find_host", {std::string(host)});
    if (PQntuples(result.get()) == 0) return std::nullopt;
    return HostRow{Int(result, 0), Int(result, 1), Int(result, 2)};
  }
  int64_t InsertHost(absl::string_view host) override {
    return Int(Run("insert_host", {std::string(host)}), 0);
  }
  int64_t InsertUrl(const std::string& url) override { return Int(Run("insert_url", {url}), 0); }
  void Queue(int64_t id, int64_t depth, int64_t host, int64_t hash) override {
    Run("queue",
        {std::to_string(id), std::to_string(depth), std::to_string(host), std::to_string(hash)});
  }
  void CountHost(int64_t host) override { Run("count_host", {std::to_string(host)}); }
  void InsertLink(int64_t src, int64_t dst) override {
    Run("insert_link", {std::to_string(src), std::to_string(dst)});
  }

 private:
  struct ClearResult {
    void operator()(PGresult* result) const { PQclear(result); }
  };
  using Result = std::unique_ptr<PGresult, ClearResult>;

  Result Check(PGresult* raw, absl::string_view what) {
    Result result(raw);
    ExecStatusType status = PQresultStatus(raw);
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      Die(absl::StrFormat("postgres: %s: %s", what, PQerrorMessage(pg_)));
    }
    return result;
  }
  void Exec(const std::string& sql) { Check(PQexec(pg_, sql.c_str()), sql); }
  Result Query(const std::string& sql) { return Check(PQexec(pg_, sql.c_str()), sql); }
  // Prepares `sql` written with SQLite's ?N parameters, which PostgreSQL spells $N.
  void Prepare(const char* name, const std::string& sql) {
    const std::string dollars = absl::StrReplaceAll(sql, {{"?", "$"}});
    Check(PQprepare(pg_, name, dollars.c_str(), 0, nullptr), dollars);
  }
  Result Run(const char* name, const std::vector<std::string>& parameters) {
    std::array<const char*, 4> values{};
    for (size_t i = 0; i < parameters.size(); ++i) values[i] = parameters[i].c_str();
    return Check(PQexecPrepared(pg_, name, static_cast<int>(parameters.size()), values.data(),
                                nullptr, nullptr, 0),
                 name);
  }
  static int64_t Int(const Result& result, int column) {
    return std::strtoll(PQgetvalue(result.get(), 0, column), nullptr, 10);
  }

  PGconn* pg_;
};
#endif  // CRAWLDB_HAVE_LIBPQ

// ---------------------------------------------------------------------------------------------
// The add run.

struct AddRun {
  std::string name;
  bool ran = false;
  double preload_s = 0;
  std::vector<double> window_us;  // mean µs per add of each window
  double total_s = 0;             // the timed adds, commits included
  double slowest_batch_s = 0;     // the slowest timed transaction (a checkpoint shows here)
  size_t slowest_batch_end = 0;   // URLs in the database after it
  size_t unexpected = 0;          // adds that did not return 1
  Totals totals;
};

// Runs the workload on every frontier given (nullptr: not run), interleaved: the preload batch
// by batch, then the timed adds window by window, each window going to each system in turn, so
// that a change of load on a shared machine falls on all of them alike while each system's
// transactions follow one another as a crawler's do. Fills runs[i] for frontiers[i].
void RunAdds(const std::vector<Frontier*>& frontiers, const Workload& workload, const Flags& flags,
             std::vector<AddRun>& runs) {
  // One transaction of urls[first, end) on system s; returns its wall time. The batch's URLs and
  // parents are copied into `urls` and `parents` before the clock starts: a crawler has the page
  // it just fetched at hand, while a parent drawn at random from millions of strings is a cache
  // miss that grows with the volume and would be timed as the system's.
  std::vector<std::string> urls(flags.batch), parents(flags.batch);
  auto batch = [&](size_t s, size_t first, size_t end) {
    for (size_t i = first; i < end; ++i) {
      urls[i - first] = workload.urls[i];
      parents[i - first] =
          i < workload.preload ? "" : workload.urls[workload.parents[i - workload.preload]];
    }
    const Clock::time_point start = Clock::now();
    frontiers[s]->Begin();
    for (size_t i = first; i < end; ++i) {
      const std::string* parent = i < workload.preload ? nullptr : &parents[i - first];
      if (frontiers[s]->Add(urls[i - first], parent, NowOf(i)) != 1) ++runs[s].unexpected;
    }
    frontiers[s]->Commit();
    return SecondsSince(start);
  };
  for (size_t s = 0; s < frontiers.size(); ++s) runs[s].ran = frontiers[s] != nullptr;
  for (size_t first = 0; first < workload.preload; first += flags.batch) {
    for (size_t s = 0; s < frontiers.size(); ++s) {
      if (runs[s].ran)
        runs[s].preload_s += batch(s, first, std::min(workload.preload, first + flags.batch));
    }
  }
  const size_t end = workload.urls.size();
  for (size_t window_first = workload.preload; window_first < end;) {
    const size_t window_end = std::min(end, window_first + flags.window);
    std::fprintf(stderr, "%s URLs:", Grouped(window_end).c_str());
    for (size_t s = 0; s < frontiers.size(); ++s) {
      if (!runs[s].ran) continue;
      double window_s = 0;
      for (size_t first = window_first; first < window_end; first += flags.batch) {
        const size_t batch_end = std::min(window_end, first + flags.batch);
        const double seconds = batch(s, first, batch_end);
        window_s += seconds;
        if (seconds > runs[s].slowest_batch_s) {
          runs[s].slowest_batch_s = seconds;
          runs[s].slowest_batch_end = batch_end;
        }
      }
      runs[s].window_us.push_back(window_s * 1e6 / static_cast<double>(window_end - window_first));
      runs[s].total_s += window_s;
      std::fprintf(stderr, " %s %.2f µs/add", runs[s].name.c_str(), runs[s].window_us.back());
    }
    std::fprintf(stderr, "\n");
    window_first = window_end;
  }
  for (size_t s = 0; s < frontiers.size(); ++s) {
    if (runs[s].ran) runs[s].totals = frontiers[s]->Read();
  }
}

// ---------------------------------------------------------------------------------------------
// Lease + confirm with several processes (crawldb).

struct LeaseRun {
  int processes = 0;
  uint64_t confirmed = 0;
  uint64_t refused_confirms = 0;  // crawl_confirm returning 0 for a URL just leased
  double seconds = 0;
};

LeaseRun RunLeases(const std::string& path, const Flags& flags, int processes, int64_t now) {
  LeaseRun run;
  run.processes = processes;
  int ready[2], go[2], reports[2];
  if (pipe(ready) != 0 || pipe(go) != 0 || pipe(reports) != 0) Die("pipe failed");
  std::fflush(nullptr);
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const uint64_t share = flags.lease_urls / static_cast<uint64_t>(processes) +
                           (p == 0 ? flags.lease_urls % static_cast<uint64_t>(processes) : 0);
    pid_t pid = fork();
    if (pid < 0) Die("fork failed");
    if (pid == 0) {
      sqlite3* db = OpenSqlite(path, flags.extension);
      Exec(db, kSqliteSettings);           // synchronous is per connection
      Exec(db, "SELECT crawldb_stats()");  // connects and loads every table before the clock
      char byte = 1;
      if (write(ready[1], &byte, 1) != 1 || read(go[0], &byte, 1) != 1) _exit(2);
      LeaseReport report = LeaseLoop(db, share, flags.lease_n, now);
      sqlite3_close(db);
      if (write(reports[1], &report, sizeof report) != sizeof report) _exit(2);
      _exit(0);
    }
    children.push_back(pid);
  }
  for (int p = 0; p < processes; ++p) {
    char byte;
    if (read(ready[0], &byte, 1) != 1) Die("a lease process died while loading");
  }
  Clock::time_point start = Clock::now();
  std::vector<char> bytes(static_cast<size_t>(processes), 1);
  if (write(go[1], bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
    Die("cannot start the lease processes");
  }
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) Die("a lease process failed");
  }
  run.seconds = SecondsSince(start);
  for (int p = 0; p < processes; ++p) {
    LeaseReport report;
    if (read(reports[0], &report, sizeof report) != sizeof report) Die("lost a lease report");
    run.confirmed += report.confirmed;
    run.refused_confirms += report.refused_confirms;
  }
  for (int fd : {ready[0], ready[1], go[0], go[1], reports[0], reports[1]}) close(fd);
  return run;
}

// ---------------------------------------------------------------------------------------------
// Output.

size_t WindowCount(const std::vector<AddRun>& runs) {
  size_t windows = 0;
  for (const AddRun& run : runs) windows = std::max(windows, run.window_us.size());
  return windows;
}

// The number of URLs in the database at the end of window w.
size_t VolumeAfter(size_t w, const Workload& workload, const Flags& flags) {
  return std::min(workload.urls.size(), workload.preload + (w + 1) * flags.window);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// Per window, the median of crawldb's runs.
std::vector<double> WindowMedians(const std::vector<std::vector<double>>& runs) {
  std::vector<double> medians;
  for (size_t w = 0; w < runs[0].size(); ++w) {
    std::vector<double> values;
    for (const std::vector<double>& run : runs) values.push_back(run[w]);
    medians.push_back(Median(std::move(values)));
  }
  return medians;
}

double MaxOverMin(const std::vector<double>& values) {
  auto [min, max] = std::minmax_element(values.begin(), values.end());
  return *max / *min;
}

std::string Cell(const AddRun& run, double value, int decimals) {
  if (!run.ran) return "not run";
  return absl::StrFormat("%.*f", decimals, value);
}

// `medians`: crawldb's window medians over its runs alone (the interleaved run's windows when
// there were none; empty when crawldb did not run); `alone`: those runs.
void PrintAdds(const std::vector<AddRun>& runs, const std::vector<double>& medians,
               const std::vector<AddRun>& alone, const Workload& workload, const Flags& flags) {
  const AddRun& ours = runs[0];
  const bool with_medians = !medians.empty();
  std::printf(
      "\n### crawl_add delay: %s preloaded, %s added with a parent, one transaction per "
      "%s adds\n\n",
      Grouped(workload.preload).c_str(), Grouped(workload.urls.size() - workload.preload).c_str(),
      Grouped(flags.batch).c_str());
  std::printf(
      "| URLs in the database | crawldb µs/add | crawldb alone, median of %zu runs µs/add | "
      "SQLite tables µs/add | PostgreSQL µs/add |\n|---:|---:|---:|---:|---:|\n",
      alone.size());
  auto median_column = [&](double value, int decimals) {
    std::printf(" | %s",
                with_medians ? absl::StrFormat("%.*f", decimals, value).c_str() : "not run");
  };
  for (size_t w = 0; w < WindowCount(runs); ++w) {
    std::printf("| %s", Grouped(VolumeAfter(w, workload, flags)).c_str());
    for (const AddRun& run : runs) {
      if (&run == &runs[1]) median_column(with_medians ? medians[w] : NAN, 2);
      std::printf(" | %s", Cell(run, w < run.window_us.size() ? run.window_us[w] : NAN, 2).c_str());
    }
    std::printf(" |\n");
  }
  // `median`: the median column's cell, NAN for none.
  auto row = [&](const char* name, auto value, int decimals, double median) {
    std::printf("| **%s**", name);
    for (const AddRun& run : runs) {
      if (&run == &runs[1]) {
        if (std::isnan(median)) {
          std::printf(" | ");
        } else {
          median_column(median, decimals);
        }
      }
      std::printf(" | %s", run.ran ? Cell(run, value(run), decimals).c_str() : "not run");
    }
    std::printf(" |\n");
  };
  row(
      "max/min of the window means", [](const AddRun& run) { return MaxOverMin(run.window_us); }, 2,
      with_medians ? MaxOverMin(medians) : 0);
  std::printf("| **slowest transaction ms (URLs after it)**");
  for (const AddRun& run : runs) {
    if (&run == &runs[1]) std::printf(" | ");
    std::printf(" | %s", run.ran ? absl::StrFormat("%.0f (%s)", run.slowest_batch_s * 1e3,
                                                   Grouped(run.slowest_batch_end))
                                       .c_str()
                                 : "not run");
  }
  std::printf(" |\n");
  row(
      "preload s (not timed above)", [](const AddRun& run) { return run.preload_s; }, 1, NAN);
  row(
      "total s of the timed adds", [](const AddRun& run) { return run.total_s; }, 1, NAN);
  row(
      "total ÷ crawldb's", [&](const AddRun& run) { return run.total_s / ours.total_s; }, 1, NAN);
  std::printf("\n");
  if (ours.ran) {
    std::string spreads, totals;
    std::vector<double> alone_totals;
    for (const AddRun& run : alone) {
      absl::StrAppend(&spreads, spreads.empty() ? "" : ", ",
                      absl::StrFormat("%.2f", MaxOverMin(run.window_us)));
      absl::StrAppend(&totals, totals.empty() ? "" : ", ", absl::StrFormat("%.1f", run.total_s));
      alone_totals.push_back(run.total_s);
    }
    std::printf(
        "target: crawldb flat, max/min of the window medians of its %zu runs alone ≤ %.1f: "
        "%.2f, %s (each run's own max/min: %s)\n",
        alone.size(), kFlatTarget, MaxOverMin(medians),
        Verdict(MaxOverMin(medians) <= kFlatTarget).c_str(),
        spreads.empty() ? "no run alone; the interleaved run's" : spreads.c_str());
    if (!alone.empty()) {
      const double median = Median(alone_totals);
      std::printf("crawldb alone: total s of the timed adds %s (median %.1f)", totals.c_str(),
                  median);
      for (size_t i = 1; i < runs.size(); ++i) {
        if (runs[i].ran) {
          std::printf("; %s ÷ that median: %.1f", runs[i].name.c_str(), runs[i].total_s / median);
        }
      }
      std::printf(" (information: the targets use the interleaved run)\n");
    }
    const double targets[] = {0, kSqliteTargetRatio, kPostgresTargetRatio};
    for (size_t i = 1; i < runs.size(); ++i) {
      if (!runs[i].ran) continue;
      const double ratio = runs[i].total_s / ours.total_s;
      std::printf("target: %s ÷ crawldb ≥ %.0f over the run: %.1f, %s\n", runs[i].name.c_str(),
                  targets[i], ratio, Verdict(ratio >= targets[i]).c_str());
    }
  }
  std::printf("\n");
  const AddRun* reference = nullptr;
  for (const AddRun& run : runs) {
    if (!run.ran) continue;
    std::printf("check %s: %s URLs in the frontier, depth sum %s, %s links\n", run.name.c_str(),
                Grouped(run.totals.urls).c_str(), Grouped(run.totals.depth_sum).c_str(),
                Grouped(run.totals.links).c_str());
    if (run.unexpected > 0) {
      std::printf("WARNING: %s: %zu adds did not return 1 (new)\n", run.name.c_str(),
                  run.unexpected);
    }
    if (reference != nullptr && !(run.totals == reference->totals)) {
      std::printf("WARNING: %s and %s hold different frontiers\n", run.name.c_str(),
                  reference->name.c_str());
    }
    if (reference == nullptr) reference = &run;
  }
}

void WriteData(const std::string& path, const std::vector<AddRun>& runs,
               const std::vector<double>& medians, const Workload& workload, const Flags& flags) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) Die("cannot write " + path);
  std::fprintf(file, "# urls\tcrawldb_us\tcrawldb_median_us\tsqlite_us\tpostgres_us\n");
  for (size_t w = 0; w < WindowCount(runs); ++w) {
    std::fprintf(file, "%zu", VolumeAfter(w, workload, flags));
    for (const AddRun& run : runs) {
      if (&run == &runs[1]) {
        if (w < medians.size()) {
          std::fprintf(file, "\t%.3f", medians[w]);
        } else {
          std::fprintf(file, "\tNaN");
        }
      }
      if (w < run.window_us.size()) {
        std::fprintf(file, "\t%.3f", run.window_us[w]);
      } else {
        std::fprintf(file, "\tNaN");
      }
    }
    std::fprintf(file, "\n");
  }
  std::fclose(file);
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  const char* tmp = std::getenv("TMPDIR");
  flags.tmpdir = tmp != nullptr ? tmp : "/tmp";
  bool quick = false;
  std::optional<size_t> preload, adds, window, lease_urls;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    auto value = [&](absl::string_view flag) -> std::optional<std::string> {
      if (arg.size() > flag.size() && arg.substr(0, flag.size()) == flag &&
          arg[flag.size()] == '=') {
        return std::string(arg.substr(flag.size() + 1));
      }
      return std::nullopt;
    };
    std::optional<std::string> v;
    if (arg == "--quick") {
      quick = true;
    } else if (arg == "--keep") {
      flags.keep = true;
    } else if ((v = value("--preload"))) {
      preload = std::stoul(*v);
    } else if ((v = value("--adds"))) {
      adds = std::stoul(*v);
    } else if ((v = value("--window"))) {
      window = std::stoul(*v);
    } else if ((v = value("--batch"))) {
      flags.batch = std::stoul(*v);
    } else if ((v = value("--lease-urls"))) {
      lease_urls = std::stoul(*v);
    } else if ((v = value("--repeat"))) {
      flags.repeat = std::stoul(*v);
    } else if ((v = value("--lease-n"))) {
      flags.lease_n = std::stoul(*v);
    } else if ((v = value("--systems"))) {
      flags.run_crawldb = flags.run_sqlite = flags.run_postgres = false;
      for (absl::string_view system : absl::StrSplit(*v, ',')) {
        if (system == "crawldb") {
          flags.run_crawldb = true;
        } else if (system == "sqlite") {
          flags.run_sqlite = true;
        } else if (system == "postgres") {
          flags.run_postgres = true;
        } else {
          Die(absl::StrFormat("unknown system '%s' (crawldb, sqlite, postgres)", system));
        }
      }
    } else if ((v = value("--postgres"))) {
      flags.postgres = *v;
    } else if ((v = value("--seed"))) {
      flags.seed = std::stoull(*v);
    } else if ((v = value("--parent-seed"))) {
      flags.parent_seed = std::stoull(*v);
    } else if ((v = value("--data"))) {
      flags.data = *v;
    } else if ((v = value("--tmpdir"))) {
      flags.tmpdir = *v;
    } else if ((v = value("--extension"))) {
      flags.extension = *v;
    } else {
      Die(absl::StrFormat("unknown argument %s", arg));
    }
  }
  const size_t scale = quick ? 10 : 1;
  flags.preload = preload.value_or(flags.preload / scale);
  flags.adds = adds.value_or(flags.adds / scale);
  flags.window = window.value_or(flags.window / scale);
  flags.lease_urls = lease_urls.value_or(flags.lease_urls / scale);
  if (flags.batch == 0 || flags.window == 0 || flags.window % flags.batch != 0 || flags.adds == 0) {
    Die("--window must be a positive multiple of --batch, and --adds positive");
  }
  if (flags.lease_n == 0 || flags.lease_n > 100000) Die("--lease-n must be from 1 to 100000");
  if (flags.repeat == 0 || flags.repeat > 20) Die("--repeat must be from 1 to 20");
  if (flags.run_postgres && flags.postgres.empty()) {
    std::fprintf(stderr, "frontier_benchmark: no --postgres: PostgreSQL not run\n");
    flags.run_postgres = false;
  }
#ifndef CRAWLDB_HAVE_LIBPQ
  if (flags.run_postgres) {
    std::fprintf(stderr, "frontier_benchmark: built without libpq: PostgreSQL not run\n");
    flags.run_postgres = false;
  }
#endif
  return flags;
}

int Main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  const fs::path dir =
      fs::path(flags.tmpdir) / absl::StrFormat("crawldb-frontier-bench-%d", getpid());
  fs::create_directories(dir);
  Clock::time_point start = Clock::now();
  const Workload workload = MakeWorkload(flags);
  std::fprintf(stderr, "generated %s URLs in %.1f s\n", Grouped(workload.urls.size()).c_str(),
               SecondsSince(start));

  std::vector<AddRun> runs(3);
  runs[0].name = "crawldb";
  runs[1].name = "SQLite tables";
  runs[2].name = "PostgreSQL";
  const std::string crawldb_path = (dir / "crawldb.db").string();
  {
    std::unique_ptr<Frontier> crawldb, sqlite, postgres;
    if (flags.run_crawldb)
      crawldb = std::make_unique<CrawldbFrontier>(crawldb_path, flags.extension, kSqliteSettings,
                                                  FrontierOptions());
    if (flags.run_sqlite)
      sqlite = std::make_unique<SqliteFrontier>((dir / "plain.db").string(), kSqliteSettings,
                                                kHostBudget);
#ifdef CRAWLDB_HAVE_LIBPQ
    if (flags.run_postgres) postgres = std::make_unique<PostgresFrontier>(flags.postgres);
#endif
    RunAdds({crawldb.get(), sqlite.get(), postgres.get()}, workload, flags, runs);
  }  // closed before the lease processes fork
  // crawldb alone, --repeat − 1 more times, each on a new file (see "repeats" above).
  std::vector<AddRun> alone_runs;
  std::vector<double> medians;
  if (flags.run_crawldb) {
    for (size_t r = 2; r <= flags.repeat; ++r) {
      std::fprintf(stderr, "crawldb alone, run %zu of %zu\n", r, flags.repeat);
      const fs::path path = dir / absl::StrFormat("crawldb-run%d.db", r);
      std::vector<AddRun> alone(1);
      alone[0].name = "crawldb";
      {
        CrawldbFrontier crawldb(path.string(), flags.extension, kSqliteSettings, FrontierOptions());
        RunAdds({&crawldb}, workload, flags, alone);
      }
      if (alone[0].unexpected > 0 || !(alone[0].totals == runs[0].totals)) {
        std::printf("WARNING: crawldb run %zu differs from the first run\n", r);
      }
      alone_runs.push_back(alone[0]);
      for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path.string() + suffix);
    }
    std::vector<std::vector<double>> windows;
    for (const AddRun& run : alone_runs) windows.push_back(run.window_us);
    if (windows.empty()) windows.push_back(runs[0].window_us);
    medians = WindowMedians(windows);
  }
  PrintAdds(runs, medians, alone_runs, workload, flags);
  if (!flags.data.empty()) WriteData(flags.data, runs, medians, workload, flags);

  if (flags.run_crawldb && flags.lease_urls > 0) {
    const int64_t now = NowOf(workload.urls.size()) + 1;
    std::printf(
        "\n### crawl_lease + crawl_confirm throughput (crawldb, %s URLs in the file, "
        "host_delay=0, %zu URLs per lease, one transaction per lease and per batch of "
        "confirms)\n\n| processes | URLs leased and confirmed | s | URLs/s |\n"
        "|---:|---:|---:|---:|\n",
        Grouped(workload.urls.size()).c_str(), flags.lease_n);
    uint64_t confirmed = 0;
    for (int processes : {1, 4}) {
      LeaseRun run = RunLeases(crawldb_path, flags, processes, now);
      confirmed += run.confirmed;
      std::printf("| %d | %s | %.2f | %s |\n", processes, Grouped(run.confirmed).c_str(),
                  run.seconds, Grouped(static_cast<uint64_t>(run.confirmed / run.seconds)).c_str());
      if (run.refused_confirms > 0) {
        std::printf("WARNING: %s confirms of leased URLs returned 0\n",
                    Grouped(run.refused_confirms).c_str());
      }
    }
    sqlite3* db = OpenSqlite(crawldb_path, flags.extension);
    const std::vector<int64_t> done =
        SqliteRow(db, "SELECT count(*) FROM frontier WHERE state = 'done'", 1);
    sqlite3_close(db);
    std::printf("\ncheck: %s URLs done in the file, %s confirmed by the processes%s\n",
                Grouped(done[0]).c_str(), Grouped(confirmed).c_str(),
                static_cast<uint64_t>(done[0]) == confirmed ? "" : " — WARNING: they differ");
  }
  if (flags.keep) {
    std::printf("\ndatabases kept in %s\n", dir.c_str());
  } else {
    fs::remove_all(dir);
  }
  return 0;
}

}  // namespace
}  // namespace crawldb::bench

int main(int argc, char** argv) { return crawldb::bench::Main(argc, argv); }
