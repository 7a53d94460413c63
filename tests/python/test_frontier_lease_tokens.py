"""The frontier ready for replicated engines (docs/sql.md, "Replicated engines"): the table option
clock=explicit, under which every function and command row that takes `now` refuses to go
without one, and the lease as a write statement — a 'lease' command row with a lease_token, read
back with SELECT … FROM frontier WHERE lease_token = ? — across commits, reopening, other
connections, read-only connections, rollbacks, confirms and expiries, and on a file of format 7.
"""

import os
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import loaded_db  # noqa: E402

NOW = 1_000_000
LEASE = ("INSERT INTO frontier(frontier, n, seconds, now, lease_token) "
         "VALUES ('lease', ?, ?, ?, ?)")
BY_TOKEN = "SELECT id, url, depth, due FROM frontier WHERE lease_token = ?"
MISSING_NOW = ("now is required: table 'frontier' has clock=explicit, which never reads the "
               "system clock")


def crawl(path=":memory:", options="clock=explicit, host_delay=0"):
    db = loaded_db.connect(path)
    db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
    db.execute(f"CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, {options})")
    return db


def seed(db, urls, now=NOW):
    for url in urls:
        db.execute("SELECT crawl_add(?, NULL, NULL, ?)", (url, now))


SEEDS = [f"https://h{i}.example.com/" for i in range(6)]


def seeded_file(folder):
    """A crawl file in `folder` holding SEEDS, and a connection to it."""
    path = os.path.join(folder, "crawl.db")
    db = crawl(path)
    seed(db, SEEDS)
    return path, db


class FrontierTest(unittest.TestCase):
    def error(self, db, sql, params=()):
        with self.assertRaises(sqlite3.Error) as caught:
            db.execute(sql, params).fetchall()
        return str(caught.exception)


class ExplicitClock(FrontierTest):
    def test_option_is_checked_on_open(self):
        db = loaded_db.connect()
        db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
        self.assertEqual(
            self.error(db, "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, clock=wall)"),
            "crawldb_frontier: option 'clock' must be one of: system, explicit, got 'wall'")
        db.execute("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, clock=explicit)")
        self.assertEqual(db.execute("SELECT value FROM frontier_config WHERE key = "
                                    "'option.clock'").fetchone()[0], "explicit")

    def test_functions_refuse_a_missing_now(self):
        db = crawl()

        def refused(function, calls, signature):
            for sql in calls:
                self.assertEqual(
                    self.error(db, sql),
                    f"{function}: {MISSING_NOW}; give the time in unix seconds as the last "
                    f"argument: {signature}")

        def state():
            return db.execute("SELECT group_concat(state) FROM frontier").fetchone()[0]

        refused("crawl_add", ["SELECT crawl_add('https://a.example/')",
                              "SELECT crawl_add('https://a.example/', NULL, NULL, NULL)"],
                "crawl_add(url, parent_url, priority, now)")
        self.assertEqual(state(), None)
        self.assertEqual(
            db.execute("SELECT crawl_add('https://a.example/', NULL, NULL, ?)", (NOW,)).fetchone(),
            (1,))
        refused("crawl_lease", ["SELECT url FROM crawl_lease(5)",
                                "SELECT url FROM crawl_lease(5, 60, NULL)"],
                "crawl_lease(n, lease_s, now)")
        self.assertEqual(state(), "queued")
        self.assertEqual(db.execute("SELECT url, lease_until FROM crawl_lease(5, 60, ?)",
                                    (NOW,)).fetchall(), [("https://a.example/", NOW + 60)])
        refused("crawl_confirm", ["SELECT crawl_confirm('https://a.example/', 200)"],
                "crawl_confirm(url, status, recrawl_after_s, now)")
        self.assertEqual(state(), "leased")
        self.assertEqual(db.execute("SELECT crawl_confirm('https://a.example/', 200, NULL, ?)",
                                    (NOW + 1,)).fetchone(), (1,))
        # crawl_host_set takes no now (its blocked_until is a time the caller gives).
        self.assertEqual(db.execute("SELECT crawl_host_set('a.example', 5)").fetchone(), (1,))
        # The statistics read no clock either: hosts_waiting needs a time.
        stats = db.execute("SELECT json_extract(crawldb_stats(), '$.tables[1].hosts_waiting'), "
                           "json_type(crawldb_stats(), '$.tables[1].hosts_waiting')").fetchone()
        self.assertEqual(stats, (None, "null"))

    def test_command_rows_refuse_a_missing_now(self):
        db = crawl()
        for sql, command in [
            ("INSERT INTO frontier(frontier, url) VALUES ('add', 'https://a.example/')", "add"),
            ("INSERT INTO frontier(frontier, n) VALUES ('lease', 5)", "lease"),
            ("INSERT INTO frontier(frontier, n, lease_token) VALUES ('lease', 5, 't')", "lease"),
            ("INSERT INTO frontier(frontier, url) VALUES ('confirm', 'https://a.example/')",
             "confirm"),
        ]:
            self.assertEqual(
                self.error(db, sql),
                f"crawldb_frontier: {MISSING_NOW}; {command}: give the now column the time in "
                "unix seconds")
        db.execute("INSERT INTO frontier(frontier, url, now) VALUES ('add', 'https://a.example/', ?)",
                   (NOW,))
        self.assertEqual(db.execute("SELECT url, state FROM frontier").fetchall(),
                         [("https://a.example/", "queued")])

    def test_system_clock_is_the_default(self):
        db = crawl(options="host_delay=0")
        seed(db, ["https://a.example/"])
        db.execute("SELECT crawl_add('https://b.example/')")  # no now: the clock
        rows = db.execute("SELECT url, lease_until FROM crawl_lease(5, 60)").fetchall()
        self.assertEqual(len(rows), 2)
        self.assertGreater(min(r[1] for r in rows), 1.7e9)  # the system clock, not NOW
        self.assertEqual(db.execute("SELECT json_type(crawldb_stats(), "
                                    "'$.tables[1].hosts_waiting')").fetchone()[0], "integer")


