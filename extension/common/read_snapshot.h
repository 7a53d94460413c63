// ReadSnapshot: while it is held, every statement of the connection reads one commit of the
// database. Outside a transaction each statement crawldb runs on its shadow tables takes a read
// transaction of its own, so work that reads several times (a catch-up, then a part, then
// another part) may meet another process's commit between two reads and see rows of two
// commits side by side. A statement held stepped (not reset) keeps one read transaction open,
// which the connection's other statements share (WAL: one snapshot). Inside a transaction, or
// while a statement that reads the schema runs (its read transaction opened at its first step:
// a cursor's own statement, for as long as the cursor is open), a user opens none.
//
// Held by read-only work that spans several reads: a `urls` cursor from open to close,
// crawldb_stats() and crawldb_check() for each table. Not by work that writes afterwards
// (crawl_add outside a transaction): its write would then fail SQLITE_BUSY_SNAPSHOT whenever
// another process committed since the snapshot was taken.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

class ReadSnapshot {
 public:
  // For schema `schema` of `db`; errors read "<module>: …".
  ReadSnapshot(sqlite3* db, absl::string_view schema, absl::string_view module);
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;
  ~ReadSnapshot();

  // One more user: the first that finds no read transaction open opens one (its statement is
  // prepared once).
  absl::Status Hold();
  // One user fewer: the last lets the read transaction it opened end.
  void Release();

 private:
  sqlite3* db_;
  std::string schema_;
  std::string sql_;
  std::string module_;
  sqlite3_stmt* statement_ = nullptr;
  int users_ = 0;
  bool stepped_ = false;  // `statement_` holds the read transaction open
};

}  // namespace crawldb
