// crawldb at crawl scale (issue 13, item 5): the crawl_add delay, the file's bytes/URL and the
// writer's memory every --window URLs up to --urls (default 100,000,000), and at 1 M, 10 M,
// 100 M (and the last size) what a new process pays: open + first lease, a first outlinks
// look-up, cold look-ups, and 4 processes leasing and confirming. The same stream goes first
// into paper 004's model as plain SQLite tables up to --plain-max (default 10,000,000), measured
// the same way (no outlinks there). bench/scale.sh runs it (then DRUM against crawldb when
// bench/uniqueness_benchmark is built, and gnuplot); bench/README.md explains how to read the
// tables.
//
// Workload:
//   URLs      the first --urls URLs of bench/paper004_urls.h's stream (seed --seed, 10,000
//             domains), made by a generator process and piped to the writer, so that neither
//             holds them all: the writer's memory is the system's.
//   parents   every 100th URL (index 0, 100, 200, …) is a seed, added with a NULL parent (1%);
//             the parent of any other URL is a uniformly random earlier URL of the same
//             transaction (std::mt19937_64 from --parent-seed, drawn in stream order). A
//             transaction starts at a multiple of 100, so there is always one.
//   adds      `SELECT crawl_add(url, parent, 0, now)` with now = 1,700,000,000 + index / 1,000
//             (unix s); one transaction per --batch adds (default 100,000). Every add must
//             return 1 (new); another answer is counted and printed as a WARNING.
//   file      WAL, synchronous=NORMAL, SQLite page cache 512 MiB (cache_size=-524288) for both
//             systems: crawldb has no cache_mb option yet, so this 512 MB stands for it in the
//             RSS target. crawldb's tables are sql/crawldb.sql's, the frontier with
//             host_delay=0 so that politeness does not cap the lease test; the plain model is
//             bench/frontier_systems.h's SqliteFrontier, no host budget (crawldb's default). No
//             optimize runs.
// Per window (one row; the writer measures, untimed work aside):
//   µs/add    the median of the window's adds, each timed alone around sqlite3_step;
//   adds/s    the window's adds ÷ the wall time of its transactions, BEGIN and COMMIT included;
//   bytes/URL (database file + its -wal) ÷ URLs in it, after the window's last commit, and
//             the two apart: the -wal is as large as the largest transaction made it (SQLite
//             reuses it from its start after a checkpoint and deletes it at the last close);
//   RSS       the writer's VmRSS (/proc/self/status) after the window; the peak (VmHWM) at the end.
// At each checkpoint (1 M × 10^k up to --urls, and --urls) the writer waits while:
//   crawldb   its file (+ -wal) is copied, and new processes, each started by fork + exec of
//             this program, run on the copy one after the other: (1) sqlite3_open + loading
//             crawldb + the settings + `SELECT * FROM crawl_lease(1)`, timed inside the process;
//             (1b) in another, `SELECT count(*) FROM outlinks WHERE src = 1` after the open
//             (the first outlinks look-up: it replays the links log), and its VmHWM;
//             (2) --lookups `SELECT id FROM urls WHERE url = ?` of random URLs already added,
//             (3) in another process --lookups `SELECT url FROM urls WHERE id = ?` of other
//             random ones (prepared once; the loop's wall time ÷ count, the first look-up, which
//             pays the table's loading, also shown alone); (4) 4 processes each open the copy,
//             run `SELECT crawldb_stats()` (loads every table) and, once all are ready, lease
//             100 and confirm them (bench/frontier_systems.h's LeaseLoop) for --lease-seconds.
//             RSS of each is its VmHWM. The copy is then removed.
//   plain     (2) and (3) on the plain file itself (nothing writes it meanwhile).
//   "Cold" means a new process: empty SQLite and crawldb caches; the OS page cache stays warm.
//   The random URLs: a reservoir of 2 × --lookups (position, URL) drawn by the writer from the
//   whole stream (fixed seed, so both systems get the same); the first half are the URL→id
//   keys, the second the id→URL keys, with id = position + 1 (ids are handed out in add order,
//   1 up, in both systems); a URL→id miss or an id→URL answer that is not the URL is counted as
//   wrong and printed as a WARNING. The frontier's count, depth sum and link count are read at
//   each checkpoint; crawldb's and the plain model's must agree at the sizes both reach.
// Memory: every process but the generator runs under RLIMIT_AS = --memory-limit-mb (default:
// MemAvailable at the start ÷ 6, as the writer, 4 leasing processes and the generator may live
// at once), so that a system that runs out of memory fails in its own process (SQLITE_NOMEM,
// or a signal) instead of taking the machine: the run goes on with what was reached, prints
// the process's last stderr line, and reports the largest size reached.
//
// Flags:
//   --urls=N (default 100000000)  --window=N (default 1000000)  --batch=N (default 100000;
//   --window a multiple of it)    --plain-max=N (default 10000000; 0: no plain model)
//   --lease-seconds=N (default 60)  --lookups=N (default 10000)  --memory-limit-mb=N
//   --seed=N (default 4)  --parent-seed=N (default 1)  --data=PATH (the windows as
//   tab-separated columns, for gnuplot)  --tmpdir=DIR (default $TMPDIR or /tmp)  --keep
//   --extension=PATH (crawldb.so; default: the one this program was built with)
// --role=… runs one of the processes above (internal).
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "bench/frontier_systems.h"
#include "bench/paper004_urls.h"

