"""Acceptance test of crawldb-node (docs/cluster.md): three nodes on loopback, crawldb rows
written through the leader, the leader killed with SIGKILL, every committed row found on the new
leader with crawldb_check() ok, the killed node restarted and caught up; and the write dqlite 1.11 would lose (a bare autocommit SELECT
that leases) refused with a clear error, the leader serving on."""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "crawldb-node"))
import dqlite_client as dq  # noqa: E402
import local_group  # noqa: E402

NODE = os.environ.get("CRAWLDB_NODE", "")

NOW = 1_000_000
LEASE = ("INSERT INTO frontier(frontier, n, seconds, now, lease_token) "
         "VALUES ('lease', ?, ?, ?, ?)")
REFUSED = ("crawldb: this write comes from a read-only statement outside a transaction, which "
           "the replicated engine would not replicate; run it inside BEGIN ... COMMIT, or lease "
           "with INSERT INTO frontier(frontier, n, seconds, now, lease_token) VALUES ('lease', ...)")


@unittest.skipUnless(NODE, "dqlite is not installed (libdqlite-dev): crawldb-node "
                     "was not built; scripts/install-deps.sh installs it")
class Cluster(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.group = local_group.Group(folder.name, NODE)
        self.addCleanup(self.group.stop_all)
        self.client = self.group.cluster()
        self.addCleanup(self.client.close)
        self.client.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
        self.client.execute("CREATE VIRTUAL TABLE frontier USING "
                            "crawldb_frontier(urls, clock=explicit, host_delay=0)")

    def states(self):
        return dict(self.client.query("SELECT state, count(*) FROM frontier GROUP BY state")[1])

    def test_committed_rows_survive_the_leader_killed(self):
        seeds = [f"http://h{i % 50}.example/{i}" for i in range(1000)]
        self.client.execute("INSERT INTO frontier(url) SELECT value FROM json_each(?)",
                            (json.dumps(seeds),))
        links = [f"http://h{i % 50}.example/link/{i}" for i in range(500)]
        self.client.execute("BEGIN")
        self.client.query("SELECT count(crawl_add(value, NULL, NULL, ?)) FROM json_each(?)",
                          (NOW, json.dumps(links)))
        self.client.execute("COMMIT")
        self.client.execute(LEASE, (100, 600, NOW, "worker-1"))
        _, leased = self.client.query("SELECT url FROM frontier WHERE lease_token = ?",
                                      ("worker-1",))
        self.assertEqual(len(leased), 100)
        self.client.execute("BEGIN")
        self.client.query("SELECT count(crawl_confirm(value, 200, 0, ?)) FROM json_each(?)",
                          (NOW + 1, json.dumps([url for (url,) in leased[:60]])))
        self.client.execute("COMMIT")
        expected = {"queued": 1400, "leased": 40, "done": 60}
        self.assertEqual(self.states(), expected)

        leader = self.group.node_at(self.client.connection.address)
        self.group.kill(leader)
        started = time.monotonic()
        new_leader = self.client.find_leader()
        pause = time.monotonic() - started
        self.assertNotEqual(self.group.node_at(new_leader), leader)
        print(f"\nnew leader {new_leader} after {pause:.2f} s", file=sys.stderr)

        self.assertEqual(self.states(), expected)
        self.assertEqual(self.client.query("SELECT count(*) FROM urls")[1], [(1500,)])
        self.assertEqual(sorted(url for (url,) in self.client.query(
            "SELECT url FROM frontier WHERE lease_token = ?", ("worker-1",))[1]),
            sorted(url for (url,) in leased[60:]))
        self.assertEqual(self.client.query("SELECT crawldb_check()")[1], [("ok",)])
        # The new leader takes writes.
        self.client.execute(LEASE, (10, 600, NOW + 2, "worker-2"))
        self.assertEqual(self.states()["leased"], 50)

        # The killed node restarts on its data and rejoins: with the second leader killed it is
        # one of the two voters left, so no leader is elected without it; whichever leads holds
        # every row.
        self.group.restart(leader)
        self.group.kill(self.group.node_at(self.client.connection.address))
        self.client.find_leader()
        self.assertEqual(self.states(), {"queued": 1390, "leased": 50, "done": 60})
        self.assertEqual(self.client.query("SELECT crawldb_check()")[1], [("ok",)])

    def test_a_bare_leasing_select_is_refused_and_the_leader_serves_on(self):
        self.client.execute("INSERT INTO frontier(url) VALUES ('http://a.example/')")
        leader = self.client.connection.address
        with self.assertRaises(dq.DqliteError) as raised:
            self.client.query("SELECT * FROM crawl_lease(5, 60, ?)", (NOW,))
        self.assertIn(REFUSED, raised.exception.message)
        with self.assertRaises(dq.DqliteError) as raised:
            self.client.query("SELECT crawl_add('http://b.example/', NULL, NULL, ?)", (NOW,))
        self.assertIn(REFUSED, raised.exception.message)
        # The same leader answers, with nothing leased or added.
        self.assertEqual(self.states(), {"queued": 1})
        self.assertEqual(self.client.connection.address, leader)
        # Inside a transaction the same SELECT leases, and the lease is replicated.
        self.client.execute("BEGIN")
        _, rows = self.client.query("SELECT url FROM crawl_lease(5, 60, ?)", (NOW,))
        self.client.execute("COMMIT")
        self.assertEqual(rows, [("http://a.example/",)])
        self.group.kill(self.group.node_at(leader))
        self.client.find_leader()
        self.assertEqual(self.states(), {"leased": 1})

    def test_nodes_stop_cleanly_on_sigterm(self):
        codes = self.group.stop_all()
        self.assertEqual(codes, {1: 0, 2: 0, 3: 0})
        for node in (1, 2, 3):
            self.assertIn("crawldb-node: stopping on SIGTERM", self.group.log(node))


@unittest.skipUnless(NODE, "dqlite is not installed (libdqlite-dev): crawldb-node was not built")
class Options(unittest.TestCase):
    def refusal(self, *arguments):
        run = subprocess.run([NODE, *arguments], capture_output=True, text=True, timeout=10)
        self.assertEqual(run.returncode, 2)
        return run.stderr

    def test_bad_command_lines_name_the_problem_and_the_usage(self):
        usage = ("usage: crawldb-node --id N --address HOST:PORT --data DIR [--join HOST:PORT ...] "
                 "[--network-latency-ms MS]\n")
        self.assertEqual(self.refusal(), "crawldb-node: --id is required\n" + usage)
        self.assertEqual(self.refusal("--id", "x"),
                         "crawldb-node: --id must be a positive integer, got 'x'\n" + usage)
        self.assertEqual(self.refusal("--id", "2", "--address", "a:1", "--data", "d"),
                         "crawldb-node: a node other than 1 needs --join with the address of a "
                         "member of its group\n" + usage)
        self.assertEqual(self.refusal("--id", "1", "--address", "a:1", "--data", "d", "--join",
                                      "b:2"),
                         "crawldb-node: node 1 starts its group and joins none; give the joining "
                         "nodes other ids\n" + usage)
        self.assertEqual(self.refusal("--port", "1"),
                         "crawldb-node: unknown option '--port'\n" + usage)


if __name__ == "__main__":
    unittest.main()
