// absl::Status ↔ SQLite result codes, in one place.
//
// Inside crawldb every fallible function returns absl::Status / absl::StatusOr. Only the noexcept
// trampolines (trampoline.h) turn a status into an SQLite result code, through SqliteCode():
//   - a status made by SqliteError(rc, …) carries rc itself, so a real code from a failed
//     shadow-table statement (SQLITE_BUSY, SQLITE_FULL, SQLITE_IOERR_*, SQLITE_CONSTRAINT_*)
//     reaches the caller unchanged;
//   - corruption of stored bytes goes through CorruptError() (absl::DataLossError) and becomes
//     SQLITE_CORRUPT_VTAB;
//   - the other canonical codes map as the table in status.cc says.
// Messages read "<module>: <what is wrong>[; <what to do>]", e.g.
//   "crawldb_urls: unknown option 'leese'; expected one of: lease, max_depth".
#pragma once

#include <string>
#include "absl/strings/string_view.h"

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace crawldb {

// "<module>: <what>" or "<module>: <what>; <fix>" when fix is not empty.
std::string ErrorMessage(absl::string_view module, absl::string_view what,
                         absl::string_view fix = {});

// An error the user can correct (bad argument, misuse): SQLITE_ERROR.
absl::Status UserError(absl::string_view module, absl::string_view what,
                       absl::string_view fix = {});

// A constraint violation (duplicate, refused value): SQLITE_CONSTRAINT, so that SQLite applies
// the statement's conflict clause (OR IGNORE, OR ABORT, ...).
absl::Status ConstraintError(absl::string_view module, absl::string_view what,
                             absl::string_view fix = {});

// Stored bytes that fail validation. The only way to produce SQLITE_CORRUPT_VTAB.
absl::Status CorruptError(absl::string_view module, absl::string_view what);

// An error that must reach SQLite as exactly `rc` (an SQLite primary or extended result code).
// `message` is the full text, already prefixed by its module.
absl::Status SqliteError(int rc, absl::string_view message);

// The SQLite result code for `status`: SQLITE_OK for an OK status, the carried code for a status
// from SqliteError(), SQLITE_CORRUPT_VTAB for DataLoss, else by canonical code (status.cc).
int SqliteCode(const absl::Status& status);

}  // namespace crawldb

// Abseil 20220623 has no status macros; these are the two the project uses.
#define CRAWLDB_CONCAT_INNER(a, b) a##b
#define CRAWLDB_CONCAT(a, b) CRAWLDB_CONCAT_INNER(a, b)

#define CRAWLDB_RETURN_IF_ERROR(expr)                                                         \
  do {                                                                                        \
    if (absl::Status crawldb_status_ = (expr); !crawldb_status_.ok()) return crawldb_status_; \
  } while (false)

#define CRAWLDB_ASSIGN_OR_RETURN(lhs, expr) \
  CRAWLDB_ASSIGN_OR_RETURN_IMPL(CRAWLDB_CONCAT(crawldb_statusor_, __LINE__), lhs, expr)
// `lhs` may be a declaration ("int x"), `statusor` a name: neither can be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define CRAWLDB_ASSIGN_OR_RETURN_IMPL(statusor, lhs, expr) \
  auto statusor = (expr);                                  \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()
// NOLINTEND(bugprone-macro-parentheses)
