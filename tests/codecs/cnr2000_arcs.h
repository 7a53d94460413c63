// The arcs of LAW's cnr-2000 (325,557 nodes, 3,216,152 arcs) from the shared data, for the codec
// tests that use the real graph.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "codecs/adjacency_lists.h"
#include "tests/shared_data.h"

namespace crawldb::codecs::testing {

// The path of cnr-2000's arcs file; a missing file ends the test (tests/shared_data.h).
inline std::string Cnr2000ArcsPath() {
  return ::crawldb::testing::SharedDataPath("cnr-2000/cnr-2000.arcs.tsv.xz");
}

// Reads its `src<TAB>dst` lines through xz.
inline absl::StatusOr<AdjacencyLists> ReadCnr2000() {
  const std::string path = Cnr2000ArcsPath();
  FILE* pipe = popen(("xz -dc '" + path + "'").c_str(), "r");
  if (pipe == nullptr) return absl::InternalError(absl::StrCat("cannot run xz -dc ", path));
  std::vector<Arc> arcs;
  uint32_t node_count = 0;
  char line[64];
  while (std::fgets(line, sizeof(line), pipe) != nullptr) {
    char* end;
    const unsigned long src = std::strtoul(line, &end, 10);
    const unsigned long dst = std::strtoul(end, nullptr, 10);
    arcs.push_back({static_cast<uint32_t>(src), static_cast<uint32_t>(dst)});
    node_count = std::max<uint32_t>(node_count, static_cast<uint32_t>(std::max(src, dst)) + 1);
  }
  if (pclose(pipe) != 0) return absl::InternalError(absl::StrCat("xz -dc ", path, " failed"));
  return AdjacencyLists::FromArcs(node_count, arcs);
}

}  // namespace crawldb::codecs::testing
