// The noexcept layer between SQLite and crawldb's C++.
//
// SQLite calls plain C function pointers; crawldb's tables and functions are C++ that returns
// absl::Status and may throw std::bad_alloc. Every pointer SQLite receives is one of the static
// members below: each catches every exception (std::bad_alloc → SQLITE_NOMEM, anything else →
// SQLITE_INTERNAL with a message) and turns a non-OK status into an SQLite code (SqliteCode())
// plus an error message (zErrMsg of the vtab, or sqlite3_result_error for functions).
//
// A std::bad_alloc may have left a store holding part of a change (a counter moved, its undo
// entry not recorded): each one caught is counted (AllocationFailures), and the tables act on
// the count (logged_table.h): they reload their store at the next statement and refuse to
// commit a transaction during which one happened. SQLite's own allocation failures
// (SQLITE_NOMEM from its functions) return through the Status path and leave no such state.
//
// A virtual table T plugs in through VtabModule<T>::Get(). T derives from VirtualTable and has a
// nested T::Cursor deriving from VirtualCursor. Required members:
//   static absl::StatusOr<std::unique_ptr<T>> Connect(sqlite3*, void* aux, const VtabArgs&);
//   absl::Status BestIndex(sqlite3_index_info*);
//   absl::StatusOr<std::unique_ptr<Cursor>> Open();
//   Cursor: absl::Status Filter(int idx_num, const char* idx_str, int argc, sqlite3_value**);
//           absl::Status Next();  bool Eof() const;  absl::Status Column(sqlite3_context*, int);
//           absl::StatusOr<sqlite3_int64> Rowid();
// Optional members (the slot stays NULL without them):
//   static Create(...) with Connect's signature (without it the table is eponymous-only),
//   absl::Status Destroy()  (drop shadow tables; the object is deleted afterwards),
//   absl::Status Update(int argc, sqlite3_value** argv, sqlite3_int64* rowid),
//   absl::Status Begin() / Sync() / Commit() / Rollback(),
//   absl::Status Savepoint(int) / Release(int) / RollbackTo(int),
//   absl::Status Rename(const char* new_name),
//   static bool IsShadowName(absl::string_view suffix),
//   Cursor: bool TryNextFast() noexcept, bool TryColumnFast(sqlite3_context*, int) noexcept —
//           per-row fast paths that never fail; false sends the call to Next / Column.
//   void CloseCursor(std::unique_ptr<Cursor>) noexcept — takes the closed cursor (to keep it for
//           the next Open) instead of deleting it.
#pragma once

#include <concepts>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/status.h"
#include "extension/common/vtab_args.h"

