// `frontier`'s writes: rows inserted, updated and deleted, and the command rows the crawl_*
// functions run (add, lease, confirm, host).
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/sql_values.h"
#include "extension/common/status.h"
#include "extension/frontier/frontier_clock.h"
#include "extension/frontier/frontier_slots.h"
#include "extension/frontier/frontier_table.h"
#include "extension/identity/registrable_domain.h"
#include "extension/identity/url_fingerprint.h"

namespace crawldb::frontier {
namespace {

bool IsNumber(sqlite3_value* value) {
  int type = sqlite3_value_type(value);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

// A time or duration column of a command row: NULL gives `fallback`; a finite number otherwise.
absl::StatusOr<double> Seconds(sqlite3_value* value, double fallback, absl::string_view what) {
  if (sqlite3_value_type(value) == SQLITE_NULL) return fallback;
  if (!IsNumber(value) || !std::isfinite(sqlite3_value_double(value))) {
    return UserError(kFrontierModule, absl::StrCat(what, " must be a number of seconds"));
  }
  return sqlite3_value_double(value);
}

absl::StatusOr<int64_t> Integer(sqlite3_value* value, int64_t fallback, int64_t min, int64_t max,
                                absl::string_view what) {
  if (sqlite3_value_type(value) == SQLITE_NULL) return fallback;
  if (sqlite3_value_type(value) != SQLITE_INTEGER || sqlite3_value_int64(value) < min ||
      sqlite3_value_int64(value) > max) {
    return UserError(kFrontierModule,
                     absl::StrCat(what, " must be an integer from ", min, " to ", max));
  }
  return sqlite3_value_int64(value);
}

}  // namespace

absl::StatusOr<double> FrontierTable::CommandNow(sqlite3_value* value,
                                                 absl::string_view command) const {
  if (sqlite3_value_type(value) != SQLITE_NULL) {
    return Seconds(value, 0, absl::StrCat(command, ": now"));
  }
  if (explicit_clock_) {
    return MissingNow(kFrontierModule,
                      absl::StrCat(command, ": give the now column the time in unix seconds"));
  }
  return ClockNow();
}

// ---------------------------------------------------------------------------------------------
// Writes.

absl::Status FrontierTable::Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  if (argc == 1) {  // DELETE
    const uint64_t fp = identity::FingerprintFromSql(sqlite3_value_int64(argv[0]));
    CRAWLDB_ASSIGN_OR_RETURN(std::optional<size_t> part, store_.Locate(fp));
    if (part.has_value()) CRAWLDB_RETURN_IF_ERROR(store_.Delete(*part, fp).status());
    return absl::OkStatus();
  }
  if (sqlite3_value_type(argv[0]) != SQLITE_NULL) return UpdateRow(argc, argv);
  sqlite3_value** columns = argv + 2;
  *rowid = 0;
  if (sqlite3_value_type(columns[kColumnCommand]) != SQLITE_NULL) {
    return RunCommand(TextOfValue(columns[kColumnCommand]), columns);
  }
  return InsertRow(columns, rowid);
}

absl::Status FrontierTable::InsertRow(sqlite3_value** columns, sqlite3_int64* rowid) {
  for (int column : {kColumnId, kColumnHost, kColumnDepth, kColumnState, kColumnDue,
                     kColumnAttempts, kColumnStatus}) {
    if (sqlite3_value_type(columns[column]) != SQLITE_NULL) {
      return UserError(kFrontierModule, "INSERT takes url and priority only",
                       "the other columns are the crawl's state");
    }
  }
  for (int column = kColumnParent; column < kColumnCount; ++column) {
    if (sqlite3_value_type(columns[column]) != SQLITE_NULL) {
      return UserError(kFrontierModule, "INSERT takes url and priority only",
                       "SELECT crawl_add(url, parent_url, priority) adds a URL found on a page");
    }
  }
  sqlite3_value* text = columns[kColumnUrl];
  if (sqlite3_value_type(text) != SQLITE_TEXT) {
    return ConstraintError(kFrontierModule, "url must be text");
  }
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(text));
  if (!url.ok()) {
    return ConstraintError(kFrontierModule, absl::StrCat("invalid URL: ", url.status().message()));
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t priority,
                           Integer(columns[kColumnPriority], 0, INT32_MIN, INT32_MAX, "priority"));
  CRAWLDB_ASSIGN_OR_RETURN(AddPlan plan, PlanAdd(*url, nullptr));
  const uint64_t fp = plan.fp;
  *rowid = identity::FingerprintToSql(fp);
  if (plan.known) {
    // OR REPLACE keeps the URL's crawl state and takes the new priority.
    if (sqlite3_vtab_on_conflict(db()) == SQLITE_REPLACE) {
      return store_.SetPriority(FrontierPartOf(url->host()), fp, static_cast<int32_t>(priority))
          .status();
    }
    return ConstraintError(kFrontierModule,
                           absl::StrCat("'", url->text(), "' is already in the frontier"),
                           "use INSERT OR IGNORE to skip known URLs");
  }
  if (plan.refusal.has_value()) return ConstraintError(kFrontierModule, *plan.refusal);
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> url_id,
                           QueueNew(*url, plan, static_cast<int32_t>(priority), "INSERT"));
  if (!url_id.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(std::string refusal, UrlsRefusal(*url));
    return ConstraintError(kFrontierModule, refusal);
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::UpdateRow(int argc, sqlite3_value** argv) {
  if (argc != 2 + kColumnCount) return absl::InternalError("crawldb_frontier: bad UPDATE");
  if (sqlite3_value_int64(argv[0]) != sqlite3_value_int64(argv[1])) {
    return UserError(kFrontierModule, "the rowid is the URL's fingerprint and cannot change");
  }
  for (int column = 0; column < kColumnCount; ++column) {
    if (column == kColumnPriority) continue;
    if (!sqlite3_value_nochange(argv[2 + column])) {
      return UserError(kFrontierModule, "only priority can be updated",
                       "DELETE a URL to drop it; crawl_confirm and crawl_lease change its state");
    }
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t priority,
                           Integer(argv[2 + kColumnPriority], 0, INT32_MIN, INT32_MAX, "priority"));
  const uint64_t fp = identity::FingerprintFromSql(sqlite3_value_int64(argv[0]));
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<size_t> part, store_.Locate(fp));
  if (!part.has_value()) return absl::OkStatus();
  return store_.SetPriority(*part, fp, static_cast<int32_t>(priority)).status();
}

