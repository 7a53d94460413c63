// Loads the built crawldb.so into a connection, as the sqlite3 shell or a binding does.
#include <string>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "tests/common/version_format.h"
#include "tests/vtab/loaded_db.h"

namespace {

using crawldb::testing::LoadedDb;

TEST(LoadExtension, VersionIsSemverPlusCommit) {
  SQLite::Database db = LoadedDb();
  std::string version = db.execAndGet("SELECT crawldb_version()").getString();
  EXPECT_TRUE(crawldb::testing::IsVersionText(version)) << version;
}

TEST(LoadExtension, DebugReportsTheRunningSqlite) {
  SQLite::Database db = LoadedDb();
  std::string debug = db.execAndGet("SELECT crawldb_debug()").getString();
  std::string running = db.execAndGet("SELECT sqlite_version()").getString();
  EXPECT_NE(debug.find("sqlite_running: " + running), std::string::npos) << debug;
}

TEST(LoadExtension, FunctionsAreDeterministic) {
  SQLite::Database db = LoadedDb();
  // Deterministic functions may be used in an index expression; others are refused there.
  db.exec("CREATE TABLE t(x)");
  EXPECT_NO_THROW(db.exec("CREATE INDEX t_v ON t(x, crawldb_version())"));
}

TEST(LoadExtension, WrongEntryPointFailsCleanly) {
  SQLite::Database db(":memory:", SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  EXPECT_THROW(db.loadExtension(CRAWLDB_EXTENSION_PATH, "no_such_entry_point"), SQLite::Exception);
  EXPECT_THROW(db.execAndGet("SELECT crawldb_version()"), SQLite::Exception);
}

}  // namespace