namespace crawldb {

// sqlite3_vtab and sqlite3_vtab_cursor zero-initialised, as SQLite expects. Derived classes are
// converted with static_cast only, so the base need not be at offset 0.
struct VirtualTable : sqlite3_vtab {
  VirtualTable() : sqlite3_vtab{} {}
};
struct VirtualCursor : sqlite3_vtab_cursor {
  VirtualCursor() : sqlite3_vtab_cursor{} {}
};

// Replaces vtab->zErrMsg with the status message (a copy SQLite frees).
void SetVtabError(sqlite3_vtab* vtab, const absl::Status& status) noexcept;

// Reports `status` as the result of a function call: message and exact code.
void SetResultError(sqlite3_context* context, const absl::Status& status) noexcept;

// Sets a function's result to a copy of `text` (UTF-8).
inline void ResultText(sqlite3_context* context, absl::string_view text) {
  sqlite3_result_text64(context, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

// Sets a function's result to a time in unix seconds: an integer when it is a whole number
// (within ±2^53), else a real.
inline void ResultSeconds(sqlite3_context* context, double seconds) {
  if (seconds > -0x1p53 && seconds < 0x1p53 &&
      seconds == static_cast<double>(static_cast<int64_t>(seconds))) {
    sqlite3_result_int64(context, static_cast<int64_t>(seconds));
  } else {
    sqlite3_result_double(context, seconds);
  }
}

// A copy of `text` in sqlite3_malloc'ed memory (NULL when out of memory).
char* SqliteStrdup(absl::string_view text) noexcept;

// Counts a std::bad_alloc caught at the boundary (above).
void NoteAllocationFailure() noexcept;
// The std::bad_alloc caught so far in this process, by any connection.
uint64_t AllocationFailures() noexcept;

// The message used when a C++ exception other than std::bad_alloc reaches the boundary.
absl::Status UnexpectedException(const std::exception* e) noexcept;

// Runs `body` (returning absl::Status) and converts the outcome for a vtab method.
template <typename Body>
int GuardVtab(sqlite3_vtab* vtab, Body&& body) noexcept {
  try {
    absl::Status status = body();
    if (status.ok()) return SQLITE_OK;
    SetVtabError(vtab, status);
    return SqliteCode(status);
  } catch (const std::bad_alloc&) {
    NoteAllocationFailure();
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    SetVtabError(vtab, UnexpectedException(&e));
  } catch (...) {
    SetVtabError(vtab, UnexpectedException(nullptr));
  }
  return SQLITE_INTERNAL;
}

// Runs `body` (returning absl::Status, having set the result itself on success) for an SQL
// function.
template <typename Body>
void GuardFunction(sqlite3_context* context, Body&& body) noexcept {
  try {
    absl::Status status = body();
    if (!status.ok()) SetResultError(context, status);
  } catch (const std::bad_alloc&) {
    NoteAllocationFailure();
    sqlite3_result_error_nomem(context);
  } catch (const std::exception& e) {
    SetResultError(context, UnexpectedException(&e));
  } catch (...) {
    SetResultError(context, UnexpectedException(nullptr));
  }
}

// The signature of an SQL function body: sets the result on success.
using FunctionBody = absl::Status (*)(sqlite3_context*, int argc, sqlite3_value** argv);

// The C entry point SQLite calls for the function `Body`.
template <FunctionBody Body>
void SqlFunction(sqlite3_context* context, int argc, sqlite3_value** argv) noexcept {
  GuardFunction(context, [&] { return Body(context, argc, argv); });
}

template <typename T>
class VtabModule {
 public:
  using Cursor = typename T::Cursor;

  // The module SQLite is given by sqlite3_create_module_v2; lives for the whole process.
  static const sqlite3_module* Get() {
    static const sqlite3_module module = Make();
    return &module;
  }

 private:
  static T* Self(sqlite3_vtab* vtab) { return static_cast<T*>(vtab); }
  static Cursor* Self(sqlite3_vtab_cursor* cursor) { return static_cast<Cursor*>(cursor); }

  template <typename Factory>
  static int Construct(Factory factory, sqlite3* db, void* aux, int argc, const char* const* argv,
                       sqlite3_vtab** out, char** error) noexcept {
    *out = nullptr;
    absl::Status status;
    try {
      absl::StatusOr<std::unique_ptr<T>> table = factory(db, aux, ParseVtabArgv(argc, argv));
      if (table.ok()) {
        *out = table->release();
        return SQLITE_OK;
      }
      status = table.status();
    } catch (const std::bad_alloc&) {
      NoteAllocationFailure();
      return SQLITE_NOMEM;
    } catch (const std::exception& e) {
      status = UnexpectedException(&e);
    } catch (...) {
      status = UnexpectedException(nullptr);
    }
    *error = SqliteStrdup(status.message());
    return SqliteCode(status);
  }

  static int XCreate(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
                     char** error) noexcept {
    return Construct(&T::Create, db, aux, argc, argv, out, error);
  }
  static int XConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
                      char** error) noexcept {
    return Construct(&T::Connect, db, aux, argc, argv, out, error);
  }
  static int XBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->BestIndex(info); });
  }
  static int XDisconnect(sqlite3_vtab* vtab) noexcept {
    delete Self(vtab);
    return SQLITE_OK;
  }
  static int XDestroy(sqlite3_vtab* vtab) noexcept {
    int rc = SQLITE_OK;
    if constexpr (requires(T & t) { t.Destroy(); }) {
      rc = GuardVtab(vtab, [&] { return Self(vtab)->Destroy(); });
    }
    if (rc == SQLITE_OK) delete Self(vtab);
    return rc;
  }
  static int XOpen(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) noexcept {
    *out = nullptr;
    return GuardVtab(vtab, [&]() -> absl::Status {
      CRAWLDB_ASSIGN_OR_RETURN(std::unique_ptr<Cursor> cursor, Self(vtab)->Open());
      *out = cursor.release();
      return absl::OkStatus();
    });
  }
  static int XClose(sqlite3_vtab_cursor* cursor) noexcept {
    if constexpr (requires(T & t, std::unique_ptr<Cursor> c) {
                    { t.CloseCursor(std::move(c)) }
                    noexcept;
                  }) {
      Self(cursor->pVtab)->CloseCursor(std::unique_ptr<Cursor>(Self(cursor)));
    } else {
      delete Self(cursor);
    }
    return SQLITE_OK;
  }
  static int XFilter(sqlite3_vtab_cursor* cursor, int idx_num, const char* idx_str, int argc,
                     sqlite3_value** argv) noexcept {
    return GuardVtab(cursor->pVtab,
                     [&] { return Self(cursor)->Filter(idx_num, idx_str, argc, argv); });
  }
  // A cursor may offer fast paths that cannot fail (TryNextFast, TryColumnFast: noexcept, true
  // when they did the work); the guarded call runs when they decline. Scans call these once per
  // row, where the guard's cost shows: it sits in a function of its own, so that the fast path
  // does not pay for its stack frame.
  static int XNext(sqlite3_vtab_cursor* cursor) noexcept {
    if constexpr (requires(Cursor & c) {
                    { c.TryNextFast() }
                    noexcept->std::same_as<bool>;
                  }) {
      if (Self(cursor)->TryNextFast()) return SQLITE_OK;
    }
    return GuardedNext(cursor);
  }
  [[gnu::noinline]] static int GuardedNext(sqlite3_vtab_cursor* cursor) noexcept {
    return GuardVtab(cursor->pVtab, [&] { return Self(cursor)->Next(); });
  }
  static int XEof(sqlite3_vtab_cursor* cursor) noexcept { return Self(cursor)->Eof() ? 1 : 0; }
  static int XColumn(sqlite3_vtab_cursor* cursor, sqlite3_context* context, int column) noexcept {
    if constexpr (requires(Cursor & c) {
                    { c.TryColumnFast(context, column) }
                    noexcept->std::same_as<bool>;
                  }) {
      if (Self(cursor)->TryColumnFast(context, column)) return SQLITE_OK;
    }
    return GuardedColumn(cursor, context, column);
  }
  [[gnu::noinline]] static int GuardedColumn(sqlite3_vtab_cursor* cursor, sqlite3_context* context,
                                             int column) noexcept {
    return GuardVtab(cursor->pVtab, [&] { return Self(cursor)->Column(context, column); });
  }
  static int XRowid(sqlite3_vtab_cursor* cursor, sqlite3_int64* rowid) noexcept {
    return GuardVtab(cursor->pVtab, [&]() -> absl::Status {
      CRAWLDB_ASSIGN_OR_RETURN(*rowid, Self(cursor)->Rowid());
      return absl::OkStatus();
    });
  }
  static int XUpdate(sqlite3_vtab* vtab, int argc, sqlite3_value** argv,
                     sqlite3_int64* rowid) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Update(argc, argv, rowid); });
  }
  static int XBegin(sqlite3_vtab* vtab) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Begin(); });
  }
  static int XSync(sqlite3_vtab* vtab) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Sync(); });
  }
  static int XCommit(sqlite3_vtab* vtab) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Commit(); });
  }
  static int XRollback(sqlite3_vtab* vtab) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Rollback(); });
  }
  static int XRename(sqlite3_vtab* vtab, const char* new_name) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Rename(new_name); });
  }
  static int XSavepoint(sqlite3_vtab* vtab, int savepoint) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Savepoint(savepoint); });
  }
  static int XRelease(sqlite3_vtab* vtab, int savepoint) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->Release(savepoint); });
  }
  static int XRollbackTo(sqlite3_vtab* vtab, int savepoint) noexcept {
    return GuardVtab(vtab, [&] { return Self(vtab)->RollbackTo(savepoint); });
  }
  static int XShadowName(const char* suffix) noexcept {
    return T::IsShadowName(absl::string_view(suffix)) ? 1 : 0;
  }

  static sqlite3_module Make() {
    sqlite3_module m{};
    m.iVersion = 3;
    if constexpr (requires { &T::Create; }) m.xCreate = &XCreate;
    m.xConnect = &XConnect;
    m.xBestIndex = &XBestIndex;
    m.xDisconnect = &XDisconnect;
    m.xDestroy = &XDestroy;
    m.xOpen = &XOpen;
    m.xClose = &XClose;
    m.xFilter = &XFilter;
    m.xNext = &XNext;
    m.xEof = &XEof;
    m.xColumn = &XColumn;
    m.xRowid = &XRowid;
    if constexpr (requires(T & t) { t.Update(0, nullptr, nullptr); }) m.xUpdate = &XUpdate;
    if constexpr (requires(T & t) { t.Begin(); }) m.xBegin = &XBegin;
    if constexpr (requires(T & t) { t.Sync(); }) m.xSync = &XSync;
    if constexpr (requires(T & t) { t.Commit(); }) m.xCommit = &XCommit;
    if constexpr (requires(T & t) { t.Rollback(); }) m.xRollback = &XRollback;
    if constexpr (requires(T & t) { t.Rename(""); }) m.xRename = &XRename;
    if constexpr (requires(T & t) { t.Savepoint(0); }) {
      m.xSavepoint = &XSavepoint;
      m.xRelease = &XRelease;
      m.xRollbackTo = &XRollbackTo;
    }
    if constexpr (requires { T::IsShadowName(absl::string_view()); }) m.xShadowName = &XShadowName;
    return m;
  }
};

}  // namespace crawldb
