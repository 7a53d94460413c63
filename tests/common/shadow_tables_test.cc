#include "extension/common/shadow_tables.h"

#include <filesystem>
#include <memory>

#include <gtest/gtest.h>

#include "tests/common/test_db.h"

namespace crawldb {
namespace {

using testing::KvShadowTables;
using testing::TestDb;

std::string TempDbPath(const std::string& name) {
  std::filesystem::path dir = std::filesystem::temp_directory_path() / "crawldb_common_tests";
  std::filesystem::create_directories(dir);
  std::filesystem::path path = dir / (name + ".db");
  std::filesystem::remove(path);
  return path.string();
}

TEST(ShadowTables, CreatedWithTheTableAndHoldTheConfig) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv(lbl, limit=7)"), SQLITE_OK)
      << db.last_error();
  EXPECT_EQ(db.Text("SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema "
                    "WHERE type = 'table' ORDER BY name)"),
            "t,t_config,t_rows");
  EXPECT_EQ(db.Text("SELECT group_concat(key || '=' || value, ',') FROM "
                    "(SELECT * FROM t_config ORDER BY key)"),
            "format_version=2,module=crawldb_test_kv,option.label=lbl,option.limit=7,"
            "option.mode=plain,option.ratio=0.5,option.strict=false");
}

TEST(ShadowTables, ShadowNamesAreTheSetsSuffixes) {
  const ShadowTableSet& set = KvShadowTables();
  EXPECT_TRUE(set.IsShadowName("config"));
  EXPECT_TRUE(set.IsShadowName("rows"));
  EXPECT_FALSE(set.IsShadowName("row"));
  EXPECT_FALSE(set.IsShadowName(""));
}

TEST(ShadowTables, DefensiveModeProtectsThem) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK);
  ASSERT_EQ(sqlite3_db_config(db.get(), SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr), SQLITE_OK);
  EXPECT_EQ(db.Exec("INSERT INTO t_rows VALUES (1, 'sneaky')"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(), "table t_rows may not be modified");
  EXPECT_EQ(db.Exec("DELETE FROM t_config"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(), "table t_config may not be modified");
  // The virtual table itself still writes them.
  EXPECT_EQ(db.Exec("INSERT INTO t VALUES (1, 'fine')"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Text("SELECT value FROM t_rows"), "fine");
}

TEST(ShadowTables, DroppedWithTheTable) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK);
  ASSERT_EQ(db.Exec("DROP TABLE t"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Text("SELECT count(*) FROM sqlite_schema"), "0");
}

TEST(ShadowTables, RenamedWithTheTable) {
  TestDb db;
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK);
  ASSERT_EQ(db.Exec("INSERT INTO t VALUES (1, 'kept')"), SQLITE_OK) << db.last_error();
  ASSERT_EQ(db.Exec("ALTER TABLE t RENAME TO u"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Text("SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_schema "
                    "WHERE type = 'table' ORDER BY name)"),
            "u,u_config,u_rows");
  EXPECT_EQ(db.Text("SELECT value FROM u"), "kept");
  ASSERT_EQ(db.Exec("INSERT INTO u VALUES (2, 'after')"), SQLITE_OK) << db.last_error();
  EXPECT_EQ(db.Text("SELECT group_concat(value) FROM u_rows"), "kept,after");
}

TEST(ShadowTables, SurviveReopen) {
  std::string path = TempDbPath("reopen");
  {
    TestDb db(path);
    ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK);
    ASSERT_EQ(db.Exec("INSERT INTO t VALUES (5, 'durable')"), SQLITE_OK);
  }
  TestDb db(path);
  EXPECT_EQ(db.Text("SELECT value FROM t WHERE key = 5"), "durable");
}

