// The `frontier` virtual table (module crawldb_frontier): paper 004's crawl state as SQL.
//
//   CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls [, lease=300] [, max_depth=0]
//       [, host_delay=1.0] [, host_budget=0] [, max_attempts=3] [, retry_base=60]
//       [, cache_mb=N] [, log_tail_kb=1024] [, clock=system]);
//   urls          the crawldb_urls table the URLs are inserted into and whose ids `id` shows
//   lease         seconds a lease lasts when crawl_lease is not given one (1 .. 31536000)
//   max_depth     largest depth admitted (paper §2.3's G_f); 0 = unlimited (the default)
//   host_delay    seconds between two leases of one host (0 .. 86400), real
//   host_budget   most URLs of one host in the frontier, any state; 0 = unlimited (the default)
//   max_attempts  failed fetches (status 5xx, 429 or negative) before a URL is `failed` (1 .. 255)
//   retry_base    back-off: the k-th failure retries after retry_base * 2^(k-1) seconds
//                 (0 .. 86400)
//   cache_mb      the bound, in MiB, on the parts one connection holds beyond those with
//                 changes not yet committed (0 .. 1048576); when not given, the connection's
//                 bound (crawldb_cache_mb(), 256 by default)
//   log_tail_kb   the log rows, in KiB, after which a commit folds the log tail (below;
//                 0 .. 1048576): a larger tail folds less often, and every connection holds it
//                 and reads it at open; 0 folds every commit
//   clock         'system' (the default): a lease or confirm given no `now` reads the system
//                 clock; 'explicit': every command row and crawl_* function that takes `now`
//                 refuses a NULL or absent one, and nothing the table writes depends on the
//                 clock, so that replaying the same statements writes the same bytes (a
//                 statement-replaying engine such as rqlite; docs/sql.md)
//
// Columns: id (the URL's id in `urls`, kept in the record and renumbered by `urls` optimize;
// NULL once `urls` no longer holds the URL), url (read from `urls` by id: the frontier keeps no
// URL text), host, depth, priority, state ('queued' / 'leased' / 'done' / 'failed'), due (unix s: lease
// deadline, retry time or re-crawl time; NULL when none), attempts, status (NULL before the first
// confirm); rowid = the URL's fingerprint (url_fp(url)). Hidden columns carry the arguments of
// the command rows below: frontier (the command), parent, n, seconds, now, delay, budget, until,
// link, request, lease_token.
//
// Writes (every change goes through xUpdate, design.md §5):
//   UPDATE frontier SET priority = ? ...   re-keys a queued URL; no other column may change
//   DELETE FROM frontier WHERE ...         drops URLs from the crawl (not from `urls`)
//   INSERT INTO frontier(frontier, url, parent, priority, now, link) VALUES ('add', ...)
//                                          link = 0: the caller records parent → url in the link
//                                          tables itself; otherwise it goes to <t>_links
//   INSERT INTO frontier(frontier, request) VALUES ('add', ?)
//                                          crawl_add's form: an AddRequest bound as a pointer
//                                          (below); the row also inserts a new URL into `urls`
//   INSERT INTO frontier(frontier, n, seconds, now [, lease_token]) VALUES ('lease', ...)
//                                          with a lease_token (text, 1 .. 256 bytes), the URLs
//                                          leased are recorded under it in <t>_leases, and
//                                          SELECT ... FROM frontier WHERE lease_token = ? reads
//                                          them back (a look-up, not a scan): the lease as a
//                                          write statement. A token that still holds a URL
//                                          leased under it (neither confirmed nor expired at
//                                          `now`) is refused.
//   INSERT INTO frontier(frontier, url, status, seconds, now) VALUES ('confirm', ...)
//   INSERT INTO frontier(frontier, host, delay, budget, until) VALUES ('host', ...)
//   INSERT INTO frontier(frontier) VALUES ('optimize')   checkpoint (outside a transaction)
// The SQL functions (frontier_functions.h) are written with these command rows; each leaves its
// outcome in this table's per-connection slot (last_add(), last_lease(), last_confirm()).
//   INSERT INTO frontier(url [, priority]) VALUES (...)
//                                          a seed: as crawl_add(url, NULL, priority), but a known
//                                          or refused URL is a constraint error (OR IGNORE skips
//                                          it; OR REPLACE sets a known URL's priority)
//
// A URL deleted from `urls` leaves the crawl: its row shows id and url NULL until the next lease
// that reaches it drops it (and leases another in its place).
//
// Shadow tables (formats owned by the headers named; format version 9, which every commit that
// writes marks; version 8, whose folds rewrote the host groups of every host they touched, is
// read; version 7, which had no <t>_leases, is read and gets the table at its first lease with
// a token; versions 5 and 6,
// which kept one <t>_hosts row per host (5's log rows were all folded), are read and moved over
// by their first commit; versions 1 to 4, which kept the records whole or in parts by
// fingerprint and loaded them all at once, are refused, 3 and 4 with the way out):
//   <t>_config    ShadowTableSet (shadow_tables.h): module, format_version, options, 'generation'
//                 (bumped when `urls` optimize renumbers every record's id: other connections
//                 then read everything again), and 'urls_lineage': the lineage of `urls`
//                 (urls::UrlIds::Lineage) as the last add made while the frontier held no
//                 record found it (below); absent before one
//   <t>_hosts     (id INTEGER PRIMARY KEY, name, delay, budget, blocked_until, next_allowed,
//                 size, queued, best_depth, best_priority, best_fp, timed, first_due)
//                 formats 5 and 6 only (empty since): every host, as the host groups below
//   <t>_snapshot  (part INTEGER PRIMARY KEY, seq INTEGER NOT NULL, data BLOB NOT NULL)
//                 part ≥ 0: the records of part `part` (frontier_parts.h: the part of their
//                 host) as of commit `seq`, as a change set of new records (frontier_changes.h);
//                 part = −1 − g: host group g, hosts g × kHostsPerGroup to the next group's
//                 first − 1, their settings (HostSettings) and the summary of their records
//                 (HostSummary, frontier_store.h) as of the last fold (below), as a change set
//                 of hosts alone: opening reads a few dozen rows, not one per host
//   <t>_pending   (row INTEGER PRIMARY KEY, data BLOB NOT NULL)   row = part × 2^40 + seq: the
//                 URL changes that the commits folded by commit `seq` made to part `part`,
//                 so that a part's rows are one range of the table; row = −seq (format 9):
//                 the post-images of the hosts that the commits folded by commit `seq`
//                 touched, as a change set of hosts alone, until the next rewrite of every
//                 host group (frontier_host_rows.cc)
//   <t>_log       (seq INTEGER PRIMARY KEY, data BLOB NOT NULL)   one change set per commit: the
//                 post-images of the hosts it touched, its URL changes (left out when there are
//                 more than 16,384: they are then only in <t>_pending), the parts it
//                 changed, the state counts after it and `folded`, the newest commit folded;
//                 the rows after the last fold are kept, and before them the newest 64 of at
//                 most 1 MiB together
//   <t>_links     (src INTEGER NOT NULL, dst INTEGER NOT NULL)    fingerprints of parent → URL
//                 for every crawl_add with a parent made while there was no `outlinks` table
//                 on the same urls table (with one, crawl_add inserts the link there instead);
//                 join them to urls through urls.fp
//   <t>_leases    (token TEXT, pos INTEGER, part INTEGER, fp INTEGER UNIQUE, lease_until REAL,
//                 PRIMARY KEY (token, pos)) WITHOUT ROWID   the URLs each lease with a token
//                 handed out, in lease order (pos 0, 1, …), with their part and fingerprint.
//                 A row counts while its URL is leased with due = lease_until (a confirm, an
//                 expiry or another lease of the URL ends it); rows whose lease_until has
//                 passed are deleted by the next lease with a token, a URL's row is replaced
//                 when a lease with a token takes it again, and a token's rows when the token
//                 is used again. Written in xUpdate, so a rollback takes them back with the
//                 rest; read by SQL at each look-up, so other connections see them at once.
//
// The log tail. A commit writes one <t>_log row and nothing else, so that a small commit (a
// lease, a confirm) costs a page or two rather than a row in every part and host it touches.
// Every connection holds the rows after the last fold (the tail) decoded, and applies a part's
// changes in them when it reads the part. A commit folds the tail once it passes log_tail_kb or
// kTailRows (or when its own URL changes are left out of its row): one <t>_pending row for each
// part the tail changed, one for the hosts it touched, and the merges those pending rows call
// for (the host groups are rewritten once the hosts' rows weigh half of them).
//
// Transactions and processes work as in `urls` (urls_table.h): xUpdate changes the in-memory
// FrontierStore with undo; xSync writes the log row (and folds); rollback and
// rollback-to-savepoint undo in memory; xBegin takes the write lock and catches up. Other
// connections catch up at the start of each statement through the data version, reading only
// the log rows they have not read: they take in the hosts' post-images, apply the URL changes
// to the parts they hold and add them to their tail, drop the tail at a fold, and forget the
// parts of a row whose URL changes were left out (a connection whose next row was trimmed
// reads everything again).
//
// Reads outside a transaction (a statement such as SELECT crawl_add(?) names no table, so it
// holds no read transaction) may meet commits between them. So each read is one statement, or
// is checked against the newest log seq and made again: a part is read as of the last commit
// the connection read (the pending rows after it come with the next catch-up), and a part
// merged by a newer commit makes the statement catch up and read again (StalePart).
//
// Paging. Opening a table reads its hosts and the log rows after the last fold, nothing of any
// part; a part is read (its snapshot, its pending rows and its changes in the tail) when a
// statement reaches one of its hosts' records, and kept within `cache_mb` (frontier_store.h).
// Once the frontier is larger than that bound (FrontierStore::CacheHoldsAll), an add of a URL
// whose part is not held reads the part only when `urls` cannot vouch that the frontier has no
// record of it: `urls` vouches for a URL it does not hold while its lineage is
// 'urls_lineage' (no URL has left `urls` since the frontier held nothing, so every URL the
// frontier holds is in `urls`). The record then waits beside its part (an unread add,
// frontier_store.h) until a statement reads the part or the transaction commits. A crawl_add
// planned outside a write transaction checks the lineage again in it. A
// fold merges a part's pending rows into a new snapshot once they weigh 4 kB and as much as the
// snapshot, or are 16 rows and weigh a quarter to five eighths of it (by part), or are 256
// rows, so a part's rows stay within about twice its size and a merge rewrites a few times what
// was added since the last (frontier_snapshot.cc). 'optimize' folds, rewrites every part's
// snapshot and keeps only its own log row.
//
// Sources: frontier_table.cc (creation, the urls look-ups, statistics and checks),
// frontier_cursor.h/.cc (plans and the cursor), frontier_commands.cc (row writes and the command
// rows of the crawl_* functions), frontier_snapshot.cc (opening, reading parts, catching up and
// commits), frontier_host_rows.cc (the hosts' rows), frontier_slots.h (columns and shadow-table
// statements by slot).
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/common/connection.h"
#include "extension/common/shadow_backed_table.h"
#include "extension/common/statement_cache.h"
#include "extension/common/trampoline.h"
#include "extension/common/vtab_args.h"
#include "extension/frontier/frontier_changes.h"
#include "extension/frontier/frontier_log_tail.h"
#include "extension/frontier/frontier_store.h"
#include "extension/identity/url_normalizer.h"

