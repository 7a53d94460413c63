// A link graph's base is read paged (link_graph_format.h): a new connection's look-ups in
// outlinks and inlinks read a handful of the pages of <t>_graph, a scan holds at most the cache
// bound of them, and a part that cannot be read fails the statement that needs it, with
// SQLITE_CORRUPT_VTAB naming it when it is missing, while look-ups elsewhere answer.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

constexpr uint32_t kNodes = 200000;

// Node v links to the 6 nodes after it, and every 7th node to one far away: 6.1 arcs per node,
// every in-list and out-list known in closed form.
std::vector<uint32_t> OutList(uint32_t v) {
  std::vector<uint32_t> list;
  for (uint32_t k = 1; k <= 6; ++k) list.push_back((v + k) % kNodes);
  if (v % 7 == 0) list.push_back((v * 31 + 5) % kNodes);
  return list;
}

int PagesRead(SQLite::Database& db) {
  int current = 0, highest = 0;
  sqlite3_db_status(db.getHandle(), SQLITE_DBSTATUS_CACHE_MISS, &current, &highest, 0);
  return current;
}

// A graph of kNodes nodes imported and optimized into `path`.
void WriteGraph(const std::string& path) {
  const std::string arcs = path + ".arcs";
  {
    std::ofstream out(arcs);
    for (uint32_t v = 0; v < kNodes; ++v) {
      for (uint32_t dst : OutList(v)) out << v << '\t' << dst << '\n';
    }
  }
  SQLite::Database db = LoadedDb(path);
  db.exec(
      "CREATE VIRTUAL TABLE urls USING crawldb_urls;"
      "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);"
      "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);");
  One(db, "SELECT crawldb_import_arcs('" + arcs + "')");
  std::filesystem::remove(arcs);
}

uint64_t Varint(const std::vector<uint8_t>& bytes, size_t* at) {
  uint64_t value = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t byte = bytes.at((*at)++);
    value |= uint64_t{byte & 0x7Fu} << shift;
    if (byte < 0x80) return value;
  }
}

// The parts of the out graph, from the header (part 0: version out_bytes in_bytes part_bytes).
uint64_t OutParts(SQLite::Database& db) {
  SQLite::Statement select(db, "SELECT data FROM outlinks_graph WHERE part = 0");
  EXPECT_TRUE(select.executeStep());
  const auto* data = static_cast<const uint8_t*>(select.getColumn(0).getBlob());
  const std::vector<uint8_t> header(data, data + select.getColumn(0).getBytes());
  size_t at = 1;
  const uint64_t out_bytes = Varint(header, &at);
  Varint(header, &at);
  const uint64_t part_bytes = Varint(header, &at);
  return (out_bytes + part_bytes - 1) / part_bytes;
}

TEST(LinksPaging, ALookUpReadsAFewPagesOfTheGraph) {
  const std::string path = TempDbPath("links_paging");
  WriteGraph(path);
  SQLite::Database db = LoadedDb(path);
  const int graph_pages =
      std::stoi(One(db, "SELECT sum(pgsize) / 4096 FROM dbstat WHERE name = 'outlinks_graph'"));
  const int before = PagesRead(db);
  constexpr uint32_t kNode = 100003;  // not a multiple of 7: its out-list is the next six
  EXPECT_EQ(One(db, "SELECT count(*) || ' ' || sum(dst) FROM outlinks WHERE src = 100003"),
            "6 " + std::to_string(6 * kNode + 21));
  // Its in-list: the six nodes before it, and each 7v with 31 · 7v + 5 ≡ kNode (mod kNodes).
  uint64_t in_count = 6, in_sum = 6 * kNode - 21;
  for (uint32_t v = 0; v < kNodes; v += 7) {
    if ((v * 31 + 5) % kNodes == kNode) {
      ++in_count;
      in_sum += v;
    }
  }
  EXPECT_EQ(One(db, "SELECT count(*) || ' ' || sum(src) FROM inlinks WHERE dst = 100003"),
            std::to_string(in_count) + " " + std::to_string(in_sum));
  const int read = PagesRead(db) - before;
  EXPECT_GT(graph_pages, 400);
  // Per direction: the header part, the part of the starts record, the part of the records;
  // 16 pages of 4 KiB each.
  EXPECT_LT(read, graph_pages / 4) << "of " << graph_pages;
  std::printf("pages read to open and look up out and in: %d of the graph's %d\n", read,
              graph_pages);
}

