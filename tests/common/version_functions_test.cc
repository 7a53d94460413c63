#include "extension/common/version_functions.h"

#include <gtest/gtest.h>

#include "tests/common/version_format.h"

#include "tests/common/test_db.h"

namespace crawldb {
namespace {

TEST(VersionFunctions, VersionIsSemverPlusCommit) {
  testing::TestDb db;
  std::optional<std::string> version = db.Text("SELECT crawldb_version()");
  ASSERT_TRUE(version.has_value());
  EXPECT_TRUE(crawldb::testing::IsVersionText(*version)) << *version;
  EXPECT_EQ(*version, VersionText());
}

TEST(VersionFunctions, VersionFormatCheckRejectsOtherText) {
  EXPECT_TRUE(testing::IsVersionText("0.1.0+0123456789ab"));
  EXPECT_TRUE(testing::IsVersionText("10.20.30+unknown"));
  EXPECT_FALSE(testing::IsVersionText("0.1.0"));
  EXPECT_FALSE(testing::IsVersionText("0.1+0123456789ab"));
  EXPECT_FALSE(testing::IsVersionText("0.1.0+0123456789AB"));
  EXPECT_FALSE(testing::IsVersionText("0.1.0+0123456789a"));
}

TEST(VersionFunctions, DebugListsTheBuild) {
  testing::TestDb db;
  std::optional<std::string> debug = db.Text("SELECT crawldb_debug()");
  ASSERT_TRUE(debug.has_value());
  for (const char* key :
       {"version: ", "commit: ", "build_type: ", "compiler: ", "flags: ", "sanitizers: ",
        "sqlite_compiled: 3.", "sqlite_running: 3.", "abseil: 2"}) {
    EXPECT_NE(debug->find(key), std::string::npos) << key << " missing in\n" << *debug;
  }
  EXPECT_NE(debug->find(std::string("sqlite_running: ") + sqlite3_libversion()), std::string::npos);
}

TEST(VersionFunctions, RefuseArguments) {
  testing::TestDb db;
  EXPECT_EQ(db.Exec("SELECT crawldb_version(1)"), SQLITE_ERROR);
  EXPECT_EQ(db.last_error(), "wrong number of arguments to function crawldb_version()");
}

}  // namespace
}  // namespace crawldb
