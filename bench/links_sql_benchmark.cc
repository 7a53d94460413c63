// The link tables through SQL against a plain SQLite edges table (issue 5, "Benchmark", SQL half):
// bytes as the user pays them, a full scan, and random single-list look-ups both ways.
// bench/links_sql.sh runs it; bench/README.md explains how to read the table.
//
// Data: an arcs file (`src<TAB>dst` lines; default: the shared cnr-2000 arcs, decompressed with
// `xz -dc` into --tmpdir first). Both databases receive the same arcs.
//
// What each row measures:
//   crawldb       a file database with urls, outlinks (codec from --codec, default link3) and
//                 inlinks; `SELECT crawldb_import_arcs(path)`, one autocommit statement.
//   plain table   the most compact plain design that follows links both ways: `CREATE TABLE
//                 edges(src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY(src, dst))
//                 WITHOUT ROWID` plus `edges_dst(dst, src)`, filled by prepared INSERTs (sorted
//                 by src) in one transaction.
//   bits/link     8 × (file size after VACUUM − the size of the same schema empty, made in the
//                 same run) / arcs: both directions together.
//   scan          `SELECT count(*), sum(dst) FROM outlinks` vs `... FROM edges`, on the file
//                 reopened after VACUUM, after one untimed run (crawldb loads its lists on the
//                 first statement; that load is the "open" row); median of --repetitions.
//   out-list / in-list look-ups   --lookups random nodes (the same for both), each through a
//                 prepared statement `SELECT dst FROM outlinks WHERE src = ?` /
//                 `SELECT src FROM inlinks WHERE dst = ?` vs the plain table's
//                 `... FROM edges WHERE src = ?` / `WHERE dst = ?` (bind, step to the end, reset);
//                 µs per look-up. The sums of the ids read must agree, or a WARNING is printed.
//
// Then the graph functions (issue 14, item 4), each on a connection that has read the lists
// already (the "open" row), in a second table:
//   pagerank()    `SELECT count(*), sum(rank) FROM pagerank('outlinks')` (30 iterations, damping
//                 0.85), median of --repetitions;
//   recipe        sql/recipes/pagerank.sql on the same file (same formula and defaults), one run;
//                 for each of its top 100 (rank, then id), pagerank()'s rank of that node and
//                 pagerank()'s own top 100 place by place must be within 1e-9 × the rank
//                 (TopDifference: nodes of equal rank may swap places);
//   plain C++     the same code, graph::PageRank (extension/graph/pagerank.h), over the plain
//                 edges table read list by list like the compressed lists (EdgesTableLists: a
//                 pass is one scan of the index in list order), O(nodes) memory like
//                 pagerank(); median of --repetitions; its top 100 must be the recipe's too;
//   scc()         `SELECT count(*) FROM scc('outlinks')`, median of --repetitions; components and
//                 the largest one's size (cnr-2000: 100,977 and 112,023, bench/links.sh).
//
// Flags: --arcs=PATH  --codec=NAME  --lookups=N (default 20000)  --repetitions=N (default 5)
//        --seed=N  --tmpdir=DIR  --extension=PATH  --recipe=PATH (default the source tree's)
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/types/span.h"
#include "extension/graph/graph_lists.h"
#include "extension/graph/pagerank.h"

namespace {

struct Options {
  std::string arcs;
  std::string codec = "link3";
  size_t lookups = 20000;
  int repetitions = 5;
  uint32_t seed = 1;
  std::string tmpdir;
  std::string extension = CRAWLDB_EXTENSION_PATH;
  std::string recipe = CRAWLDB_PAGERANK_RECIPE;
};

[[noreturn]] void Fail(const std::string& what) {
  std::fprintf(stderr, "links_sql_benchmark: %s\n", what.c_str());
  std::exit(1);
}

sqlite3* OpenDb(const std::string& path, const std::string& extension) {
  sqlite3* db = nullptr;
  if (sqlite3_open(path.c_str(), &db) != SQLITE_OK) Fail("cannot open " + path);
  sqlite3_enable_load_extension(db, 1);
  char* error = nullptr;
  if (sqlite3_load_extension(db, extension.c_str(), nullptr, &error) != SQLITE_OK) {
    Fail(std::string("cannot load crawldb: ") + (error ? error : "?"));
  }
  return db;
}

void Exec(sqlite3* db, const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    Fail(sql + ": " + (error ? error : "?"));
  }
}

