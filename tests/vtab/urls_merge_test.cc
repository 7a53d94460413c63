// Batch merges through SQL (urls_table.h, url_part.h): what commits write to <t>_parts and
// <t>_deleted, the log rows they trim, reopening, a connection left behind, damaged rows, the
// refused format version 1, and what merging saves in a crawl that never optimizes. Most tables
// fold their log tail at every commit (log_tail_kb=0), so that every commit writes pending rows
// and merges as it would at a fold (urls_log_tail_test.cc tests the tail).
#include <filesystem>
#include <map>
#include <random>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "codecs/varint.h"
#include "extension/urls/url_part.h"
#include "tests/vtab/loaded_db.h"
#include "tests/vtab/url_rows.h"

namespace crawldb::testing {
namespace {

int64_t Stat(SQLite::Database& db, const std::string& key) {
  return std::stoll(One(db, "SELECT json_extract(crawldb_stats(), '$.tables[0]." + key + "')"));
}

class UrlsMerge : public ::testing::Test {
 protected:
  void SetUp() override {
    reddit_ = ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"), 20000);
    ASSERT_EQ(reddit_.size(), 20000u);
  }
  std::vector<std::string> reddit_;
};

TEST_F(UrlsMerge, CommitsMergePartsTrimTheLogAndReopenAsTheyWere) {
  const std::string path = TempDbPath("urls_merge_reopen");
  std::map<std::string, std::string> before;
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, log_tail_kb=0)");
    InsertBatches(db, reddit_, 0, 12000, 400);
    db.exec("SELECT crawldb_optimize()");  // a base, whose model the parts then share
    InsertBatches(db, reddit_, 12000, 20000, 400);
    db.exec("DELETE FROM urls WHERE id % 97 = 0");
    const int64_t merged = Stat(db, "merged_urls");
    EXPECT_GT(merged, 6000);
    EXPECT_EQ(Stat(db, "parts_model_bytes"), 0);  // the base's model
    EXPECT_EQ(std::stoll(One(db, "SELECT count(*) FROM urls_parts WHERE part >= 0")),
              std::stoll(One(db, "SELECT count(*) FROM urls_parts")));
    // Rows every part holds were trimmed; the deletions are in urls_deleted.
    EXPECT_LT(std::stoll(One(db, "SELECT count(*) FROM urls_log")), 30);
    EXPECT_EQ(One(db, "SELECT count(*) FROM urls_deleted"), std::to_string(Stat(db, "deleted")));
    // Merged keys take a fraction of the log's bytes for the same URLs.
    EXPECT_LT(Stat(db, "parts_bytes"), merged * 30);
    // A host's URLs come from the base, its part and the pending keys.
    EXPECT_EQ(One(db, "SELECT count(*) FROM urls WHERE host = 'www.nytimes.com'"),
              One(db, "SELECT count(*) FROM urls WHERE url_host(url) = 'www.nytimes.com'"));
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
    before = UrlIds(db);
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(UrlIds(db), before);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
  for (const auto& [url, id] : before) {
    if (std::stoll(id) % 13 != 0) continue;
    ASSERT_EQ(One(db, "SELECT url_id('" + url + "')"), id) << url;
    ASSERT_EQ(One(db, "SELECT url FROM urls WHERE id = " + id), url);
  }
  // Ids given after a reopen follow the largest one, deleted or not.
  db.exec("INSERT INTO urls(url) VALUES ('http://after.example/')");
  EXPECT_EQ(One(db, "SELECT max(id) FROM urls"), One(db,
                                                     "SELECT json_extract(crawldb_stats(), "
                                                     "'$.tables[0].max_id')"));
  db.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_parts"), "0");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_deleted"), "0");
  EXPECT_EQ(Stat(db, "merged_urls"), 0);
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), std::to_string(before.size() + 1));
}

