# Every dependency comes from a Debian 12 package (scripts/install-deps.sh installs them).
find_package(absl REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)
pkg_check_modules(URIPARSER REQUIRED IMPORTED_TARGET liburiparser)
pkg_check_modules(PSL REQUIRED IMPORTED_TARGET libpsl)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(IDN2 REQUIRED IMPORTED_TARGET libidn2)
find_program(SQLITE3_SHELL sqlite3 REQUIRED)
# Optional: crawldb-node and its cluster test are built only with libdqlite-dev.
pkg_check_modules(DQLITE IMPORTED_TARGET dqlite)
if(NOT DQLITE_FOUND)
  message(STATUS "libdqlite-dev not found: crawldb-node is not built, the cluster test skips")
endif()

if(CRAWLDB_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
if(CRAWLDB_BUILD_TESTS OR CRAWLDB_BUILD_BENCHMARKS)
  find_package(SQLiteCpp REQUIRED)
endif()
if(CRAWLDB_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()

# The real data (../shared/data beside the checkout) used by tests and benchmarks.
set(CRAWLDB_SHARED_DATA "${PROJECT_SOURCE_DIR}/../shared/data" CACHE PATH
    "Folder holding the shared real data sets")
