#include "extension/links/graph_functions.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/common/function_arguments.h"
#include "extension/common/rows_cursor.h"
#include "extension/common/sql_values.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/graph/breadth_first.h"
#include "extension/graph/hits.h"
#include "extension/graph/pagerank.h"
#include "extension/graph/strong_components.h"
#include "extension/links/link_graph_lists.h"
#include "extension/links/links_table.h"

namespace crawldb::links {
namespace {

constexpr int kMaxArguments = 4;

// One row: the node and up to two figures; which of them a column shows is the function's
// ResultColumn.
struct GraphRow {
  uint32_t id;
  uint32_t integer;  // scc's component, bfs's depth
  double reals[2];   // pagerank's rank; hits' hub and authority
};

enum class ResultColumn { kInteger, kReal0, kReal1 };

// The graph of one call: the live URL ids and the lists read through them.
struct CallGraph {
  std::vector<bool> live_urls;
  std::unique_ptr<LinkGraphLists> lists;
};

class Arguments;

// One table-valued function.
struct GraphFunction {
  const char* name;
  const char* signature;  // for the messages
  const char* declaration;
  int results;  // columns after id
  ResultColumn columns[2];
  int arguments;  // hidden columns after the results
  const char* argument_names[kMaxArguments];
  absl::Status (*run)(const Arguments& arguments, std::vector<GraphRow>* rows);
};

// The value of an argument as the messages show it.
std::string Describe(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_NULL:
      return "NULL";
    case SQLITE_INTEGER:
      return absl::StrCat(sqlite3_value_int64(value));
    case SQLITE_FLOAT:
      return absl::StrCat(sqlite3_value_double(value));
    case SQLITE_TEXT:
      return absl::StrCat("'", TextOfValue(value), "'");
    default:
      return "a blob";
  }
}

bool IsNumber(sqlite3_value* value) {
  const int type = sqlite3_value_type(value);
  return type == SQLITE_INTEGER || type == SQLITE_FLOAT;
}

// The arguments of one call, in argument order (nullptr: absent).
class Arguments {
 public:
  Arguments(const GraphFunction* function, Connection* connection)
      : function_(function), connection_(connection) {}

  // Where xFilter puts the values.
  absl::Span<sqlite3_value*> values() { return absl::MakeSpan(values_, function_->arguments); }

  // Argument i, or nullptr when absent or NULL (its default).
  sqlite3_value* Value(int i) const {
    sqlite3_value* value = values_[i];
    return value == nullptr || sqlite3_value_type(value) == SQLITE_NULL ? nullptr : value;
  }

  // "<function>: argument <i + 1> (<name>) must be <what>, got <value>".
  absl::Status Invalid(int i, absl::string_view what) const {
    return UserError(
        function_->name,
        absl::StrCat("argument ", i + 1, " (", function_->argument_names[i], ") must be ", what,
                     ", got ", values_[i] == nullptr ? "nothing" : Describe(values_[i])),
        absl::StrCat("call ", function_->signature));
  }

  // Argument i as a count (an integer ≥ 0), `fallback` when absent.
  absl::StatusOr<uint64_t> Count(int i, uint64_t fallback) const {
    sqlite3_value* value = Value(i);
    if (value == nullptr) return fallback;
    if (sqlite3_value_type(value) != SQLITE_INTEGER || sqlite3_value_int64(value) < 0) {
      return Invalid(i, "an integer ≥ 0");
    }
    return static_cast<uint64_t>(sqlite3_value_int64(value));
  }

  // The graph of the crawldb_links table named by argument 0, caught up.
  absl::StatusOr<std::unique_ptr<CallGraph>> Graph() const {
    sqlite3_value* value = Value(0);
    if (value == nullptr || sqlite3_value_type(value) != SQLITE_TEXT) {
      return Invalid(0, "the name of a crawldb_links table");
    }
    const std::string name(TextOfValue(value));
    CRAWLDB_ASSIGN_OR_RETURN(LinksTable * links, connection_->ConnectAs<LinksTable>(name));
    if (links == nullptr) {
      CRAWLDB_ASSIGN_OR_RETURN(bool exists, TableExists(name));
      return UserError(function_->name,
                       exists ? absl::StrCat("'", name, "' is not a crawldb_links table")
                              : absl::StrCat("there is no table named '", name, "'"),
                       absl::StrCat("name a crawldb_links table of the main schema, e.g. ",
                                    function_->name, "('outlinks')"));
    }
    CRAWLDB_ASSIGN_OR_RETURN(const LinkStore* store, links->Current());
    links_ = links;
    auto graph = std::make_unique<CallGraph>();
    CRAWLDB_ASSIGN_OR_RETURN(graph->live_urls, links->LiveUrls());
    graph->lists = std::make_unique<LinkGraphLists>(store, &graph->live_urls);
    return graph;
  }