TEST_F(UrlsMerge, ASmallBaseGivesThePartsTheirOwnModel) {
  SQLite::Database db = LoadedDb(TempDbPath("urls_merge_model"));
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, log_tail_kb=0)");
  InsertBatches(db, reddit_, 0, 5000, 500);
  EXPECT_GT(Stat(db, "parts_model_bytes"), 0);
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_parts WHERE part = -1"), "1");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST_F(UrlsMerge, AConnectionLeftBehindCatchesUpOrReloads) {
  const std::string path = TempDbPath("urls_merge_behind");
  SQLite::Database writer = LoadedDb(path);
  writer.exec("PRAGMA journal_mode = WAL");
  writer.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0)");
  SQLite::Database reader = LoadedDb(path);
  InsertBatches(writer, reddit_, 0, 1000, 100);
  // One commit at a time: the reader replays the new row and installs the parts it rewrote.
  for (size_t start = 1000; start < 3000; start += 250) {
    InsertBatches(writer, reddit_, start, start + 250, 250);
    ASSERT_EQ(UrlIds(reader), UrlIds(writer));
  }
  // Many commits unseen: the rows the reader needs are trimmed, so it reloads.
  InsertBatches(writer, reddit_, 3000, 12000, 300);
  writer.exec("DELETE FROM urls WHERE id % 5 = 0");
  EXPECT_EQ(UrlIds(reader), UrlIds(writer));
  EXPECT_EQ(One(reader, "SELECT crawldb_check()"), "ok");
  // And the reader's writes reach the writer.
  InsertBatches(reader, reddit_, 12000, 13000, 100);
  EXPECT_EQ(UrlIds(writer), UrlIds(reader));
}

TEST_F(UrlsMerge, DamagedPartsAreCorruptVtabNeverACrash) {
  const std::string path = TempDbPath("urls_merge_corrupt");
  {
    SQLite::Database db = LoadedDb(path);
    // cache_mb=0: the damaged part is read again by every statement.
    db.exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, cache_mb=0, log_tail_kb=0)");
    InsertBatches(db, reddit_, 0, 3000, 300);
  }
  const std::string some_part = [&] {
    SQLite::Database db = LoadedDb(path);
    return One(db, "SELECT part FROM urls_parts WHERE part >= 0 ORDER BY length(data) DESC");
  }();
  const std::vector<std::string> damages = {
      "UPDATE urls_parts SET data = substr(data, 1, length(data) / 2) WHERE part = " + some_part,
      "UPDATE urls_parts SET data = substr(data, 1, 3) WHERE part = " + some_part,
      "UPDATE urls_parts SET data = x'' WHERE part = -1",
      "DELETE FROM urls_parts WHERE part = -1",
      "UPDATE urls_parts SET part = 5000 WHERE part = " + some_part,
      "UPDATE urls_parts SET data = x'09' WHERE part = " + some_part,
      "INSERT INTO urls_deleted(id) VALUES (-4)",
      "UPDATE urls_log SET deleted = x'010102' WHERE seq = (SELECT max(seq) FROM urls_log)",
  };
  std::vector<std::string> flips;
  for (size_t at = 0; at < 60; ++at) {
    flips.push_back("UPDATE urls_parts SET data = flip(data, length(data) * " + std::to_string(at) +
                    " / 60) WHERE part = " + some_part);
  }
  const std::vector<std::string> reads = {"SELECT url, host, fp FROM urls",
                                          "SELECT * FROM urls WHERE host = 'www.nytimes.com'",
                                          "SELECT url_id('http://www.reddit.com/')"};
  for (const std::string& flip : flips) {
    SCOPED_TRACE(flip);
    SQLite::Database reader = LoadedDb(DamagedCopy(path, "urls_merge_corrupt_copy", flip));
    ExpectReadOrCorrupt(reader, reads, "crawldb_urls: ");
    One(reader, "SELECT crawldb_check()");
  }
  for (const std::string& damage : damages) {
    SCOPED_TRACE(damage);
    SQLite::Database reader = LoadedDb(DamagedCopy(path, "urls_merge_corrupt_copy", damage));
    ExpectReadOrCorrupt(reader, reads, "crawldb_urls: ");
    EXPECT_NE(One(reader, "SELECT crawldb_check()"), "ok") << "a damage went unnoticed";
  }
}

