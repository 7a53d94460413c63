// LastInsertRowidGuard: keeps the user's last_insert_rowid() across the shadow-table writes of a
// scope. Writing a rowid table changes the connection's last insert rowid; crawldb's own writes
// (log rows, parts, config) must not, so each such scope holds one of these.
#pragma once

#include "extension/common/sqlite_api.h"

namespace crawldb {

class LastInsertRowidGuard {
 public:
  explicit LastInsertRowidGuard(sqlite3* db) : db_(db), saved_(sqlite3_last_insert_rowid(db)) {}
  ~LastInsertRowidGuard() { sqlite3_set_last_insert_rowid(db_, saved_); }
  LastInsertRowidGuard(const LastInsertRowidGuard&) = delete;
  LastInsertRowidGuard& operator=(const LastInsertRowidGuard&) = delete;

 private:
  sqlite3* db_;
  sqlite3_int64 saved_;
};

}  // namespace crawldb