namespace crawldb::bench {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kStartTime = 1'700'000'000;  // unix s
constexpr size_t kSeedEvery = 100;             // every 100th URL is a seed (1%)
constexpr size_t kLeaseProcesses = 4;
constexpr size_t kLeaseBatch = 100;  // URLs per crawl_lease call
constexpr uint64_t kSampleSeed = 13;
constexpr char kSettings[] =
    "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-524288;";
constexpr double kCacheMb = 512;  // the page cache above, standing for crawldb's cache_mb
constexpr double kFlatTarget = 1.5;
constexpr double kAddsPerSecondTarget = 50'000;
constexpr double kBytesPerUrlTarget = 32;
constexpr double kRssOverCacheMb = 256;
constexpr double kOpenTargetMs = 50;
constexpr size_t kOpenTargetUrls = 100'000'000;
constexpr double kLookupTargetRatio = 1.0;
constexpr size_t kFirstCheckpoint = 1'000'000;

struct Flags {
  uint64_t urls = 100'000'000;
  uint64_t window = 1'000'000;
  uint64_t batch = 100'000;
  uint64_t plain_max = 10'000'000;
  uint64_t lease_seconds = 60;
  uint64_t lookups = 10'000;
  uint64_t memory_limit_mb = 0;  // 0: MemAvailable / 6
  uint64_t seed = 4;
  uint64_t parent_seed = 1;
  std::string data;
  std::string tmpdir;
  bool keep = false;
  std::string extension = CRAWLDB_EXTENSION_PATH;
  // Internal: the process's role and its arguments.
  std::string role;
  std::string system;  // crawldb | plain
  std::string db;
  std::string sample;
  std::string kind;  // url | id
  uint64_t now = 0;  // the leasing processes' now (unix s)
  std::vector<size_t> checkpoints;
};

// ---------------------------------------------------------------------------------------------
// Process plumbing.

// A "Key:   123 kB" field of a /proc file, in bytes; 0 when absent.
uint64_t ProcBytes(const char* file, absl::string_view key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > key.size() && absl::StartsWith(line, key) && line[key.size()] == ':') {
      return std::strtoull(line.c_str() + key.size() + 1, nullptr, 10) * 1024;
    }
  }
  return 0;
}

double Mb(uint64_t bytes) { return static_cast<double>(bytes) / (1 << 20); }

// One line to the parent, flushed at once.
void Report(const std::string& line) {
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

struct Pipe {
  int read = -1;
  int write = -1;
};

Pipe MakePipe() {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) Die("pipe failed");
  return {fds[0], fds[1]};
}

bool WriteByte(int fd) {
  const char byte = 1;
  return write(fd, &byte, 1) == 1;
}

void CloseFd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// A child process: this program with `args`, its stdin / stdout / fd 3 from the given fds (-1:
// inherited, none), stderr to `err_path`, under RLIMIT_AS = limit_bytes (0: none).
struct Child {
  pid_t pid = -1;
  std::string err_path;
};

Child Spawn(const std::vector<std::string>& args, int in, int out, int fd3, uint64_t limit_bytes,
            const std::string& err_path) {
  std::vector<char*> argv;
  argv.push_back(program_invocation_name);
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) Die("fork failed");
  if (pid == 0) {
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (err < 0 || dup2(err, 2) < 0) _exit(126);
    if ((in >= 0 && dup2(in, 0) < 0) || (out >= 0 && dup2(out, 1) < 0) ||
        (fd3 >= 0 && dup2(fd3, 3) < 0)) {
      _exit(126);
    }
    signal(SIGPIPE, SIG_DFL);  // the coordinator ignores it; a writer to a dead reader ends
    if (limit_bytes > 0) {
      const rlimit limit{limit_bytes, limit_bytes};
      if (setrlimit(RLIMIT_AS, &limit) != 0) _exit(126);
    }
    // This process's own binary, even if the file was rebuilt meanwhile.
    execv("/proc/self/exe", argv.data());
    _exit(127);
  }
  return {pid, err_path};
}

// Waits for the child; "" when it exited 0, else how it ended and its last stderr line.
std::string Wait(const Child& child) {
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0) {
    if (errno != EINTR) Die("waitpid failed");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  std::string how = WIFSIGNALED(status)
                        ? absl::StrFormat("killed by signal %d (%s)", WTERMSIG(status),
                                          strsignal(WTERMSIG(status)))
                        : absl::StrFormat("exit status %d", WEXITSTATUS(status));
  std::ifstream err(child.err_path);
  std::string line, last;
  while (std::getline(err, line)) {
    if (!line.empty()) last = line;
  }
  return last.empty() ? how : absl::StrFormat("%s: %s", how, last);
}

// Lines from a child's stdout.
class LineReader {
 public:
  explicit LineReader(int fd) : file_(fdopen(fd, "r")) {
    if (file_ == nullptr) Die("fdopen failed");
  }
  ~LineReader() { std::fclose(file_); }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  // The next line's fields, split on spaces; nullopt at the end.
  std::optional<std::vector<std::string>> Next() {
    char* line = nullptr;
    size_t capacity = 0;
    const ssize_t n = getline(&line, &capacity, file_);
    std::optional<std::vector<std::string>> fields;
    if (n > 0) {
      fields = absl::StrSplit(std::string(line, static_cast<size_t>(n) - 1), ' ');
    }
    std::free(line);
    return fields;
  }

 private:
  std::FILE* file_;
};

double Number(const std::string& text) {
  double value = 0;
  if (!absl::SimpleAtod(text, &value)) Die("not a number from a child: " + text);
  return value;
}

// Bytes of `path`, 0 when it does not exist.
uint64_t FileBytes(const std::string& path) {
  std::error_code error;
  const uintmax_t size = fs::file_size(path, error);
  return error ? 0 : size;
}

// ---------------------------------------------------------------------------------------------
// The processes' roles.

// --role=generate: the first --urls URLs of the stream on stdout, one a line.
void Generate(const Flags& flags) {
  static char buffer[1 << 20];
  std::setvbuf(stdout, buffer, _IOFBF, sizeof buffer);
  Paper004Options options;
  options.seed = flags.seed;
  Paper004UrlStream stream(options, flags.urls);
  for (size_t i = 0; i < flags.urls; ++i) {
    const std::string& url = stream.Next();
    std::fwrite(url.data(), 1, url.size(), stdout);
    std::fputc('\n', stdout);
  }
  std::fflush(stdout);
}

// Uniform in [0, bound) by multiply-shift (std::mt19937_64's output is fixed by the standard,
// its distributions are not).
uint64_t Below(std::mt19937_64& rng, uint64_t bound) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(rng()) * bound) >> 64);
}

// A uniform sample of (position, URL) of a stream (Vitter's algorithm R).
class Reservoir {
 public:
  explicit Reservoir(size_t size) : size_(size), rng_(kSampleSeed) {}
  void Offer(size_t position, const std::string& url) {
    if (entries_.size() < size_) {
      entries_.emplace_back(position, url);
      return;
    }
    const uint64_t slot = Below(rng_, position + 1);
    if (slot < size_) entries_[slot] = {position, url};
  }
  void Write(const std::string& path) const {
    std::ofstream out(path);
    for (const auto& [position, url] : entries_) out << position << '\t' << url << '\n';
    if (!out) Die("cannot write " + path);
  }

 private:
  size_t size_;
  std::mt19937_64 rng_;
  std::vector<std::pair<size_t, std::string>> entries_;
};