// The SQL function repeat_first_id(part blob): the blob (url_part.h) with the id of rank 1 set to
// the id of rank 0, every other byte as it was.
void RepeatFirstId(sqlite3_context* context, int, sqlite3_value** argv) {
  const auto* data = static_cast<const uint8_t*>(sqlite3_value_blob(argv[0]));
  std::vector<uint8_t> bytes(data, data + sqlite3_value_bytes(argv[0]));
  uint64_t through_id = 0, count = 0;
  const uint8_t* p = codecs::ReadVarint(bytes.data() + 1, bytes.data() + bytes.size(), &through_id);
  p = codecs::ReadVarint(p, bytes.data() + bytes.size(), &count);
  const int id_bits = *p++;
  const size_t ids = static_cast<size_t>(p - bytes.data());
  auto bit = [&](size_t at) { return (bytes[ids + at / 8] >> (at % 8)) & 1; };
  for (int b = 0; b < id_bits; ++b) {
    const size_t at = static_cast<size_t>(id_bits + b);
    bytes[ids + at / 8] = static_cast<uint8_t>((bytes[ids + at / 8] & ~(1 << (at % 8))) |
                                               (bit(static_cast<size_t>(b)) << (at % 8)));
  }
  sqlite3_result_blob(context, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT);
}

// Loading a part checks its ids' range, not that none repeats (that would sort them for every
// cold look-up): look-ups by id find the damage — the id written over is a live id with no URL,
// the other repeats (found by the scan of a look-up of it, or by the sort) — and so does
// crawldb_check.
TEST_F(UrlsMerge, ARepeatedIdIsFoundByIdLookUpsAndCheck) {
  const std::string path = TempDbPath("urls_merge_repeat");
  std::string count;
  {
    SQLite::Database db = LoadedDb(path);
    db.exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, cache_mb=0, log_tail_kb=0)");
    InsertBatches(db, reddit_, 0, 3000, 300);
    count = One(db, "SELECT count(*) FROM urls");
  }
  const std::string copy = TempDbPath("urls_merge_repeat_copy");
  std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
  {
    SQLite::Database db = LoadedDb(copy);
    db.createFunction("repeat_first_id", 1, true, nullptr, &RepeatFirstId);
    db.exec(
        "UPDATE urls_parts SET data = repeat_first_id(data) WHERE part = (SELECT part FROM "
        "urls_parts WHERE part >= 0 ORDER BY length(data) DESC LIMIT 1)");
  }
  SQLite::Database reader = LoadedDb(copy);
  EXPECT_EQ(One(reader, "SELECT count(*) FROM urls"), count);  // scans read no id order
  bool repeats = false, has_no_url = false;
  SQLite::Statement select(reader, "SELECT url FROM urls WHERE id = ?");
  for (int64_t id = 1; id <= 3000; ++id) {
    try {
      select.bind(1, id);
      select.executeStep();
    } catch (const SQLite::Exception& e) {
      EXPECT_EQ(e.getExtendedErrorCode(), SQLITE_CORRUPT_VTAB) << e.what();
      const std::string error = e.what();
      repeats |= error.find("repeats") != std::string::npos;
      has_no_url |= error.find("has no URL") != std::string::npos;
    }
    select.tryReset();  // a failed step's error again: caught above
  }
  EXPECT_TRUE(repeats);
  EXPECT_TRUE(has_no_url);
  EXPECT_NE(One(reader, "SELECT crawldb_check()"), "ok");
}

