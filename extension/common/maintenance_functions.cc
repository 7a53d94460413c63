#include "extension/common/maintenance_functions.h"

#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "extension/common/read_snapshot.h"
#include "extension/common/sql_function_table.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"

namespace crawldb {
namespace {

Connection* ConnectionOf(sqlite3_context* context) {
  return static_cast<Connection*>(FunctionStateOf(context));
}

// Runs `read` on `table`'s state as of one commit, also outside a transaction (ReadSnapshot).
absl::Status AsOfOneCommit(sqlite3* db, const CrawldbTable& table, absl::string_view function,
                           const std::function<absl::Status()>& read) {
  ReadSnapshot snapshot(db, table.schema(), function);
  CRAWLDB_RETURN_IF_ERROR(snapshot.Hold());
  return read();  // the snapshot's statement is finalised on the way out, ending it
}

absl::StatusOr<std::string> StatsArray(sqlite3* db, const std::vector<CrawldbTable*>& tables) {
  std::vector<std::string> objects;
  for (CrawldbTable* table : tables) {
    CRAWLDB_RETURN_IF_ERROR(AsOfOneCommit(db, *table, "crawldb_stats", [&]() -> absl::Status {
      CRAWLDB_ASSIGN_OR_RETURN(std::string json, table->StatsJson());
      objects.push_back(std::move(json));
      return absl::OkStatus();
    }));
  }
  return absl::StrCat("[", absl::StrJoin(objects, ","), "]");
}

absl::Status Stats(sqlite3_context* context, int, sqlite3_value**) {
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<CrawldbTable*> tables, ConnectionOf(context)->ConnectAll());
  CRAWLDB_ASSIGN_OR_RETURN(std::string array, StatsArray(ConnectionOf(context)->db(), tables));
  ResultText(context, absl::StrCat("{\"tables\":", array, "}"));
  return absl::OkStatus();
}

absl::Status Check(sqlite3_context* context, int, sqlite3_value**) {
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<CrawldbTable*> tables, ConnectionOf(context)->ConnectAll());
  std::vector<std::string> problems;
  for (CrawldbTable* table : tables) {
    CRAWLDB_RETURN_IF_ERROR(AsOfOneCommit(ConnectionOf(context)->db(), *table, "crawldb_check",
                                          [&] { return table->Check(&problems); }));
  }
  ResultText(context, problems.empty() ? std::string("ok") : absl::StrJoin(problems, "\n"));
  return absl::OkStatus();
}

absl::Status Optimize(sqlite3_context* context, int, sqlite3_value**) {
  Connection* connection = ConnectionOf(context);
  CRAWLDB_ASSIGN_OR_RETURN(std::vector<CrawldbTable*> tables, connection->ConnectAll());
  std::vector<std::string> names;
  for (CrawldbTable* table : tables) {
    std::string name = QuoteIdentifier(table->name());
    CRAWLDB_RETURN_IF_ERROR(ExecSql(connection->db(),
                                    absl::StrCat("INSERT INTO ", QuoteIdentifier(table->schema()),
                                                 ".", name, "(", name, ") VALUES ('optimize')"),
                                    "crawldb_optimize"));
    names.push_back(absl::StrCat("\"", table->name(), "\""));
  }
  CRAWLDB_ASSIGN_OR_RETURN(std::string array, StatsArray(ConnectionOf(context)->db(), tables));
  ResultText(context, absl::StrCat("{\"optimized\":[", absl::StrJoin(names, ","),
                                   "],\"tables\":", array, "}"));
  return absl::OkStatus();
}

constexpr int64_t kMaxCacheMb = 1 << 20;

absl::Status CacheMb(sqlite3_context* context, int argc, sqlite3_value** argv) {
  Connection* connection = ConnectionOf(context);
  if (argc == 1) {
    const int64_t mb = sqlite3_value_int64(argv[0]);
    if (sqlite3_value_type(argv[0]) != SQLITE_INTEGER || mb < 0 || mb > kMaxCacheMb) {
      return UserError(
          "crawldb_cache_mb",
          absl::StrCat("the cache bound must be an integer from 0 to ", kMaxCacheMb, " (MiB)"),
          "e.g. SELECT crawldb_cache_mb(512)");
    }
    connection->SetCacheMb(static_cast<size_t>(mb));
  }
  sqlite3_result_int64(context, static_cast<int64_t>(connection->cache_mb()));
  return absl::OkStatus();
}

void DeleteConnection(void* connection) { delete static_cast<Connection*>(connection); }

}  // namespace

absl::Status RegisterMaintenanceFunctions(sqlite3* db, std::unique_ptr<Connection> connection) {
  static constexpr SqlFunctionSpec kFunctions[] = {
      {"crawldb_stats", 0, 0, SQLITE_UTF8, &Stats},
      {"crawldb_check", 0, 0, SQLITE_UTF8, &Check},
      {"crawldb_optimize", 0, 0, kWritingFunction, &Optimize},
      {"crawldb_cache_mb", 0, 0, kWritingFunction, &CacheMb},
      {"crawldb_cache_mb", 1, 1, kWritingFunction, &CacheMb},
  };
  // The functions own the Connection; SQLite calls DeleteConnection even when this fails.
  return RegisterSqlFunctions(db, kFunctions, connection.release(), &DeleteConnection);
}

}  // namespace crawldb
