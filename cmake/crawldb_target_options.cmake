# The one place that sets warnings and sanitizers: every target of the project calls
# crawldb_target_options(<target>) so that all of them build the same way.

function(crawldb_target_options target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow -Wnon-virtual-dtor
                                           -Wimplicit-fallthrough)
  if(CRAWLDB_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(CRAWLDB_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=${CRAWLDB_SANITIZE}
                                             -fno-omit-frame-pointer -fno-sanitize-recover=all)
    target_link_options(${target} PRIVATE -fsanitize=${CRAWLDB_SANITIZE})
  endif()
  if(CRAWLDB_FUZZ)  # libFuzzer's coverage of every library; tests/fuzz links its runtime
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link)
  endif()
endfunction()

# Test labels (ctest -L LABEL): `unit` — a layer below SQL on its own, quick (the whole tier runs
# in well under a minute: ctest --preset release -L unit); `integration` — the built module
# through SQL, processes, the Python client; `lint` — the repository's own checks.

# A GoogleTest executable registered with CTest, one per test file; LABEL defaults to unit.
function(crawldb_add_gtest name)
  cmake_parse_arguments(ARG "" "LABEL" "SOURCES;LIBS" ${ARGN})
  if(NOT ARG_LABEL)
    set(ARG_LABEL unit)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  if(CRAWLDB_SANITIZE MATCHES "address")
    target_sources(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tests/asan_default_options.cc)
  endif()
  crawldb_target_options(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60
                       PROPERTIES ENVIRONMENT "CRAWLDB_SHARED_DATA=${CRAWLDB_SHARED_DATA}"
                                  LABELS ${ARG_LABEL})
endfunction()

# Every *_test.cc in the calling folder becomes one GoogleTest program linked with LIBS.
function(crawldb_add_gtest_folder)
  cmake_parse_arguments(ARG "" "LABEL" "LIBS" ${ARGN})
  file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cc)
  foreach(test_source ${test_sources})
    get_filename_component(test_name ${test_source} NAME_WE)
    crawldb_add_gtest(${test_name} SOURCES ${test_source} LIBS ${ARG_LIBS} LABEL ${ARG_LABEL})
  endforeach()
endfunction()

# The environment for a test that loads crawldb.so into a program not built here (the sqlite3
# shell, /usr/bin/python3): a sanitized module needs the ASan runtime loaded first.
set(CRAWLDB_HOST_ENV "CRAWLDB_EXTENSION=$<TARGET_FILE:crawldb>"
                     "CRAWLDB_SHARED_DATA=${CRAWLDB_SHARED_DATA}")
if(CRAWLDB_SANITIZE MATCHES "address")
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so
                  OUTPUT_VARIABLE asan_runtime OUTPUT_STRIP_TRAILING_WHITESPACE)
  list(APPEND CRAWLDB_HOST_ENV "LD_PRELOAD=${asan_runtime}" "ASAN_OPTIONS=detect_leaks=0")
endif()