absl::Status FrontierTable::RunCommand(absl::string_view command, sqlite3_value** columns) {
  if (command == "add") return CommandAdd(columns);
  if (command == "lease") return CommandLease(columns);
  if (command == "confirm") return CommandConfirm(columns);
  if (command == "host") return CommandHost(columns);
  if (command == "optimize") {
    if (!sqlite3_get_autocommit(db())) {
      return UserError(kFrontierModule, "optimize cannot run inside a transaction",
                       "COMMIT first, then optimize");
    }
    return Checkpoint();
  }
  return UserError(kFrontierModule, absl::StrCat("unknown command '", command, "'"),
                   "the commands are add, lease, confirm, host and optimize");
}

absl::StatusOr<FrontierTable::AddPlan> FrontierTable::PlanAdd(
    const identity::NormalizedUrl& url, const identity::NormalizedUrl* parent) {
  AddPlan plan;
  CRAWLDB_RETURN_IF_ERROR(RetryStale([&] {
    absl::StatusOr<AddPlan> tried = TryPlanAdd(url, parent);
    if (tried.ok()) plan = *std::move(tried);
    return tried.status();
  }));
  return plan;
}

absl::StatusOr<FrontierTable::AddPlan> FrontierTable::TryPlanAdd(
    const identity::NormalizedUrl& url, const identity::NormalizedUrl* parent) {
  AddPlan plan;
  plan.fp = identity::UrlFingerprint(url.text());
  if (parent != nullptr) plan.parent_fp = identity::UrlFingerprint(parent->text());
  plan.in_write_transaction = in_write_transaction();
  const size_t part = FrontierPartOf(url.host());
  // Past the cache's size, the URL's part is read only when `urls` cannot tell that the URL is
  // new (issue 13); below it, a part read once serves every later add.
  if (!store_.CacheHoldsAll() && store_.WouldRead(part, plan.fp)) {
    CRAWLDB_ASSIGN_OR_RETURN(plan.new_url, UrlsVouchNew(url));
  }
  if (!plan.new_url) {
    CRAWLDB_ASSIGN_OR_RETURN(const UrlRecord* known, store_.Find(part, plan.fp));
    if (known != nullptr) {
      plan.known = true;
      return plan;
    }
  }
  std::optional<uint32_t> host = store_.FindHost(url.host());
  if (parent != nullptr) {
    // The parent's record carries its host (the normalised parent's host), whose registrable
    // domain the store keeps; libpsl runs only for a host the frontier has never seen.
    CRAWLDB_ASSIGN_OR_RETURN(const UrlRecord* from,
                             store_.Find(FrontierPartOf(parent->host()), plan.parent_fp));
    if (from != nullptr &&
        store_.DomainOf(from->host) ==
            (host.has_value() ? store_.DomainOf(*host) : identity::RegistrableDomain(url.host()))) {
      plan.depth = from->depth + 1u;
    }
  }
  const FrontierPolicy& policy = store_.policy();
  if (policy.max_depth > 0 && plan.depth > policy.max_depth) {
    plan.refusal = absl::StrCat("depth limit: depth ", plan.depth, " is past max_depth ",
                                policy.max_depth, ": ", url.text());
    return plan;
  }
  if (host.has_value()) {
    int64_t budget = store_.BudgetOf(store_.host(*host));
    uint64_t members = store_.host(*host).summary.size;
    if (budget > 0 && members >= static_cast<uint64_t>(budget)) {
      plan.refusal = absl::StrCat("host budget: host ", url.host(), " already holds ", members,
                                  " URLs: ", url.text());
    }
  }
  return plan;
}

