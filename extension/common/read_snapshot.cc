#include "extension/common/read_snapshot.h"

#include "absl/strings/str_cat.h"
#include "extension/common/statement_cache.h"

namespace crawldb {

ReadSnapshot::ReadSnapshot(sqlite3* db, absl::string_view schema, absl::string_view module)
    // One row always, read from the schema's file: stepping to it opens the read transaction,
    // and not stepping past it keeps it open.
    : db_(db),
      schema_(schema),
      sql_(absl::StrCat("SELECT count(*) FROM (SELECT 1 FROM ", QuoteIdentifier(schema),
                        ".sqlite_schema LIMIT 1)")),
      module_(module) {}

ReadSnapshot::~ReadSnapshot() { sqlite3_finalize(statement_); }

absl::Status ReadSnapshot::Hold() {
  // A statement that reads the schema's tables (a `urls` cursor's, say) opened a read
  // transaction before its first step, which lasts while it runs: nothing to open (a prepare
  // and a step saved on a new connection's first query).
  if (users_++ > 0 || !sqlite3_get_autocommit(db_) ||
      sqlite3_txn_state(db_, schema_.c_str()) != SQLITE_TXN_NONE) {
    return absl::OkStatus();
  }
  int rc = SQLITE_OK;
  if (statement_ == nullptr) {
    rc = sqlite3_prepare_v3(db_, sql_.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement_, nullptr);
  }
  if (rc == SQLITE_OK) rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return absl::OkStatus();
  --users_;
  absl::Status failure = SqliteFailure(db_, rc, module_);
  if (statement_ != nullptr) sqlite3_reset(statement_);
  return failure;
}

void ReadSnapshot::Release() {
  if (users_ > 0 && --users_ == 0 && statement_ != nullptr) sqlite3_reset(statement_);
}

}  // namespace crawldb
