#include "extension/frontier/frontier_functions.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "extension/common/function_arguments.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/rows_cursor.h"
#include "extension/common/sql_function_table.h"
#include "extension/common/sql_values.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/frontier/frontier_table.h"
#include "extension/identity/url_normalizer.h"
#include "extension/links/link_target.h"
#include "extension/urls/url_ids.h"

namespace crawldb::frontier {
namespace {

constexpr char kFrontierTableName[] = "frontier";
constexpr char kOutlinksTableName[] = "outlinks";

// The nested statements, by slot.
enum NestedSlot { kAdd, kLease, kConfirm, kHost, kNestedCount };

// Per-connection state of the functions: owned by crawl_add's user data, destroyed when the
// connection is.
struct FunctionState {
  Connection* connection = nullptr;
  std::optional<std::string> last_refusal;
  // What FrontierOf found last: the table and its commands, while the versions are unchanged.
  FrontierTable* frontier = nullptr;
  StatementCache* nested = nullptr;
  uint64_t registry_version = 0;
  uint64_t held_version = 0;
};

FunctionState* StateOf(sqlite3_context* context) {
  return static_cast<FunctionState*>(FunctionStateOf(context));
}

// The frontier table the functions act on, connected and caught up, and the nested statements
// (state->nested) prepared for it. Found by name once, then kept while the connection's tables
// and held statements stay as they were (crawl_add runs this per URL).
// Whether state->frontier is still the table FrontierOf would find.
bool FrontierKnown(const FunctionState* state) {
  Connection* connection = state->connection;
  return state->frontier != nullptr && state->registry_version == connection->registry_version() &&
         state->held_version == connection->held_statements().version();
}

absl::StatusOr<FrontierTable*> FrontierOf(FunctionState* state, absl::string_view function) {
  Connection* connection = state->connection;
  if (FrontierKnown(state)) {
    CRAWLDB_RETURN_IF_ERROR(state->frontier->CatchUp());
    return state->frontier;
  }
  state->frontier = nullptr;
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, MainFrontier(state->connection, function));
  CRAWLDB_ASSIGN_OR_RETURN(
      state->nested,
      state->connection->held_statements().For(
          "crawl functions", frontier->name(), "crawldb_frontier", [&] {
            std::string f = absl::StrCat("main.", QuoteIdentifier(frontier->name()));
            std::string command = QuoteIdentifier(frontier->name());
            std::vector<std::string> sql(kNestedCount);
            sql[kAdd] =
                absl::StrCat("INSERT INTO ", f, "(", command, ", request) VALUES ('add', ?1)");
            sql[kLease] = absl::StrCat("INSERT INTO ", f, "(", command,
                                       ", n, seconds, now) VALUES ('lease', ?1, ?2, ?3)");
            sql[kConfirm] =
                absl::StrCat("INSERT INTO ", f, "(", command,
                             ", url, status, seconds, now) VALUES ('confirm', ?1, ?2, ?3, ?4)");
            sql[kHost] =
                absl::StrCat("INSERT INTO ", f, "(", command,
                             ", host, delay, budget, until) VALUES ('host', ?1, ?2, ?3, ?4)");
            return sql;
          }));
  state->frontier = frontier;
  state->registry_version = connection->registry_version();
  state->held_version = connection->held_statements().version();
  return frontier;
}

// Whether crawl_add records links in `outlinks`: when it is a crawldb_links table holding the ids
// of the frontier's urls table (otherwise the frontier keeps the links in its own <t>_links).
absl::StatusOr<bool> LinksGoToOutlinks(FunctionState* state, FrontierTable* frontier) {
  CRAWLDB_ASSIGN_OR_RETURN(links::LinkTarget * links,
                           state->connection->ConnectAs<links::LinkTarget>(kOutlinksTableName));
  return links != nullptr && absl::EqualsIgnoreCase(links->urls_name(), frontier->urls_name());
}

// Inserts parent → url into `outlinks` (through its xUpdate) when both are URLs of its urls
// table, the frontier's. `url_id` is url's id when the caller has just inserted it.
absl::Status RecordLink(FunctionState* state, FrontierTable* frontier,
                        const identity::NormalizedUrl& parent, const identity::NormalizedUrl& url,
                        std::optional<int64_t> url_id) {
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlIds * urls, frontier->UrlsOf());
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> src, urls->IdOf(parent));
  std::optional<int64_t> dst = url_id;
  if (!dst.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(dst, urls->IdOf(url));
  }
  if (!src.has_value() || !dst.has_value()) return absl::OkStatus();  // a parent never added
  CRAWLDB_ASSIGN_OR_RETURN(StatementCache * statements,
                           state->connection->held_statements().For(
                               "crawl_add links", kOutlinksTableName, "crawldb_links", [] {
                                 return std::vector<std::string>{absl::StrCat(
                                     "INSERT INTO main.", QuoteIdentifier(kOutlinksTableName),
                                     "(src, dst) VALUES (?1, ?2)")};
                               }));
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, statements->Use(0));
  CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(1, *src));
  CRAWLDB_RETURN_IF_ERROR(insert.BindInt64(2, *dst));
  return insert.Run();
}

