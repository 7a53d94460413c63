// The rule a host that replicates SQLite by its write statements sets for every crawldb write.
//
// dqlite (the engine crawldb-node runs) replicates a transaction when a write statement or an
// explicit COMMIT ends it. A read-only statement run outside a transaction that writes through
// crawldb (`SELECT * FROM crawl_lease(…)`, `SELECT crawl_add(…)`: the write runs as a nested
// statement) commits its write locally; dqlite 1.11 never replicates it and its leader crashes at
// the next request. With the rule on, such a write is refused when its transaction begins, before
// anything is written, with an error naming the statements that do replicate.
#pragma once

#include "absl/status/status.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// Turns the rule on for every connection of the process (crawldb-node calls it once, before any
// connection opens). The loadable module never turns it on.
void RequireReplicatedWrites();

// Called when a crawldb table begins a write transaction on `db`: an error when the rule is on,
// `db` is outside an explicit transaction and one of its running statements is read-only (the
// statement that caused the write, since a write statement's own transaction begins first).
absl::Status CheckReplicatedWrite(sqlite3* db);

}  // namespace crawldb