absl::Status FrontierTable::CommandAdd(sqlite3_value** columns) {
  last_add_ = AddOutcome();
  if (auto* request = static_cast<const AddRequest*>(
          sqlite3_value_pointer(columns[kColumnRequest], kAddRequestType))) {
    return ApplyAdd(*request);
  }
  // An add reads no clock; under clock=explicit it takes `now` all the same, so that a statement
  // log stays replayable if adds ever depend on the time.
  CRAWLDB_RETURN_IF_ERROR(CommandNow(columns[kColumnNow], "add").status());
  sqlite3_value* text = columns[kColumnUrl];
  if (sqlite3_value_type(text) != SQLITE_TEXT) {
    return UserError(kFrontierModule, "add: url must be text");
  }
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(text));
  if (!url.ok()) {
    last_add_.refusal = absl::StrCat("invalid URL: ", url.status().message());
    return absl::OkStatus();
  }
  std::optional<identity::NormalizedUrl> parent;
  sqlite3_value* parent_text = columns[kColumnParent];
  if (sqlite3_value_type(parent_text) != SQLITE_NULL) {
    if (sqlite3_value_type(parent_text) != SQLITE_TEXT) {
      return UserError(kFrontierModule, "add: parent must be text");
    }
    absl::StatusOr<identity::NormalizedUrl> normalised =
        identity::NormalizeUrl(TextOfValue(parent_text));
    if (!normalised.ok()) {
      last_add_.refusal = absl::StrCat("invalid parent URL: ", normalised.status().message());
      return absl::OkStatus();
    }
    parent = std::move(*normalised);
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t priority, Integer(columns[kColumnPriority], 0, INT32_MIN,
                                                     INT32_MAX, "add: priority"));
  AddRequest request;
  request.url = &*url;
  request.parent = parent.has_value() ? &*parent : nullptr;
  CRAWLDB_ASSIGN_OR_RETURN(request.plan, PlanAdd(*url, request.parent));
  if (request.plan.refusal.has_value()) {
    last_add_.refusal = std::move(*request.plan.refusal);
    return absl::OkStatus();
  }
  request.priority = static_cast<int32_t>(priority);
  // link = 0: the caller records the link in the link tables itself.
  request.link_in_outlinks = sqlite3_value_type(columns[kColumnLink]) == SQLITE_INTEGER &&
                             sqlite3_value_int64(columns[kColumnLink]) == 0;
  return ApplyAdd(request);
}

