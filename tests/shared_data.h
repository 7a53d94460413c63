// The shared real data sets (../shared/data beside the checkout) for tests that read them.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace crawldb::testing {

// `relative` inside the shared data folder: $CRAWLDB_SHARED_DATA (CTest sets it), else the
// folder beside this checkout.
inline std::string SharedDataPath(const std::string& relative) {
  const char* env = std::getenv("CRAWLDB_SHARED_DATA");
  std::filesystem::path root =
      env != nullptr && *env != '\0'
          ? std::filesystem::path(env)
          : std::filesystem::path(__FILE__).parent_path().parent_path() / ".." / "shared" / "data";
  return (root / relative).string();
}

// The first `limit` lines of an .xz file, read through `xz -dc`. A missing or unreadable file
// fails the test: tests on real data never skip.
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