std::string SamplePath(const std::string& db, size_t urls) {
  return absl::StrFormat("%s.sample-%d.tsv", db, urls);
}

// --role=write: reads URLs on stdin, adds them to --system's frontier in --db. Reports on
// stdout, one line each: "committed N" after each transaction; "window N median_us mean_us
// file_bytes wal_bytes rss_bytes"; at a checkpoint "checkpoint N urls depth_sum links", then waits for a
// byte on fd 3; at the end "done peak_rss_bytes unexpected_adds".
void Write(const Flags& flags) {
  std::ios::sync_with_stdio(false);
  std::unique_ptr<Frontier> frontier;
  if (flags.system == "crawldb") {
    frontier =
        std::make_unique<CrawldbFrontier>(flags.db, flags.extension, kSettings, "host_delay=0");
  } else {
    frontier = std::make_unique<SqliteFrontier>(flags.db, kSettings, 0);
  }
  std::mt19937_64 parent_rng(flags.parent_seed);
  Reservoir sample(2 * flags.lookups);
  std::vector<std::string> batch(flags.batch);
  std::vector<const std::string*> parents(flags.batch);
  std::vector<float> window_us;
  window_us.reserve(flags.window);
  double window_s = 0;
  size_t unexpected = 0, added = 0, next_checkpoint = 0;
  while (added < flags.urls) {
    const size_t n = std::min(flags.batch, flags.urls - added);
    for (size_t k = 0; k < n; ++k) {
      if (!std::getline(std::cin, batch[k])) Die("the URL stream ended early");
      const size_t index = added + k;
      parents[k] = index % kSeedEvery == 0 ? nullptr : &batch[Below(parent_rng, k)];
    }
    const Clock::time_point start = Clock::now();
    frontier->Begin();
    for (size_t k = 0; k < n; ++k) {
      const size_t index = added + k;
      const Clock::time_point before = Clock::now();
      const int result =
          frontier->Add(batch[k], parents[k], kStartTime + static_cast<int64_t>(index / 1000));
      window_us.push_back(static_cast<float>(
          std::chrono::duration<double, std::micro>(Clock::now() - before).count()));
      if (result != 1) ++unexpected;
    }
    frontier->Commit();
    window_s += SecondsSince(start);
    for (size_t k = 0; k < n; ++k) sample.Offer(added + k, batch[k]);
    added += n;
    Report(absl::StrFormat("committed %d", added));
    if (window_us.size() == flags.window || added == flags.urls) {
      const size_t count = window_us.size();
      std::nth_element(window_us.begin(), window_us.begin() + count / 2, window_us.end());
      Report(absl::StrFormat("window %d %.4f %.4f %d %d %d", added, window_us[count / 2],
                             window_s * 1e6 / static_cast<double>(count), FileBytes(flags.db),
                             FileBytes(flags.db + "-wal"),
                             ProcBytes("/proc/self/status", "VmRSS")));
      window_us.clear();
      window_s = 0;
    }
    if (next_checkpoint < flags.checkpoints.size() && added == flags.checkpoints[next_checkpoint]) {
      ++next_checkpoint;
      sample.Write(SamplePath(flags.db, added));
      const Totals totals = frontier->Read();
      Report(absl::StrFormat("checkpoint %d %d %d %d", added, totals.urls, totals.depth_sum,
                             totals.links));
      char byte;
      if (read(3, &byte, 1) != 1) Die("lost the coordinator");
    }
  }
  Report(absl::StrFormat("done %d %d", ProcBytes("/proc/self/status", "VmHWM"), unexpected));
}

sqlite3* OpenForRole(const Flags& flags) {
  sqlite3* db = OpenSqlite(flags.db, flags.system == "crawldb" ? flags.extension : "");
  Exec(db, kSettings);
  return db;
}

// --role=open: "open seconds open_seconds peak_rss_bytes": open + load + settings + first lease,
// and the part before the lease.
void OpenAndLease(const Flags& flags) {
  const Clock::time_point start = Clock::now();
  sqlite3* db = OpenForRole(flags);
  const double open_s = SecondsSince(start);
  Statement lease(db, "SELECT * FROM crawl_lease(1)");
  while (lease.Step()) {
  }
  const double seconds = SecondsSince(start);
  Report(absl::StrFormat("open %.6f %.6f %d", seconds, open_s,
                         ProcBytes("/proc/self/status", "VmHWM")));
}

// --role=outlinks: "outlinks seconds peak_rss_bytes": the first look-up of a URL's outlinks in a
// new process (what reads the link graph's delta: the log since the last optimize, replayed).
void FirstOutlinks(const Flags& flags) {
  sqlite3* db = OpenForRole(flags);
  const Clock::time_point start = Clock::now();
  Statement outlinks(db, "SELECT count(*) FROM outlinks WHERE src = 1");
  while (outlinks.Step()) {
  }
  Report(absl::StrFormat("outlinks %.6f %d", SecondsSince(start),
                         ProcBytes("/proc/self/status", "VmHWM")));
}

// --role=lookup: --lookups look-ups of --kind (url: URL→id on the sample's first half; id: id→URL
// on its second half). "lookup count seconds first_seconds wrong peak_rss_bytes".
void Lookup(const Flags& flags) {
  std::ifstream in(flags.sample);
  std::vector<std::pair<int64_t, std::string>> keys;
  std::string line;
  for (size_t i = 0; std::getline(in, line); ++i) {
    const size_t tab = line.find('\t');
    if (tab == std::string::npos) Die("bad sample line: " + line);
    const bool first_half = i < flags.lookups;
    if (first_half == (flags.kind == "url")) {
      keys.emplace_back(std::strtoll(line.c_str(), nullptr, 10) + 1, line.substr(tab + 1));
    }
  }
  if (keys.empty()) Die("empty sample " + flags.sample);
  sqlite3* db = OpenForRole(flags);
  const bool by_url = flags.kind == "url";
  size_t wrong = 0;
  double first_s = 0;
  const Clock::time_point start = Clock::now();
  Statement find(
      db, by_url ? "SELECT id FROM urls WHERE url = ?1" : "SELECT url FROM urls WHERE id = ?1");
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto& [id, url] = keys[i];
    if (by_url) {
      find.Bind(1, url);
    } else {
      find.Bind(1, id);
    }
    if (!find.Step()) {
      ++wrong;
    } else {
      if (by_url ? find.Int(0) != id : find.Text(0) != url) ++wrong;
      find.Reset();
    }
    if (i == 0) first_s = SecondsSince(start);
  }
  const double seconds = SecondsSince(start);
  Report(absl::StrFormat("lookup %d %.6f %.6f %d %d", keys.size(), seconds, first_s, wrong,
                         ProcBytes("/proc/self/status", "VmHWM")));
}

