#include "extension/common/sql_function_table.h"

#include <memory>

#include "absl/strings/str_cat.h"
#include "extension/common/statement_cache.h"
#include "extension/common/status.h"

namespace crawldb {
namespace {

// The user data of each registered function.
struct Registered {
  const SqlFunctionSpec* spec;
  void* state;
  void (*destroy_state)(void*);  // set on the function that owns the state
};

void DeleteRegistered(void* data) {
  auto* registered = static_cast<Registered*>(data);
  if (registered->destroy_state != nullptr) registered->destroy_state(registered->state);
  delete registered;
}

bool HasType(sqlite3_value* value, ArgumentType type) {
  int actual = sqlite3_value_type(value);
  switch (type) {
    case ArgumentType::kAny:
      return true;
    case ArgumentType::kText:
      return actual == SQLITE_TEXT;
    case ArgumentType::kInteger:
      return actual == SQLITE_INTEGER;
    case ArgumentType::kNumber:
      return actual == SQLITE_INTEGER || actual == SQLITE_FLOAT;
  }
  return false;
}

absl::string_view Expected(ArgumentType type) {
  switch (type) {
    case ArgumentType::kText:
      return "text";
    case ArgumentType::kInteger:
      return "an integer";
    case ArgumentType::kNumber:
      return "a number";
    case ArgumentType::kAny:
      break;
  }
  return "any value";
}

absl::Status CheckArguments(const SqlFunctionSpec& spec, int argc, sqlite3_value** argv) {
  if (argc < spec.min_args || argc > spec.max_args) {
    return UserError(spec.name, absl::StrCat("expected ", spec.min_args, " to ", spec.max_args,
                                             " arguments ", spec.signature, ", got ", argc));
  }
  for (int i = 0; i < argc && i < kMostCheckedArguments; ++i) {
    const ArgumentSpec& argument = spec.arguments[i];
    if (argument.name == nullptr) continue;
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL && argument.nullable) continue;
    if (!HasType(argv[i], argument.type)) {
      return UserError(spec.name,
                       absl::StrCat("argument ", i + 1, " (", argument.name, ") must be ",
                                    Expected(argument.type), ", got ", SqlTypeName(argv[i])));
    }
  }
  return absl::OkStatus();
}

void CallChecked(sqlite3_context* context, int argc, sqlite3_value** argv) noexcept {
  const SqlFunctionSpec& spec = *static_cast<Registered*>(sqlite3_user_data(context))->spec;
  GuardFunction(context, [&]() -> absl::Status {
    CRAWLDB_RETURN_IF_ERROR(CheckArguments(spec, argc, argv));
    return spec.body(context, argc, argv);
  });
}

}  // namespace

absl::Status RegisterSqlFunctions(sqlite3* db, absl::Span<const SqlFunctionSpec> table, void* state,
                                  void (*destroy_state)(void*)) {
  for (const SqlFunctionSpec& spec : table) {
    auto registered = std::make_unique<Registered>(Registered{&spec, state, destroy_state});
    destroy_state = nullptr;  // the first function owns the state
    int args = spec.min_args == spec.max_args ? spec.min_args : -1;
    // SQLite calls DeleteRegistered even when this fails.
    int rc = sqlite3_create_function_v2(db, spec.name, args, spec.flags, registered.release(),
                                        &CallChecked, nullptr, nullptr, &DeleteRegistered);
    if (rc != SQLITE_OK) return SqliteFailure(db, rc, "crawldb");
  }
  return absl::OkStatus();
}

void* FunctionStateOf(sqlite3_context* context) {
  return static_cast<Registered*>(sqlite3_user_data(context))->state;
}

absl::string_view SqlTypeName(sqlite3_value* value) {
  switch (sqlite3_value_type(value)) {
    case SQLITE_INTEGER:
      return "an integer";
    case SQLITE_FLOAT:
      return "a real";
    case SQLITE_TEXT:
      return "text";
    case SQLITE_BLOB:
      return "a blob";
    default:
      return "NULL";
  }
}

}  // namespace crawldb