sqlite3_stmt* Prepare(sqlite3* db, const std::string& sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
    Fail(sql + ": " + sqlite3_errmsg(db));
  }
  return statement;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

uintmax_t FileBytes(const std::string& path) { return std::filesystem::file_size(path); }

constexpr char kCrawldbSchema[] =
    "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
    "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls, codec=%s);"
    "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);";
constexpr char kPlainSchema[] =
    "CREATE TABLE edges(src INTEGER NOT NULL, dst INTEGER NOT NULL, PRIMARY KEY(src, dst)) "
    "WITHOUT ROWID;"
    "CREATE INDEX edges_dst ON edges(dst, src);";

// Bytes of a VACUUMed file holding `schema` and nothing else.
uintmax_t EmptyBytes(const std::string& path, const std::string& schema, const Options& options) {
  std::filesystem::remove(path);
  sqlite3* db = OpenDb(path, options.extension);
  Exec(db, schema);
  Exec(db, "VACUUM");
  sqlite3_close(db);
  return FileBytes(path);
}

struct Figures {
  double bits_per_link = 0;
  double load_s = 0;  // building the database
  double open_s = 0;  // first statement after reopening
  double scan_s = 0;
  double out_us = 0;
  double in_us = 0;
  uint64_t scan_sum = 0;
  uint64_t out_sum = 0;
  uint64_t in_sum = 0;
};

// Runs `statement` for each node; returns µs per look-up and the sum of the ids read.
std::pair<double, uint64_t> Lookups(sqlite3_stmt* statement, const std::vector<int64_t>& nodes) {
  uint64_t sum = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t node : nodes) {
    sqlite3_bind_int64(statement, 1, node);
    while (sqlite3_step(statement) == SQLITE_ROW) sum += sqlite3_column_int64(statement, 0);
    sqlite3_reset(statement);
  }
  return {Seconds(start) * 1e6 / static_cast<double>(nodes.size()), sum};
}

Figures Measure(const std::string& path, const std::string& table_out, const std::string& in_sql,
                const std::string& out_sql, const std::vector<int64_t>& nodes,
                const Options& options) {
  Figures figures;
  auto open_start = std::chrono::steady_clock::now();
  sqlite3* db = OpenDb(path, options.extension);
  const std::string scan_sql = "SELECT count(*), sum(dst) FROM " + table_out;
  sqlite3_stmt* scan = Prepare(db, scan_sql);
  auto run_scan = [&] {
    if (sqlite3_step(scan) != SQLITE_ROW) Fail(scan_sql + ": " + sqlite3_errmsg(db));
    uint64_t sum = static_cast<uint64_t>(sqlite3_column_int64(scan, 1));
    sqlite3_reset(scan);
    return sum;
  };
  figures.scan_sum = run_scan();
  figures.open_s = Seconds(open_start);
  std::vector<double> times;
  for (int i = 0; i < options.repetitions; ++i) {
    auto start = std::chrono::steady_clock::now();
    run_scan();
    times.push_back(Seconds(start));
  }
  figures.scan_s = Median(times);
  sqlite3_finalize(scan);
  sqlite3_stmt* out = Prepare(db, out_sql);
  sqlite3_stmt* in = Prepare(db, in_sql);
  std::vector<double> out_times, in_times;
  for (int i = 0; i < options.repetitions; ++i) {
    auto [out_us, out_sum] = Lookups(out, nodes);
    auto [in_us, in_sum] = Lookups(in, nodes);
    out_times.push_back(out_us);
    in_times.push_back(in_us);
    figures.out_sum = out_sum;
    figures.in_sum = in_sum;
  }
  figures.out_us = Median(out_times);
  figures.in_us = Median(in_times);
  sqlite3_finalize(out);
  sqlite3_finalize(in);
  sqlite3_close(db);
  return figures;
}

// --- The graph functions against the recipe and a plain table ------------------------------

using Ranks = std::vector<std::pair<int64_t, double>>;  // (id, rank), best first