// The connection's cache bound (crawldb_cache_mb, or the table's cache_mb) holds the parts a
// scan of the whole graph reads within it: those read longest ago are dropped as it goes.
TEST(LinksPaging, ScansOfAGraphLargerThanTheCacheStayWithinIt) {
  const std::string path = TempDbPath("links_paging_bounded");
  WriteGraph(path);
  SQLite::Database db = LoadedDb(path);
  One(db, "SELECT crawldb_cache_mb(1)");
  uint64_t arcs = 0;
  for (uint32_t v = 0; v < kNodes; ++v) {
    std::vector<uint32_t> list = OutList(v);
    std::sort(list.begin(), list.end());
    arcs += static_cast<uint64_t>(std::unique(list.begin(), list.end()) - list.begin());
  }
  EXPECT_EQ(One(db, "SELECT count(*) FROM outlinks"), std::to_string(arcs));
  EXPECT_EQ(One(db, "SELECT count(*) FROM inlinks"), std::to_string(arcs));
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  const std::string memory =
      "SELECT json_extract(value, '$.memory_bytes') FROM "
      "json_each(crawldb_stats(), '$.tables') WHERE "
      "json_extract(value, '$.table') = 'outlinks'";
  // The parts (1 MiB for both directions) and a bit per node and direction for the lists
  // checked.
  const int64_t bound = (int64_t{1} << 20) + 2 * (kNodes / 8) + 4096;
  EXPECT_LE(std::stoll(One(db, memory)), bound);
  const int64_t graph_bytes = std::stoll(One(db, "SELECT sum(length(data)) FROM outlinks_graph"));
  EXPECT_GT(graph_bytes, bound * 3 / 2);
  // Unbounded again: the next scan keeps what it reads.
  One(db, "SELECT crawldb_cache_mb(256)");
  EXPECT_EQ(One(db, "SELECT count(*) FROM outlinks"), std::to_string(arcs));
  EXPECT_GT(std::stoll(One(db, memory)), graph_bytes / 3);
}

TEST(LinksPaging, AMissingPartFailsTheLookUpsThatNeedIt) {
  const std::string path = TempDbPath("links_paging_damaged");
  WriteGraph(path);
  {
    SQLite::Database db = LoadedDb(path);
    const uint64_t out_parts = OutParts(db);
    ASSERT_GT(out_parts, 6u);
    // A part of the out graph's records, two thirds of the way.
    db.exec("DELETE FROM outlinks_graph WHERE part = " + std::to_string(out_parts * 2 / 3));
  }
  SQLite::Database db = LoadedDb(path);
  // Look-ups over the whole graph: those whose records lie in the part fail, the others answer.
  int answered = 0, failed = 0;
  for (uint32_t src = 1; src < kNodes; src += kNodes / 40) {
    try {
      const std::string count =
          One(db, "SELECT count(*) FROM outlinks WHERE src = " + std::to_string(src));
      EXPECT_EQ(count, src % 7 == 0 ? "7" : "6") << src;
      ++answered;
    } catch (const SQLite::Exception& e) {
      ++failed;
      EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB);
      EXPECT_EQ(
          std::string(e.what()).rfind("crawldb_links: table 'outlinks': links: graph part ", 0), 0u)
          << e.what();
      EXPECT_NE(std::string(e.what()).find(" is missing"), std::string::npos) << e.what();
    }
  }
  EXPECT_GE(failed, 1);
  EXPECT_GE(answered, 30);
  EXPECT_EQ(One(db, "SELECT count(*) FROM inlinks WHERE dst = 59990"), "6");
  EXPECT_EQ(One(db, "SELECT crawldb_check()").rfind("outlinks: links: graph part ", 0), 0u);
  // The next statement reads again, and finds the part still missing.
  EXPECT_THROW(db.execAndGet("SELECT count(*) FROM outlinks"), SQLite::Exception);
  EXPECT_EQ(One(db, "SELECT group_concat(dst) FROM outlinks WHERE src = 1"), "2,3,4,5,6,7");
}

// A part read by rowid (incremental blob I/O) whose value is not a blob is corruption.
TEST(LinksPaging, APartThatIsNotABlobIsCorruption) {
  const std::string path = TempDbPath("links_paging_not_blob");
  WriteGraph(path);
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("UPDATE outlinks_graph SET data = 5 WHERE part = 1");
  }
  SQLite::Database db = LoadedDb(path);
  try {
    db.execAndGet("SELECT count(*) FROM outlinks WHERE src = 1");
    ADD_FAILURE() << "the look-up read a part that is not a blob";
  } catch (const SQLite::Exception& e) {
    EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB);
    EXPECT_NE(std::string(e.what()).find("row 1 of outlinks_graph holds no blob in data"),
              std::string::npos)
        << e.what();
  }
}

// Loading reads only the parts the header counts, so a part past them is not noticed by the
// look-ups; the check finds it.
TEST(LinksPaging, APartPastTheHeadersCountIsFoundByTheCheck) {
  const std::string path = TempDbPath("links_paging_extra_part");
  WriteGraph(path);
  int64_t last = 0;
  {
    SQLite::Database db = LoadedDb(path);
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    last = std::stoll(One(db, "SELECT max(part) FROM outlinks_graph"));
    db.exec("INSERT INTO outlinks_graph(part, data) VALUES (" + std::to_string(last + 1) +
            ", x'00')");
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT group_concat(dst) FROM outlinks WHERE src = 1"), "2,3,4,5,6,7");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"),
            "outlinks: links: the graph has " + std::to_string(last + 1) +
                " parts, its header says " + std::to_string(last));
}

}  // namespace
}  // namespace crawldb::testing
