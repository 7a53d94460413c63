#include "extension/common/status.h"

#include <gtest/gtest.h>

#include "extension/common/sqlite_api.h"

namespace crawldb {
namespace {

TEST(Status, MessagesNameModuleProblemAndFix) {
  EXPECT_EQ(ErrorMessage("crawldb_urls", "url is empty"), "crawldb_urls: url is empty");
  EXPECT_EQ(ErrorMessage("crawldb_urls", "url is empty", "give a URL"),
            "crawldb_urls: url is empty; give a URL");
  EXPECT_EQ(UserError("m", "bad", "fix it").message(), "m: bad; fix it");
}

TEST(Status, OkIsSqliteOk) { EXPECT_EQ(SqliteCode(absl::OkStatus()), SQLITE_OK); }

TEST(Status, SqliteCodesPassThroughUnchanged) {
  for (int rc : {SQLITE_BUSY, SQLITE_FULL, SQLITE_IOERR, SQLITE_IOERR_WRITE, SQLITE_CONSTRAINT,
                 SQLITE_CONSTRAINT_UNIQUE, SQLITE_LOCKED, SQLITE_BUSY_SNAPSHOT, SQLITE_CORRUPT,
                 SQLITE_READONLY, SQLITE_INTERRUPT}) {
    absl::Status status = SqliteError(rc, "shadow: failed");
    EXPECT_FALSE(status.ok());
    EXPECT_EQ(SqliteCode(status), rc) << status;
    EXPECT_EQ(status.message(), "shadow: failed");
  }
}

TEST(Status, SqliteCodesGetAMatchingCanonicalCode) {
  EXPECT_EQ(SqliteError(SQLITE_BUSY, "x").code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(SqliteError(SQLITE_CONSTRAINT_UNIQUE, "x").code(), absl::StatusCode::kAlreadyExists);
  EXPECT_EQ(SqliteError(SQLITE_CORRUPT, "x").code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(SqliteError(SQLITE_FULL, "x").code(), absl::StatusCode::kResourceExhausted);
}

TEST(Status, CorruptionBecomesCorruptVtab) {
  absl::Status status = CorruptError("crawldb_urls", "block 7 is truncated");
  EXPECT_EQ(SqliteCode(status), SQLITE_CORRUPT_VTAB);
  EXPECT_EQ(status.message(),
            "crawldb_urls: block 7 is truncated; the stored data is damaged; restore the file "
            "from a backup");
  // A codec's own DataLoss status reaches SQLite the same way.
  EXPECT_EQ(SqliteCode(absl::DataLossError("bad varint")), SQLITE_CORRUPT_VTAB);
}

TEST(Status, CanonicalCodesMap) {
  EXPECT_EQ(SqliteCode(UserError("m", "x")), SQLITE_ERROR);
  EXPECT_EQ(SqliteCode(ConstraintError("m", "x")), SQLITE_CONSTRAINT);
  EXPECT_EQ(SqliteCode(absl::ResourceExhaustedError("x")), SQLITE_NOMEM);
  EXPECT_EQ(SqliteCode(absl::UnavailableError("x")), SQLITE_BUSY);
  EXPECT_EQ(SqliteCode(absl::AbortedError("x")), SQLITE_ABORT);
  EXPECT_EQ(SqliteCode(absl::InternalError("x")), SQLITE_INTERNAL);
  EXPECT_EQ(SqliteCode(absl::NotFoundError("x")), SQLITE_ERROR);
  EXPECT_EQ(SqliteCode(absl::OutOfRangeError("x")), SQLITE_ERROR);
}

absl::StatusOr<int> Half(int x) {
  if (x % 2 != 0) return UserError("half", "odd");
  return x / 2;
}

absl::Status Quarter(int x, int* out) {
  CRAWLDB_ASSIGN_OR_RETURN(int half, Half(x));
  CRAWLDB_ASSIGN_OR_RETURN(*out, Half(half));
  CRAWLDB_RETURN_IF_ERROR(absl::OkStatus());
  return absl::OkStatus();
}

TEST(Status, MacrosPropagateTheFirstError) {
  int out = 0;
  EXPECT_TRUE(Quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  EXPECT_EQ(Quarter(6, &out).message(), "half: odd");
  EXPECT_EQ(Quarter(5, &out).message(), "half: odd");
}

}  // namespace
}  // namespace crawldb