  // After the call: OK unless a list it read was corrupt (LinkStore::status()).
  absl::Status GraphStatus() const {
    return links_ == nullptr ? absl::OkStatus() : links_->StoreStatus();
  }

 private:
  absl::StatusOr<bool> TableExists(const std::string& name) const {
    StatementCache once(connection_->db(), function_->name,
                        {"SELECT 1 FROM main.sqlite_schema WHERE type IN ('table', 'view') AND "
                         "name = ?1 COLLATE NOCASE"});
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, once.Use(0));
    CRAWLDB_RETURN_IF_ERROR(select.BindText(1, name));
    return select.Step();
  }

  const GraphFunction* function_;
  Connection* connection_;
  sqlite3_value* values_[kMaxArguments] = {};
  mutable const LinksTable* links_ = nullptr;  // The table Graph() read.
};

absl::Status RunPageRank(const Arguments& arguments, std::vector<GraphRow>* rows) {
  graph::PageRankOptions options;
  if (sqlite3_value* damping = arguments.Value(1)) {
    options.damping = sqlite3_value_double(damping);
    if (!IsNumber(damping) || !(options.damping > 0 && options.damping < 1)) {
      return arguments.Invalid(1, "a number between 0 and 1 (both excluded)");
    }
  }
  CRAWLDB_ASSIGN_OR_RETURN(options.iterations, arguments.Count(2, options.iterations));
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<CallGraph> graph, arguments.Graph());
  const std::vector<double> rank = graph::PageRank(*graph->lists, options);
  for (uint32_t node = 0; node < rank.size(); ++node) {
    if (graph->lists->IsNode(node)) rows->push_back({node, 0, {rank[node], 0}});
  }
  return absl::OkStatus();
}

absl::Status RunHits(const Arguments& arguments, std::vector<GraphRow>* rows) {
  CRAWLDB_ASSIGN_OR_RETURN(uint64_t iterations, arguments.Count(1, 30));
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<CallGraph> graph, arguments.Graph());
  const graph::HitsScores scores = graph::Hits(*graph->lists, iterations);
  for (uint32_t node = 0; node < scores.hub.size(); ++node) {
    if (graph->lists->IsNode(node)) {
      rows->push_back({node, 0, {scores.hub[node], scores.authority[node]}});
    }
  }
  return absl::OkStatus();
}

absl::Status RunStrongComponents(const Arguments& arguments, std::vector<GraphRow>* rows) {
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<CallGraph> graph, arguments.Graph());
  const std::vector<uint32_t> component = graph::StrongComponents(*graph->lists);
  for (uint32_t node = 0; node < component.size(); ++node) {
    if (component[node] != graph::kNotANode) rows->push_back({node, component[node], {0, 0}});
  }
  return absl::OkStatus();
}

absl::Status RunBreadthFirst(const Arguments& arguments, std::vector<GraphRow>* rows) {
  sqlite3_value* source = arguments.Value(1);
  if (source == nullptr || sqlite3_value_type(source) != SQLITE_INTEGER) {
    return arguments.Invalid(1, "a node id (an integer)");
  }
  CRAWLDB_ASSIGN_OR_RETURN(uint64_t max_depth, arguments.Count(2, UINT32_MAX));
  graph::Along along = graph::Along::kOut;
  if (sqlite3_value* direction = arguments.Value(3)) {
    const absl::string_view text = TextOfValue(direction);
    if (sqlite3_value_type(direction) != SQLITE_TEXT ||
        (text != "out" && text != "in" && text != "both")) {
      return arguments.Invalid(3, "'out', 'in' or 'both'");
    }
    along = text == "out"  ? graph::Along::kOut
            : text == "in" ? graph::Along::kIn
                           : graph::Along::kBoth;
  }
  CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<CallGraph> graph, arguments.Graph());
  const int64_t id = sqlite3_value_int64(source);
  if (id < 0 || id > UINT32_MAX) return absl::OkStatus();  // not a node
  for (const graph::Reached& reached :
       graph::BreadthFirst(*graph->lists, static_cast<uint32_t>(id), along,
                           static_cast<uint32_t>(std::min<uint64_t>(max_depth, UINT32_MAX)))) {
    rows->push_back({reached.node, reached.depth, {0, 0}});
  }
  return absl::OkStatus();
}