namespace crawldb::urls {
class UrlIds;
}

namespace crawldb::frontier {

inline constexpr const char kFrontierModule[] = "crawldb_frontier";
// Most URLs one lease command hands out.
inline constexpr int64_t kMaxLease = 100000;
// The format version of the shadow tables this build writes (frontier_table.cc tells the older).
inline constexpr int kFrontierFormat = 9;
// The oldest format whose crawl state this build reads (frontier_table.cc).
inline constexpr int kOldestStateFormat = 5;
// Longest lease token, in bytes.
inline constexpr int kMaxLeaseTokenBytes = 256;
// A <t>_pending row's rowid: the part, then the commit (seq < 2^40) in its low bits.
inline constexpr int kPendingSeqBits = 40;

class FrontierTable : public ShadowBackedTable, private FrontierPartSource {
 public:
  class Cursor;

  static absl::StatusOr<std::unique_ptr<FrontierTable>> Create(sqlite3* db, void* aux,
                                                               const VtabArgs& args);
  static absl::StatusOr<std::unique_ptr<FrontierTable>> Connect(sqlite3* db, void* aux,
                                                                const VtabArgs& args);
  static bool IsShadowName(absl::string_view suffix);
  ~FrontierTable() override;

  absl::Status BestIndex(sqlite3_index_info* info);
  absl::StatusOr<std::unique_ptr<Cursor>> Open();
  absl::Status Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid);
  absl::Status Sync();