absl::Status FrontierTable::AddInTransaction(const AddRequest& request) {
  last_add_ = AddOutcome();
  const size_t mark = store_.UndoMark();
  absl::Status status = ApplyAdd(request);
  if (!status.ok()) store_.UndoTo(mark);
  return status;
}

absl::Status FrontierTable::ApplyAdd(const AddRequest& request) {
  const identity::NormalizedUrl& url = *request.url;
  const uint64_t fp = request.plan.fp;
  if (request.parent != nullptr && !request.link_in_outlinks) {
    CRAWLDB_RETURN_IF_ERROR(AppendLink(request.plan.parent_fp, fp));
  }
  if (request.plan.known) {
    last_add_.result = 0;
    return absl::OkStatus();
  }
  CRAWLDB_ASSIGN_OR_RETURN(last_add_.url_id, QueueNew(url, request.plan, request.priority, "add"));
  if (!last_add_.url_id.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(last_add_.refusal, UrlsRefusal(url));
    return absl::OkStatus();
  }
  last_add_.result = 1;
  return absl::OkStatus();
}

absl::StatusOr<std::optional<int64_t>> FrontierTable::QueueNew(const identity::NormalizedUrl& url,
                                                               const AddPlan& plan,
                                                               int32_t priority,
                                                               absl::string_view what) {
  if (store_.size() == 0) CRAWLDB_RETURN_IF_ERROR(PairWithUrls());
  // OR IGNORE: `urls` may hold the URL already (added there, or queued and deleted here).
  std::optional<int64_t> url_id;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kInsertUrl));
    CRAWLDB_RETURN_IF_ERROR(insert.BindText(1, url.text()));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
    if (sqlite3_changes64(db()) == 1) url_id = sqlite3_last_insert_rowid(db());
  }
  // `urls` vouched for a new URL: trusted as it stands in this write transaction (a plan made
  // before it, by crawl_add, is checked again).
  bool new_url = false;
  if (plan.new_url && url_id.has_value()) {
    new_url = plan.in_write_transaction;
    if (!new_url) {
      CRAWLDB_ASSIGN_OR_RETURN(new_url, UrlsLineageHolds());
    }
  }
  if (!url_id.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(url_id, IdOf(url));
    if (!url_id.has_value()) return std::nullopt;  // `urls` refused it (its own options)
  }
  CRAWLDB_ASSIGN_OR_RETURN(FrontierStore::AddResult added,
                           store_.Add(plan.fp, *url_id, url.host(), plan.depth, priority, new_url));
  if (added != FrontierStore::AddResult::kAdded) {
    return absl::InternalError(
        absl::StrCat("crawldb_frontier: ", what, " disagrees with its plan"));
  }
  return url_id;
}

absl::Status FrontierTable::AppendLink(uint64_t parent_fp, uint64_t fp) {
  LastInsertRowidGuard keep_last_rowid(db());
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement append, Use(kAppendLink));
  CRAWLDB_RETURN_IF_ERROR(append.BindInt64(1, identity::FingerprintToSql(parent_fp)));
  CRAWLDB_RETURN_IF_ERROR(append.BindInt64(2, identity::FingerprintToSql(fp)));
  CRAWLDB_RETURN_IF_ERROR(append.Run());
  return absl::OkStatus();
}

