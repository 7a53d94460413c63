// URL uniqueness checking (issue 13, item 3): crawldb against DRUM, the disk-based check of IRLbot
// that paper 003 takes as its baseline (bench/baselines/drum.h), on one stream of URLs as a
// crawler discovers them, checked batch by batch. bench/uniqueness.sh runs it.
//
// The stream: --urls=N URLs (default 10,000,000) of paper 004 §3's generator (10,000 domains,
// --seed, default 4), drawn one batch at a time from its random-access form (Paper004UrlDraws),
// so no more than a batch is ever held. Each URL of the stream is, on a fair coin, a link to an
// earlier URL — URL number j of the generator, j drawn uniformly among the fresh draws so far,
// earlier batches and earlier in the same batch alike — and otherwise a fresh draw, the
// generator's next URL (the first URL is fresh). The coins and the j come from std::mt19937_64
// seeded with --seed, so the stream is the same on every run and machine. About half the stream
// is therefore repeats; a fresh draw may also repeat an earlier one by chance (short paths), which
// is why "unique found" is measured, not computed. The URLs are in crawldb's normal form already.
// Batches: --batch=N URLs (default 1,000,000, paper 003's crawl cycle of 1 million URLs).
//
// The systems, all given the same batches in turn (each batch generated once, not timed):
//   DRUM per batch     fingerprints (XXH3-64, identity/url_fingerprint.h, what crawldb keys URLs
//                      by) + Drum::CheckUpdate + Drum::Flush per batch: every batch answered
//                      before the next, as crawldb answers it and as paper 003's crawl simulation
//                      runs DRUM (one merge per cycle).
//   DRUM at full       the same without the Flush: DRUM merges only when a bucket fills, as
//   bucket             IRLbot runs it, and once more at the end of the stream (timed); answers
//                      arrive late, up to a whole bucket-fill of the stream after their URL.
//                      Both DRUMs: --drum-ram-mib=R (default 64) and --drum-buckets=k (default 64),
//                      k = R / (4M) as paper 003 sets it for M = 256 KiB per array (its M is
//                      256,000 bytes); files under --tmpdir, 2kr ≈ 2.9 GB preallocated each.
//   crawldb SQL        the module loaded into a file database (WAL, synchronous=NORMAL, 1 GiB
//                      page cache), `CREATE VIRTUAL TABLE urls USING crawldb_urls`, and per batch
//                      `BEGIN; INSERT OR IGNORE INTO urls(url) SELECT url FROM temp.staging;
//                      COMMIT`, the staging table refilled with the batch beforehand (not timed;
//                      its time is printed). New URLs: sqlite3_changes() per batch, then checked
//                      against count(*).
//   crawldb C++        UrlStore in memory, as urls_benchmark.cc drives it: NormalizeUrl +
//                      CanonicalKey + Find, Add when absent, ClearUndo per batch (a commit).
// checks/s = URLs of the stream ÷ the system's timed seconds. Every system must find the same
// number of new URLs (a WARNING line says when one does not). The targets: crawldb SQL
// ≥ 5 × the faster DRUM's checks/s, and ≥ 1,000,000 checks/s.
//
//   uniqueness_benchmark [--urls=N] [--batch=N] [--seed=N] [--tmpdir=DIR] [--extension=PATH]
//                        [--drum-ram-mib=N] [--drum-buckets=N]
#include <sqlite3.h>

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "bench/baselines/drum.h"
#include "bench/figures.h"
#include "bench/paper004_urls.h"
#include "extension/identity/canonical_key.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"
#include "extension/urls/url_store.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using crawldb::bench::Grouped;
using crawldb::bench::SecondsSince;
using crawldb::bench::Verdict;

constexpr double kRatioTarget = 5.0;     // crawldb SQL ÷ the faster DRUM, checks/s
constexpr double kRateTarget = 1000000;  // crawldb SQL checks/s

[[noreturn]] void Die(const std::string& message) {
  std::fprintf(stderr, "uniqueness_benchmark: %s\n", message.c_str());
  std::exit(1);
}

// The stream of the header: fresh draws and links to earlier URLs on a fair coin.
class CrawlStream {
 public:
  explicit CrawlStream(uint64_t seed)
      : urls_(crawldb::bench::Paper004Options{.seed = seed}), model_(seed) {}