// A nested statement's error comes back prefixed twice ("crawldb_frontier: crawldb_frontier: …"):
// keep the inner message, and the code.
absl::Status Nested(absl::Status status) {
  constexpr absl::string_view kPrefix = "crawldb_frontier: ";
  absl::string_view message = status.message();
  if (status.ok() || !absl::StartsWith(message, kPrefix)) return status;
  absl::string_view inner = message.substr(kPrefix.size());
  if (!absl::StartsWith(inner, "crawl")) return status;
  return SqliteError(SqliteCode(status), inner);
}

// Runs nested statement `slot` with argv[first..] bound to ?1, ?2, … (missing ones NULL).
absl::Status RunNested(FunctionState* state, int slot, int argc, sqlite3_value** argv,
                       std::vector<int> indexes) {
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement statement, state->nested->Use(slot));
  for (size_t i = 0; i < indexes.size(); ++i) {
    int index = indexes[i];
    if (index < argc) {
      int rc = sqlite3_bind_value(statement.get(), static_cast<int>(i) + 1, argv[index]);
      if (rc != SQLITE_OK) return SqliteFailure(state->connection->db(), rc, "crawldb_frontier");
    }
  }
  return Nested(statement.Run());
}

// Under clock=explicit, `now` (argv[now_index]) must be given; `signature` shows the call with it.
// A missing frontier table is left to the caller's own look-up, which names it.
absl::Status RequireNow(FunctionState* state, absl::string_view function, int argc,
                        sqlite3_value** argv, int now_index, absl::string_view signature) {
  if (argc > now_index && sqlite3_value_type(argv[now_index]) != SQLITE_NULL) {
    return absl::OkStatus();
  }
  // The option never changes: a table found before needs no catch-up to be asked.
  absl::StatusOr<FrontierTable*> frontier =
      FrontierKnown(state) ? state->frontier : FrontierOf(state, function);
  if (!frontier.ok() || !(*frontier)->explicit_clock()) return absl::OkStatus();
  return (*frontier)->MissingNow(
      function, absl::StrCat("give the time in unix seconds as the last argument: ", signature));
}

absl::Status Refuse(sqlite3_context* context, FunctionState* state, std::string reason) {
  state->last_refusal = std::move(reason);
  sqlite3_result_null(context);
  return absl::OkStatus();
}

// crawl_add's writes: the add and the link it records, if any; sets the function's result.
// The add is a nested statement until the frontier has joined the transaction (that is how
// SQLite enlists the table: xBegin now, xSync at the commit), then a direct call: a seeding
// transaction runs one nested statement, not one per URL. Either way the user's
// last_insert_rowid() stays as it was (a SELECT inserts nothing).
absl::Status AddAndLink(sqlite3_context* context, FunctionState* state, FrontierTable* frontier,
                        FrontierTable::AddRequest* request) {
  LastInsertRowidGuard keep_last_rowid(state->connection->db());
  if (frontier->in_write_transaction()) {
    CRAWLDB_RETURN_IF_ERROR(frontier->AddInTransaction(*request));
  } else {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement add, state->nested->Use(kAdd));
    int rc = sqlite3_bind_pointer(add.get(), 1, request, FrontierTable::kAddRequestType, nullptr);
    if (rc != SQLITE_OK) return SqliteFailure(state->connection->db(), rc, "crawldb_frontier");
    CRAWLDB_RETURN_IF_ERROR(Nested(add.Run()));
  }
  const FrontierTable::AddOutcome& outcome = frontier->last_add();
  if (!outcome.result.has_value()) return Refuse(context, state, outcome.refusal);
  if (request->link_in_outlinks) {
    CRAWLDB_RETURN_IF_ERROR(
        RecordLink(state, frontier, *request->parent, *request->url, outcome.url_id));
  }
  sqlite3_result_int(context, *outcome.result);
  return absl::OkStatus();
}