// The rows of `sql`, (id, rank) each.
Ranks RankRows(sqlite3* db, const std::string& sql) {
  Ranks rows;
  sqlite3_stmt* statement = Prepare(db, sql);
  while (sqlite3_step(statement) == SQLITE_ROW) {
    rows.emplace_back(sqlite3_column_int64(statement, 0), sqlite3_column_double(statement, 1));
  }
  sqlite3_finalize(statement);
  return rows;
}

// The top `n` by rank, then id.
Ranks Top(std::vector<double> rank, size_t n) {
  Ranks rows;
  for (size_t id = 0; id < rank.size(); ++id) {
    if (rank[id] > 0) rows.emplace_back(static_cast<int64_t>(id), rank[id]);
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.second > b.second || (a.second == b.second && a.first < b.first);
  });
  if (rows.size() > n) rows.resize(n);
  return rows;
}

// How far `rank` (by id) is from the recipe's top list `expected`: the largest difference
// relative to the rank, over the recipe's nodes (each one's own rank) and over the places of the
// list (so that no other node ranks above them); nodes of equal rank may come in another order.
double TopDifference(const std::vector<double>& rank, const Ranks& expected) {
  const Ranks top = Top(rank, expected.size());
  if (top.size() != expected.size()) return INFINITY;
  double largest = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const auto [id, value] = expected[i];
    if (id < 0 || static_cast<size_t>(id) >= rank.size()) return INFINITY;
    largest = std::max(
        {largest, std::abs(rank[id] - value) / value, std::abs(top[i].second - value) / value});
  }
  return largest;
}

// The plain edges table as the graph algorithms read it: a pass over every list is one scan of
// the index that holds them in order (the primary key for out-lists, edges_dst for in-lists),
// a single list one look-up. The nodes are the ends of the edges, found by one pass over each.
class EdgesTableLists : public crawldb::graph::GraphLists {
 public:
  explicit EdgesTableLists(sqlite3* db) : db_(db) {
    ForEachList(crawldb::graph::Follow::kOut, [](uint32_t, absl::Span<const uint32_t>) {});
    ForEachList(crawldb::graph::Follow::kIn, [](uint32_t, absl::Span<const uint32_t>) {});
  }
  uint32_t node_limit() const override { return static_cast<uint32_t>(nodes_.size()); }
  bool IsNode(uint32_t node) const override { return nodes_[node]; }
  void List(crawldb::graph::Follow follow, uint32_t node,
            std::vector<uint32_t>* list) const override {
    sqlite3_stmt* select = Prepare(db_, follow == crawldb::graph::Follow::kOut
                                            ? "SELECT dst FROM edges WHERE src = ? ORDER BY dst"
                                            : "SELECT src FROM edges WHERE dst = ? ORDER BY src");
    sqlite3_bind_int64(select, 1, node);
    list->clear();
    while (sqlite3_step(select) == SQLITE_ROW) {
      list->push_back(static_cast<uint32_t>(sqlite3_column_int64(select, 0)));
    }
    sqlite3_finalize(select);
  }
  // Visits the ids below node_limit(); the first passes (from the constructor) grow it.
  void ForEachList(crawldb::graph::Follow follow,
                   absl::FunctionRef<void(uint32_t node, absl::Span<const uint32_t> list)> visit)
      const override {
    sqlite3_stmt* scan = Prepare(db_, follow == crawldb::graph::Follow::kOut
                                          ? "SELECT src, dst FROM edges ORDER BY src, dst"
                                          : "SELECT dst, src FROM edges ORDER BY dst, src");
    std::vector<uint32_t> list;
    uint32_t next = 0;  // the next id to visit
    const auto visit_empty_below = [&](size_t end) {
      for (; next < end; ++next) visit(next, {});
    };
    bool started = false;
    uint32_t current = 0;  // the id whose list `list` is
    while (sqlite3_step(scan) == SQLITE_ROW) {
      const auto node = static_cast<uint32_t>(sqlite3_column_int64(scan, 0));
      const auto other = static_cast<uint32_t>(sqlite3_column_int64(scan, 1));
      Grow(node);
      Grow(other);
      if (!started || node != current) {
        if (started) {
          visit(current, list);
          next = current + 1;
        }
        visit_empty_below(node);
        list.clear();
        current = node;
        started = true;
      }
      list.push_back(other);
    }
    if (started) {
      visit(current, list);
      next = current + 1;
    }
    visit_empty_below(nodes_.size());
    sqlite3_finalize(scan);
  }

