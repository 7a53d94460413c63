// crawldb-node: a dqlite node whose every SQLite connection has crawldb loaded. Clients reach
// it with dqlite's wire protocol (crawldb-node/dqlite_client.py, the `dqlite` shell); dqlite
// replicates each committed transaction to the group by Raft (docs/cluster.md).
//
// crawldb is linked in (the crawldb_core objects) rather than loaded from crawldb.so: the node
// then needs no path to the module, uses the one libsqlite3 dqlite uses, and can turn on the
// rule that refuses writes dqlite would not replicate (extension/common/replicated_writes.h).
#include <signal.h>
#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "crawldb-node/cluster_join.h"
#include "crawldb-node/node_options.h"
#include "extension/common/replicated_writes.h"

extern "C" {  // dqlite.h declares C functions without saying so
#include <dqlite.h>
}

extern "C" int sqlite3_crawldb_init(sqlite3* db, char** error, const sqlite3_api_routines* api);

namespace crawldb::node {
namespace {

constexpr double kJoinTimeoutS = 30;

void Log(const std::string& message) {
  std::fprintf(stderr, "crawldb-node: %s\n", message.c_str());
}

int Fail(dqlite_node* node, const std::string& what) {
  Log(what + (node != nullptr ? std::string(": ") + dqlite_node_errmsg(node) : std::string()));
  return 1;
}

int Run(const NodeOptions& options) {
  // A node with data is already a member (or the group's first node): it neither bootstraps
  // again nor joins.
  std::error_code error;
  const bool fresh = !std::filesystem::exists(options.data_dir) ||
                     std::filesystem::is_empty(options.data_dir, error);
  std::filesystem::create_directories(options.data_dir, error);
  if (error) return Fail(nullptr, "cannot create " + options.data_dir + ": " + error.message());

  RequireReplicatedWrites();
  sqlite3_auto_extension(reinterpret_cast<void (*)()>(&sqlite3_crawldb_init));

  // A peer that dies leaves sockets whose next write would raise SIGPIPE and kill this node: the
  // write fails with EPIPE instead, which Raft handles.
  signal(SIGPIPE, SIG_IGN);
  // SIGTERM and SIGINT wait for sigwait below; dqlite's threads inherit the mask.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  dqlite_node* node = nullptr;
  if (dqlite_node_create(options.id, options.address.c_str(), options.data_dir.c_str(), &node) !=
      0) {
    Fail(node, "cannot create the node");
    if (node != nullptr) dqlite_node_destroy(node);  // dqlite_node_create's contract
    return 1;
  }
  if (dqlite_node_set_bind_address(node, options.address.c_str()) != 0) {
    Fail(node, "cannot listen on " + options.address);
    dqlite_node_destroy(node);
    return 1;
  }
  if (options.network_latency_ms != 0 &&
      dqlite_node_set_network_latency_ms(node, options.network_latency_ms) != 0) {
    Fail(node, "cannot set the network latency");
    dqlite_node_destroy(node);
    return 1;
  }
  if (dqlite_node_start(node) != 0) {
    Fail(node, "cannot start");
    dqlite_node_destroy(node);
    return 1;
  }
  Log("node " + std::to_string(options.id) + " serving on " + options.address + ", data in " +
      options.data_dir + (fresh ? " (new)" : " (existing)"));

  if (fresh && !options.join.empty()) {
    Log("joining through " + options.join.front() +
        (options.join.size() > 1 ? " and " + std::to_string(options.join.size() - 1) + " more"
                                 : ""));
    absl::Status joined = JoinCluster(options.join, options.id, options.address, kJoinTimeoutS);
    if (!joined.ok()) {
      Log("cannot join: " + std::string(joined.message()));
      dqlite_node_stop(node);
      dqlite_node_destroy(node);
      return 1;
    }
    Log("joined as a voter");
  }

  int signal = 0;
  sigwait(&stop_signals, &signal);
  Log(std::string("stopping on ") + (signal == SIGTERM ? "SIGTERM" : "SIGINT"));
  int stopped = dqlite_node_stop(node);
  dqlite_node_destroy(node);
  if (stopped != 0) return Fail(nullptr, "the node did not stop cleanly");
  Log("stopped");
  return 0;
}

}  // namespace
}  // namespace crawldb::node

int main(int argc, char** argv) {
  absl::StatusOr<crawldb::node::NodeOptions> options =
      crawldb::node::ParseNodeOptions(std::vector<std::string>(argv + 1, argv + argc));
  if (!options.ok()) {
    std::fprintf(stderr, "%s\n", std::string(options.status().message()).c_str());
    return 2;
  }
  return crawldb::node::Run(*options);
}
