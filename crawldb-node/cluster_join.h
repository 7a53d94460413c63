// Joining a running dqlite group: the requests a node sends, as a client of dqlite's wire
// protocol (https://canonical.com/dqlite/docs/reference/wire-protocol), to become a voter.
//
// dqlite 1.11 has no join call in its C API: a node with an empty data folder starts with no
// configuration and waits, and a client asks the group's leader to ADD it (as a spare) and then
// to ASSIGN it the voter role, which the leader does once the node has caught up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace crawldb::node {

// Asks the members at `peers` (host:port) for their leader, then has the leader add node `id`
// at `address` as a voter. Retries, for up to `timeout_s` seconds, while no leader is known or
// reachable (the peers may be starting too).
absl::Status JoinCluster(const std::vector<std::string>& peers, uint64_t id,
                         const std::string& address, double timeout_s);

}  // namespace crawldb::node
