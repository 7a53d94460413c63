// The entry point SQLite looks up when it loads crawldb.so: `.load ./crawldb` finds
// sqlite3_crawldb_init from the file name. The only symbol the module exports (crawldb.map).
#include <dlfcn.h>
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

// SQLite unloads an extension when the connection that loaded it closes: a program that opens
// a connection per task (a web handler, bench/joins.py) would map and relocate the module again
// at each load, and fault its code in again in each first statement (on cnr-2000 a new
// connection's first look-up took a dozen such faults). Once loaded, the module stays: a later
// load finds it mapped. Nothing is done when the module is linked into a program.
void StayLoaded(void* symbol) {
  static const bool kept = [symbol] {
    Dl_info info;
    if (dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return false;
    return dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE) != nullptr;
  }();
  (void)kept;
}

}  // namespace
}  // namespace crawldb

extern "C" __attribute__((visibility("default"))) int sqlite3_crawldb_init(
    sqlite3* db, char** error, const sqlite3_api_routines* api) noexcept {
  SQLITE_EXTENSION_INIT2(api);
  crawldb::StayLoaded(reinterpret_cast<void*>(&sqlite3_crawldb_init));
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
