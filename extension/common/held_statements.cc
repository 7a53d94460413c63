#include "extension/common/held_statements.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "extension/common/rows_cursor.h"
#include "extension/common/status.h"
#include "extension/common/trampoline.h"

namespace crawldb {
namespace {

constexpr char kName[] = "crawldb_statements";

struct StatementRow {
  std::string owner;
  std::string target;
  std::string sql;
};

class StatementsTable : public VirtualTable {
 public:
  class Cursor;
  explicit StatementsTable(HeldStatements* held) : held_(held) { held_->TableConnected(); }
  ~StatementsTable() { held_->TableDisconnected(); }

  static absl::StatusOr<std::unique_ptr<StatementsTable>> Connect(sqlite3* db, void* aux,
                                                                  const VtabArgs&) {
    int rc = sqlite3_declare_vtab(db, "CREATE TABLE x(owner TEXT, target TEXT, sql TEXT)");
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, kName);
    return std::make_unique<StatementsTable>(static_cast<HeldStatements*>(aux));
  }

  absl::Status BestIndex(sqlite3_index_info* info) {
    info->estimatedCost = 10;
    info->estimatedRows = 10;
    return absl::OkStatus();
  }

  absl::StatusOr<std::unique_ptr<Cursor>> Open();

 private:
  HeldStatements* held_;
};

class StatementsTable::Cursor : public RowsCursor<StatementRow> {
 public:
  explicit Cursor(const HeldStatements* held) : held_(held) {}

  absl::Status Filter(int, const char*, int, sqlite3_value**) {
    Restart();
    for (const HeldStatements::Held& entry : held_->held()) {
      for (size_t slot = 0; slot < entry.statements->size(); ++slot) {
        rows().push_back({entry.owner, entry.target, entry.statements->sql(slot)});
      }
    }
    return absl::OkStatus();
  }
  absl::Status Column(sqlite3_context* context, int column) {
    const StatementRow& row = this->row();
    ResultText(context, column == 0 ? row.owner : column == 1 ? row.target : row.sql);
    return absl::OkStatus();
  }

 private:
  const HeldStatements* held_;
};

absl::StatusOr<std::unique_ptr<StatementsTable::Cursor>> StatementsTable::Open() {
  return std::make_unique<Cursor>(held_);
}

}  // namespace

absl::StatusOr<StatementCache*> HeldStatements::For(
    absl::string_view owner, absl::string_view target, absl::string_view module,
    absl::FunctionRef<std::vector<std::string>()> sql) {
  if (!table_connected_) {
    // Naming the eponymous table connects it; it stays connected until the connection closes.
    CRAWLDB_RETURN_IF_ERROR(ExecSql(db_, "SELECT 1 FROM main.crawldb_statements LIMIT 0", kName));
    if (!table_connected_) {
      return UserError(kName, "a table of this name in the main schema hides crawldb's own",
                       "rename that table: crawl_add and the other crawl functions need the name");
    }
  }
  for (Held& entry : held_) {
    if (entry.owner != owner) continue;
    if (entry.target != target) {
      ++version_;
      entry.target = std::string(target);
      entry.statements = std::make_unique<StatementCache>(db_, std::string(module), sql());
    }
    return entry.statements.get();
  }
  ++version_;
  held_.push_back({std::string(owner), std::string(target),
                   std::make_unique<StatementCache>(db_, std::string(module), sql())});
  return held_.back().statements.get();
}

void HeldStatements::TableDisconnected() {
  table_connected_ = false;
  ++version_;
  held_.clear();  // finalises them, which releases the tables they write
}

absl::Status RegisterHeldStatementsTable(sqlite3* db, HeldStatements* held) {
  int rc = sqlite3_create_module_v2(db, kName, VtabModule<StatementsTable>::Get(), held, nullptr);
  if (rc != SQLITE_OK) return SqliteFailure(db, rc, kName);
  return absl::OkStatus();
}

}  // namespace crawldb
