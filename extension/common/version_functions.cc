#include "extension/common/version_functions.h"

#include "absl/base/config.h"
#include "absl/strings/str_cat.h"
#include "build_info.h"
#include "extension/common/sql_function_table.h"
#include "extension/common/trampoline.h"

namespace crawldb {
namespace {

absl::Status VersionFunction(sqlite3_context* context, int, sqlite3_value**) {
  ResultText(context, VersionText());
  return absl::OkStatus();
}

absl::Status DebugFunction(sqlite3_context* context, int, sqlite3_value**) {
  ResultText(context, DebugText());
  return absl::OkStatus();
}

const char* Sanitizers() {
#if defined(__SANITIZE_ADDRESS__)
  return "address,undefined";
#else
  return "none";
#endif
}

}  // namespace

std::string VersionText() { return absl::StrCat(CRAWLDB_VERSION_STRING, "+", CRAWLDB_GIT_COMMIT); }

std::string DebugText() {
  return absl::StrCat("version: ", CRAWLDB_VERSION_STRING, "\n",       //
                      "commit: ", CRAWLDB_GIT_COMMIT, "\n",            //
                      "build_type: ", CRAWLDB_BUILD_TYPE, "\n",        //
                      "compiler: ", CRAWLDB_CXX_COMPILER, "\n",        //
                      "flags: ", CRAWLDB_BUILD_FLAGS, "\n",            //
                      "sanitizers: ", Sanitizers(), "\n",              //
                      "sqlite_compiled: ", SQLITE_VERSION, "\n",       //
                      "sqlite_running: ", sqlite3_libversion(), "\n",  //
                      "abseil: ", ABSL_LTS_RELEASE_VERSION);
}

constexpr SqlFunctionSpec kVersionFunctions[] = {
    {"crawldb_version", 0, 0, kPureFunction, &VersionFunction},
    {"crawldb_debug", 0, 0, kPureFunction, &DebugFunction},
};

absl::Status RegisterVersionFunctions(sqlite3* db) {
  return RegisterSqlFunctions(db, kVersionFunctions, nullptr);
}

}  // namespace crawldb
