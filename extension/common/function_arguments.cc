#include "extension/common/function_arguments.h"

#include "absl/strings/str_cat.h"
#include "extension/common/status.h"

namespace crawldb {

absl::Status PlanArguments(sqlite3_index_info* info, int first_column, int count,
                           absl::string_view function) {
  int constraint_of[kMaxFunctionArguments];
  for (int argument = 0; argument < count; ++argument) constraint_of[argument] = -1;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& constraint = info->aConstraint[i];
    const int argument = constraint.iColumn - first_column;
    if (argument < 0 || argument >= count) continue;
    if (!constraint.usable || constraint.op != SQLITE_INDEX_CONSTRAINT_EQ) {
      return SqliteError(SQLITE_CONSTRAINT, absl::StrCat(function, ": unusable argument"));
    }
    constraint_of[argument] = i;
  }
  int idx_num = 0, argv_index = 1;
  for (int argument = 0; argument < count; ++argument) {
    const int i = constraint_of[argument];
    if (i < 0) continue;
    idx_num |= 1 << argument;
    info->aConstraintUsage[i].argvIndex = argv_index++;
    info->aConstraintUsage[i].omit = 1;
  }
  info->idxNum = idx_num;
  return absl::OkStatus();
}

void FilterArguments(int idx_num, int argc, sqlite3_value** argv,
                     absl::Span<sqlite3_value*> arguments) {
  for (size_t argument = 0, used = 0; argument < arguments.size(); ++argument) {
    const bool given = (idx_num & (1 << argument)) != 0 && used < static_cast<size_t>(argc);
    arguments[argument] = given ? argv[used++] : nullptr;
  }
}

}  // namespace crawldb
