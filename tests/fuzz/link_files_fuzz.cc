// Fuzz target: the readers of the link tables' input files (extension/links/link_files.h).
//
// Input: kind:u8 (even: an arcs file, odd: a links file) contents:rest
// Properties: nothing crashes; a file is refused with an InvalidArgumentError "line N: …", N
// within the file; a file that reads counts its lines, and what it holds, written out again in
// the plainest form, reads back the same.
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "extension/links/link_files.h"
#include "tests/fuzz/fuzz_target.h"
#include "tests/fuzz/seed_urls.h"

namespace crawldb::fuzz {
namespace {

// Lines std::getline reads from `contents`.
uint64_t LineCount(absl::string_view contents) {
  uint64_t lines = static_cast<uint64_t>(std::count(contents.begin(), contents.end(), '\n'));
  return lines + (!contents.empty() && contents.back() != '\n' ? 1 : 0);
}

void CheckRefusal(const absl::Status& status, uint64_t lines) {
  FUZZ_CHECK(absl::IsInvalidArgument(status) && absl::StartsWith(status.message(), "line "));
  uint64_t line = 0;
  absl::string_view number = status.message().substr(5);
  number = number.substr(0, number.find(':'));
  FUZZ_CHECK(absl::SimpleAtoi(number, &line) && line >= 1 && line <= lines);
}

void CheckArcs(absl::string_view contents) {
  std::istringstream in{std::string(contents)};
  absl::StatusOr<links::ArcsFile> file = links::ReadArcs(in, "fuzz");
  if (!file.ok()) {
    CheckRefusal(file.status(), LineCount(contents));
    return;
  }
  FUZZ_CHECK(file->lines == LineCount(contents));
  std::string plain;
  for (const codecs::Arc& arc : file->arcs) absl::StrAppend(&plain, arc.src, "\t", arc.dst, "\n");
  std::istringstream again_in(plain);
  absl::StatusOr<links::ArcsFile> again = links::ReadArcs(again_in, "again");
  FUZZ_CHECK(again.ok() && again->arcs.size() == file->arcs.size());
  for (size_t i = 0; i < file->arcs.size(); ++i) {
    FUZZ_CHECK(again->arcs[i].src == file->arcs[i].src && again->arcs[i].dst == file->arcs[i].dst);
  }
}

void CheckLinks(absl::string_view contents) {
  std::istringstream in{std::string(contents)};
  absl::StatusOr<links::LinksFile> file = links::ReadLinks(in, "fuzz");
  if (!file.ok()) {
    CheckRefusal(file.status(), LineCount(contents));
    return;
  }
  FUZZ_CHECK(file->lines == LineCount(contents));
  std::string plain;
  for (const links::LinksRecord& record : file->records) {
    FUZZ_CHECK(!record.source.empty());
    absl::StrAppend(&plain, record.source, "\n");
    for (const std::string& destination : record.destinations) {
      FUZZ_CHECK(!destination.empty());
      absl::StrAppend(&plain, "\t", destination, "\n");
    }
  }
  std::istringstream again_in(plain);
  absl::StatusOr<links::LinksFile> again = links::ReadLinks(again_in, "again");
  FUZZ_CHECK(again.ok() && again->superseded == 0 && again->records.size() == file->records.size());
  for (size_t i = 0; i < file->records.size(); ++i) {
    FUZZ_CHECK(again->records[i].source == file->records[i].source &&
               again->records[i].destinations == file->records[i].destinations);
  }
}

Seed MakeSeed(std::string name, uint8_t kind, absl::string_view contents) {
  std::vector<uint8_t> bytes = {kind};
  bytes.insert(bytes.end(), contents.begin(), contents.end());
  return {std::move(name), std::move(bytes)};
}

}  // namespace

std::vector<Seed> FuzzSeeds() {
  const std::vector<std::string> urls = SeedRawUrls(30);
  std::string links_file;
  for (size_t i = 0; i < urls.size(); i += 5) {
    absl::StrAppend(&links_file, urls[i], "\n");
    for (size_t j = 1; j < 5 && i + j < urls.size(); ++j) {
      absl::StrAppend(&links_file, j % 2 == 0 ? "  " : "\t", urls[i + j], " \r\n");
    }
    if (i == 10) absl::StrAppend(&links_file, "\n", urls[0], "\n\t", urls[29], "\n");
  }
  return {
      MakeSeed("arcs", 0, "# comment\n% comment\n0\t1\n1 2\n\n  2 \t 0\n4294967295\t7\r\n3\t3"),
      MakeSeed("arcs_bad_line", 0, "0\t1\n1\n"),
      MakeSeed("links", 1, links_file),
      MakeSeed("links_bad_line", 1, "  http://a.com/\nhttp://b.com/\n"),
  };
}

void TestOneInput(FuzzInput input) {
  const bool links = (input.Byte() & 1) != 0;
  const absl::string_view contents = TextOf(input.Rest());
  if (links) {
    CheckLinks(contents);
  } else {
    CheckArcs(contents);
  }
}

}  // namespace crawldb::fuzz
