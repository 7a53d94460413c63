#include "extension/frontier/frontier_functions.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "extension/common/rows_cursor.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/frontier/frontier_table.h"
#include "extension/identity/url_fingerprint.h"
#include "extension/identity/url_normalizer.h"
#include "extension/links/links_table.h"
#include "extension/urls/urls_table.h"

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
  std::unique_ptr<StatementCache> nested;  // prepared for the names below
  std::string frontier_name;
  std::unique_ptr<StatementCache> insert_link;  // INSERT INTO <links_name>(src, dst)
  std::string links_name;
};

FunctionState* StateOf(sqlite3_context* context) {
  return static_cast<FunctionState*>(sqlite3_user_data(context));
}

absl::string_view TypeName(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
      return "an integer";
    case SQLITE_FLOAT:
      return "a real";
    case SQLITE_TEXT:
      return "text";
    case SQLITE_BLOB:
      return "a blob";
    default:
      return "NULL";
  }
}

std::string_view TextOf(sqlite3_value* value) {
  const unsigned char* text = sqlite3_value_text(value);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<size_t>(sqlite3_value_bytes(value))};
}

// Argument checks: "<function>: argument <i> (<name>) must be <what>, got <type>".
absl::Status ArgumentError(absl::string_view function, int index, absl::string_view name,
                           absl::string_view what, sqlite3_value* value) {
  return UserError(function, absl::StrCat("argument ", index + 1, " (", name, ") must be ", what,
                                          ", got ", TypeName(value)));
}

enum class Kind { kText, kInteger, kNumber };

// argv[index] is NULL (when allowed) or of `kind`.
absl::Status CheckArgument(absl::string_view function, int argc, sqlite3_value** argv, int index,
                           absl::string_view name, Kind kind, bool nullable = true) {
  if (index >= argc) return absl::OkStatus();
  sqlite3_value* value = argv[index];
  int type = sqlite3_value_type(value);
  if (type == SQLITE_NULL && nullable) return absl::OkStatus();
  switch (kind) {
    case Kind::kText:
      if (type != SQLITE_TEXT) return ArgumentError(function, index, name, "text", value);
      break;
    case Kind::kInteger:
      if (type != SQLITE_INTEGER) return ArgumentError(function, index, name, "an integer", value);
      break;
    case Kind::kNumber:
      if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
        return ArgumentError(function, index, name, "a number", value);
      }
      break;
  }
  return absl::OkStatus();
}

absl::Status CheckCount(absl::string_view function, absl::string_view signature, int argc, int min,
                        int max) {
  if (argc >= min && argc <= max) return absl::OkStatus();
  return UserError(function, absl::StrCat("expected ", min, " to ", max, " arguments ", signature,
                                          ", got ", argc));
}

// The frontier table the functions act on, connected and caught up, and the nested statements
// prepared for it.
absl::StatusOr<FrontierTable*> FrontierOf(FunctionState* state, absl::string_view function) {
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, MainFrontier(state->connection, function));
  if (state->nested == nullptr || state->frontier_name != frontier->name()) {
    std::string f = absl::StrCat("main.", QuoteIdentifier(frontier->name()));
    std::string command = QuoteIdentifier(frontier->name());
    std::vector<std::string> sql(kNestedCount);
    sql[kAdd] = absl::StrCat("INSERT INTO ", f, "(", command, ", request) VALUES ('add', ?1)");
    sql[kLease] = absl::StrCat("INSERT INTO ", f, "(", command,
                               ", n, seconds, now) VALUES ('lease', ?1, ?2, ?3)");
    sql[kConfirm] = absl::StrCat("INSERT INTO ", f, "(", command,
                                 ", url, status, seconds, now) VALUES ('confirm', ?1, ?2, ?3, ?4)");
    sql[kHost] = absl::StrCat("INSERT INTO ", f, "(", command,
                              ", host, delay, budget, until) VALUES ('host', ?1, ?2, ?3, ?4)");
    state->nested = std::make_unique<StatementCache>(state->connection->db(), "crawldb_frontier",
                                                     std::move(sql));
    state->frontier_name = frontier->name();
  }
  return frontier;
}

// The link table crawl_add records links in: the crawldb_links table named `outlinks` when it
// holds the ids of the frontier's urls table; nullptr when there is none (the frontier then keeps
// the links in its own <t>_links).
absl::StatusOr<links::LinksTable*> LinkTableOf(FunctionState* state, FrontierTable* frontier) {
  CRAWLDB_ASSIGN_OR_RETURN(links::LinksTable * links,
                           state->connection->ConnectAs<links::LinksTable>(kOutlinksTableName));
  if (links == nullptr || !absl::EqualsIgnoreCase(links->urls_name(), frontier->urls_name())) {
    return nullptr;
  }
  if (state->insert_link == nullptr || state->links_name != links->name()) {
    state->insert_link = std::make_unique<StatementCache>(
        state->connection->db(), "crawldb_links",
        std::vector<std::string>{absl::StrCat("INSERT INTO main.", QuoteIdentifier(links->name()),
                                              "(src, dst) VALUES (?1, ?2)")});
    state->links_name = links->name();
  }
  return links;
}