  // Replaces *batch by the next `count` URLs of the stream.
  void Next(size_t count, std::vector<std::string>* batch) {
    batch->resize(count);
    for (std::string& url : *batch) {
      const bool link = fresh_ > 0 && (model_() >> 63) != 0;
      urls_.UrlAt(link ? model_() % fresh_ : fresh_++, &url);
    }
  }

 private:
  crawldb::bench::Paper004UrlDraws urls_;
  std::mt19937_64 model_;
  uint64_t fresh_ = 0;  // fresh draws so far: URLs 0 .. fresh_ - 1 of the generator
};

// One system under test. Prepare is not timed; Check and Finish are.
class Checker {
 public:
  virtual ~Checker() = default;
  virtual void Prepare(const std::vector<std::string>& /*batch*/) {}
  // Checks `batch`, URL i being URL number first + i of the stream; returns how many URLs the
  // answers of this call found new.
  virtual uint64_t Check(const std::vector<std::string>& batch, uint64_t first) = 0;
  // Returns the new URLs among the answers still owed at the end of the stream.
  virtual uint64_t Finish() { return 0; }
  // Facts for the notes under the table, after Finish; may add WARNING lines to *warnings.
  virtual std::string Note(std::vector<std::string>* warnings) = 0;
};

class DrumChecker : public Checker {
 public:
  DrumChecker(const fs::path& dir, size_t ram_bytes, size_t buckets, bool flush_each_batch)
      : flush_each_batch_(flush_each_batch) {
    absl::StatusOr<std::unique_ptr<crawldb::bench::Drum>> drum =
        crawldb::bench::Drum::Open(dir.string(), ram_bytes, buckets);
    if (!drum.ok()) Die(std::string(drum.status().message()));
    drum_ = std::move(*drum);
  }
  uint64_t Check(const std::vector<std::string>& batch, uint64_t first) override {
    items_.resize(batch.size());
    for (size_t i = 0; i < batch.size(); ++i) {
      items_[i] = {crawldb::identity::UrlFingerprint(batch[i]), first + i};
    }
    Must(drum_->CheckUpdate(items_, &unique_));
    if (flush_each_batch_) Must(drum_->Flush(&unique_));
    return Answered();
  }
  uint64_t Finish() override {
    Must(drum_->Flush(&unique_));
    return Answered();
  }
  std::string Note(std::vector<std::string>*) override {
    const crawldb::bench::DrumStats& stats = drum_->stats();
    return absl::StrFormat("merges: %s; read %.1f MB, written %.1f MB; M = %s bytes, r = %s bytes",
                           Grouped(stats.merges), stats.bytes_read / 1e6, stats.bytes_written / 1e6,
                           Grouped(drum_->array_bytes()), Grouped(drum_->bucket_bytes()));
  }

 private:
  static void Must(const absl::Status& status) {
    if (!status.ok()) Die(std::string(status.message()));
  }
  uint64_t Answered() {
    const uint64_t count = unique_.size();
    unique_.clear();
    return count;
  }

  const bool flush_each_batch_;
  std::unique_ptr<crawldb::bench::Drum> drum_;
  std::vector<crawldb::bench::DrumItem> items_;
  std::vector<uint64_t> unique_;
};