constexpr GraphFunction kFunctions[] = {
    {"pagerank",
     "pagerank(links_table [, damping [, iterations]])",
     "CREATE TABLE x(id INTEGER, rank REAL, links_table HIDDEN, damping HIDDEN, "
     "iterations HIDDEN)",
     1,
     {ResultColumn::kReal0},
     3,
     {"links_table", "damping", "iterations"},
     &RunPageRank},
    {"hits",
     "hits(links_table [, iterations])",
     "CREATE TABLE x(id INTEGER, hub REAL, authority REAL, links_table HIDDEN, "
     "iterations HIDDEN)",
     2,
     {ResultColumn::kReal0, ResultColumn::kReal1},
     2,
     {"links_table", "iterations"},
     &RunHits},
    {"scc",
     "scc(links_table)",
     "CREATE TABLE x(id INTEGER, component INTEGER, links_table HIDDEN)",
     1,
     {ResultColumn::kInteger},
     1,
     {"links_table"},
     &RunStrongComponents},
    {"bfs",
     "bfs(links_table, source_id [, max_depth [, direction]])",
     "CREATE TABLE x(id INTEGER, depth INTEGER, links_table HIDDEN, source_id HIDDEN, "
     "max_depth HIDDEN, direction HIDDEN)",
     1,
     {ResultColumn::kInteger},
     4,
     {"links_table", "source_id", "max_depth", "direction"},
     &RunBreadthFirst},
};

// What a module is given as its client data: the function and the connection.
struct Binding {
  const GraphFunction* function;
  Connection* connection;
};

class GraphFunctionTable : public VirtualTable {
 public:
  class Cursor;
  explicit GraphFunctionTable(const Binding* binding) : binding_(binding) {}

  static absl::StatusOr<std::unique_ptr<GraphFunctionTable>> Connect(sqlite3* db, void* aux,
                                                                     const VtabArgs&) {
    const auto* binding = static_cast<const Binding*>(aux);
    int rc = sqlite3_declare_vtab(db, binding->function->declaration);
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, binding->function->name);
    return std::make_unique<GraphFunctionTable>(binding);
  }

  absl::Status BestIndex(sqlite3_index_info* info) {
    const GraphFunction& function = *binding_->function;
    CRAWLDB_RETURN_IF_ERROR(
        PlanArguments(info, 1 + function.results, function.arguments, function.name));
    info->estimatedCost = 1e7;
    info->estimatedRows = 100000;
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<Cursor>> Open();

 private:
  const Binding* binding_;
};

class GraphFunctionTable::Cursor : public RowsCursor<GraphRow> {
 public:
  explicit Cursor(const Binding* binding) : binding_(binding) {}

  absl::Status Filter(int idx_num, const char*, int argc, sqlite3_value** argv) {
    Restart();
    const GraphFunction& function = *binding_->function;
    Arguments arguments(&function, binding_->connection);
    FilterArguments(idx_num, argc, argv, arguments.values());
    CRAWLDB_RETURN_IF_ERROR(function.run(arguments, &rows()));
    return arguments.GraphStatus();
  }

  absl::Status Column(sqlite3_context* context, int column) {
    const GraphRow& row = this->row();
    if (column == 0) {
      sqlite3_result_int64(context, row.id);
    } else if (column <= binding_->function->results) {
      switch (binding_->function->columns[column - 1]) {
        case ResultColumn::kInteger:
          sqlite3_result_int64(context, row.integer);
          break;
        case ResultColumn::kReal0:
          sqlite3_result_double(context, row.reals[0]);
          break;
        case ResultColumn::kReal1:
          sqlite3_result_double(context, row.reals[1]);
          break;
      }
    }
    return absl::OkStatus();  // the argument columns read NULL
  }

 private:
  const Binding* binding_;
};

absl::StatusOr<std::unique_ptr<GraphFunctionTable::Cursor>> GraphFunctionTable::Open() {
  return std::make_unique<Cursor>(binding_);
}

void DeleteBinding(void* binding) { delete static_cast<Binding*>(binding); }

}  // namespace

absl::Status RegisterGraphFunctions(sqlite3* db, Connection* connection) {
  for (const GraphFunction& function : kFunctions) {
    auto binding = std::make_unique<Binding>(Binding{&function, connection});
    // SQLite calls DeleteBinding also when the call fails.
    int rc = sqlite3_create_module_v2(db, function.name, VtabModule<GraphFunctionTable>::Get(),
                                      binding.release(), &DeleteBinding);
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, function.name);
  }
  return absl::OkStatus();
}

}  // namespace crawldb::links