class LeaseTokens(FrontierTest):
    def test_lease_statement_and_lookup(self):
        db = crawl()
        seed(db, SEEDS)
        # The same lease as crawl_lease would hand out, in the same order.
        other = crawl()
        seed(other, SEEDS)
        expected = other.execute("SELECT id, url, depth, lease_until FROM crawl_lease(4, 60, ?)",
                                 (NOW,)).fetchall()
        self.assertEqual(len(expected), 4)
        db.execute(LEASE, (4, 60, NOW, "w1:1"))
        self.assertEqual(db.execute(BY_TOKEN, ("w1:1",)).fetchall(), expected)
        self.assertEqual(db.execute(BY_TOKEN, ("w1:2",)).fetchall(), [])
        self.assertEqual(db.execute(BY_TOKEN, (1,)).fetchall(), [])  # a token is text
        # The column shows the token in any plan; the URLs not leased under one show NULL.
        self.assertEqual(
            db.execute("SELECT lease_token, state FROM frontier WHERE url = ?",
                       (expected[0][1],)).fetchone(), ("w1:1", "leased"))
        self.assertEqual(
            db.execute("SELECT count(*) FROM frontier WHERE lease_token IS NULL").fetchone()[0],
            len(SEEDS) - 4)
        # A look-up, not a scan.
        plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + BY_TOKEN, ("w1:1",)))
        self.assertIn("VIRTUAL TABLE INDEX 6:", plan)
        # crawl_lease and a lease without a token record no token.
        db.execute("INSERT INTO frontier(frontier, n, seconds, now) VALUES ('lease', 1, 60, ?)",
                   (NOW,))
        self.assertEqual(db.execute("SELECT count(*) FROM frontier_leases").fetchone()[0], 4)

    def test_one_lease_hands_out_up_to_the_cap(self):
        # The cap (kMaxLease) is sized for a remote fetcher: one lease per round trip.
        db = crawl()
        db.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                   "WHERE i < 100001) INSERT INTO frontier(url) SELECT 'http://a.example/' || i "
                   "FROM n")
        for statement in (LEASE, "SELECT * FROM crawl_lease(?, ?, ?)"):
            with self.assertRaises(sqlite3.OperationalError) as raised:
                db.execute(statement, (100001, 60, NOW, "big")[:statement.count("?")])
            self.assertIn("must be an integer from 1 to 100000", str(raised.exception))
        db.execute(LEASE, (100000, 60, NOW, "big"))
        self.assertEqual(db.execute("SELECT count(*) FROM frontier WHERE lease_token = 'big'")
                         .fetchone(), (100000,))
        self.assertEqual(db.execute("SELECT count(*) FROM crawl_lease(100000, 60, ?)", (NOW,))
                         .fetchone(), (1,))

    def test_token_survives_commit_reopen_and_other_connections(self):
        with tempfile.TemporaryDirectory() as folder:
            path, db = seeded_file(folder)
            db.execute("BEGIN IMMEDIATE")
            db.execute(LEASE, (3, 60, NOW, "w1:1"))
            leased = db.execute(BY_TOKEN, ("w1:1",)).fetchall()
            self.assertEqual(len(leased), 3)
            reader = loaded_db.connect(path)
            self.assertEqual(reader.execute(BY_TOKEN, ("w1:1",)).fetchall(), [])  # not committed
            db.execute("COMMIT")
            self.assertEqual(reader.execute(BY_TOKEN, ("w1:1",)).fetchall(), leased)
            db.close()
            reopened = loaded_db.connect(path)
            self.assertEqual(reopened.execute(BY_TOKEN, ("w1:1",)).fetchall(), leased)
            # Read-only use: the look-up writes nothing.
            ro = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            ro.enable_load_extension(True)
            ro.load_extension(loaded_db.EXTENSION)
            self.assertEqual(ro.execute(BY_TOKEN, ("w1:1",)).fetchall(), leased)
            self.assertIn("readonly", self.error(ro, LEASE, (1, 60, NOW, "w9:1")))
            ro.close()
            reader.close()
            reopened.close()

    def test_rollback_takes_the_token_back(self):
        db = crawl()
        seed(db, SEEDS)
        db.execute("BEGIN")
        db.execute(LEASE, (2, 60, NOW, "w1:1"))
        self.assertEqual(len(db.execute(BY_TOKEN, ("w1:1",)).fetchall()), 2)
        db.execute("ROLLBACK")
        self.assertEqual(db.execute(BY_TOKEN, ("w1:1",)).fetchall(), [])
        self.assertEqual(db.execute("SELECT count(*) FROM frontier WHERE state = 'queued'")
                         .fetchone()[0], len(SEEDS))

    def test_confirm_clears_and_expiry_requeues(self):
        db = crawl()
        seed(db, SEEDS[:3])
        db.execute(LEASE, (3, 60, NOW, "w1:1"))
        leased = db.execute(BY_TOKEN, ("w1:1",)).fetchall()
        self.assertEqual(len(leased), 3)
        confirmed, failed, expired = (row[1] for row in leased)
        self.assertEqual(db.execute("SELECT crawl_confirm(?, 200, NULL, ?)",
                                    (confirmed, NOW + 5)).fetchone(), (1,))
        self.assertEqual(db.execute("SELECT crawl_confirm(?, 503, NULL, ?)",
                                    (failed, NOW + 5)).fetchone(), (1,))
        self.assertEqual([r[1] for r in db.execute(BY_TOKEN, ("w1:1",))], [expired])
        self.assertEqual(db.execute("SELECT lease_token FROM frontier WHERE url = ?",
                                    (confirmed,)).fetchone(), (None,))
        # Reusing the token while one of its URLs is still leased under it is an error.
        self.assertEqual(
            self.error(db, LEASE, (3, 60, NOW + 10, "w1:1")),
            "crawldb_frontier: lease: lease_token 'w1:1' still holds 1 leased URL; give each "
            "lease a new token (a UUID, or the worker's name and a counter), or confirm its URLs "
            "first")
        # Past its lease_until, the unconfirmed URL goes back to the queue and is leased again,
        # under the new token; the old token then holds nothing.
        db.execute(LEASE, (3, 60, NOW + 61, "w2:1"))
        self.assertEqual([r[1] for r in db.execute(BY_TOKEN, ("w2:1",))], [expired])
        self.assertEqual(db.execute(BY_TOKEN, ("w1:1",)).fetchall(), [])
        self.assertEqual(db.execute("SELECT crawl_confirm(?, 200, NULL, ?)",
                                    (confirmed, NOW + 62)).fetchone(), (0,))
        self.assertEqual(db.execute("SELECT crawl_confirm(?, 200, NULL, ?)",
                                    (expired, NOW + 62)).fetchone(), (1,))
        self.assertEqual(db.execute(BY_TOKEN, ("w2:1",)).fetchall(), [])
        # A token whose leases are over may be used again.
        db.execute(LEASE, (3, 60, NOW + 100, "w1:1"))
        self.assertEqual([r[1] for r in db.execute(BY_TOKEN, ("w1:1",))], [failed])
        # The rows whose lease_until has passed are gone (deleted by the next token lease);
        # w2:1's stays until then although its URL was confirmed.
        self.assertEqual(
            db.execute("SELECT token, lease_until FROM frontier_leases ORDER BY token").fetchall(),
            [("w1:1", NOW + 160.0), ("w2:1", NOW + 121.0)])

    def test_bad_tokens(self):
        db = crawl()
        seed(db, SEEDS)
        for token in [1, b"x", "", "x" * 257]:
            self.assertEqual(
                self.error(db, LEASE, (1, 60, NOW, token)),
                "crawldb_frontier: lease: lease_token must be text of 1 to 256 bytes; use a fresh "
                "token per lease, e.g. a UUID or the worker's name and a counter")
        self.assertEqual(db.execute("SELECT count(*) FROM frontier WHERE state = 'leased'")
                         .fetchone()[0], 0)
        db.execute(LEASE, (1, 60, NOW, "x" * 256))
        self.assertEqual(len(db.execute(BY_TOKEN, ("x" * 256,)).fetchall()), 1)

    def test_format_seven_file_gets_the_table_at_its_first_token_lease(self):
        with tempfile.TemporaryDirectory() as folder:
            path, db = seeded_file(folder)
            db.execute("DROP TABLE frontier_leases")
            db.execute("UPDATE frontier_config SET value = '7' WHERE key = 'format_version'")
            db.close()
            db = loaded_db.connect(path)
            self.assertEqual(db.execute(BY_TOKEN, ("w1:1",)).fetchall(), [])
            self.assertEqual(db.execute("SELECT count(*) FROM frontier WHERE lease_token IS NULL")
                             .fetchone()[0], len(SEEDS))
            db.execute("ALTER TABLE frontier RENAME TO crawl")  # no frontier_leases to rename
            db.execute("ALTER TABLE crawl RENAME TO frontier")
            db.execute("SELECT url FROM crawl_lease(1, 60, ?)", (NOW,)).fetchall()
            self.assertEqual(db.execute("SELECT value FROM frontier_config WHERE key = "
                                        "'format_version'").fetchone()[0], "9")
            self.assertEqual(db.execute("SELECT count(*) FROM sqlite_schema WHERE name = "
                                        "'frontier_leases'").fetchone()[0], 0)
            db.execute(LEASE, (2, 60, NOW, "w1:1"))
            self.assertEqual(len(db.execute(BY_TOKEN, ("w1:1",)).fetchall()), 2)
            db.close()
            db = loaded_db.connect(path)
            self.assertEqual(len(db.execute(BY_TOKEN, ("w1:1",)).fetchall()), 2)
            self.assertEqual(db.execute("SELECT crawldb_check()").fetchone()[0], "ok")
            db.execute("DROP TABLE frontier")
            self.assertEqual(db.execute("SELECT count(*) FROM sqlite_schema WHERE name LIKE "
                                        "'frontier%'").fetchone()[0], 0)


if __name__ == "__main__":
    unittest.main()