// Inserts parent → url into `links` (through its xUpdate) when both are URLs of its urls table.
// `url_id` is url's id when the caller has just inserted it (no look-up then).
absl::Status RecordLink(FunctionState* state, links::LinksTable* links,
                        const identity::NormalizedUrl& parent, const identity::NormalizedUrl& url,
                        std::optional<int64_t> url_id) {
  CRAWLDB_ASSIGN_OR_RETURN(urls::UrlsTable * urls, links->ConnectUrls());
  if (urls == nullptr) return absl::OkStatus();
  CRAWLDB_ASSIGN_OR_RETURN(std::optional<int64_t> src, urls->IdOf(parent));
  std::optional<int64_t> dst = url_id;
  if (!dst.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(dst, urls->IdOf(url));
  }
  if (!src.has_value() || !dst.has_value()) return absl::OkStatus();  // a parent never added
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement insert, state->insert_link->Use(0));
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

absl::Status Refuse(sqlite3_context* context, FunctionState* state, std::string reason) {
  state->last_refusal = std::move(reason);
  sqlite3_result_null(context);
  return absl::OkStatus();
}

absl::Status CrawlAdd(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kName = "crawl_add";
  FunctionState* state = StateOf(context);
  CRAWLDB_RETURN_IF_ERROR(
      CheckCount(kName, "(url [, parent_url [, priority]] [, now])", argc, 1, 4));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 0, "url", Kind::kText));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 1, "parent_url", Kind::kText));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 2, "priority", Kind::kInteger));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 3, "now", Kind::kNumber));
  if (argc >= 3 && sqlite3_value_type(argv[2]) == SQLITE_INTEGER &&
      (sqlite3_value_int64(argv[2]) < INT32_MIN || sqlite3_value_int64(argv[2]) > INT32_MAX)) {
    return UserError(kName, "argument 3 (priority) must fit in 32 bits");
  }
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return Refuse(context, state, "url is NULL");
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOf(argv[0]));
  if (!url.ok())
    return Refuse(context, state, absl::StrCat("invalid URL: ", url.status().message()));
  std::optional<identity::NormalizedUrl> parent;
  if (argc >= 2 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    absl::StatusOr<identity::NormalizedUrl> normalised = identity::NormalizeUrl(TextOf(argv[1]));
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
  links::LinksTable* links = nullptr;
  if (parent.has_value()) {
    CRAWLDB_ASSIGN_OR_RETURN(links, LinkTableOf(state, frontier));
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
  request.link_in_outlinks = links != nullptr;
  {
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement add, state->nested->Use(kAdd));
    int rc = sqlite3_bind_pointer(add.get(), 1, &request, FrontierTable::kAddRequestType, nullptr);
    if (rc != SQLITE_OK) return SqliteFailure(state->connection->db(), rc, "crawldb_frontier");
    CRAWLDB_RETURN_IF_ERROR(Nested(add.Run()));
  }
  const FrontierTable::AddOutcome& outcome = frontier->last_add();
  if (!outcome.result.has_value()) return Refuse(context, state, outcome.refusal);
  if (links != nullptr) {
    CRAWLDB_RETURN_IF_ERROR(RecordLink(state, links, *parent, *url, outcome.url_id));
  }
  sqlite3_result_int(context, *outcome.result);
  return absl::OkStatus();
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
      CheckCount(kName, "(url [, status [, recrawl_after_s]] [, now])", argc, 1, 4));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 0, "url", Kind::kText));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 1, "status", Kind::kInteger));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 2, "recrawl_after_s", Kind::kNumber));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 3, "now", Kind::kNumber));
  if (argc >= 2 && sqlite3_value_type(argv[1]) == SQLITE_INTEGER &&
      (sqlite3_value_int64(argv[1]) <= INT32_MIN || sqlite3_value_int64(argv[1]) > INT32_MAX)) {
    return UserError(kName, "argument 2 (status) must fit in 32 bits");
  }
  sqlite3_result_int(context, 0);
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return absl::OkStatus();
  absl::StatusOr<identity::NormalizedUrl> url = identity::NormalizeUrl(TextOf(argv[0]));
  if (!url.ok()) return absl::OkStatus();  // never leased
  CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, FrontierOf(state, kName));
  CRAWLDB_RETURN_IF_ERROR(RunNested(state, kConfirm, argc, argv, {0, 1, 2, 3}));
  sqlite3_result_int(context, frontier->last_confirm());
  return absl::OkStatus();
}