// --role=lease: loads, reports "ready", waits for a byte on stdin, leases and confirms for
// --lease-seconds; "lease confirmed seconds refused_confirms peak_rss_bytes".
void Lease(const Flags& flags) {
  sqlite3* db = OpenForRole(flags);
  Exec(db, "SELECT crawldb_stats()");
  Report("ready");
  char byte;
  if (read(0, &byte, 1) != 1) Die("lost the coordinator");
  const Clock::time_point start = Clock::now();
  const LeaseReport report =
      LeaseLoop(db, std::numeric_limits<uint64_t>::max(), kLeaseBatch,
                static_cast<int64_t>(flags.now), start + std::chrono::seconds(flags.lease_seconds));
  const double seconds = SecondsSince(start);
  Report(absl::StrFormat("lease %d %.6f %d %d", report.confirmed, seconds, report.refused_confirms,
                         ProcBytes("/proc/self/status", "VmHWM")));
}

// ---------------------------------------------------------------------------------------------
// The coordinator.

struct Window {
  size_t urls = 0;
  double median_us = 0;
  double mean_us = 0;
  uint64_t file_bytes = 0;  // the database file
  uint64_t wal_bytes = 0;   // its -wal: as large as the largest transaction made it
  uint64_t rss = 0;
};

// The database and its -wal.
double BytesPerUrl(const Window& w) {
  return static_cast<double>(w.file_bytes + w.wal_bytes) / static_cast<double>(w.urls);
}

// A measurement in a child: its figures, or why it failed.
struct Measured {
  std::vector<double> values;  // the report line's numbers
  std::string failure;         // "" when it ran
};

struct LookupFigures {
  Measured by_url, by_id;
};

struct Checkpoint {
  Totals totals;
  Measured open;
  Measured outlinks;
  LookupFigures lookups;
  std::vector<Measured> leases;
  double lease_seconds = 0;  // the longest-running leasing process's time
};

struct SystemRun {
  std::string name;
  size_t target = 0;   // URLs it was to reach
  size_t reached = 0;  // URLs committed
  std::vector<Window> windows;
  std::map<size_t, Checkpoint> checkpoints;
  uint64_t peak_rss = 0;
  size_t unexpected = 0;
  std::string failure;  // "" when it reached its target
};

class Coordinator {
 public:
  Coordinator(const Flags& flags, fs::path dir) : flags_(flags), dir_(std::move(dir)) {
    limit_bytes_ = flags.memory_limit_mb > 0 ? flags.memory_limit_mb << 20
                                             : ProcBytes("/proc/meminfo", "MemAvailable") / 6;
  }

  uint64_t limit_bytes() const { return limit_bytes_; }

  // Streams `urls` URLs into `system`'s writer, measuring at each checkpoint.
  SystemRun RunSystem(const std::string& system, size_t urls) {
    SystemRun run;
    run.name = system;
    run.target = urls;
    const std::string db = (dir_ / (system + ".db")).string();
    std::vector<size_t> checkpoints;
    for (size_t c = kFirstCheckpoint; c < urls; c *= 10) checkpoints.push_back(c);
    checkpoints.push_back(urls);
    Pipe stream = MakePipe(), reports = MakePipe(), resume = MakePipe();
    Child generator = Spawn({"--role=generate", Arg("urls", urls), Arg("seed", flags_.seed)}, -1,
                            stream.write, -1, 0, Err("generate"));
    Child writer = Spawn(
        {"--role=write", "--system=" + system, "--db=" + db, Arg("urls", urls),
         Arg("window", flags_.window), Arg("batch", flags_.batch), Arg("lookups", flags_.lookups),
         Arg("parent-seed", flags_.parent_seed), "--extension=" + flags_.extension,
         "--checkpoints=" + absl::StrJoin(checkpoints, ",")},
        stream.read, reports.write, resume.read, limit_bytes_, Err(system + "-writer"));
    CloseFd(stream.read);
    CloseFd(stream.write);
    CloseFd(reports.write);
    CloseFd(resume.read);
    {
      LineReader lines(reports.read);
      while (std::optional<std::vector<std::string>> fields = lines.Next()) {
        const std::vector<std::string>& f = *fields;
        if (f[0] == "committed") {
          run.reached = static_cast<size_t>(Number(f[1]));
        } else if (f[0] == "window" && f.size() == 7) {
          run.windows.push_back({static_cast<size_t>(Number(f[1])), Number(f[2]), Number(f[3]),
                                 static_cast<uint64_t>(Number(f[4])),
                                 static_cast<uint64_t>(Number(f[5])),
                                 static_cast<uint64_t>(Number(f[6]))});
          const Window& w = run.windows.back();
          std::fprintf(stderr,
                       "%s %s URLs: %.2f µs/add median, %.0f adds/s, %.1f bytes/URL, %.0f MB\n",
                       system.c_str(), Grouped(w.urls).c_str(), w.median_us, 1e6 / w.mean_us,
                       BytesPerUrl(w), Mb(w.rss));
        } else if (f[0] == "checkpoint" && f.size() == 5) {
          const size_t at = static_cast<size_t>(Number(f[1]));
          Checkpoint& checkpoint = run.checkpoints[at];
          checkpoint.totals = {static_cast<int64_t>(Number(f[2])),
                               static_cast<int64_t>(Number(f[3])),
                               static_cast<int64_t>(Number(f[4]))};
          Measure(system, db, at, checkpoint);
          fs::remove(SamplePath(db, at));
          if (!WriteByte(resume.write)) break;  // the writer is gone
        } else if (f[0] == "done" && f.size() == 3) {
          run.peak_rss = static_cast<uint64_t>(Number(f[1]));
          run.unexpected = static_cast<size_t>(Number(f[2]));
        }
      }
    }
    CloseFd(resume.write);
    run.failure = Wait(writer);
    const std::string generator_failure = Wait(generator);
    if (run.failure.empty() && !generator_failure.empty()) {
      run.failure = "the generator: " + generator_failure;
    }
    if (!flags_.keep) {
      for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(db + suffix);
    }
    return run;
  }

 private:
  static std::string Arg(absl::string_view name, uint64_t value) {
    return absl::StrFormat("--%s=%d", name, value);
  }
  std::string Err(const std::string& what) const { return (dir_ / (what + ".err")).string(); }