  // CrawldbTable
  absl::StatusOr<std::string> StatsJson() override;
  // `urls` optimize renumbered its ids: every record takes its new id, and the whole snapshot
  // is rewritten (other connections reload).
  absl::Status RenumberIds(absl::string_view urls_table,
                           absl::Span<const int64_t> old_to_new) override;

  FrontierStore& store() { return store_; }
  const std::string& urls_name() const { return urls_name_; }
  // The `urls` table named by the first argument, connected and caught up.
  absl::StatusOr<urls::UrlIds*> UrlsOf();
  // The id of a URL in `urls`, nullopt when it is not there.
  absl::StatusOr<std::optional<int64_t>> IdOf(absl::string_view normalised);
  absl::StatusOr<std::optional<int64_t>> IdOf(const identity::NormalizedUrl& url);
  // A record's URL, read from `urls`; nullopt when `urls` no longer holds it.
  absl::StatusOr<std::optional<std::string>> UrlOf(const UrlRecord& record);
  // The same for many records' ids at once (one catch-up of `urls`): *urls[i] is ids[i]'s URL.
  absl::Status UrlsOfIds(absl::Span<const int64_t> ids,
                         std::vector<std::optional<std::string>>* urls);

  // What crawl_add would do with `url` found on `parent` (nullptr for a seed), on the state as
  // it is now: known (0), refused (the reason), or new at `depth`; with the fingerprints of
  // url and parent (0 for a seed), so that the add does not compute them again.
  struct AddPlan {
    bool known = false;
    uint32_t depth = 1;
    std::optional<std::string> refusal;
    uint64_t fp = 0;
    uint64_t parent_fp = 0;
    // `urls` vouched that no part holds the URL (UrlsVouchNew), so the plan read no part for
    // it; in a write transaction of this table, which no other commit can enter before the add.
    bool new_url = false;
    bool in_write_transaction = false;
  };
  absl::StatusOr<AddPlan> PlanAdd(const identity::NormalizedUrl& url,
                                  const identity::NormalizedUrl* parent);
  // Statements that read parts outside a transaction catch up and try again this many times
  // when a part was merged by a commit they had not read (StalePart).
  static constexpr int kStaleAttempts = 16;