absl::Status FrontierTable::CommandLease(sqlite3_value** columns) {
  last_lease_.clear();
  CRAWLDB_ASSIGN_OR_RETURN(int64_t n, Integer(columns[kColumnN], -1, 1, kMaxLease, "lease: n"));
  if (n < 0) return UserError(kFrontierModule, "lease: n is required");
  CRAWLDB_ASSIGN_OR_RETURN(double lease_s,
                           Seconds(columns[kColumnSeconds], lease_s_, "lease: seconds"));
  if (lease_s <= 0) return UserError(kFrontierModule, "lease: seconds must be positive");
  CRAWLDB_ASSIGN_OR_RETURN(double now, CommandNow(columns[kColumnNow], "lease"));
  std::optional<std::string> token;
  if (sqlite3_value* given = columns[kColumnLeaseToken]; sqlite3_value_type(given) != SQLITE_NULL) {
    if (sqlite3_value_type(given) != SQLITE_TEXT || sqlite3_value_bytes(given) < 1 ||
        sqlite3_value_bytes(given) > kMaxLeaseTokenBytes) {
      return UserError(
          kFrontierModule,
          absl::StrCat("lease: lease_token must be text of 1 to ", kMaxLeaseTokenBytes, " bytes"),
          "use a fresh token per lease, e.g. a UUID or the worker's name and a counter");
    }
    token = std::string(TextOfValue(given));
    CRAWLDB_RETURN_IF_ERROR(PrepareTokenLease(*token, now));
  }
  // A URL deleted from `urls` leaves the crawl when a lease reaches it; the lease then takes
  // others in its place.
  size_t dropped = 1;
  std::vector<int64_t> ids;
  std::vector<std::optional<std::string>> texts;
  while (dropped > 0 && last_lease_.size() < static_cast<size_t>(n)) {
    dropped = 0;
    CRAWLDB_ASSIGN_OR_RETURN(
        std::vector<FrontierStore::Leased> leased,
        store_.Lease(static_cast<size_t>(n) - last_lease_.size(), lease_s, now));
    ids.clear();
    for (const FrontierStore::Leased& one : leased) ids.push_back(one.url_id);
    CRAWLDB_RETURN_IF_ERROR(UrlsOfIds(ids, &texts));
    for (size_t i = 0; i < leased.size(); ++i) {
      if (!texts[i].has_value()) {
        CRAWLDB_RETURN_IF_ERROR(store_.Delete(leased[i].part, leased[i].fp).status());
        ++dropped;
        continue;
      }
      last_lease_.push_back({leased[i].fp, std::move(*texts[i]), leased[i].depth,
                             leased[i].lease_until, leased[i].part});
    }
  }
  if (!token.has_value()) return absl::OkStatus();
  LastInsertRowidGuard keep_last_rowid(db());
  for (size_t pos = 0; pos < last_lease_.size(); ++pos) {
    const LeaseRow& row = last_lease_[pos];
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, Use(kInsertLease));
    CRAWLDB_RETURN_IF_ERROR(insert.BindText(1, *token));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(2, static_cast<int64_t>(pos)));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(3, static_cast<int64_t>(row.part)));
    CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(4, identity::FingerprintToSql(row.fp)));
    CRAWLDB_RETURN_IF_ERROR(insert.BindDouble(5, row.lease_until));
    CRAWLDB_RETURN_IF_ERROR(insert.Run());
  }
  return absl::OkStatus();
}