  // Runs a child with `args` and no input; its one report line.
  Measured RunOne(const std::vector<std::string>& args, const std::string& what) {
    Pipe out = MakePipe();
    Child child = Spawn(args, -1, out.write, -1, limit_bytes_, Err(what));
    CloseFd(out.write);
    Measured measured;
    {
      LineReader lines(out.read);
      if (std::optional<std::vector<std::string>> fields = lines.Next()) {
        for (size_t i = 1; i < fields->size(); ++i) measured.values.push_back(Number((*fields)[i]));
      }
    }
    measured.failure = Wait(child);
    if (measured.failure.empty() && measured.values.empty()) measured.failure = "no report";
    return measured;
  }

  // Look-ups in `db` of the sample the writer of `system` wrote at `at` URLs.
  LookupFigures Lookups(const std::string& system, const std::string& db,
                        const std::string& sample) {
    LookupFigures figures;
    for (const char* kind : {"url", "id"}) {
      Measured measured =
          RunOne({"--role=lookup", "--system=" + system, "--db=" + db, "--sample=" + sample,
                  "--kind=" + std::string(kind), Arg("lookups", flags_.lookups),
                  "--extension=" + flags_.extension},
                 system + "-lookup");
      (absl::string_view(kind) == "url" ? figures.by_url : figures.by_id) = std::move(measured);
    }
    return figures;
  }

  void Measure(const std::string& system, const std::string& db, size_t at,
               Checkpoint& checkpoint) {
    std::fprintf(stderr, "%s: measuring at %s URLs\n", system.c_str(), Grouped(at).c_str());
    if (system != "crawldb") {
      checkpoint.lookups = Lookups(system, db, SamplePath(db, at));
      return;
    }
    const std::string copy = (dir_ / "copy.db").string();
    for (const char* suffix : {"", "-wal"}) {
      if (fs::exists(db + suffix)) {
        fs::copy_file(db + suffix, copy + suffix, fs::copy_options::overwrite_existing);
      }
    }
    checkpoint.open = RunOne(
        {"--role=open", "--system=crawldb", "--db=" + copy, "--extension=" + flags_.extension},
        "crawldb-open");
    checkpoint.outlinks = RunOne(
        {"--role=outlinks", "--system=crawldb", "--db=" + copy, "--extension=" + flags_.extension},
        "crawldb-outlinks");
    checkpoint.lookups = Lookups(system, copy, SamplePath(db, at));
    RunLeases(copy, at, checkpoint);
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(copy + suffix);
  }

  void RunLeases(const std::string& copy, size_t at, Checkpoint& checkpoint) {
    const int64_t now = kStartTime + static_cast<int64_t>(at / 1000) + 1;
    std::vector<Child> children;
    std::vector<Pipe> go, out;
    for (size_t p = 0; p < kLeaseProcesses; ++p) {
      go.push_back(MakePipe());
      out.push_back(MakePipe());
      children.push_back(Spawn(
          {"--role=lease", "--system=crawldb", "--db=" + copy,
           Arg("lease-seconds", flags_.lease_seconds), Arg("now", static_cast<uint64_t>(now)),
           "--extension=" + flags_.extension},
          go[p].read, out[p].write, -1, limit_bytes_, Err(absl::StrFormat("crawldb-lease%d", p))));
      CloseFd(go[p].read);
      CloseFd(out[p].write);
    }
    std::vector<std::unique_ptr<LineReader>> lines;
    for (size_t p = 0; p < kLeaseProcesses; ++p) {
      lines.push_back(std::make_unique<LineReader>(out[p].read));
      lines.back()->Next();  // "ready", or the end when it failed while loading
    }
    for (Pipe& pipe : go) {
      WriteByte(pipe.write);  // fails for a process that died loading: Wait below says why
      CloseFd(pipe.write);
    }
    for (size_t p = 0; p < kLeaseProcesses; ++p) {
      Measured measured;
      if (std::optional<std::vector<std::string>> fields = lines[p]->Next()) {
        for (size_t i = 1; i < fields->size(); ++i) measured.values.push_back(Number((*fields)[i]));
      }
      measured.failure = Wait(children[p]);
      if (measured.failure.empty() && measured.values.empty()) measured.failure = "no report";
      if (measured.failure.empty()) {
        checkpoint.lease_seconds = std::max(checkpoint.lease_seconds, measured.values[1]);
      }
      checkpoint.leases.push_back(std::move(measured));
    }
  }