  // What crawl_add hands its 'add' command row, by pointer (sqlite3_bind_pointer, type
  // kAddRequestType, in the hidden column `request`): the URL and its parent normalised once and
  // the add planned once, on the state the table had caught up to. The nested statement that
  // carries it runs in the same statement, yet another connection may commit in between (a
  // SELECT that names no table holds no read transaction): the add then checks again what
  // `urls` vouched for (QueueNew).
  // The command then inserts a new URL into `urls` itself (as INSERT INTO frontier does) and
  // records the link in <t>_links unless `link_in_outlinks` (crawl_add inserts it there).
  struct AddRequest {
    const identity::NormalizedUrl* url = nullptr;
    const identity::NormalizedUrl* parent = nullptr;  // nullptr: a seed
    AddPlan plan;
    int32_t priority = 0;
    bool link_in_outlinks = false;
  };
  static constexpr char kAddRequestType[] = "crawldb_add_request";

  // Outcomes of the last command rows (the per-connection slot the functions read).
  struct AddOutcome {
    std::optional<int> result;  // 1 new, 0 known, nullopt refused
    std::string refusal;
    std::optional<int64_t> url_id;  // the URL's id in `urls` when the add queued it
  };
  const AddOutcome& last_add() const { return last_add_; }
  // crawl_add's add without the nested statement, once this table takes part in the current
  // write transaction (in_write_transaction()): what the 'add' command row does, outcome in
  // last_add(). A failure undoes what it changed in this table's store; a URL it inserted into
  // `urls` or a row into <t>_links stays, as on the nested route (a one-row INSERT into a
  // virtual table opens no statement savepoint) until the enclosing statement or transaction
  // rolls back.
  absl::Status AddInTransaction(const AddRequest& request);
  struct LeaseRow {
    uint64_t fp;
    std::string url;
    uint16_t depth;
    double lease_until;
    size_t part;  // FrontierPartOf the URL's host
  };
  const std::vector<LeaseRow>& last_lease() const { return last_lease_; }
  int last_confirm() const { return last_confirm_; }

