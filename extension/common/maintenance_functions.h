// The SQL functions that act on every crawldb table of the main schema:
//   crawldb_optimize()  runs each table's 'optimize' command (through SQL, so it is transactional)
//                       and returns {"optimized":[names],"tables":[stats…]}
//   crawldb_stats()     {"tables":[one object per table: counts, bytes of every structure, …]}
//   crawldb_check()     'ok', or one line per problem found by each table's Check
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "extension/common/connection.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// Registers the three functions. They own `connection`: SQLite destroys it with them when the
// connection closes (after every virtual table has been disconnected).
absl::Status RegisterMaintenanceFunctions(sqlite3* db, std::unique_ptr<Connection> connection);

}  // namespace crawldb
