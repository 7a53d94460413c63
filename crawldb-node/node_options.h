// The command line of crawldb-node: which node of which group it is and where it keeps its data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace crawldb::node {

struct NodeOptions {
  // The node's Raft id, unique in its group. Id 1 starts a new group (it bootstraps itself as the
  // only voter when its data folder is empty); every other node joins through --join.
  uint64_t id = 0;
  // host:port the node listens on and the others reach it at.
  std::string address;
  // Folder of the node's Raft log, snapshots and database (created when missing).
  std::string data_dir;
  // host:port of members of the group; a node with an empty data folder asks them for the
  // leader and has the leader add it as a voter.
  std::vector<std::string> join;
  // The one-way network latency between the nodes, in milliseconds, from which Raft sets its
  // heartbeat (1.5x) and election (15x) timeouts; 0 keeps dqlite's defaults. Loopback groups
  // use e.g. 20 to elect a new leader within a second of losing one.
  unsigned network_latency_ms = 0;
};

inline constexpr const char kUsage[] =
    "usage: crawldb-node --id N --address HOST:PORT --data DIR [--join HOST:PORT ...] "
    "[--network-latency-ms MS]";

// Parses argv (without argv[0]); the error names the bad option and the usage.
absl::StatusOr<NodeOptions> ParseNodeOptions(const std::vector<std::string>& arguments);

}  // namespace crawldb::node
