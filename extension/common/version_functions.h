// crawldb_version() and crawldb_debug(): what build of crawldb a connection has loaded.
//   crawldb_version() → "0.1.0+<commit>" (semantic version; build metadata = git commit)
//   crawldb_debug()   → one "key: value" line each for the version, commit, build type,
//                       compiler, compile flags, sanitizers, SQLite (compiled against and
//                       running) and Abseil versions.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

std::string VersionText();
std::string DebugText();

// Registers both functions on `db` (deterministic, innocuous, no arguments).
absl::Status RegisterVersionFunctions(sqlite3* db);

}  // namespace crawldb
