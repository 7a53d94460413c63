// crawl_hosts(): table-valued, one row per host of the crawldb_frontier table named `frontier`
// of the main schema, as of the last commit (the frontier's <t>_hosts shadow table lags until
// the log tail is folded, frontier_table.h):
//   host            the host name
//   delay           seconds between two leases (the host's own, or the table's host_delay)
//   budget          most URLs of the host in the frontier (0: unlimited)
//   blocked_until   unix s before which the host is not leased (0: not blocked)
//   next_allowed    unix s of its next lease at the earliest, by its delay (0: never leased)
//   urls            its URLs in the frontier, any state
//   queued          of them ready to lease
//   timed           of them leased, waiting to retry or to be crawled again
//   next_due        the earliest lease deadline, retry or re-crawl time among them (NULL: none)
// It reads no URL: every host is held with its settings and summary (frontier_store.h).
#pragma once

#include "absl/status/status.h"
#include "extension/common/connection.h"
#include "extension/common/sqlite_api.h"

namespace crawldb::frontier {

absl::Status RegisterHostsFunction(sqlite3* db, Connection* connection);

}  // namespace crawldb::frontier