  // The table option clock=explicit: `now` is required wherever it is taken.
  bool explicit_clock() const { return explicit_clock_; }
  // The message of a missing `now` under clock=explicit, for `who` (a function or a command).
  absl::Status MissingNow(absl::string_view who, absl::string_view fix) const;

  // Lease tokens (<t>_leases). Whether the table exists: a file of format 7 has none until its
  // first lease with a token.
  absl::StatusOr<bool> LeasesExist();
  // The URLs leased under `token` whose lease holds (leased, due = the row's lease_until), in
  // lease order, as (part, fp).
  absl::Status LeasedUnder(absl::string_view token,
                           std::vector<std::pair<size_t, uint64_t>>* leased);
  // The token `record` (of URL `fp`) is leased under, or nullopt.
  absl::StatusOr<std::optional<std::string>> TokenOf(uint64_t fp, const UrlRecord& record);

 private:
  FrontierTable(sqlite3* db, Connection* connection, const VtabArgs& args, std::string urls_name,
                FrontierPolicy policy, double lease_s, std::optional<size_t> cache_mb,
                int stored_format);
  std::vector<std::string> StatementSql() const override;
  absl::Status CheckStore(std::vector<std::string>* found) override;
  void SetCacheBytes(uint64_t bytes) override { store_.set_cache_bytes(bytes); }
  absl::Status TryCheckStore(std::vector<std::string>* found);

  absl::Status RunCommand(absl::string_view command, sqlite3_value** columns);
  absl::StatusOr<AddPlan> TryPlanAdd(const identity::NormalizedUrl& url,
                                     const identity::NormalizedUrl* parent);
  absl::Status CommandAdd(sqlite3_value** columns);
  // An add planned and not refused: records the link (in <t>_links unless link_in_outlinks),
  // then queues a new URL.
  absl::Status ApplyAdd(const AddRequest& request);
  // Queues a new URL as planned, inserting it into `urls` unless it is there; returns its id in
  // `urls`, or nullopt when `urls` refuses the URL (UrlsRefusal says why) and nothing was queued.
  // `what` names the caller in an internal error.
  absl::StatusOr<std::optional<int64_t>> QueueNew(const identity::NormalizedUrl& url,
                                                  const AddPlan& plan, int32_t priority,
                                                  absl::string_view what);
  // Whether `urls` vouches that the frontier holds no record of `url`: `urls` does not hold the
  // URL, and its lineage is the one the frontier recorded while it held no record
  // (<t>_config 'urls_lineage'), so every URL the frontier holds is still in `urls`.
  absl::StatusOr<bool> UrlsVouchNew(const identity::NormalizedUrl& url);
  absl::StatusOr<bool> UrlsLineageHolds();
  // Records the lineage of `urls` while the frontier holds no record (when `urls` has one).
  absl::Status PairWithUrls();
  // Why `urls` refuses `url` (its options are stricter than the frontier's normalisation).
  absl::StatusOr<std::string> UrlsRefusal(const identity::NormalizedUrl& url);
  absl::Status CommandLease(sqlite3_value** columns);
  // Before a lease with `token` at `now`: creates <t>_leases if the file has none, deletes the
  // rows whose lease_until has passed, refuses a token that still holds a lease, and deletes the
  // token's old rows.
  absl::Status PrepareTokenLease(absl::string_view token, double now);
  // `now` of command `command` from its column: the clock when NULL, unless clock=explicit.
  absl::StatusOr<double> CommandNow(sqlite3_value* value, absl::string_view command) const;
  absl::Status CommandConfirm(sqlite3_value** columns);
  absl::Status CommandHost(sqlite3_value** columns);
  absl::Status UpdateRow(int argc, sqlite3_value** argv);
  absl::Status InsertRow(sqlite3_value** columns, sqlite3_int64* rowid);
  absl::Status AppendLink(uint64_t parent_fp, uint64_t fp);