absl::Status CrawlAdd(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kName = "crawl_add";
  FunctionState* state = StateOf(context);
  CRAWLDB_RETURN_IF_ERROR(
      RequireNow(state, kName, argc, argv, 3, "crawl_add(url, parent_url, priority, now)"));
  if (argc >= 3 && sqlite3_value_type(argv[2]) == SQLITE_INTEGER &&
      (sqlite3_value_int64(argv[2]) < INT32_MIN || sqlite3_value_int64(argv[2]) > INT32_MAX)) {
    return UserError(kName, "argument 3 (priority) must fit in 32 bits");
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return Refuse(context, state, "url is NULL");
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(argv[0]));
  if (!url.ok())
    return Refuse(context, state, absl::StrCat("invalid URL: ", url.status().message()));
  std::optional<identity::NormalizedUrl> parent;
  if (argc >= 2 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    absl::StatusOr<identity::NormalizedUrl> normalised =
        identity::NormalizeUrl(TextOfValue(argv[1]));
    if (!normalised.ok()) {
      return Refuse(context, state,
                    absl::StrCat("invalid parent URL: ", normalised.status().message()));
    }
    parent = std::move(*normalised);
  }
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, FrontierOf(state, kName));
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable::AddPlan plan,
                           frontier->PlanAdd(*url, parent.has_value() ? &*parent : nullptr));
  if (plan.refusal.has_value()) return Refuse(context, state, std::move(*plan.refusal));
  if (plan.known && !parent.has_value()) {
    sqlite3_result_int(context, 0);
    return absl::OkStatus();
  }
  bool links_to_outlinks = false;
  if (parent.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(links_to_outlinks, LinksGoToOutlinks(state, frontier));
  }
  // One nested statement carries the normalised URLs and the plan to the frontier, whose 'add'
  // also inserts a new URL into `urls`: nothing is normalised or planned twice.
  FrontierTable::AddRequest request;
  request.url = &*url;
  request.parent = parent.has_value() ? &*parent : nullptr;
  request.plan = std::move(plan);
  if (argc >= 3 && sqlite3_value_type(argv[2]) == SQLITE_INTEGER) {
    request.priority = static_cast<int32_t>(sqlite3_value_int64(argv[2]));
  }
  request.link_in_outlinks = links_to_outlinks;
  // Outside a transaction each nested statement would commit on its own (the calling SELECT
  // only reads): the add and its link are made one transaction, so that an I/O error or a crash
  // between them cannot keep the URL without its link.
  sqlite3* db = state->connection->db();
  if (!links_to_outlinks || !sqlite3_get_autocommit(db)) {
    return AddAndLink(context, state, frontier, &request);
  }
  return InSavepoint(db, "crawl_add", kName,
                     [&] { return AddAndLink(context, state, frontier, &request); });
}

absl::Status LastRefusal(sqlite3_context* context, int, sqlite3_value**) {
  FunctionState* state = StateOf(context);
  if (state->last_refusal.has_value()) ResultText(context, *state->last_refusal);
  return absl::OkStatus();
}

absl::Status CrawlConfirm(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kName = "crawl_confirm";
  FunctionState* state = StateOf(context);
  CRAWLDB_RETURN_IF_ERROR(
      RequireNow(state, kName, argc, argv, 3, "crawl_confirm(url, status, recrawl_after_s, now)"));
  if (argc >= 2 && sqlite3_value_type(argv[1]) == SQLITE_INTEGER &&
      (sqlite3_value_int64(argv[1]) <= INT32_MIN || sqlite3_value_int64(argv[1]) > INT32_MAX)) {
    return UserError(kName, "argument 2 (status) must fit in 32 bits");
  }
  sqlite3_result_int(context, 0);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return absl::OkStatus();
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOfValue(argv[0]));
  if (!url.ok()) return absl::OkStatus();  // never leased
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, FrontierOf(state, kName));
  CRAWLDB_RETURN_IF_ERROR(RunNested(state, kConfirm, argc, argv, {0, 1, 2, 3}));
  sqlite3_result_int(context, frontier->last_confirm());
  return absl::OkStatus();
}

