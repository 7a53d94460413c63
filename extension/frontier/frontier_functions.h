// The crawler's SQL functions (design.md §4; frontier_table.h has the table they act on). They
// use the crawldb_frontier table named `frontier` of the main schema, and the urls table it names.
//
//   crawl_add(url [, parent_url [, priority]] [, now])  → 1 new, 0 already known, NULL refused
//       Normalises url; refuses junk (invalid URL, invalid parent), a depth past max_depth and a
//       host over its budget, with the reason in crawldb_last_refusal(). Depth (paper 004 §2.3):
//       a URL found on a page of the same registrable domain (url_domain) gets the parent's
//       depth + 1, any other gets 1; a seed (no parent) or a parent the frontier does not hold
//       gets 1. (Most crawlers count hops from the seed instead: here a link to another domain
//       starts again at 1.) A new URL is inserted into `urls` (INSERT OR IGNORE) and queued with
//       `priority` (integer, lower = more important, default 0). With a parent, the link
//       parent → url is recorded in <frontier>_links, also when the URL is known.
//   crawldb_last_refusal()  → the reason of this connection's latest NULL from crawl_add
//   crawl_hosts  table-valued: every host as of the last commit (frontier_hosts_function.h)
//   crawl_lease(n [, lease_s] [, now])  table-valued: id, url, depth, lease_until
//       Returns expired leases and due re-crawls / retries to the queue, then leases up to n URLs
//       (see frontier_store.h for the order and politeness) for lease_s seconds (default: the
//       table's `lease`). A lease is a write: run it in a write transaction of its own. In WAL
//       mode, a lease inside a transaction that read the database before can fail with
//       SQLITE_BUSY_SNAPSHOT when another process committed meanwhile: crawlers should lease in
//       BEGIN IMMEDIATE … COMMIT (or in autocommit mode) and retry on SQLITE_BUSY.
//   crawl_confirm(url [, status [, recrawl_after_s]] [, now])  → 1 confirmed, 0 not leased/unknown
//       status: the fetch's HTTP status (default 200); 5xx, 429 or a negative code (network
//       error) is a failure: the URL is queued again after retry_base * 2^(attempts-1) seconds
//       (table option, default 60 s) until max_attempts failures, then its state is `failed`.
//       Otherwise the URL is done, and queued again after recrawl_after_s seconds when that is
//       positive (paper §2.7); NULL or <= 0 means never.
//   crawl_host_set(host, delay_s [, budget [, blocked_until]])  → 1
//       Per-host politeness, kept in the frontier's state (so in its shadow tables): delay_s
//       between two leases of the host (NULL: back to the table's host_delay; it applies at once,
//       counted from the host's last lease, e.g. a robots.txt Crawl-delay), budget (most URLs
//       of the host in the frontier; 0 unlimited, -1 back to the table's host_budget, NULL
//       unchanged) and blocked_until (unix s; no lease before it; NULL unchanged).
// `now` (unix seconds, INTEGER or REAL; NULL = the clock) is always the last argument and is
// given only with every earlier one (NULL for a default): crawl_add(url, NULL, NULL, 1000).
// Under the table option clock=explicit, crawl_add, crawl_lease and crawl_confirm refuse a NULL
// or absent `now` (FrontierTable::MissingNow names the function and the call with it).
// Misuse — a wrong number of arguments or an argument of the wrong type — is an SQL error naming
// the function and the argument. The mutating functions are SQLITE_DIRECTONLY.
//
// Each mutating function writes through a command row of the frontier (frontier_table.h), so the
// change joins the SQL transaction. crawl_add normalises and plans once and hands the result to
// its 'add' row by pointer (FrontierTable::AddRequest); that row inserts a new URL into `urls`
// itself, and crawl_add then inserts the link into `outlinks` when there is one: one nested
// statement for a seed, two for a link. Once the frontier has joined the current write
// transaction, crawl_add makes the add by a direct call instead (FrontierTable::AddInTransaction;
// the transaction's xSync writes it, its rollback undoes it), so a seeding transaction pays for
// one nested add, not one per URL. Those nested statements are prepared once per connection
// and held by the connection's HeldStatements (held_statements.h), which finalises them when the
// connection closes, so they never keep it open.
#pragma once

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/common/connection.h"
#include "extension/common/sqlite_api.h"

namespace crawldb::frontier {

class FrontierTable;

absl::Status RegisterFrontierFunctions(sqlite3* db, Connection* connection);

// The crawldb_frontier table named `frontier` of the main schema, caught up; an error naming
// `function` when there is none.
absl::StatusOr<FrontierTable*> MainFrontier(Connection* connection, absl::string_view function);

}  // namespace crawldb::frontier