  const Flags& flags_;
  fs::path dir_;
  uint64_t limit_bytes_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Output.

// "70.1 (43.0 + 27.1)": bytes/URL of the database and -wal together, then apart.
std::string BytesCell(const Window& w) {
  const double urls = static_cast<double>(w.urls);
  return absl::StrFormat("%.1f (%.1f + %.1f)", BytesPerUrl(w),
                         static_cast<double>(w.file_bytes) / urls,
                         static_cast<double>(w.wal_bytes) / urls);
}

const Window* WindowAt(const SystemRun& run, size_t urls) {
  for (const Window& w : run.windows) {
    if (w.urls == urls) return &w;
  }
  return nullptr;
}

// The URL counts at which either system ended a window, ascending.
std::vector<size_t> WindowSizes(const SystemRun& crawldb, const SystemRun& plain) {
  std::vector<size_t> sizes;
  for (const SystemRun* run : {&crawldb, &plain}) {
    for (const Window& w : run->windows) sizes.push_back(w.urls);
  }
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  return sizes;
}

void PrintWindows(const SystemRun& crawldb, const SystemRun& plain) {
  std::printf(
      "\n### crawl_add per window: median µs/add, adds/s (commits included), file bytes/URL, "
      "writer RSS\n\n| URLs | crawldb µs/add | crawldb adds/s | crawldb bytes/URL (file + WAL) "
      "| crawldb RSS MB "
      "| plain µs/add | plain adds/s | plain bytes/URL (file + WAL) | plain RSS MB |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (size_t urls : WindowSizes(crawldb, plain)) {
    std::printf("| %s", Grouped(urls).c_str());
    for (const SystemRun* run : {&crawldb, &plain}) {
      if (const Window* w = WindowAt(*run, urls)) {
        std::printf(" | %.2f | %s | %s | %.0f", w->median_us,
                    Grouped(static_cast<uint64_t>(1e6 / w->mean_us)).c_str(), BytesCell(*w).c_str(),
                    Mb(w->rss));
      } else {
        std::printf(" | — | — | — | —");
      }
    }
    std::printf(" |\n");
  }
}

// "12.3 (first 4.5 ms)" for a look-up, its failure, or "—" for none.
std::string LookupCell(const Measured* m) {
  if (m == nullptr) return "—";
  if (!m->failure.empty()) return "failed";
  return absl::StrFormat("%.2f (first %.1f ms)", m->values[1] * 1e6 / m->values[0],
                         m->values[2] * 1e3);
}

// The peak RSS in MB a measurement reported last, or "—".
std::string RssCell(const Measured* m) {
  return m == nullptr || !m->failure.empty() ? std::string("—")
                                             : absl::StrFormat("%.0f", Mb(m->values.back()));
}

// plain ÷ crawldb of the µs per look-up; nullopt when either is missing.
std::optional<double> LookupRatio(const Measured* crawldb, const Measured* plain) {
  if (crawldb == nullptr || plain == nullptr || !crawldb->failure.empty() ||
      !plain->failure.empty()) {
    return std::nullopt;
  }
  return (plain->values[1] / plain->values[0]) / (crawldb->values[1] / crawldb->values[0]);
}

std::string RatioCell(std::optional<double> ratio) {
  return ratio.has_value() ? absl::StrFormat("%.2f", *ratio) : "—";
}

void PrintFailures(const Measured& m, const std::string& what, size_t at) {
  if (!m.failure.empty()) {
    std::printf("FAILED at %s URLs, %s: %s\n", Grouped(at).c_str(), what.c_str(),
                m.failure.c_str());
  }
}

void PrintCheckpoints(const SystemRun& crawldb, const SystemRun& plain, const Flags& flags) {
  std::printf(
      "\n### A new process at each checkpoint (crawldb on a copy of the file; cold = new "
      "process, warm OS page cache; %s look-ups of each kind, µs each)\n\n"
      "| URLs | open + first crawl_lease(1) ms | its RSS MB | first outlinks look-up ms (RSS) | "
      "URL→id µs | plain URL→id µs | plain ÷ crawldb | id→URL µs | plain id→URL µs | "
      "plain ÷ crawldb | look-up RSS MB crawldb / plain |\n"
      "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      Grouped(flags.lookups).c_str());
  std::set<size_t> sizes;
  for (const SystemRun* run : {&crawldb, &plain}) {
    for (const auto& [at, checkpoint] : run->checkpoints) sizes.insert(at);
  }
  for (size_t at : sizes) {
    auto ours = crawldb.checkpoints.find(at);
    auto theirs = plain.checkpoints.find(at);
    const Checkpoint* c = ours == crawldb.checkpoints.end() ? nullptr : &ours->second;
    const LookupFigures* p = theirs == plain.checkpoints.end() ? nullptr : &theirs->second.lookups;
    std::string open = "not reached";
    std::string outlinks = "—";
    if (c != nullptr) {
      open = c->open.failure.empty() ? absl::StrFormat("%.1f (open %.1f)", c->open.values[0] * 1e3,
                                                       c->open.values[1] * 1e3)
                                     : "failed";
      outlinks = c->outlinks.failure.empty()
                     ? absl::StrFormat("%.1f (%.0f MB)", c->outlinks.values[0] * 1e3,
                                       Mb(c->outlinks.values.back()))
                     : "failed";
    }
    std::printf(
        "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s |\n", Grouped(at).c_str(),
        open.c_str(), RssCell(c ? &c->open : nullptr).c_str(), outlinks.c_str(),
        LookupCell(c ? &c->lookups.by_url : nullptr).c_str(),
        LookupCell(p ? &p->by_url : nullptr).c_str(),
        RatioCell(LookupRatio(c ? &c->lookups.by_url : nullptr, p ? &p->by_url : nullptr)).c_str(),
        LookupCell(c ? &c->lookups.by_id : nullptr).c_str(),
        LookupCell(p ? &p->by_id : nullptr).c_str(),
        RatioCell(LookupRatio(c ? &c->lookups.by_id : nullptr, p ? &p->by_id : nullptr)).c_str(),
        RssCell(c ? &c->lookups.by_url : nullptr).c_str(),
        RssCell(p ? &p->by_url : nullptr).c_str());
  }
  std::printf(
      "\n### %zu processes leasing %zu and confirming them, for %zu s (crawldb, host_delay=0, on "
      "the copy)\n\n| URLs | URLs leased and confirmed | s | URLs/s | RSS MB of each |\n"
      "|---:|---:|---:|---:|---:|\n",
      kLeaseProcesses, kLeaseBatch, flags.lease_seconds);
  for (const auto& [at, c] : crawldb.checkpoints) {
    uint64_t confirmed = 0;
    std::vector<std::string> rss;
    for (const Measured& m : c.leases) {
      if (!m.failure.empty()) {
        rss.push_back("failed");
        continue;
      }
      confirmed += static_cast<uint64_t>(m.values[0]);
      rss.push_back(absl::StrFormat("%.0f", Mb(m.values[3])));
    }
    std::printf(
        "| %s | %s | %.1f | %s | %s |\n", Grouped(at).c_str(), Grouped(confirmed).c_str(),
        c.lease_seconds,
        Grouped(static_cast<uint64_t>(static_cast<double>(confirmed) / c.lease_seconds)).c_str(),
        absl::StrJoin(rss, ", ").c_str());
    if (c.lease_seconds < static_cast<double>(flags.lease_seconds)) {
      std::printf("(at %s: the queue ran empty before the time was up)\n", Grouped(at).c_str());
    }
  }
  std::printf("\n");
  for (const SystemRun* run : {&crawldb, &plain}) {
    for (const auto& [at, c] : run->checkpoints) {
      PrintFailures(c.open, run->name + " open + first lease", at);
      PrintFailures(c.outlinks, run->name + " first outlinks look-up", at);
      PrintFailures(c.lookups.by_url, run->name + " URL→id", at);
      PrintFailures(c.lookups.by_id, run->name + " id→URL", at);
      for (const Measured& m : c.leases) {
        PrintFailures(m, run->name + " leasing process", at);
        if (m.failure.empty() && m.values[2] > 0) {
          std::printf("WARNING: at %s, %s confirms of leased URLs returned 0\n",
                      Grouped(at).c_str(), Grouped(static_cast<uint64_t>(m.values[2])).c_str());
        }
      }
      for (const Measured* m : {&c.lookups.by_url, &c.lookups.by_id}) {
        if (m->failure.empty() && m->values[3] > 0) {
          std::printf("WARNING: %s at %s: %s look-ups missed or answered wrong\n",
                      run->name.c_str(), Grouped(at).c_str(),
                      Grouped(static_cast<uint64_t>(m->values[3])).c_str());
        }
      }
    }
  }
}

void PrintChecks(const SystemRun& crawldb, const SystemRun& plain) {
  for (const SystemRun* run : {&crawldb, &plain}) {
    if (run->target == 0) {
      std::printf("%s: not run\n", run->name.c_str());
      continue;
    }
    std::printf("%s: reached %s of %s URLs%s%s\n", run->name.c_str(), Grouped(run->reached).c_str(),
                Grouped(run->target).c_str(),
                run->failure.empty() ? "" : "; STOPPED: ", run->failure.c_str());
    if (run->unexpected > 0) {
      std::printf("WARNING: %s: %s adds did not return 1 (new)\n", run->name.c_str(),
                  Grouped(run->unexpected).c_str());
    }
  }
  for (const auto& [at, c] : crawldb.checkpoints) {
    auto found = plain.checkpoints.find(at);
    if (found == plain.checkpoints.end()) continue;
    const Totals& p = found->second.totals;
    std::printf(
        "check at %s: crawldb %s URLs in the frontier, depth sum %s, %s links; plain %s, "
        "%s, %s%s\n",
        Grouped(at).c_str(), Grouped(c.totals.urls).c_str(), Grouped(c.totals.depth_sum).c_str(),
        Grouped(c.totals.links).c_str(), Grouped(p.urls).c_str(), Grouped(p.depth_sum).c_str(),
        Grouped(p.links).c_str(), c.totals == p ? "" : " — WARNING: they differ");
  }
}

void PrintTargets(const SystemRun& crawldb, const SystemRun& plain) {
  std::printf("\n");
  if (crawldb.windows.empty()) {
    std::printf("targets: crawldb reached no window; nothing to judge\n");
    return;
  }
  const size_t last = crawldb.windows.back().urls;
  const std::string range =
      absl::StrFormat("(%s to %s URLs%s)", Grouped(crawldb.windows.front().urls), Grouped(last),
                      last < kOpenTargetUrls ? "; the target is to 100 M" : "");
  double min_us = INFINITY, max_us = 0, seconds = 0, max_bytes = 0;
  size_t adds = 0, worst_bytes_at = 0;
  uint64_t max_rss = crawldb.peak_rss;
  std::string max_rss_what = "the writer";
  size_t previous = 0;
  for (const Window& w : crawldb.windows) {
    min_us = std::min(min_us, w.median_us);
    max_us = std::max(max_us, w.median_us);
    seconds += w.mean_us * 1e-6 * static_cast<double>(w.urls - previous);
    adds += w.urls - previous;
    previous = w.urls;
    if (BytesPerUrl(w) > max_bytes) {
      max_bytes = BytesPerUrl(w);
      worst_bytes_at = w.urls;
    }
    if (w.rss > max_rss) max_rss = w.rss;
  }
  const double rate = static_cast<double>(adds) / seconds;
  std::printf("target: crawl_add flat, max/min of the window medians ≤ %.1f %s: %.2f, %s\n",
              kFlatTarget, range.c_str(), max_us / min_us,
              Verdict(max_us / min_us <= kFlatTarget).c_str());
  std::printf("target: crawl_add on average ≥ %s adds/s (commits included): %s, %s\n",
              Grouped(static_cast<uint64_t>(kAddsPerSecondTarget)).c_str(),
              Grouped(static_cast<uint64_t>(rate)).c_str(),
              Verdict(rate >= kAddsPerSecondTarget).c_str());
  std::printf(
      "target: file ≤ %.0f bytes/URL all-in (database + -wal) at every size, no optimize "
      "run: at most %.1f (at %s URLs), %s\n",
      kBytesPerUrlTarget, max_bytes, Grouped(worst_bytes_at).c_str(),
      Verdict(max_bytes <= kBytesPerUrlTarget).c_str());
  for (const auto& [at, c] : crawldb.checkpoints) {
    std::vector<std::pair<const Measured*, std::string>> measured = {
        {&c.open, "open + first lease"},
        {&c.outlinks, "first outlinks look-up"},
        {&c.lookups.by_url, "URL→id"},
        {&c.lookups.by_id, "id→URL"}};
    for (const Measured& m : c.leases) measured.emplace_back(&m, "a leasing process");
    for (const auto& [m, what] : measured) {
      if (m->failure.empty() && m->values.back() > static_cast<double>(max_rss)) {
        max_rss = static_cast<uint64_t>(m->values.back());
        max_rss_what = absl::StrFormat("%s at %s URLs", what, Grouped(at));
      }
    }
  }
  const double rss_limit = kCacheMb + kRssOverCacheMb;
  std::printf(
      "target: RSS of every crawldb process ≤ cache_mb + %.0f MB = %.0f MB (crawldb has no "
      "cache_mb option yet: 512 MB taken as cache_mb, the SQLite page cache both systems "
      "get): largest %.0f MB (%s), %s\n",
      kRssOverCacheMb, rss_limit, Mb(max_rss), max_rss_what.c_str(),
      Verdict(Mb(max_rss) <= rss_limit).c_str());
  const Checkpoint* largest = nullptr;
  size_t largest_at = 0;
  for (const auto& [at, c] : crawldb.checkpoints) {
    if (c.open.failure.empty()) {
      largest = &c;
      largest_at = at;
    }
  }
  if (largest == nullptr) {
    std::printf(
        "target: new process open + first lease ≤ %.0f ms at 100 M: no measurement, MISSED\n",
        kOpenTargetMs);
  } else {
    const double ms = largest->open.values[0] * 1e3;
    std::printf(
        "target: new process open + first lease ≤ %.0f ms at 100 M: %.1f ms at %s URLs%s, %s\n",
        kOpenTargetMs, ms, Grouped(largest_at).c_str(),
        largest_at < kOpenTargetUrls ? " (the largest measured)" : "",
        Verdict(ms <= kOpenTargetMs && largest_at >= kOpenTargetUrls).c_str());
  }
  for (const bool by_url : {true, false}) {
    double worst = INFINITY;
    size_t worst_at = 0;
    for (const auto& [at, c] : crawldb.checkpoints) {
      auto found = plain.checkpoints.find(at);
      if (found == plain.checkpoints.end()) continue;
      const LookupFigures& p = found->second.lookups;
      std::optional<double> ratio = by_url ? LookupRatio(&c.lookups.by_url, &p.by_url)
                                           : LookupRatio(&c.lookups.by_id, &p.by_id);
      if (ratio.has_value() && *ratio < worst) {
        worst = *ratio;
        worst_at = at;
      }
    }
    const char* what = by_url ? "URL→id" : "id→URL";
    if (worst_at == 0) {
      std::printf(
          "target: SQL %s ≥ %.1f× a plain indexed table: no size measured on both, MISSED\n", what,
          kLookupTargetRatio);
    } else {
      std::printf(
          "target: SQL %s ≥ %.1f× a plain indexed table (cold, plain µs ÷ crawldb µs): "
          "lowest %.2f (at %s URLs), %s\n",
          what, kLookupTargetRatio, worst, Grouped(worst_at).c_str(),
          Verdict(worst >= kLookupTargetRatio).c_str());
    }
  }
}

void WriteData(const std::string& path, const SystemRun& crawldb, const SystemRun& plain) {
  std::ofstream out(path);
  out << "# urls\tcrawldb_us\tcrawldb_bytes_per_url\tplain_us\tplain_bytes_per_url\n";
  for (size_t urls : WindowSizes(crawldb, plain)) {
    out << urls;
    for (const SystemRun* run : {&crawldb, &plain}) {
      const Window* w = WindowAt(*run, urls);
      out << '\t'
          << (w ? absl::StrFormat("%.3f\t%.2f", w->median_us, BytesPerUrl(*w))
                : std::string("NaN\tNaN"));
    }
    out << '\n';
  }
  if (!out) Die("cannot write " + path);
}

// ---------------------------------------------------------------------------------------------
// Arguments.

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  const char* tmp = std::getenv("TMPDIR");
  flags.tmpdir = tmp != nullptr ? tmp : "/tmp";
  const std::map<absl::string_view, uint64_t*> numbers = {
      {"--urls", &flags.urls},
      {"--window", &flags.window},
      {"--batch", &flags.batch},
      {"--plain-max", &flags.plain_max},
      {"--lease-seconds", &flags.lease_seconds},
      {"--lookups", &flags.lookups},
      {"--memory-limit-mb", &flags.memory_limit_mb},
      {"--seed", &flags.seed},
      {"--parent-seed", &flags.parent_seed},
      {"--now", &flags.now}};
  const std::map<absl::string_view, std::string*> texts = {
      {"--data", &flags.data},     {"--tmpdir", &flags.tmpdir}, {"--extension", &flags.extension},
      {"--role", &flags.role},     {"--system", &flags.system}, {"--db", &flags.db},
      {"--sample", &flags.sample}, {"--kind", &flags.kind}};
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    const size_t equals = arg.find('=');
    const absl::string_view name = arg.substr(0, equals);
    const std::string value(equals == absl::string_view::npos ? "" : arg.substr(equals + 1));
    if (arg == "--keep") {
      flags.keep = true;
    } else if (auto number = numbers.find(name); number != numbers.end()) {
      if (!absl::SimpleAtoi(value, number->second)) Die("not a number: " + std::string(arg));
    } else if (auto text = texts.find(name); text != texts.end()) {
      *text->second = value;
    } else if (name == "--checkpoints") {
      for (absl::string_view c : absl::StrSplit(value, ',')) {
        size_t at = 0;
        if (!absl::SimpleAtoi(c, &at)) Die("bad --checkpoints: " + value);
        flags.checkpoints.push_back(at);
      }
    } else {
      Die(absl::StrFormat("unknown argument %s", arg));
    }
  }
  if (flags.urls == 0 || flags.batch == 0 || flags.window == 0 || flags.window % flags.batch != 0 ||
      flags.batch % kSeedEvery != 0) {
    Die("--urls must be positive, --window a positive multiple of --batch, --batch a multiple "
        "of 100");
  }
  if (flags.lookups == 0 || flags.lease_seconds == 0) {
    Die("--lookups and --lease-seconds must be positive");
  }
  return flags;
}

