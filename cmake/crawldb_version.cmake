# Version and commit compiled into crawldb_version(); build facts into crawldb_debug().
execute_process(COMMAND git rev-parse --short=12 HEAD
                WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                OUTPUT_VARIABLE CRAWLDB_GIT_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                ERROR_QUIET RESULT_VARIABLE git_result)
if(NOT git_result EQUAL 0 OR CRAWLDB_GIT_COMMIT STREQUAL "")
  set(CRAWLDB_GIT_COMMIT "unknown")
endif()
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE RelWithDebInfo CACHE STRING "" FORCE)
endif()
string(TOUPPER "${CMAKE_BUILD_TYPE}" build_type_upper)
set(CRAWLDB_BUILD_FLAGS "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${build_type_upper}}")
if(CRAWLDB_SANITIZE)
  string(APPEND CRAWLDB_BUILD_FLAGS " -fsanitize=${CRAWLDB_SANITIZE}")
endif()
string(STRIP "${CRAWLDB_BUILD_FLAGS}" CRAWLDB_BUILD_FLAGS)
configure_file(${PROJECT_SOURCE_DIR}/extension/common/build_info.h.in
               ${PROJECT_BINARY_DIR}/generated/build_info.h @ONLY)