class SqlChecker : public Checker {
 public:
  SqlChecker(const fs::path& path, const std::string& extension) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) Die("cannot open " + path.string());
    sqlite3_enable_load_extension(db_, 1);
    char* error = nullptr;
    if (sqlite3_load_extension(db_, extension.c_str(), nullptr, &error) != SQLITE_OK) {
      Die("cannot load " + extension + ": " + (error != nullptr ? error : ""));
    }
    Exec(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA cache_size=-1048576;"
        "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
        "CREATE TEMP TABLE staging(url TEXT)");
    stage_ = Prepared("INSERT INTO temp.staging VALUES (?1)");
    check_ = Prepared("INSERT OR IGNORE INTO urls(url) SELECT url FROM temp.staging");
  }
  ~SqlChecker() override {
    sqlite3_finalize(stage_);
    sqlite3_finalize(check_);
    sqlite3_close(db_);
  }
  void Prepare(const std::vector<std::string>& batch) override {
    const Clock::time_point start = Clock::now();
    Exec("BEGIN; DELETE FROM temp.staging");
    for (const std::string& url : batch) {
      sqlite3_bind_text(stage_, 1, url.data(), static_cast<int>(url.size()), SQLITE_STATIC);
      Step(stage_);
    }
    Exec("COMMIT");
    staging_seconds_ += SecondsSince(start);
  }
  uint64_t Check(const std::vector<std::string>&, uint64_t) override {
    Exec("BEGIN");
    Step(check_);
    const uint64_t changes = static_cast<uint64_t>(sqlite3_changes(db_));
    Exec("COMMIT");
    found_ += changes;
    return changes;
  }
  std::string Note(std::vector<std::string>* warnings) override {
    sqlite3_stmt* count = Prepared("SELECT count(*) FROM urls");
    Step(count);
    const uint64_t rows = static_cast<uint64_t>(sqlite3_column_int64(count, 0));
    sqlite3_finalize(count);
    if (rows != found_) {
      warnings->push_back(absl::StrFormat("WARNING: crawldb SQL reported %s new URLs but holds %s",
                                          Grouped(found_), Grouped(rows)));
    }
    return absl::StrFormat("filling temp.staging with the batches (not timed): %.2f s",
                           staging_seconds_);
  }

 private:
  void Exec(const char* sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
      Die(absl::StrFormat("%s in: %s", error != nullptr ? error : "unknown error", sql));
    }
  }
  sqlite3_stmt* Prepared(const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &statement, nullptr) != SQLITE_OK) {
      Die(absl::StrFormat("%s in: %s", sqlite3_errmsg(db_), sql));
    }
    return statement;
  }
  // Runs `statement` to its first row or its end, then resets it.
  void Step(sqlite3_stmt* statement) {
    const int rc = sqlite3_step(statement);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) Die(sqlite3_errmsg(db_));
    if (rc == SQLITE_DONE) sqlite3_reset(statement);
  }

  sqlite3* db_ = nullptr;
  sqlite3_stmt* stage_ = nullptr;
  sqlite3_stmt* check_ = nullptr;
  uint64_t found_ = 0;
  double staging_seconds_ = 0;
};

class StoreChecker : public Checker {
 public:
  uint64_t Check(const std::vector<std::string>& batch, uint64_t) override {
    uint64_t added = 0;
    for (const std::string& text : batch) {
      absl::StatusOr<crawldb::identity::NormalizedUrl> url = crawldb::identity::NormalizeUrl(text);
      if (!url.ok()) Die(std::string(url.status().message()));
      const std::string key = crawldb::identity::CanonicalKey(*url);
      absl::StatusOr<std::optional<int64_t>> id = store_.Find(key);
      if (!id.ok()) Die(std::string(id.status().message()));
      if (!id->has_value()) {
        if (absl::StatusOr<int64_t> added_id = store_.Add(key); !added_id.ok()) {
          Die(std::string(added_id.status().message()));
        }
        ++added;
      }
    }
    store_.ClearUndo();
    return added;
  }
  std::string Note(std::vector<std::string>*) override {
    return absl::StrFormat("%.1f bytes of memory per URL held",
                           static_cast<double>(store_.MemoryBytes()) / store_.live_count());
  }

 private:
  crawldb::urls::UrlStore store_;
};

struct System {
  const char* name;
  std::unique_ptr<Checker> checker;
  double seconds = 0;
  uint64_t unique = 0;
  double Rate(uint64_t checks) const { return static_cast<double>(checks) / seconds; }
};

}  // namespace

