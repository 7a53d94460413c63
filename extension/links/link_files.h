// Readers of the two input files of the link tables. SQLite-free.
//
// Arcs file (crawldb_import_arcs): one arc per line, `src<TAB>dst` (any run of spaces or tabs
// between the two), ids decimal from 0 to 4294967295; empty lines and lines starting with '#'
// or '%' (SNAP's and KONECT's comments) are skipped.
//
// Links file (crawldb_import_links; paper 001 §2.1): records of a source URL on a line that
// starts in column 1, followed by its destination URLs, one per line, each indented by at least
// one space or tab; blank lines are ignored. Later records are newer: when a source appears
// again, its newest record wins.
//
// A line that breaks these rules (an arc line without two ids, an id out of range, an indented
// line before any source, a NUL byte) is InvalidArgumentError "line N: <what>". An unreadable
// file is NotFoundError naming the path and the reason.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "codecs/adjacency_lists.h"

namespace crawldb::links {

struct ArcsFile {
  std::vector<codecs::Arc> arcs;  // as read, duplicates kept
  uint64_t lines = 0;
};
absl::StatusOr<ArcsFile> ReadArcsFile(const std::string& path);
// The same from a stream holding a file's contents; `name` names it in the error of a failed
// read.
absl::StatusOr<ArcsFile> ReadArcs(std::istream& in, const std::string& name);

struct LinksRecord {
  std::string source;                     // as written, trimmed
  std::vector<std::string> destinations;  // as written, trimmed, in page order
};
struct LinksFile {
  std::vector<LinksRecord>
      records;  // one per source: its newest record, in file order of first appearance
  uint64_t lines = 0;
  uint64_t superseded = 0;  // older records of a source that a newer one replaced
};
absl::StatusOr<LinksFile> ReadLinksFile(const std::string& path);
absl::StatusOr<LinksFile> ReadLinks(std::istream& in, const std::string& name);

}  // namespace crawldb::links
