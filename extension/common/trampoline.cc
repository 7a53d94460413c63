#include "extension/common/trampoline.h"

#include <atomic>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace crawldb {
namespace {

std::atomic<uint64_t> allocation_failures{0};

}  // namespace

void NoteAllocationFailure() noexcept {
  allocation_failures.fetch_add(1, std::memory_order_relaxed);
}

uint64_t AllocationFailures() noexcept {
  return allocation_failures.load(std::memory_order_relaxed);
}

char* SqliteStrdup(absl::string_view text) noexcept {
  char* copy = static_cast<char*>(sqlite3_malloc64(text.size() + 1));
  if (copy == nullptr) return nullptr;
  std::memcpy(copy, text.data(), text.size());
  copy[text.size()] = '\0';
  return copy;
}

void SetVtabError(sqlite3_vtab* vtab, const absl::Status& status) noexcept {
  sqlite3_free(vtab->zErrMsg);
  vtab->zErrMsg = SqliteStrdup(status.message());
}

void SetResultError(sqlite3_context* context, const absl::Status& status) noexcept {
  int rc = SqliteCode(status);
  if (rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(context);
    return;
  }
  // The message first: sqlite3_result_error_code keeps a message already set.
  absl::string_view message = status.message();
  sqlite3_result_error(context, message.data(), static_cast<int>(message.size()));
  sqlite3_result_error_code(context, rc);
}

absl::Status UnexpectedException(const std::exception* e) noexcept {
  try {
    return absl::InternalError(absl::StrCat(
        "crawldb: internal error: unexpected C++ exception",
        e != nullptr ? absl::StrCat(" (", e->what(), ")") : std::string(), "; please report it"));
  } catch (...) {
    return absl::InternalError("crawldb: internal error: unexpected C++ exception");
  }
}

}  // namespace crawldb
