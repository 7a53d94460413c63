#include "extension/common/status.h"

#include <optional>

#include "absl/strings/cord.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "extension/common/sqlite_api.h"

namespace crawldb {
namespace {

// The payload that carries an exact SQLite result code through absl::Status.
constexpr absl::string_view kSqliteCodePayload = "crawldb/sqlite_rc";

std::optional<int> CarriedCode(const absl::Status& status) {
  absl::optional<absl::Cord> payload = status.GetPayload(kSqliteCodePayload);
  int rc = 0;
  if (!payload || !absl::SimpleAtoi(std::string(*payload), &rc)) return std::nullopt;
  return rc;
}

// The canonical code that best describes an SQLite primary result code, so that code inside
// crawldb can branch on status.code() without knowing SQLite's numbers.
absl::StatusCode CanonicalFor(int rc) {
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return absl::StatusCode::kUnavailable;
    case SQLITE_NOMEM:
    case SQLITE_FULL:
      return absl::StatusCode::kResourceExhausted;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return absl::StatusCode::kDataLoss;
    case SQLITE_CONSTRAINT:
      return absl::StatusCode::kAlreadyExists;
    case SQLITE_ABORT:
    case SQLITE_INTERRUPT:
      return absl::StatusCode::kAborted;
    case SQLITE_PERM:
    case SQLITE_AUTH:
    case SQLITE_READONLY:
      return absl::StatusCode::kPermissionDenied;
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
      return absl::StatusCode::kFailedPrecondition;
    case SQLITE_INTERNAL:
      return absl::StatusCode::kInternal;
    default:
      return absl::StatusCode::kUnknown;
  }
}

}  // namespace

std::string ErrorMessage(absl::string_view module, absl::string_view what, absl::string_view fix) {
  if (fix.empty()) return absl::StrCat(module, ": ", what);
  return absl::StrCat(module, ": ", what, "; ", fix);
}

absl::Status UserError(absl::string_view module, absl::string_view what, absl::string_view fix) {
  return absl::InvalidArgumentError(ErrorMessage(module, what, fix));
}

absl::Status ConstraintError(absl::string_view module, absl::string_view what,
                             absl::string_view fix) {
  return absl::AlreadyExistsError(ErrorMessage(module, what, fix));
}

absl::Status CorruptError(absl::string_view module, absl::string_view what) {
  return absl::DataLossError(
      ErrorMessage(module, what, "the stored data is damaged; restore the file from a backup"));
}

absl::Status SqliteError(int rc, absl::string_view message) {
  absl::Status status(CanonicalFor(rc), message);
  status.SetPayload(kSqliteCodePayload, absl::Cord(absl::StrCat(rc)));
  return status;
}

int SqliteCode(const absl::Status& status) {
  if (status.ok()) return SQLITE_OK;
  if (std::optional<int> rc = CarriedCode(status)) return *rc;
  switch (status.code()) {
    case absl::StatusCode::kAlreadyExists:
      return SQLITE_CONSTRAINT;
    case absl::StatusCode::kDataLoss:
      return SQLITE_CORRUPT_VTAB;
    case absl::StatusCode::kResourceExhausted:
      return SQLITE_NOMEM;
    case absl::StatusCode::kUnavailable:
      return SQLITE_BUSY;
    case absl::StatusCode::kAborted:
    case absl::StatusCode::kCancelled:
      return SQLITE_ABORT;
    case absl::StatusCode::kPermissionDenied:
      return SQLITE_PERM;
    case absl::StatusCode::kInternal:
    case absl::StatusCode::kUnknown:
      return SQLITE_INTERNAL;
    default:  // InvalidArgument, NotFound, OutOfRange, FailedPrecondition, Unimplemented, ...
      return SQLITE_ERROR;
  }
}

}  // namespace crawldb
