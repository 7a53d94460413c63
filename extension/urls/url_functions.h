// Registration of the url_* SQL functions (url_functions.cc lists them).
#pragma once

#include "absl/status/status.h"
#include "extension/common/connection.h"
#include "extension/common/sqlite_api.h"

namespace crawldb::urls {

absl::Status RegisterUrlFunctions(sqlite3* db, Connection* connection);

}  // namespace crawldb::urls
