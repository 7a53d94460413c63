// The optimized base of a `urls` table is read a group of blocks at a time, when a look-up first
// needs one (url_base.h): a damaged group fails the look-ups that read it and no other, and a
// group read later belongs to the same base as the groups read before, or to the base another
// connection's optimize wrote once this one has caught up with it.
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/vtab/loaded_db.h"

namespace crawldb::testing {
namespace {

// 3,000 URLs, optimized: 94 blocks of 32, urls_base parts 3 (ids 1 to 2,048) and 4 (the rest).
std::string OptimizedTable(const std::string& name, bool wal = false) {
  const std::string path = TempDbPath(name);
  SQLite::Database db = LoadedDb(path);
  if (wal) db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE VIRTUAL TABLE urls USING crawldb_urls");
  db.exec(
      "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2999) "
      "INSERT INTO urls(url) SELECT 'http://site' || (i % 7) || '.com/page/' || i FROM n");
  db.exec("SELECT crawldb_optimize()");
  EXPECT_EQ(One(db, "SELECT count(*) FROM urls_base"), "5");
  return path;
}

TEST(UrlsBaseReads, ADamagedGroupFailsTheLookUpsThatReadItAndNoOther) {
  const std::string path = OptimizedTable("urls_base_reads_damaged");
  std::string url_17, url_2900;
  {
    SQLite::Database db = LoadedDb(path);
    url_17 = One(db, "SELECT url FROM urls WHERE id = 17");
    url_2900 = One(db, "SELECT url FROM urls WHERE id = 2900");
  }
  SQLite::Database db = LoadedDb(
      DamagedCopy(path, "urls_base_reads_damaged_copy",
                  "UPDATE urls_base SET data = substr(data, 1, length(data) - 1) WHERE part = 4"));
  // Opening reads parts 0 to 2, and the first group answers.
  EXPECT_EQ(One(db, "SELECT url FROM urls WHERE id = 17"), url_17);
  EXPECT_EQ(One(db, "SELECT id FROM urls WHERE url = '" + url_17 + "'"), "17");
  const std::string message =
      "crawldb_urls: table 'urls': url base: block 93 runs past the end of part 4; the stored "
      "data is damaged; restore the file from a backup";
  ExpectError(db, "SELECT url FROM urls WHERE id = 2900", SQLITE_CORRUPT_VTAB, message);
  ExpectError(db, "SELECT id FROM urls WHERE url = '" + url_2900 + "'", SQLITE_CORRUPT_VTAB,
              message);
  // The failure is not kept: the group is read again, and the first still answers.
  ExpectError(db, "SELECT url FROM urls WHERE id = 2900", SQLITE_CORRUPT_VTAB, message);
  EXPECT_EQ(One(db, "SELECT id FROM urls WHERE url = (SELECT url FROM urls WHERE id = 18)"), "18");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"),
            "urls: url base: block 93 runs past the end of part 4");
}

TEST(UrlsBaseReads, AnExtraOrMissingBaseRowIsFoundByTheCheck) {
  const std::string path = OptimizedTable("urls_base_reads_rows");
  {
    SQLite::Database db = LoadedDb(DamagedCopy(
        path, "urls_base_reads_rows_copy", "INSERT INTO urls_base(part, data) VALUES (5, x'00')"));
    EXPECT_EQ(One(db, "SELECT count(*) FROM urls"), "3000");
    EXPECT_EQ(One(db, "SELECT crawldb_check()"), "urls: the base has 6 parts, its header says 5");
  }
  SQLite::Database db = LoadedDb(
      DamagedCopy(path, "urls_base_reads_rows_copy", "DELETE FROM urls_base WHERE part = 3"));
  EXPECT_EQ(One(db, "SELECT url FROM urls WHERE id = 2900").substr(0, 11), "http://site");
  ExpectError(db, "SELECT url FROM urls WHERE id = 17", SQLITE_CORRUPT_VTAB,
              "crawldb_urls: table 'urls': url base: part 3 is missing; the stored data is "
              "damaged; restore the file from a backup");
  EXPECT_EQ(One(db, "SELECT crawldb_check()"),
            "urls: the base has 4 parts, its header says 5\nurls: url base: part 3 is missing");
}

// Another connection optimizes between two look-ups of this one, which read different groups:
// outside a transaction the second look-up catches up first and reads the new base; inside one
// (WAL: the optimize commits while this connection reads) it reads the base it began with.
TEST(UrlsBaseReads, AGroupReadLaterBelongsToTheBaseTheConnectionHolds) {
  const std::string path = OptimizedTable("urls_base_reads_consistent", /*wal=*/true);
  SQLite::Database reader = LoadedDb(path);
  SQLite::Database writer = LoadedDb(path);
  auto url_of = [](SQLite::Database& db, int id) {
    return One(db, "SELECT url FROM urls WHERE id = " + std::to_string(id));
  };
  // Deleting the first ids renumbers every other one at optimize.
  auto optimize_without_the_first = [&](int count) {
    writer.exec("DELETE FROM urls WHERE id <= " + std::to_string(count));
    writer.exec("SELECT crawldb_optimize()");
  };

  const std::string old_17 = url_of(reader, 17);  // group 0 read, group 1 not
  const std::string old_2700 = url_of(writer, 2700);
  optimize_without_the_first(100);
  ASSERT_NE(url_of(writer, 2700), old_2700);
  EXPECT_EQ(url_of(reader, 2700), url_of(writer, 2700));
  EXPECT_EQ(url_of(reader, 17), url_of(writer, 17));
  EXPECT_EQ(One(reader, "SELECT count(*) FROM urls WHERE url = '" + old_17 + "'"), "0");

  // In a transaction, the base loaded at its first look-up (group 0 read), then an optimize
  // committed by the other connection: group 1 comes from the transaction's snapshot.
  optimize_without_the_first(50);
  reader.exec("BEGIN");
  const std::string before_17 = url_of(reader, 17);
  const std::string before_2700 = url_of(writer, 2700);
  optimize_without_the_first(50);
  ASSERT_NE(url_of(writer, 2700), before_2700);
  EXPECT_EQ(url_of(reader, 2700), before_2700);
  EXPECT_EQ(url_of(reader, 17), before_17);
  EXPECT_EQ(One(reader, "SELECT id FROM urls WHERE url = '" + before_2700 + "'"), "2700");
  reader.exec("COMMIT");
  EXPECT_EQ(url_of(reader, 2700), url_of(writer, 2700));
  EXPECT_EQ(One(reader, "SELECT count(*) FROM urls"), "2800");
  EXPECT_EQ(One(reader, "SELECT crawldb_check()"), "ok");
}

}  // namespace
}  // namespace crawldb::testing