absl::Status CrawlHostSet(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kName = "crawl_host_set";
  FunctionState* state = StateOf(context);
  if (sqlite3_value_type(argv[1]) != SQLITE_NULL && sqlite3_value_double(argv[1]) < 0) {
    return UserError(kName, "argument 2 (delay_s) must not be negative");
  }
  if (argc >= 3 && sqlite3_value_type(argv[2]) != SQLITE_NULL &&
      sqlite3_value_int64(argv[2]) < -1) {
    return UserError(kName,
                     "argument 3 (budget) must be -1 (table default), 0 (unlimited) or more");
  }
  CRAWLDB_RETURN_IF_ERROR(FrontierOf(state, kName).status());
  CRAWLDB_RETURN_IF_ERROR(RunNested(state, kHost, argc, argv, {0, 1, 2, 3}));
  sqlite3_result_int(context, 1);
  return absl::OkStatus();
}

// ---------------------------------------------------------------------------------------------
// crawl_lease(n [, lease_s] [, now]): an eponymous-only virtual table.
//
// xBestIndex: the hidden columns n, lease_s, now are the arguments, planned by PlanArguments
// (common/function_arguments.h: equality constraints, idxNum bit i when argument i is given,
// argv in argument order, SQLITE_CONSTRAINT for an unusable one). Cost 1.

enum LeaseColumn {
  kLeaseId,
  kLeaseUrl,
  kLeaseDepth,
  kLeaseUntil,
  kLeaseN,
  kLeaseSeconds,
  kLeaseNow
};

class LeaseTable : public VirtualTable {
 public:
  class Cursor;
  explicit LeaseTable(FunctionState* state) : state_(state) {}

  static absl::StatusOr<std::unique_ptr<LeaseTable>> Connect(sqlite3* db, void* aux,
                                                             const VtabArgs&) {
    int rc =
        sqlite3_declare_vtab(db,
                             "CREATE TABLE x(id INTEGER, url TEXT, depth INTEGER, lease_until, "
                             "n HIDDEN, lease_s HIDDEN, now HIDDEN)");
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, "crawl_lease");
    // Reading it leases: never from a view or a trigger, whatever trusted_schema says.
    rc = sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, "crawl_lease");
    return std::make_unique<LeaseTable>(static_cast<FunctionState*>(aux));
  }

  absl::Status BestIndex(sqlite3_index_info* info) {
    CRAWLDB_RETURN_IF_ERROR(PlanArguments(info, kLeaseN, 3, "crawl_lease"));
    info->estimatedCost = 1;
    info->estimatedRows = 10;
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<Cursor>> Open();

 private:
  FunctionState* state_;
};

class LeaseTable::Cursor : public RowsCursor<FrontierTable::LeaseRow> {
 public:
  explicit Cursor(FunctionState* state) : state_(state) {}

