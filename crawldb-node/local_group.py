"""A group of crawldb-node processes on loopback ports, their data and logs in one folder: what
the cluster test and bench/cluster.py start (docs/cluster.md).

    group = Group("/tmp/g", node="build/release/crawldb-node")
    client = group.cluster()   # a dqlite_client.Cluster over the group's addresses
    ...
    group.stop_all()
"""

import os
import signal
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import dqlite_client as dq  # noqa: E402

# Raft timeouts from a 20 ms latency: a new leader within about a second of losing one.
LATENCY_MS = "20"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Group:
    """Node 1 starts the group, nodes 2 and 3 join it; each logs to <folder>/node<id>.log."""

    def __init__(self, folder, node, size=3):
        self.folder = folder
        self.node = node
        self.addresses = [f"127.0.0.1:{free_port()}" for _ in range(size)]
        self.processes = {}
        try:
            self.start(1)
            self.wait_for_log(1, "serving on")
            for node in range(2, size + 1):
                self.start(node, join=self.addresses[0])
            for node in range(2, size + 1):
                self.wait_for_log(node, "joined as a voter")
        except BaseException:
            self.stop_all()
            raise

    def start(self, node, join=None):
        arguments = [self.node, "--id", str(node), "--address", self.addresses[node - 1],
                     "--data", os.path.join(self.folder, f"node{node}"),
                     "--network-latency-ms", LATENCY_MS]
        if join:
            arguments += ["--join", join]
        log = open(self.log_path(node), "ab")
        self.processes[node] = subprocess.Popen(arguments, stderr=log, stdout=log)
        log.close()

    def restart(self, node):
        """Starts a stopped node again on its data (it rejoins as the member it was)."""
        self.start(node, join=self.addresses[0] if node != 1 else None)
        self.wait_for_log(node, "(existing)")

    def log_path(self, node):
        return os.path.join(self.folder, f"node{node}.log")

    def log(self, node):
        with open(self.log_path(node), encoding="utf-8", errors="replace") as file:
            return file.read()

    def wait_for_log(self, node, text, timeout=15.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.log(node):
                return
            if self.processes[node].poll() is not None:
                raise AssertionError(f"node {node} exited: {self.log(node)}")
            time.sleep(0.05)
        raise AssertionError(f"node {node} did not log {text!r}: {self.log(node)}")

    def node_at(self, address):
        return self.addresses.index(address) + 1

    def kill(self, node):
        self.processes[node].send_signal(signal.SIGKILL)
        self.processes[node].wait()

    def stop_all(self):
        """SIGTERM to every live node; their exit codes."""
        codes = {}
        for node, process in self.processes.items():
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for node, process in self.processes.items():
            try:
                codes[node] = process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                codes[node] = process.wait()
        return codes

    def cluster(self, **options):
        return dq.Cluster(self.addresses, **options)
