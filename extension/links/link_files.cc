#include "extension/links/link_files.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace crawldb::links {
namespace {

constexpr absl::string_view kBlanks = " \t\r";

absl::string_view Trim(absl::string_view text) {
  size_t begin = text.find_first_not_of(kBlanks);
  if (begin == absl::string_view::npos) return {};
  size_t end = text.find_last_not_of(kBlanks);
  return text.substr(begin, end - begin + 1);
}

absl::Status LineError(uint64_t line, absl::string_view what) {
  return absl::InvalidArgumentError(
      absl::StrCat("line ", line, ": ", absl::string_view(what.data(), what.size())));
}

absl::StatusOr<std::ifstream> Open(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    return absl::NotFoundError(absl::StrCat("cannot open '", path, "': ", std::strerror(errno)));
  }
  return file;
}

bool ParseId(absl::string_view text, uint32_t* id) {
  return !text.empty() && text.find_first_not_of("0123456789") == absl::string_view::npos &&
         absl::SimpleAtoi(absl::string_view(text.data(), text.size()), id);
}

}  // namespace

absl::StatusOr<ArcsFile> ReadArcsFile(const std::string& path) {
  absl::StatusOr<std::ifstream> file = Open(path);
  if (!file.ok()) return file.status();
  return ReadArcs(*file, path);
}

absl::StatusOr<ArcsFile> ReadArcs(std::istream& in, const std::string& name) {
  ArcsFile result;
  std::string line;
  while (std::getline(in, line)) {
    ++result.lines;
    absl::string_view text = Trim(line);
    if (text.empty() || text[0] == '#' || text[0] == '%') continue;
    size_t gap = text.find_first_of(" \t");
    uint32_t src = 0, dst = 0;
    if (gap == absl::string_view::npos || !ParseId(text.substr(0, gap), &src) ||
        !ParseId(Trim(text.substr(gap)), &dst)) {
      return LineError(result.lines, "expected two ids from 0 to 4294967295 separated by a tab");
    }
    result.arcs.push_back({src, dst});
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat("reading '", name, "' failed"));
  return result;
}

absl::StatusOr<LinksFile> ReadLinksFile(const std::string& path) {
  absl::StatusOr<std::ifstream> file = Open(path);
  if (!file.ok()) return file.status();
  return ReadLinks(*file, path);
}

absl::StatusOr<LinksFile> ReadLinks(std::istream& in, const std::string& name) {
  LinksFile result;
  absl::flat_hash_map<std::string, size_t> record_of;  // source → index in records
  size_t current = SIZE_MAX;                           // index of the record being read
  std::string line;
  while (std::getline(in, line)) {
    ++result.lines;
    if (line.find('\0') != std::string::npos) return LineError(result.lines, "holds a NUL byte");
    absl::string_view text = Trim(line);
    if (text.empty()) continue;
    if (kBlanks.find(line[0]) != absl::string_view::npos) {
      if (current == SIZE_MAX) {
        return LineError(result.lines, "an indented destination URL before any source URL");
      }
      result.records[current].destinations.emplace_back(text);
      continue;
    }
    auto [at, inserted] = record_of.try_emplace(std::string(text), result.records.size());
    if (inserted) {
      result.records.push_back({std::string(text), {}});
    } else {
      ++result.superseded;  // the newer record replaces the older one
      result.records[at->second].destinations.clear();
    }
    current = at->second;
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat("reading '", name, "' failed"));
  return result;
}

}  // namespace crawldb::links