absl::Status FrontierTable::PrepareTokenLease(absl::string_view token, double now) {
  CRAWLDB_ASSIGN_OR_RETURN(bool exist, LeasesExist());
  if (!exist) {  // a file of format 7
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement create, Use(kCreateLeases));
    CRAWLDB_RETURN_IF_ERROR(create.Run());
    leases_exist_ = true;
  }
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement expired, Use(kDeleteExpiredLeases));
    CRAWLDB_RETURN_IF_ERROR(expired.BindDouble(1, now));
    CRAWLDB_RETURN_IF_ERROR(expired.Run());
  }
  std::vector<std::pair<size_t, uint64_t>> held;
  CRAWLDB_RETURN_IF_ERROR(LeasedUnder(token, &held));
  if (!held.empty()) {
    return UserError(
        kFrontierModule,
        absl::StrCat("lease: lease_token '", token, "' still holds ", held.size(), " leased URL",
                     held.size() == 1 ? "" : "s"),
        "give each lease a new token (a UUID, or the worker's name and a counter), or confirm "
        "its URLs first");
  }
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement old, Use(kDeleteLeasesOfToken));
  CRAWLDB_RETURN_IF_ERROR(old.BindText(1, token));
  return old.Run();
}

absl::Status FrontierTable::CommandConfirm(sqlite3_value** columns) {
  last_confirm_ = 0;
  if (sqlite3_value_type(columns[kColumnUrl]) != SQLITE_TEXT) {
    return UserError(kFrontierModule, "confirm: url must be text");
  }
  CRAWLDB_ASSIGN_OR_RETURN(int64_t status, Integer(columns[kColumnStatus], 200, INT32_MIN + 1,
                                                   INT32_MAX, "confirm: status"));
  CRAWLDB_ASSIGN_OR_RETURN(double recrawl_s,
                           Seconds(columns[kColumnSeconds], 0, "confirm: seconds"));
  CRAWLDB_ASSIGN_OR_RETURN(double now, CommandNow(columns[kColumnNow], "confirm"));
  absl::StatusOr<identity::NormalizedUrl> url =
      identity::NormalizeUrl(TextOfValue(columns[kColumnUrl]));
  if (!url.ok()) return store_.Expire(now);  // as for any other confirm
  CRAWLDB_ASSIGN_OR_RETURN(
      FrontierStore::ConfirmResult result,
      store_.Confirm(FrontierPartOf(url->host()), identity::UrlFingerprint(url->text()),
                     static_cast<int32_t>(status), recrawl_s, now));
  last_confirm_ = result == FrontierStore::ConfirmResult::kNotLeased ? 0 : 1;
  return absl::OkStatus();
}

absl::Status FrontierTable::CommandHost(sqlite3_value** columns) {
  if (sqlite3_value_type(columns[kColumnHost]) != SQLITE_TEXT) {
    return UserError(kFrontierModule, "host: host must be text");
  }
  // The host as URLs carry it: normalised through a URL.
  absl::StatusOr<identity::NormalizedUrl> url =
      identity::NormalizeUrl(absl::StrCat("http://", TextOfValue(columns[kColumnHost]), "/"));
  if (!url.ok() || url->path() != "/" || url->port() != 0) {
    return UserError(kFrontierModule, absl::StrCat("host: '", TextOfValue(columns[kColumnHost]),
                                                   "' is not a host name"));
  }
  CRAWLDB_ASSIGN_OR_RETURN(double delay, Seconds(columns[kColumnDelay], -1, "host: delay"));
  std::optional<int64_t> budget;
  if (sqlite3_value_type(columns[kColumnBudget]) != SQLITE_NULL) {
    CRAWLDB_ASSIGN_OR_RETURN(
        budget, Integer(columns[kColumnBudget], 0, -1, int64_t{1} << 40, "host: budget"));
  }
  std::optional<double> until;
  if (sqlite3_value_type(columns[kColumnUntil]) != SQLITE_NULL) {
    CRAWLDB_ASSIGN_OR_RETURN(until, Seconds(columns[kColumnUntil], 0, "host: until"));
  }
  store_.SetHost(url->host(), delay, budget, until);
  return absl::OkStatus();
}

}  // namespace crawldb::frontier