// Sets a config value behind the table's back, then opens the file again and reads the table.
std::string ReopenAfter(const std::string& name, const std::string& tamper, int expected_rc) {
  std::string path = TempDbPath(name);
  {
    TestDb db(path);
    EXPECT_EQ(db.Exec("CREATE VIRTUAL TABLE t USING crawldb_test_kv"), SQLITE_OK);
    EXPECT_EQ(db.Exec(tamper), SQLITE_OK) << db.last_error();
  }
  TestDb db(path);
  EXPECT_EQ(db.Exec("SELECT * FROM t"), expected_rc);
  return db.last_error();
}

TEST(ShadowTables, NewerFormatIsRefused) {
  EXPECT_EQ(ReopenAfter("newer", "UPDATE t_config SET value = '3' WHERE key = 'format_version'",
                        SQLITE_ERROR),
            "crawldb_test_kv: table 't' has format version 3, newer than this build reads (1 to "
            "2); open it with a newer crawldb");
}

TEST(ShadowTables, OlderUnreadableFormatIsRefused) {
  EXPECT_EQ(ReopenAfter("older", "UPDATE t_config SET value = '0' WHERE key = 'format_version'",
                        SQLITE_ERROR),
            "crawldb_test_kv: table 't' has format version 0, older than this build reads (1 to "
            "2); export it with the crawldb that wrote it and import it again");
}

TEST(ShadowTables, OlderReadableFormatIsAccepted) {
  EXPECT_EQ(ReopenAfter("readable", "UPDATE t_config SET value = '1' WHERE key = 'format_version'",
                        SQLITE_OK),
            "");
}

TEST(ShadowTables, MissingOrGarbledVersionIsCorruption) {
  EXPECT_EQ(
      ReopenAfter("missing", "DELETE FROM t_config WHERE key = 'format_version'", SQLITE_CORRUPT),
      "crawldb_test_kv: table 't' has no valid format version; the stored data is damaged; "
      "restore the file from a backup");
  EXPECT_EQ(ReopenAfter("garbled", "UPDATE t_config SET value = 'x1' WHERE key = 'format_version'",
                        SQLITE_CORRUPT),
            "crawldb_test_kv: table 't' has no valid format version; the stored data is damaged; "
            "restore the file from a backup");
}

TEST(ShadowTables, AnotherModulesTablesAreRefused) {
  EXPECT_EQ(
      ReopenAfter("module", "UPDATE t_config SET value = 'crawldb_links' WHERE key = 'module'",
                  SQLITE_ERROR),
      "crawldb_test_kv: table 't' was created by module 'crawldb_links', not "
      "'crawldb_test_kv'; declare it with USING crawldb_links");
}

TEST(ShadowTables, MissingConfigTableIsCorruption) {
  std::string message = ReopenAfter("noconfig", "DROP TABLE t_config", SQLITE_CORRUPT);
  EXPECT_EQ(message,
            "crawldb_test_kv: cannot read the config of table 't' (crawldb_test_kv: no such "
            "table: main.t_config); the stored data is damaged; restore the file from a backup");
}

TEST(ShadowTables, QualifiedNamesAreQuoted) {
  EXPECT_EQ(ShadowTableSet::QualifiedName("main", "t", "rows"), "\"main\".\"t_rows\"");
  EXPECT_EQ(ShadowTableSet::QualifiedName("aux db", "we\"ird", "config"),
            "\"aux db\".\"we\"\"ird_config\"");
}

TEST(ShadowTables, WorkInAttachedSchemasWithOddNames) {
  TestDb db;
  ASSERT_EQ(db.Exec("ATTACH ':memory:' AS \"aux db\""), SQLITE_OK);
  ASSERT_EQ(db.Exec("CREATE VIRTUAL TABLE \"aux db\".\"we\"\"ird\" USING crawldb_test_kv"),
            SQLITE_OK)
      << db.last_error();
  ASSERT_EQ(db.Exec("INSERT INTO \"aux db\".\"we\"\"ird\" VALUES (1, 'x')"), SQLITE_OK)
      << db.last_error();
  EXPECT_EQ(db.Text("SELECT value FROM \"aux db\".\"we\"\"ird_rows\""), "x");
}

}  // namespace
}  // namespace crawldb
