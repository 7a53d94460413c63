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
  ++users_;
  if (stepped_) return absl::OkStatus();
  // Inside a transaction, or while a statement that reads the schema runs (a `urls` cursor's:
  // its read transaction opened at its first step, before xOpen, and lasts while the cursor
  // is open), the snapshot is held already: a prepare and a step saved on a new connection's
  // first query. A later user looks again: that statement may have ended since.
  if (!sqlite3_get_autocommit(db_) || sqlite3_txn_state(db_, schema_.c_str()) > SQLITE_TXN_NONE) {
    return absl::OkStatus();
  }
  int rc = SQLITE_OK;
  if (statement_ == nullptr) {
    rc = sqlite3_prepare_v3(db_, sql_.c_str(), -1, SQLITE_PREPARE_PERSISTENT, &statement_, nullptr);
  }
  if (rc == SQLITE_OK) rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) {
    stepped_ = true;
    return absl::OkStatus();
  }
  --users_;
  absl::Status failure = SqliteFailure(db_, rc, module_);
  if (statement_ != nullptr) sqlite3_reset(statement_);
  return failure;
}

void ReadSnapshot::Release() {
  if (users_ == 0 || --users_ > 0 || !stepped_) return;
  sqlite3_reset(statement_);
  stepped_ = false;
}

}  // namespace crawldb
