#include "extension/common/connection.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"

namespace crawldb {

void Connection::SetCacheMb(size_t cache_mb) {
  cache_mb_ = cache_mb;
  for (CrawldbTable* table : tables_) table->ConnectionCacheChanged(cache_mb);
}

void Connection::Unregister(CrawldbTable* table) {
  tables_.erase(std::remove(tables_.begin(), tables_.end(), table), tables_.end());
  ++registry_version_;
}

CrawldbTable* Connection::Find(absl::string_view schema, absl::string_view name) const {
  for (CrawldbTable* table : tables_) {
    if (absl::EqualsIgnoreCase(table->schema(), schema) &&
        absl::EqualsIgnoreCase(table->name(), name)) {
      return table;
    }
  }
  return nullptr;
}

absl::StatusOr<CrawldbTable*> Connection::Connect(absl::string_view name) {
  if (CrawldbTable* table = Find("main", name)) return table;
  std::string sql = absl::StrCat("SELECT 1 FROM main.", QuoteIdentifier(name), " LIMIT 0");
  sqlite3_stmt* statement = nullptr;
  int rc = sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr);
  sqlite3_finalize(statement);
  if (rc != SQLITE_OK) {
    // No such table: the caller says what it needed. Anything else (an I/O error reading the
    // schema, a table that fails to connect) is the answer.
    if (absl::StartsWith(sqlite3_errmsg(db_), "no such table")) return nullptr;
    return SqliteFailure(db_, rc, absl::StrCat("connecting table '", name, "'"));
  }
  return Find("main", name);
}

absl::StatusOr<std::vector<CrawldbTable*>> Connection::ConnectAll() {
  std::vector<std::string> names;
  {
    StatementCache once(db_, "crawldb",
                        {"SELECT name FROM main.sqlite_schema WHERE type = 'table' AND "
                         "sql LIKE 'CREATE VIRTUAL TABLE % USING crawldb%' ORDER BY rowid"});
    CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, once.Use(0));
    while (true) {
      CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
      if (!row) break;
      names.emplace_back(select.ColumnText(0));
    }
  }
  std::vector<CrawldbTable*> tables;
  for (const std::string& name : names) {
    CRAWLDB_ASSIGN_OR_RETURN(CrawldbTable * table, Connect(name));
    if (table != nullptr) tables.push_back(table);
  }
  return tables;
}

}  // namespace crawldb
