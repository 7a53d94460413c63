// The shared real data sets (../shared/data beside the checkout) for tests that read them.
//
// A clone on its own has no ../shared: a test that needs a missing file ends there, skipped with a
// message naming the file, or failed when CRAWLDB_REQUIRE_SHARED_DATA=1 (.ci/run sets it). Either
// way the test stops at the call, wherever it is (a helper, a fixture's SetUp): SharedDataPath
// records the outcome, then throws testing::AssertionException, which GoogleTest takes as "this
// test is over, its outcome already reported" (gtest.h, TestEventListener).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace crawldb::testing {

// `relative` inside the shared data folder: $CRAWLDB_SHARED_DATA (CTest sets it), else the
// folder beside this checkout. Ends the calling test (see above) when the file is missing.
inline std::string SharedDataPath(const std::string& relative) {
  const char* env = std::getenv("CRAWLDB_SHARED_DATA");
  std::filesystem::path root =
      env != nullptr && *env != '\0'
          ? std::filesystem::path(env)
          : std::filesystem::path(__FILE__).parent_path().parent_path() / ".." / "shared" / "data";
  const std::string path = (root / relative).lexically_normal().string();
  if (std::filesystem::exists(path)) return path;
  const std::string message = "missing shared data file " + path;
  const char* required = std::getenv("CRAWLDB_REQUIRE_SHARED_DATA");
  const bool fail = required != nullptr && std::string(required) == "1";
  // FAIL and GTEST_SKIP return from the function they are in: here, the lambdas. A fatal failure
  // or a skip recorded in SetUp keeps GoogleTest from running the test's body.
  if (fail) {
    [&] { FAIL() << message << " (CRAWLDB_REQUIRE_SHARED_DATA=1)"; }();
  } else {
    [&] { GTEST_SKIP() << message; }();
  }
  throw ::testing::AssertionException(::testing::TestPartResult(
      fail ? ::testing::TestPartResult::kFatalFailure : ::testing::TestPartResult::kSkip, __FILE__,
      __LINE__, message.c_str()));
}

// The first `limit` lines of an .xz file, read through `xz -dc`. A missing or unreadable file
// fails the test (SharedDataPath has already ended it when a shared file is missing).
inline std::vector<std::string> ReadXzLines(const std::string& path, size_t limit = SIZE_MAX) {
  std::vector<std::string> lines;
  EXPECT_TRUE(std::filesystem::exists(path)) << "missing data file " << path;
  if (!std::filesystem::exists(path)) return lines;
  const std::string command = "xz -dc '" + path + "'";
  FILE* pipe = popen(command.c_str(), "r");
  EXPECT_NE(pipe, nullptr) << command;
  if (pipe == nullptr) return lines;
  std::string current;
  char buffer[1 << 16];
  size_t got;
  while (lines.size() < limit && (got = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) {
    for (size_t i = 0; i < got && lines.size() < limit; ++i) {
      if (buffer[i] == '\n') {
        lines.push_back(std::move(current));
        current.clear();
      } else {
        current.push_back(buffer[i]);
      }
    }
  }
  if (!current.empty() && lines.size() < limit) lines.push_back(std::move(current));
  int status = pclose(pipe);
  if (limit == SIZE_MAX) {  // closing early may end xz with SIGPIPE
    EXPECT_EQ(status, 0) << command;
  }
  EXPECT_FALSE(lines.empty()) << path;
  return lines;
}

}  // namespace crawldb::testing