int main(int argc, char** argv) {
  uint64_t count = 10000000, batch_size = 1000000, seed = 4, ram_mib = 64, buckets = 64;
  fs::path tmpdir = std::getenv("TMPDIR") != nullptr ? std::getenv("TMPDIR") : "/tmp";
  std::string extension = CRAWLDB_EXTENSION_PATH;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--urls=") && absl::SimpleAtoi(arg, &count)) continue;
    if (absl::ConsumePrefix(&arg, "--batch=") && absl::SimpleAtoi(arg, &batch_size) &&
        batch_size > 0) {
      continue;
    }
    if (absl::ConsumePrefix(&arg, "--seed=") && absl::SimpleAtoi(arg, &seed)) continue;
    if (absl::ConsumePrefix(&arg, "--drum-ram-mib=") && absl::SimpleAtoi(arg, &ram_mib)) continue;
    if (absl::ConsumePrefix(&arg, "--drum-buckets=") && absl::SimpleAtoi(arg, &buckets)) continue;
    if (absl::ConsumePrefix(&arg, "--tmpdir=")) {
      tmpdir = std::string(arg);
      continue;
    }
    if (absl::ConsumePrefix(&arg, "--extension=")) {
      extension = std::string(arg);
      continue;
    }
    Die(absl::StrFormat(
        "unknown argument %s; use --urls=N, --batch=N (≥ 1), --seed=N, --tmpdir=DIR, "
        "--extension=PATH, --drum-ram-mib=N, --drum-buckets=N",
        argv[i]));
  }
  const fs::path dir = tmpdir / absl::StrFormat("crawldb-uniqueness-%d", getpid());
  fs::create_directories(dir);
  const size_t ram_bytes = ram_mib << 20;

  System systems[] = {
      {"DRUM per batch", std::make_unique<DrumChecker>(dir, ram_bytes, buckets, true)},
      {"DRUM at full bucket", std::make_unique<DrumChecker>(dir, ram_bytes, buckets, false)},
      {"crawldb SQL", std::make_unique<SqlChecker>(dir / "urls.db", extension)},
      {"crawldb C++", std::make_unique<StoreChecker>()},
  };
  std::printf("module: %s\n", extension.c_str());
  std::printf(
      "%s paper-004 URLs (10,000 domains, seed %llu), half of them links to earlier URLs, checked "
      "in batches of %s; DRUM with R = %llu MiB and k = %llu buckets, files in %s\n\n",
      Grouped(count).c_str(), static_cast<unsigned long long>(seed), Grouped(batch_size).c_str(),
      static_cast<unsigned long long>(ram_mib), static_cast<unsigned long long>(buckets),
      dir.c_str());

  CrawlStream stream(seed);
  std::vector<std::string> batch;
  double generate_seconds = 0;
  for (uint64_t first = 0; first < count; first += batch_size) {
    Clock::time_point start = Clock::now();
    stream.Next(std::min(batch_size, count - first), &batch);
    generate_seconds += SecondsSince(start);
    for (System& system : systems) {
      system.checker->Prepare(batch);
      start = Clock::now();
      system.unique += system.checker->Check(batch, first);
      system.seconds += SecondsSince(start);
    }
  }
  for (System& system : systems) {
    const Clock::time_point start = Clock::now();
    system.unique += system.checker->Finish();
    system.seconds += SecondsSince(start);
  }

  const System& drum = systems[0].seconds <= systems[1].seconds ? systems[0] : systems[1];
  const System& sql = systems[2];
  const double ratio = sql.Rate(count) / drum.Rate(count);
  std::printf(
      "| data set | URLs checked | unique found | DRUM per batch checks/s | DRUM at full bucket "
      "checks/s | crawldb SQL checks/s | crawldb C++ checks/s | crawldb SQL ÷ faster DRUM | "
      "≥ %.0f× DRUM | ≥ 1 M checks/s |\n",
      kRatioTarget);
  std::printf("|---|---:|---:|---:|---:|---:|---:|---:|---|---|\n");
  std::printf(
      "| paper004, batches of %s | %s | %s | %s | %s | %s | %s | %.2f | %s | %s |\n\n",
      Grouped(batch_size).c_str(), Grouped(count).c_str(), Grouped(systems[0].unique).c_str(),
      Grouped(static_cast<uint64_t>(systems[0].Rate(count))).c_str(),
      Grouped(static_cast<uint64_t>(systems[1].Rate(count))).c_str(),
      Grouped(static_cast<uint64_t>(sql.Rate(count))).c_str(),
      Grouped(static_cast<uint64_t>(systems[3].Rate(count))).c_str(), ratio,
      Verdict(ratio >= kRatioTarget).c_str(), Verdict(sql.Rate(count) >= kRateTarget).c_str());

  std::vector<std::string> warnings;
  for (const System& system : systems) {
    std::printf("- %s: %.2f s; %s\n", system.name, system.seconds,
                system.checker->Note(&warnings).c_str());
    if (system.unique != systems[0].unique) {
      warnings.push_back(absl::StrFormat("WARNING: %s found %s new URLs, %s found %s", system.name,
                                         Grouped(system.unique), systems[0].name,
                                         Grouped(systems[0].unique)));
    }
  }
  std::printf("- generating the stream (not timed): %.2f s; the faster DRUM: %s\n",
              generate_seconds, drum.name);
  for (const std::string& warning : warnings) std::printf("%s\n", warning.c_str());
  for (System& system : systems) system.checker.reset();
  fs::remove_all(dir);
  return 0;
}