absl::Status CrawlHostSet(sqlite3_context* context, int argc, sqlite3_value** argv) {
  constexpr absl::string_view kName = "crawl_host_set";
  FunctionState* state = StateOf(context);
  CRAWLDB_RETURN_IF_ERROR(
      CheckCount(kName, "(host, delay_s [, budget [, blocked_until]])", argc, 2, 4));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 0, "host", Kind::kText, false));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 1, "delay_s", Kind::kNumber));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 2, "budget", Kind::kInteger));
  CRAWLDB_RETURN_IF_ERROR(CheckArgument(kName, argc, argv, 3, "blocked_until", Kind::kNumber));
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
// xBestIndex: the hidden columns n, lease_s, now take equality constraints (the arguments);
// idxNum bit i is set when argument i is given, argv follows argument order. An unusable
// constraint on an argument column makes the plan unusable (SQLITE_CONSTRAINT). Cost 1.

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
    int argument_constraint[3] = {-1, -1, -1};
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& constraint = info->aConstraint[i];
      int argument = constraint.iColumn - kLeaseN;
      if (argument < 0 || argument > 2) continue;
      if (!constraint.usable || constraint.op != SQLITE_INDEX_CONSTRAINT_EQ) {
        return SqliteError(SQLITE_CONSTRAINT, "crawl_lease: unusable argument");
      }
      argument_constraint[argument] = i;
    }
    int idx_num = 0, argv_index = 1;
    for (int argument = 0; argument < 3; ++argument) {
      int i = argument_constraint[argument];
      if (i < 0) continue;
      idx_num |= 1 << argument;
      info->aConstraintUsage[i].argvIndex = argv_index++;
      info->aConstraintUsage[i].omit = 1;
    }
    info->idxNum = idx_num;
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
    sqlite3_value* arguments[3] = {nullptr, nullptr, nullptr};
    for (int argument = 0, used = 0; argument < 3; ++argument) {
      if ((idx_num & (1 << argument)) && used < argc) arguments[argument] = argv[used++];
    }
    if (arguments[0] == nullptr || sqlite3_value_type(arguments[0]) == SQLITE_NULL) {
      return UserError(kName, "argument 1 (n) is required: crawl_lease(n [, lease_s] [, now])");
    }
    if (sqlite3_value_type(arguments[0]) != SQLITE_INTEGER ||
        sqlite3_value_int64(arguments[0]) < 1 || sqlite3_value_int64(arguments[0]) > kMaxLease) {
      return UserError(kName, absl::StrCat("argument 1 (n) must be an integer from 1 to ",
                                           kMaxLease, ", got ", TypeName(arguments[0])));
    }
    const char* names[3] = {"n", "lease_s", "now"};
    for (int argument = 1; argument < 3; ++argument) {
      sqlite3_value* value = arguments[argument];
      if (value == nullptr || sqlite3_value_type(value) == SQLITE_NULL) continue;
      int type = sqlite3_value_type(value);
      if ((type != SQLITE_INTEGER && type != SQLITE_FLOAT) ||
          (argument == 1 && sqlite3_value_double(value) <= 0)) {
        return UserError(
            kName,
            absl::StrCat("argument ", argument + 1, " (", names[argument], ") must be a ",
                         argument == 1 ? "positive number" : "number", ", got ", TypeName(value)));
      }
    }
    CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, FrontierOf(state_, kName));
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

// SQLITE_TRACE_CLOSE: finalise the nested statements before SQLite checks for unfinalised ones.
int OnTrace(unsigned mask, void* state, void*, void*) {
  if (mask == SQLITE_TRACE_CLOSE) {
    static_cast<FunctionState*>(state)->nested.reset();
    static_cast<FunctionState*>(state)->insert_link.reset();
  }
  return 0;
}

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
  constexpr int kWrites = SQLITE_UTF8 | SQLITE_DIRECTONLY;
  // crawl_add owns the state; SQLite calls DeleteState even when this fails.
  int rc = sqlite3_create_function_v2(db, "crawl_add", -1, kWrites, owned.release(),
                                      &SqlFunction<CrawlAdd>, nullptr, nullptr, &DeleteState);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "crawl_confirm", -1, kWrites, state,
                                    &SqlFunction<CrawlConfirm>, nullptr, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "crawl_host_set", -1, kWrites, state,
                                    &SqlFunction<CrawlHostSet>, nullptr, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function_v2(db, "crawldb_last_refusal", 0, SQLITE_UTF8, state,
                                    &SqlFunction<LastRefusal>, nullptr, nullptr, nullptr);
  }
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_module_v2(db, "crawl_lease", VtabModule<LeaseTable>::Get(), state, nullptr);
  }
  if (rc == SQLITE_OK) rc = sqlite3_trace_v2(db, SQLITE_TRACE_CLOSE, &OnTrace, state);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, "crawldb_frontier");
  return absl::OkStatus();
}

}  // namespace crawldb::frontier
