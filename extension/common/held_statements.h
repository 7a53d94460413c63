// HeldStatements: prepared statements that crawldb's SQL functions keep from one call to the next
// and run inside their own call, each an INSERT of a command row into a crawldb table, so that the
// change joins the caller's transaction (xBegin, xSync, xRollback) as every write does.
//
// Who finalises them. A prepared statement that writes a virtual table holds a reference on it,
// so a table cannot keep statements that write itself (it would never be disconnected), and
// sqlite3_close refuses a connection that still has statements. SQLite's close disconnects every
// virtual table first, the eponymous ones after the schema's, precisely because a table "may be
// storing some prepared statements internally" (main.c). So the statements are held while the
// eponymous table `crawldb_statements` is connected, and finalised from its xDisconnect, which
// then releases the tables they write. The table lists them: SELECT * FROM crawldb_statements.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/statement_cache.h"

namespace crawldb {

class HeldStatements {
 public:
  explicit HeldStatements(sqlite3* db) : db_(db) {}
  HeldStatements(const HeldStatements&) = delete;
  HeldStatements& operator=(const HeldStatements&) = delete;

  // The statements `owner` (a name of its own, e.g. "crawl functions") runs against table
  // `target`: made from sql() the first time, and again when they were made for another target.
  // `module` prefixes their errors. The pointer is good until the next call for the same owner.
  absl::StatusOr<StatementCache*> For(absl::string_view owner, absl::string_view target,
                                      absl::string_view module,
                                      absl::FunctionRef<std::vector<std::string>()> sql);

  struct Held {
    std::string owner;
    std::string target;
    std::unique_ptr<StatementCache> statements;
  };
  const std::vector<Held>& held() const { return held_; }
  // Changes whenever a cache is made or finalised: a caller keeping a pointer For gave uses it
  // again only while this is unchanged.
  uint64_t version() const { return version_; }

  // crawldb_statements connected and disconnected (the table calls these).
  void TableConnected() { table_connected_ = true; }
  void TableDisconnected();

 private:
  sqlite3* db_;
  bool table_connected_ = false;
  uint64_t version_ = 0;
  std::vector<Held> held_;
};

// Registers the eponymous table crawldb_statements(owner, target, sql): one row per statement
// held. `held` must live as long as the connection.
absl::Status RegisterHeldStatementsTable(sqlite3* db, HeldStatements* held);

}  // namespace crawldb