  absl::Status Filter(int idx_num, const char*, int argc, sqlite3_value** argv) {
    constexpr absl::string_view kName = "crawl_lease";
    Restart();
    // Arguments back in their positions (absent ones NULL).
    sqlite3_value* arguments[3];
    FilterArguments(idx_num, argc, argv, absl::MakeSpan(arguments));
    if (arguments[0] == nullptr || sqlite3_value_type(arguments[0]) == SQLITE_NULL) {
      return UserError(kName, "argument 1 (n) is required: crawl_lease(n [, lease_s] [, now])");
    }
    if (sqlite3_value_type(arguments[0]) != SQLITE_INTEGER ||
        sqlite3_value_int64(arguments[0]) < 1 || sqlite3_value_int64(arguments[0]) > kMaxLease) {
      return UserError(kName, absl::StrCat("argument 1 (n) must be an integer from 1 to ",
                                           kMaxLease, ", got ", SqlTypeName(arguments[0])));
    }
    const char* names[3] = {"n", "lease_s", "now"};
    for (int argument = 1; argument < 3; ++argument) {
      sqlite3_value* value = arguments[argument];
      if (value == nullptr || sqlite3_value_type(value) == SQLITE_NULL) continue;
      int type = sqlite3_value_type(value);
      if ((type != SQLITE_INTEGER && type != SQLITE_FLOAT) ||
          (argument == 1 && sqlite3_value_double(value) <= 0)) {
        return UserError(
            kName, absl::StrCat("argument ", argument + 1, " (", names[argument], ") must be a ",
                                argument == 1 ? "positive number" : "number", ", got ",
                                SqlTypeName(value)));
      }
    }
    CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, FrontierOf(state_, kName));
    CRAWLDB_RETURN_IF_ERROR(RequireNow(state_, kName, arguments[2] == nullptr ? 2 : 3, arguments, 2,
                                       "crawl_lease(n, lease_s, now)"));
    {
      CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement lease, state_->nested->Use(kLease));
      for (int argument = 0; argument < 3; ++argument) {
        if (arguments[argument] != nullptr) {
          sqlite3_bind_value(lease.get(), argument + 1, arguments[argument]);
        }
      }
      CRAWLDB_RETURN_IF_ERROR(Nested(lease.Run()));
    }
    rows() = frontier->last_lease();
    ids_.clear();
    for (const FrontierTable::LeaseRow& row : rows()) {
      CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> id, frontier->IdOf(row.url));
      ids_.push_back(id);
    }
    return absl::OkStatus();
  }
  absl::Status Column(sqlite3_context* context, int column) {
    const FrontierTable::LeaseRow& row = this->row();
    switch (column) {
      case kLeaseId:
        if (ids_[position()].has_value()) sqlite3_result_int64(context, *ids_[position()]);
        break;
      case kLeaseUrl:
        ResultText(context, row.url);
        break;
      case kLeaseDepth:
        sqlite3_result_int64(context, row.depth);
        break;
      case kLeaseUntil:
        ResultSeconds(context, row.lease_until);
        break;
      default:
        break;
    }
    return absl::OkStatus();
  }

 private:
  FunctionState* state_;
  std::vector<std::optional<int64_t>> ids_;  // the id in `urls` of each row's URL
};

absl::StatusOr<std::unique_ptr<LeaseTable::Cursor>> LeaseTable::Open() {
  return std::make_unique<Cursor>(state_);
}

void DeleteState(void* state) { delete static_cast<FunctionState*>(state); }

// The arguments are checked as declared here (sql_function_table.h) before the bodies run.
constexpr SqlFunctionSpec kFrontierFunctions[] = {
    {"crawl_add",
     1,
     4,
     kWritingFunction,
     &CrawlAdd,
     "(url [, parent_url [, priority]] [, now])",
     {{{"url", ArgumentType::kText},
       {"parent_url", ArgumentType::kText},
       {"priority", ArgumentType::kInteger},
       {"now", ArgumentType::kNumber}}}},
    {"crawl_confirm",
     1,
     4,
     kWritingFunction,
     &CrawlConfirm,
     "(url [, status [, recrawl_after_s]] [, now])",
     {{{"url", ArgumentType::kText},
       {"status", ArgumentType::kInteger},
       {"recrawl_after_s", ArgumentType::kNumber},
       {"now", ArgumentType::kNumber}}}},
    {"crawl_host_set",
     2,
     4,
     kWritingFunction,
     &CrawlHostSet,
     "(host, delay_s [, budget [, blocked_until]])",
     {{{"host", ArgumentType::kText, /*nullable=*/false},
       {"delay_s", ArgumentType::kNumber},
       {"budget", ArgumentType::kInteger},
       {"blocked_until", ArgumentType::kNumber}}}},
    {"crawldb_last_refusal", 0, 0, SQLITE_UTF8, &LastRefusal},
};

}  // namespace

absl::StatusOr<FrontierTable*> MainFrontier(Connection* connection, absl::string_view function) {
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier,
                           connection->ConnectAs<FrontierTable>(kFrontierTableName));
  if (frontier == nullptr) {
    return UserError(function, "there is no crawldb_frontier table named 'frontier'",
                     "create it with CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls)");
  }
  CRAWLDB_RETURN_IF_ERROR(frontier->CatchUp());
  return frontier;
}

absl::Status RegisterFrontierFunctions(sqlite3* db, Connection* connection) {
  auto owned = std::make_unique<FunctionState>();
  owned->connection = connection;
  FunctionState* state = owned.get();
  // SQLite calls DeleteState even when this fails.
  CRAWLDB_RETURN_IF_ERROR(
      RegisterSqlFunctions(db, kFrontierFunctions, owned.release(), &DeleteState));
  int rc =
      sqlite3_create_module_v2(db, "crawl_lease", VtabModule<LeaseTable>::Get(), state, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, "crawldb_frontier");
  return absl::OkStatus();
}

}  // namespace crawldb::frontier
