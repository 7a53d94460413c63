#include "extension/common/plan_figures.h"

#include <bit>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "extension/common/last_insert_rowid_guard.h"
#include "extension/common/shadow_tables.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"

namespace crawldb {
namespace {

int64_t RoundedUp(int64_t count) {
  if (count <= 0) return 0;
  if (count > (int64_t{1} << 62)) return int64_t{1} << 62;
  return static_cast<int64_t>(std::bit_ceil(static_cast<uint64_t>(count)));
}

}  // namespace

PlanFigures PlanFigures::Rounded(int64_t rows, int64_t keys) {
  return PlanFigures{RoundedUp(rows), RoundedUp(keys)};
}

absl::StatusOr<PlanFigures> ReadPlanFigures(sqlite3* db, absl::string_view module,
                                            absl::string_view schema, absl::string_view table) {
  // Every row, the others ignored (a config holds about ten): an IN list would cost twice as
  // much to prepare (ShadowTableSet::ReadStored), at each inlinks xConnect.
  StatementCache once(db, std::string(module),
                      {absl::StrCat("SELECT key, value FROM ",
                                    ShadowTableSet::QualifiedName(schema, table, "config"))});
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement select, once.Use(0));
  PlanFigures figures;
  while (true) {
    CRAWLDB_ASSIGN_OR_RETURN(bool row, select.Step());
    if (!row) break;
    TakePlanFigure(select.ColumnText(0), select.ColumnText(1), &figures);
  }
  return figures;
}

void TakePlanFigure(absl::string_view key, absl::string_view value, PlanFigures* figures) {
  int64_t count = 0;
  if ((key != "plan.rows" && key != "plan.keys") || !absl::SimpleAtoi(value, &count) || count < 0) {
    return;
  }
  (key == "plan.rows" ? figures->rows : figures->keys) = count;
}

absl::Status WritePlanFigures(sqlite3* db, absl::string_view module, absl::string_view schema,
                              absl::string_view table, const PlanFigures& figures) {
  StatementCache once(db, std::string(module),
                      {absl::StrCat("INSERT OR REPLACE INTO ",
                                    ShadowTableSet::QualifiedName(schema, table, "config"),
                                    "(key, value) VALUES ('plan.rows', ?1), ('plan.keys', ?2)")});
  CRAWLDB_ASSIGN_OR_RETURN(ScopedStatement write, once.Use(0));
  CRAWLDB_RETURN_IF_ERROR(write.BindText(1, absl::StrCat(figures.rows)));
  CRAWLDB_RETURN_IF_ERROR(write.BindText(2, absl::StrCat(figures.keys)));
  LastInsertRowidGuard keep_last_rowid(db);
  return write.Run();
}

}  // namespace crawldb
