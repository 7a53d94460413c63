// The entry point SQLite looks up when it loads crawldb.so: `.load ./crawldb` finds
// sqlite3_crawldb_init from the file name. The only symbol the module exports (crawldb.map).
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "extension/common/connection.h"
#include "extension/common/held_statements.h"
#include "extension/common/maintenance_functions.h"
#include "extension/common/trampoline.h"
#include "extension/common/version_functions.h"
#include "extension/frontier/frontier_table.h"
#include "extension/links/links_table.h"
#include "extension/urls/urls_table.h"

namespace crawldb {
namespace {

absl::Status RegisterAll(sqlite3* db) {
  CRAWLDB_RETURN_IF_ERROR(RegisterVersionFunctions(db));
  auto connection = std::make_unique<Connection>(db);
  Connection* shared = connection.get();
  // From here on SQLite owns the Connection (see RegisterMaintenanceFunctions).
  CRAWLDB_RETURN_IF_ERROR(RegisterMaintenanceFunctions(db, std::move(connection)));
  CRAWLDB_RETURN_IF_ERROR(RegisterHeldStatementsTable(db, &shared->held_statements()));
  CRAWLDB_RETURN_IF_ERROR(urls::RegisterUrls(db, shared));
  CRAWLDB_RETURN_IF_ERROR(links::RegisterLinks(db, shared));
  return frontier::RegisterFrontier(db, shared);
}

}  // namespace
}  // namespace crawldb

extern "C" __attribute__((visibility("default"))) int sqlite3_crawldb_init(
    sqlite3* db, char** error, const sqlite3_api_routines* api) noexcept {
  SQLITE_EXTENSION_INIT2(api);
  absl::Status status;
  try {
    status = crawldb::RegisterAll(db);
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  } catch (...) {
    status = crawldb::UnexpectedException(nullptr);
  }
  if (status.ok()) return SQLITE_OK;
  if (error != nullptr) *error = crawldb::SqliteStrdup(status.message());
  return crawldb::SqliteCode(status);
}
