#include "extension/frontier/frontier_hosts_function.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "extension/common/rows_cursor.h"
#include "extension/common/sql_values.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"
#include "extension/frontier/frontier_functions.h"
#include "extension/frontier/frontier_table.h"

namespace crawldb::frontier {
namespace {

constexpr char kName[] = "crawl_hosts";

enum HostColumn {
  kHostName,
  kHostDelay,
  kHostBudget,
  kHostBlockedUntil,
  kHostNextAllowed,
  kHostUrls,
  kHostQueued,
  kHostTimed,
  kHostNextDue
};

struct HostRow {
  std::string name;
  double delay_s;
  int64_t budget;
  double blocked_until;
  double next_allowed;
  HostSummary summary;
};

class HostsTable : public VirtualTable {
 public:
  class Cursor;
  explicit HostsTable(Connection* connection) : connection_(connection) {}

  static absl::StatusOr<std::unique_ptr<HostsTable>> Connect(sqlite3* db, void* aux,
                                                             const VtabArgs&) {
    int rc = sqlite3_declare_vtab(
        db,
        "CREATE TABLE x(host TEXT, delay REAL, budget INTEGER, blocked_until, next_allowed, "
        "urls INTEGER, queued INTEGER, timed INTEGER, next_due)");
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, kName);
    return std::make_unique<HostsTable>(static_cast<Connection*>(aux));
  }

  absl::Status BestIndex(sqlite3_index_info* info) {
    info->estimatedCost = 1000;
    info->estimatedRows = 1000;
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<Cursor>> Open();

 private:
  Connection* connection_;
};

class HostsTable::Cursor : public RowsCursor<HostRow> {
 public:
  explicit Cursor(Connection* connection) : connection_(connection) {}

  // The hosts are copied: a statement may change the frontier while it reads them.
  absl::Status Filter(int, const char*, int, sqlite3_value**) {
    Restart();
    CRAWLDB_ASSIGN_OR_RETURN(FrontierTable * frontier, MainFrontier(connection_, kName));
    const FrontierStore& store = frontier->store();
    rows().reserve(store.host_count());
    for (uint32_t id = 0; id < store.host_count(); ++id) {
      const Host& host = store.host(id);
      rows().push_back({host.name, store.DelayOf(host), store.BudgetOf(host),
                        host.settings.blocked_until, host.settings.next_allowed, host.summary});
    }
    return absl::OkStatus();
  }
  absl::Status Column(sqlite3_context* context, int column) {
    const HostRow& row = this->row();
    switch (column) {
      case kHostName:
        ResultText(context, row.name);
        break;
      case kHostDelay:
        sqlite3_result_double(context, row.delay_s);
        break;
      case kHostBudget:
        sqlite3_result_int64(context, row.budget);
        break;
      case kHostBlockedUntil:
        ResultSeconds(context, row.blocked_until);
        break;
      case kHostNextAllowed:
        ResultSeconds(context, row.next_allowed);
        break;
      case kHostUrls:
        sqlite3_result_int64(context, static_cast<int64_t>(row.summary.size));
        break;
      case kHostQueued:
        sqlite3_result_int64(context, static_cast<int64_t>(row.summary.queued));
        break;
      case kHostTimed:
        sqlite3_result_int64(context, static_cast<int64_t>(row.summary.timed));
        break;
      case kHostNextDue:
        if (row.summary.timed > 0) ResultSeconds(context, row.summary.first_due);
        break;
      default:
        break;
    }
    return absl::OkStatus();
  }

 private:
  Connection* connection_;
};

absl::StatusOr<std::unique_ptr<HostsTable::Cursor>> HostsTable::Open() {
  return std::make_unique<Cursor>(connection_);
}

}  // namespace

absl::Status RegisterHostsFunction(sqlite3* db, Connection* connection) {
  int rc = sqlite3_create_module_v2(db, kName, VtabModule<HostsTable>::Get(), connection, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kName);
  return absl::OkStatus();
}

}  // namespace crawldb::frontier
