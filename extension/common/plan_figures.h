// PlanFigures: the sizes a crawldb table's xBestIndex plans with, the same in every connection.
//
// A connection that has not read a table's store yet (a file just opened) must plan as one that
// has, or SQLite may nest a full scan inside a join (issue 18: a scan of inlinks per URL). So a
// table plans with its store's own counts once the store is loaded, and before that with the
// counts the last commit that moved them stored in <t>_config:
//   'plan.rows'  the table's rows: live URLs (urls), arcs (outlinks), records (frontier)
//   'plan.keys'  the distinct values of its key: nodes (outlinks); 0 where unused
// Both are rounded up to a power of two (Rounded), so a warm and a fresh connection see equal
// figures and a growing table rewrites them O(log n) times, not at every commit. A table whose
// config has none (created by a build before them) is planned as a large one (the defaults),
// which keeps indexed look-ups on the inner side of joins, until its next commit stores them.
// Only plans read them: a stale figure costs speed, never a wrong row.
#pragma once

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

struct PlanFigures {
  int64_t rows = int64_t{1} << 20;  // rows of the table
  int64_t keys = int64_t{1} << 16;  // distinct key values (nodes of a graph)

  // Each count rounded up to a power of two (0 stays 0).
  static PlanFigures Rounded(int64_t rows, int64_t keys);

  bool operator==(const PlanFigures& other) const {
    return rows == other.rows && keys == other.keys;
  }
  bool operator!=(const PlanFigures& other) const { return !(*this == other); }
};

// Takes a config row into *figures when it is one of the figures ('plan.rows', 'plan.keys')
// and holds a count; other rows, and values that are not counts, leave it as it is (the
// default plans well enough).
void TakePlanFigure(absl::string_view key, absl::string_view value, PlanFigures* figures);

// The figures stored in the config of table `table` (a crawldb table of `module`); the defaults
// when it has none.
absl::StatusOr<PlanFigures> ReadPlanFigures(sqlite3* db, absl::string_view module,
                                            absl::string_view schema, absl::string_view table);
// Stores `figures` in that config (leaving last_insert_rowid() as it was).
absl::Status WritePlanFigures(sqlite3* db, absl::string_view module, absl::string_view schema,
                              absl::string_view table, const PlanFigures& figures);

}  // namespace crawldb