  // A change set read from disk.
  absl::StatusOr<ChangeSet> Decode(absl::Span<const uint8_t> blob);
  // A file of format 3 or 4: refused at its first statement, with the way out.
  absl::Status RefuseOldFormat() const;
  // Reads the host groups and the hosts the folds since changed (frontier_host_rows.cc), or the
  // <t>_hosts rows of a file of format 5 or 6.
  absl::Status LoadHosts();
  absl::Status LoadHostRows();
  // The host of the current row of a kReadHostRows statement; its name is copied to
  // *name_out, which the result's name should point to once the names stop moving.
  absl::StatusOr<HostChange> HostOfRow(const ScopedStatement& select, std::string* name_out);
  // Writes hosts `ids` as the store holds them now, as of the fold at commit `seq`: one
  // <t>_pending row below 0, or every host group when those rows are due to be merged (or the
  // hosts are still in <t>_hosts rows, which it then empties).
  absl::Status WriteHosts(const absl::btree_set<uint32_t>& ids, int64_t seq);
  // Writes every host group, deletes the <t>_pending rows below 0 (and empties the <t>_hosts
  // rows of a file of format 5 or 6).
  absl::Status WriteEveryHostGroup(int64_t seq);
  absl::Status WriteHostGroup(uint32_t group, int64_t seq);
  // FrontierPartSource: a part's snapshot and pending rows, then its changes in the tail.
  absl::Status ReadPart(size_t part,
                        const std::function<absl::Status(const ChangeSet&)>& apply) override;
  absl::Status Refuse(absl::Status cause) override { return Corrupt(cause); }
  // AbortedError: part `part` was merged by a commit this connection has not read (a read
  // outside a transaction); the caller catches up and tries again.
  absl::Status StalePart(size_t part) const;
  static bool IsStale(const absl::Status& status) {
    return status.code() == absl::StatusCode::kAborted;
  }
  // Runs `read` (a statement's reads of parts, which outside a transaction may meet a commit
  // this connection has not read yet) again after a catch-up while it is stale, at most
  // kStaleAttempts times; then Busy().
  absl::Status RetryStale(const std::function<absl::Status()>& read);
  // UnavailableError: reads outside a transaction kept meeting new commits.
  absl::Status Busy() const;
  absl::StatusOr<int64_t> NewestSeq();
  // One catch-up; false when a commit landed during its reads (nothing was applied then).
  absl::StatusOr<bool> TryReplayLogSince(int64_t seq);
  // The log row of version 4 at the current row of a kReadLogSince or kReadNewestLog
  // statement (seq, data), checked.
  struct LogRow {
    int64_t seq = 0;
    size_t bytes = 0;
    ChangeSet changes;
    std::vector<PartRange> ranges;  // the parts of changes.urls
    bool folds() const { return changes.folded == seq; }
    // Its URL changes were left out (kMaxLoggedUrls): they are in <t>_pending only.
    bool left_out() const { return changes.urls.empty() && !changes.parts.empty(); }
  };
  absl::StatusOr<LogRow> LogRowAt(const ScopedStatement& select);
  // The parts of `changes.urls` (a commit's, grouped by part): its hosts are the store's or
  // among `changes.hosts` (a commit read from the log may create hosts).
  absl::StatusOr<std::vector<PartRange>> RangesOf(const ChangeSet& changes);
  // Applies log rows read in commit order: the hosts' newest post-images and `counts`, the URL
  // changes to the parts held (the parts of a row whose URL changes were left out are
  // forgotten instead), then the tail: the rows after the last fold among them.
  absl::Status TakeIn(absl::Span<const LogRow> rows, const std::optional<StateCounts>& counts);
  // Adds commit `seq` (changes, which the store holds) to the tail and writes its log row, whose
  // URL changes are left out when there are more than kMaxLoggedUrls; folds when it is due.
  absl::Status WriteCommit(int64_t seq, const ChangeSet& changes);
  // Appends blob_ as the log row of commit `seq`.
  absl::Status AppendLog(int64_t seq);
  // Notes a log row written or read (log_rows_seen_).
  void SawLogRow(int64_t seq, size_t bytes);
  // The newest log row before `seq` from which on the rows seen before `seq` pass
  // kKeptLogBytes together, or 0: where a fold at `seq` may trim the log up to.
  int64_t LogRowBeyondKeptBytes(int64_t seq) const;
  // Writes the tail out at commit `seq`: a pending row for each part it changed, the rows of the
  // hosts it touched, then the merges due; the tail is then empty.
  absl::Status Fold(int64_t seq);
  // Writes part `part`'s snapshot as of commit `seq` and deletes its pending rows.
  absl::Status MergePart(size_t part, int64_t seq);
  // optimize: every part's snapshot, each record renumbered first when old_to_new is given.
  absl::Status Checkpoint(absl::Span<const int64_t> old_to_new = {});
  absl::StatusOr<int64_t> SumOf(int slot);

