// The argument columns of a table-valued function (an eponymous-only virtual table such as
// crawl_lease or pagerank, whose hidden columns are its arguments): how xBestIndex plans them and
// how xFilter gets them back.
//
// xBestIndex (PlanArguments): the `count` columns from `first_column` on are the arguments; each
// takes an equality constraint, used and omitted; idxNum bit i is set when argument i is given;
// argv holds the given ones in argument order. An unusable constraint on an argument (a column of
// a table not bound yet, or another operator than =) makes the plan unusable: SQLITE_CONSTRAINT
// "<function>: unusable argument", so that SQLite tries another order. Cost and rows are the
// caller's to set.
#pragma once

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {

// At most this many arguments (the bits of idxNum).
inline constexpr int kMaxFunctionArguments = 16;

absl::Status PlanArguments(sqlite3_index_info* info, int first_column, int count,
                           absl::string_view function);

// In xFilter, from PlanArguments' idxNum and argv: arguments[i] = the value of argument i, or
// nullptr when it was not given (arguments.size() arguments).
void FilterArguments(int idx_num, int argc, sqlite3_value** argv,
                     absl::Span<sqlite3_value*> arguments);

}  // namespace crawldb