// A part's pending rows are folded as commits add to it (binary-counter style), so that reading
// a part unpacks a handful of rows however many commits added to it; folded rows read back the
// same, and a merge then deletes them all.
TEST_F(UrlsMerge, PendingRowsFoldToAboutLog2OfTheCommits) {
  const std::string path = TempDbPath("urls_merge_fold");
  std::vector<std::string> urls;
  for (int i = 0; i < 640; ++i) urls.push_back("http://one.example/page/" + std::to_string(i));
  std::map<std::string, std::string> before;
  {
    SQLite::Database db = LoadedDb(path);
    db.exec(
        "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=1099511627776, log_tail_kb=0)");
    InsertBatches(db, urls, 0, urls.size(), 10);  // 64 commits to one part
    const int rows = std::stoi(One(db, "SELECT count(*) FROM urls_pending"));
    EXPECT_GE(rows, 1);
    EXPECT_LE(rows, 7) << "64 commits: at most log2(64) + 1 rows";
    EXPECT_EQ(Stat(db, "pending_urls"), 640);
    before = UrlIds(db);
  }
  SQLite::Database db = LoadedDb(path);
  EXPECT_EQ(One(db, "SELECT crawldb_cache_mb(0)"), "0");
  EXPECT_EQ(UrlIds(db), before);
  EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
}

TEST_F(UrlsMerge, TablesOfFormatVersion1AreRefusedWithWhatToDo) {
  const std::string path = TempDbPath("urls_merge_v1");
  {
    SQLite::Database db = LoadedDb(path);
    db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
    db.exec("UPDATE urls_config SET value = '1' WHERE key = 'format_version'");
  }
  SQLite::Database db = LoadedDb(path);
  try {
    db.exec("SELECT count(*) FROM urls");
    ADD_FAILURE() << "a version 1 table was read";
  } catch (const SQLite::Exception& e) {
    EXPECT_NE(std::string(e.what()).find("format version 1, older than this build reads (3 to 7)"),
              std::string::npos)
        << e.what();
  }
}

// A crawl that never optimizes: the URLs pending in each part stay within the larger of
// merge_bytes and its run's stored bytes (plus what the last
// commits added), and the file holds at most half again what it holds without merges: the
// pending rows the merges replace are compressed too, and take less than runs, which carry
// every key's id and a filter.
TEST_F(UrlsMerge, ACrawlThatNeverOptimizesKeepsItsPendingUrlsBounded) {
  const std::vector<std::string> urls = ReadXzLines(SharedDataPath("reddit/urls-2005-2007.txt.xz"));
  auto crawl = [&](const std::string& create, bool check_bound) {
    const std::string path = TempDbPath("urls_merge_size");
    {
      SQLite::Database db = LoadedDb(path);
      db.exec(create);
      const int64_t merge_bytes = 4096;
      for (size_t start = 0; start < urls.size(); start += 1000) {
        InsertBatches(db, urls, start, std::min(urls.size(), start + 1000), 1000);
        if (!check_bound || start % 50000 != 0) continue;
        const int64_t stored = Stat(db, "base_bytes") + Stat(db, "parts_bytes");
        EXPECT_LE(Stat(db, "pending_key_bytes"),
                  static_cast<int64_t>(urls::kUrlParts) * merge_bytes + stored + 2 * 1000 * 80)
            << "after " << start + 1000 << " URLs";
        if (::testing::Test::HasFailure()) break;
      }
      if (check_bound) {
        EXPECT_GT(Stat(db, "merged_urls"), Stat(db, "urls") / 2);
      }
      EXPECT_EQ(One(db, "SELECT crawldb_check()"), "ok");
      db.exec("VACUUM");
    }
    return std::filesystem::file_size(path);
  };
  const auto plain = crawl(
      "CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=1099511627776, log_tail_kb=0)",
      false);
  const auto merged =
      crawl("CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=4096, log_tail_kb=0)", true);
  EXPECT_LT(merged, plain * 3 / 2) << merged << " bytes merged, " << plain << " bytes without";
}

}  // namespace
}  // namespace crawldb::testing
