// SQL functions declared as data. Each family lists its functions in a table of SqlFunctionSpec
// rows and registers the table with RegisterSqlFunctions; a row says everything SQLite and a
// user need to know of a function: its name, how many arguments it takes, its flags, the type of
// each argument, and its body.
//
// Arguments. When min_args == max_args SQLite itself refuses another count. Otherwise the
// function is registered for any count and a count outside [min_args, max_args] is an error
// naming the function and its `signature`. Each argument with a declared type is checked before
// the body runs: "<function>: argument <i> (<name>) must be <type>, got <type>" (NULL passes
// unless the argument is not nullable). Bodies then read their arguments without checking again.
#pragma once

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "extension/common/sqlite_api.h"
#include "extension/common/trampoline.h"

namespace crawldb {

// The flag sets crawldb's functions use.
inline constexpr int kPureFunction = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
inline constexpr int kReadingFunction = SQLITE_UTF8 | SQLITE_INNOCUOUS;
// Writes tables, or reads files: never from a view, a trigger or a schema (SQLITE_DIRECTONLY).
inline constexpr int kWritingFunction = SQLITE_UTF8 | SQLITE_DIRECTONLY;

enum class ArgumentType : uint8_t { kAny, kText, kInteger, kNumber };

struct ArgumentSpec {
  const char* name = nullptr;  // nullptr: not checked
  ArgumentType type = ArgumentType::kAny;
  bool nullable = true;
};

inline constexpr int kMostCheckedArguments = 4;

struct SqlFunctionSpec {
  const char* name;
  int min_args;
  int max_args;
  int flags;
  FunctionBody body;
  const char* signature = "";  // e.g. "(url [, parent_url])", for the count error
  std::array<ArgumentSpec, kMostCheckedArguments> arguments = {};
};

// Registers every function of `table` on `db`. Each gets `state` (FunctionStateOf gives it to the body); the first
// function owns it when `destroy_state` is given: SQLite calls destroy_state(state) when that
// function is deleted (the connection closes), and also when registering it fails.
absl::Status RegisterSqlFunctions(sqlite3* db, absl::Span<const SqlFunctionSpec> table, void* state,
                                  void (*destroy_state)(void*) = nullptr);

// The state the running function was registered with.
void* FunctionStateOf(sqlite3_context* context);

// "an integer", "a real", "text", "a blob" or "NULL": the type of `value` in error messages.
absl::string_view SqlTypeName(sqlite3_value* value);

}  // namespace crawldb
