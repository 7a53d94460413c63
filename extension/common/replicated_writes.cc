#include "extension/common/replicated_writes.h"

#include <atomic>

#include "extension/common/status.h"

namespace crawldb {
namespace {

std::atomic<bool> replicated_writes_required{false};

}  // namespace

void RequireReplicatedWrites() { replicated_writes_required.store(true); }

absl::Status CheckReplicatedWrite(sqlite3* db) {
  if (!replicated_writes_required.load() || !sqlite3_get_autocommit(db)) {
    return absl::OkStatus();
  }
  for (sqlite3_stmt* statement = sqlite3_next_stmt(db, nullptr); statement != nullptr;
       statement = sqlite3_next_stmt(db, statement)) {
    if (sqlite3_stmt_busy(statement) && sqlite3_stmt_readonly(statement)) {
      return UserError("crawldb",
                       "this write comes from a read-only statement outside a transaction, "
                       "which the replicated engine would not replicate",
                       "run it inside BEGIN ... COMMIT, or lease with INSERT INTO "
                       "frontier(frontier, n, seconds, now, lease_token) VALUES ('lease', ...)");
    }
  }
  return absl::OkStatus();
}

}  // namespace crawldb