 private:
  void Grow(uint32_t node) const {
    if (node >= nodes_.size()) nodes_.resize(node + 1);
    nodes_[node] = true;
  }
  sqlite3* db_;
  mutable std::vector<bool> nodes_;
};

std::string ReadFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) Fail("cannot read " + path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

struct AlgorithmFigures {
  double pagerank_s = 0;
  double recipe_s = 0;
  double plain_s = 0;
  double scc_s = 0;
  double recipe_difference = 0;  // pagerank()'s top 100 against the recipe's (TopDifference)
  double plain_difference = 0;   // the plain C++ one's against the recipe's
  int64_t components = 0;
  int64_t largest = 0;
};

AlgorithmFigures MeasureAlgorithms(const std::string& ours_path, const std::string& plain_path,
                                   const Options& options) {
  AlgorithmFigures figures;
  const std::string top = " ORDER BY rank DESC, id LIMIT 100";
  std::vector<double> ours;  // pagerank()'s ranks by id
  {
    sqlite3* db = OpenDb(ours_path, options.extension);
    Exec(db, "SELECT count(*) FROM outlinks");  // reads the lists
    std::vector<double> pagerank_times, scc_times;
    for (int i = 0; i < options.repetitions; ++i) {
      auto start = std::chrono::steady_clock::now();
      Exec(db, "SELECT count(*), sum(rank) FROM pagerank('outlinks')");
      pagerank_times.push_back(Seconds(start));
      start = std::chrono::steady_clock::now();
      Exec(db, "SELECT count(*) FROM scc('outlinks')");
      scc_times.push_back(Seconds(start));
    }
    figures.pagerank_s = Median(pagerank_times);
    figures.scc_s = Median(scc_times);
    for (auto [id, rank] : RankRows(db, "SELECT id, rank FROM pagerank('outlinks')")) {
      if (static_cast<size_t>(id) >= ours.size()) ours.resize(id + 1);
      ours[id] = rank;
    }
    sqlite3_stmt* components =
        Prepare(db,
                "SELECT count(*), max(size) FROM "
                "(SELECT count(*) AS size FROM scc('outlinks') GROUP BY component)");
    if (sqlite3_step(components) != SQLITE_ROW) Fail(sqlite3_errmsg(db));
    figures.components = sqlite3_column_int64(components, 0);
    figures.largest = sqlite3_column_int64(components, 1);
    sqlite3_finalize(components);
    sqlite3_close(db);
  }
  Ranks recipe_top;
  {
    // A connection of its own, as a user would run it.
    sqlite3* db = OpenDb(ours_path, options.extension);
    Exec(db, "SELECT count(*) FROM outlinks");
    const std::string recipe = ReadFile(options.recipe);
    auto start = std::chrono::steady_clock::now();
    Exec(db, recipe);
    figures.recipe_s = Seconds(start);
    recipe_top = RankRows(db, "SELECT id, rank FROM temp.pagerank_rank" + top);
    sqlite3_close(db);
  }
  {
    sqlite3* db = OpenDb(plain_path, options.extension);
    Exec(db, "SELECT count(*) FROM edges");
    std::vector<double> times;
    std::vector<double> rank;
    for (int i = 0; i < options.repetitions; ++i) {
      auto start = std::chrono::steady_clock::now();
      rank = crawldb::graph::PageRank(EdgesTableLists(db), {});
      times.push_back(Seconds(start));
    }
    figures.plain_s = Median(times);
    figures.plain_difference = TopDifference(rank, recipe_top);
    sqlite3_close(db);
  }
  figures.recipe_difference = TopDifference(ours, recipe_top);
  return figures;
}

void PrintAlgorithms(const AlgorithmFigures& f) {
  std::printf("\n### Graph functions (30 iterations, damping 0.85)\n\n");
  std::printf(
      "| algorithm | crawldb s | baseline s | baseline ÷ crawldb | top 100 vs recipe |\n"
      "|---|---:|---:|---:|---|\n");
  auto difference = [](double d) {
    char text[64];
    if (std::isinf(d)) return std::string("other nodes");
    std::snprintf(text, sizeof text, "ranks within %.1e", d);
    return std::string(text);
  };
  std::printf("| pagerank() vs sql/recipes/pagerank.sql | %.3f | %.3f | %.1f | %s |\n",
              f.pagerank_s, f.recipe_s, f.recipe_s / f.pagerank_s,
              difference(f.recipe_difference).c_str());
  std::printf(
      "| pagerank() vs graph::PageRank in C++ over the plain edges table | %.3f | %.3f "
      "| %.1f | %s (the C++ one's) |\n",
      f.pagerank_s, f.plain_s, f.plain_s / f.pagerank_s, difference(f.plain_difference).c_str());
  std::printf("| scc(): %lld components, the largest of %lld nodes | %.3f | – | – | – |\n",
              static_cast<long long>(f.components), static_cast<long long>(f.largest), f.scc_s);
  std::printf(
      "\nTargets: pagerank() ≥ 50× faster than the recipe: %s; the same top 100, ranks within "
      "1e-9: %s; scc() as bench/links.sh on cnr-2000 (100,977 components, the largest 112,023): "
      "%s\n",
      f.recipe_s >= 50 * f.pagerank_s ? "met" : "MISSED",
      f.recipe_difference <= 1e-9 ? "met" : "MISSED",
      f.components == 100977 && f.largest == 112023 ? "met" : "MISSED");
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  const char* shared = std::getenv("CRAWLDB_SHARED_DATA");
  options.arcs =
      std::string(shared ? shared : CRAWLDB_SHARED_DATA) + "/cnr-2000/cnr-2000.arcs.tsv.xz";
  const char* tmp = std::getenv("TMPDIR");
  options.tmpdir = tmp ? tmp : "/tmp";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char* flag) -> std::optional<std::string> {
      std::string prefix = std::string(flag) + "=";
      if (arg.rfind(prefix, 0) == 0) return arg.substr(prefix.size());
      return std::nullopt;
    };
    std::optional<std::string> v;
    if ((v = value("--arcs")))
      options.arcs = *v;
    else if ((v = value("--codec")))
      options.codec = *v;
    else if ((v = value("--lookups")))
      options.lookups = std::stoul(*v);
    else if ((v = value("--repetitions")))
      options.repetitions = std::max(1, std::stoi(*v));
    else if ((v = value("--seed")))
      options.seed = static_cast<uint32_t>(std::stoul(*v));
    else if ((v = value("--tmpdir")))
      options.tmpdir = *v;
    else if ((v = value("--extension")))
      options.extension = *v;
    else if ((v = value("--recipe")))
      options.recipe = *v;
    else
      Fail("unknown argument " + arg);
  }
  std::filesystem::path dir = std::filesystem::path(options.tmpdir) /
                              ("crawldb-links-sql-bench-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string arcs_path = options.arcs;
  if (arcs_path.size() > 3 && arcs_path.substr(arcs_path.size() - 3) == ".xz") {
    arcs_path = (dir / "arcs.tsv").string();
    std::string command = "xz -dc '" + options.arcs + "' > '" + arcs_path + "'";
    if (std::system(command.c_str()) != 0) Fail("cannot decompress " + options.arcs);
  }
  // The arcs, for the plain table and the look-up nodes.
  std::vector<std::pair<int64_t, int64_t>> arcs;
  {
    std::ifstream file(arcs_path);
    int64_t src, dst;
    while (file >> src >> dst) arcs.emplace_back(src, dst);
  }
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end()), arcs.end());
  int64_t max_node = 0;
  for (auto [src, dst] : arcs) max_node = std::max({max_node, src, dst});
  std::mt19937 random(options.seed);
  std::vector<int64_t> nodes(options.lookups);
  for (int64_t& node : nodes) node = std::uniform_int_distribution<int64_t>(0, max_node)(random);

  char schema[512];
  std::snprintf(schema, sizeof schema, kCrawldbSchema, options.codec.c_str());
  const std::string ours_path = (dir / "crawldb.db").string();
  const std::string plain_path = (dir / "plain.db").string();
  const uintmax_t ours_empty = EmptyBytes((dir / "crawldb-empty.db").string(), schema, options);
  const uintmax_t plain_empty =
      EmptyBytes((dir / "plain-empty.db").string(), kPlainSchema, options);

  Figures ours, plain;
  {
    sqlite3* db = OpenDb(ours_path, options.extension);
    Exec(db, schema);
    auto start = std::chrono::steady_clock::now();
    Exec(db, "SELECT crawldb_import_arcs('" + arcs_path + "')");
    ours.load_s = Seconds(start);
    Exec(db, "VACUUM");
    sqlite3_close(db);
  }
  {
    sqlite3* db = OpenDb(plain_path, options.extension);
    Exec(db, kPlainSchema);
    auto start = std::chrono::steady_clock::now();
    Exec(db, "BEGIN");
    sqlite3_stmt* insert = Prepare(db, "INSERT INTO edges VALUES (?, ?)");
    for (auto [src, dst] : arcs) {
      sqlite3_bind_int64(insert, 1, src);
      sqlite3_bind_int64(insert, 2, dst);
      sqlite3_step(insert);
      sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    Exec(db, "COMMIT");
    plain.load_s = Seconds(start);
    Exec(db, "VACUUM");
    sqlite3_close(db);
  }
  const double n = static_cast<double>(arcs.size());
  ours.bits_per_link = 8.0 * static_cast<double>(FileBytes(ours_path) - ours_empty) / n;
  plain.bits_per_link = 8.0 * static_cast<double>(FileBytes(plain_path) - plain_empty) / n;
  Figures measured_ours = Measure(ours_path, "outlinks", "SELECT src FROM inlinks WHERE dst = ?",
                                  "SELECT dst FROM outlinks WHERE src = ?", nodes, options);
  Figures measured_plain = Measure(plain_path, "edges", "SELECT src FROM edges WHERE dst = ?",
                                   "SELECT dst FROM edges WHERE src = ?", nodes, options);
  measured_ours.bits_per_link = ours.bits_per_link;
  measured_ours.load_s = ours.load_s;
  measured_plain.bits_per_link = plain.bits_per_link;
  measured_plain.load_s = plain.load_s;
  if (measured_ours.scan_sum != measured_plain.scan_sum ||
      measured_ours.out_sum != measured_plain.out_sum ||
      measured_ours.in_sum != measured_plain.in_sum) {
    std::printf("WARNING: crawldb and the plain table read different ids\n");
  }

  std::printf("\n### SQL: %s, %zu arcs, %lld nodes, codec %s\n\n", options.arcs.c_str(),
              arcs.size(), static_cast<long long>(max_node + 1), options.codec.c_str());
  std::printf("| measure | crawldb | plain table | crawldb ÷ plain |\n|---|---:|---:|---:|\n");
  auto row = [](const char* name, double a, double b, const char* format) {
    char left[64], right[64];
    std::snprintf(left, sizeof left, format, a);
    std::snprintf(right, sizeof right, format, b);
    std::printf("| %s | %s | %s | %.3f |\n", name, left, right, a / b);
  };
  row("bits/link, both directions (file after VACUUM − empty)", measured_ours.bits_per_link,
      measured_plain.bits_per_link, "%.2f");
  row("load s (import_arcs / INSERTs in one transaction)", measured_ours.load_s,
      measured_plain.load_s, "%.3f");
  row("open + first scan s", measured_ours.open_s, measured_plain.open_s, "%.3f");
  row("`SELECT count(*), sum(dst)` s", measured_ours.scan_s, measured_plain.scan_s, "%.3f");
  row("out-list look-up µs (`src = ?`)", measured_ours.out_us, measured_plain.out_us, "%.2f");
  row("in-list look-up µs (`dst = ?`)", measured_ours.in_us, measured_plain.in_us, "%.2f");
  std::printf(
      "\nTargets: bits/link ≤ 12 both directions: %s; scan no slower than the plain table: "
      "%s; look-ups no slower: out %s, in %s\n",
      measured_ours.bits_per_link <= 12 ? "met" : "MISSED",
      measured_ours.scan_s <= measured_plain.scan_s ? "met" : "MISSED",
      measured_ours.out_us <= measured_plain.out_us ? "met" : "MISSED",
      measured_ours.in_us <= measured_plain.in_us ? "met" : "MISSED");
  PrintAlgorithms(MeasureAlgorithms(ours_path, plain_path, options));
  std::filesystem::remove_all(dir);
  return 0;
}
