// The SQL functions that act on every crawldb table of the main schema:
//   crawldb_optimize()  runs each table's 'optimize' command (through SQL, so it is transactional)
//                       and returns {"optimized":[names],"tables":[stats…]}
//   crawldb_stats()     {"tables":[one object per table: counts, bytes of every structure, …]}
//   crawldb_check()     'ok', or one line per problem found by each table's Check
//   crawldb_cache_mb([mb])  the connection's cache bound in MiB (Connection::cache_mb), set to
//                       mb (0 .. 1048576) when given, for the tables open and those opened later
//                       whose cache_mb option is not given
#pragma once

#include <memory>

#include "absl/status/status.h"
#include "extension/common/connection.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// Registers the four functions. They own `connection`: SQLite destroys it with them when the
// connection closes (after every virtual table has been disconnected).
absl::Status RegisterMaintenanceFunctions(sqlite3* db, std::unique_ptr<Connection> connection);

}  // namespace crawldb