int Main(int argc, char** argv) {
  const Flags flags = ParseFlags(argc, argv);
  if (!flags.role.empty()) {
    const std::map<absl::string_view, void (*)(const Flags&)> roles = {
        {"generate", Generate},      {"write", Write},   {"open", OpenAndLease},
        {"outlinks", FirstOutlinks}, {"lookup", Lookup}, {"lease", Lease}};
    auto role = roles.find(flags.role);
    if (role == roles.end()) Die("unknown --role=" + flags.role);
    role->second(flags);
    return 0;
  }
  signal(SIGPIPE, SIG_IGN);  // a child that died shows in its exit status, not by ending this one

  const fs::path dir = fs::path(flags.tmpdir) / absl::StrFormat("crawldb-scale-bench-%d", getpid());
  fs::create_directories(dir);
  Coordinator coordinator(flags, dir);
  const size_t plain_urls = std::min(flags.urls, flags.plain_max);
  std::printf(
      "%s URLs of paper 004's generator (seed %llu, 10,000 domains), every 100th a seed, the "
      "others "
      "with a random earlier URL of their transaction as parent; `crawl_add(url, parent, 0, now)`, "
      "one transaction per %s adds, one writer process; WAL, synchronous=NORMAL, SQLite page cache "
      "512 MiB for both systems; plain SQLite tables (paper 004's model) up to %s URLs; "
      "RLIMIT_AS %.0f MB per process\n",
      Grouped(flags.urls).c_str(), static_cast<unsigned long long>(flags.seed),
      Grouped(flags.batch).c_str(), Grouped(plain_urls).c_str(), Mb(coordinator.limit_bytes()));
  std::fflush(stdout);
  SystemRun plain;
  plain.name = "plain";
  if (plain_urls > 0) plain = coordinator.RunSystem("plain", plain_urls);
  SystemRun crawldb = coordinator.RunSystem("crawldb", flags.urls);

  PrintWindows(crawldb, plain);
  PrintCheckpoints(crawldb, plain, flags);
  PrintChecks(crawldb, plain);
  PrintTargets(crawldb, plain);
  if (!flags.data.empty()) WriteData(flags.data, crawldb, plain);
  if (flags.keep) {
    std::printf("\nfiles kept in %s\n", dir.c_str());
  } else {
    fs::remove_all(dir);
  }
  return 0;
}

}  // namespace
}  // namespace crawldb::bench

int main(int argc, char** argv) { return crawldb::bench::Main(argc, argv); }