  // LoggedTable
  absl::Status LoadAll() override;
  absl::Status ReplayLogSince(int64_t seq) override;
  size_t UndoMark() const override { return store_.UndoMark(); }
  void UndoTo(size_t mark) override { store_.UndoTo(mark); }
  void ClearUndo() override { store_.ClearUndo(); }
  PlanFigures StoreFigures() const override { return {static_cast<int64_t>(store_.size()), 0}; }

  int stored_format_;           // the file's format version when the table was connected
  bool hosts_in_rows_ = false;  // the last load read <t>_hosts rows (formats 5 and 6)
  // (seq, bytes) of the log rows this connection wrote or read, in seq order: the rows before the
  // tail that a fold keeps (kKeptLogBytes) are counted from them, with no query.
  std::deque<std::pair<int64_t, size_t>> log_rows_seen_;
  std::string urls_name_;
  // UrlsLineageHolds' last answer, with the lineage epoch of `urls` it holds for.
  std::optional<std::pair<uint64_t, bool>> lineage_holds_;
  // A commit was refused for an unread add its part held (FrontierStore::unread_add_refused):
  // `urls` is not trusted again by this connection.
  bool urls_vouching_failed_ = false;
  double lease_s_;
  bool explicit_clock_ = false;  // clock=explicit
  bool leases_exist_ = false;    // <t>_leases was found (or created)
  FrontierStore store_;

  AddOutcome last_add_;
  std::vector<LeaseRow> last_lease_;
  int last_confirm_ = 0;

  LogTail tail_;
  size_t tail_bound_bytes_ = 0;  // log_tail_kb
  // Reused by every row this connection writes: a part of a large frontier is hundreds of kB,
  // and fresh buffers of that size cost page faults on every commit.
  ChangeSet part_changes_;
  std::string body_;
  std::string blob_;
  codecs::ZstdContexts zstd_;  // for every change set this table packs or unpacks
};

// Registers the crawldb_frontier module and the crawl_* functions on `db`.
absl::Status RegisterFrontier(sqlite3* db, Connection* connection);

}  // namespace crawldb::frontier
