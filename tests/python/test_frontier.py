"""The crawler's loop from Python's standard sqlite3 module: add, lease, confirm, refusals."""
import os
import sqlite3
import tempfile
import unittest

from loaded_db import connect

CREATE_SQL = os.path.join(os.path.dirname(__file__), "..", "..", "sql", "crawldb.sql")


class FrontierTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "crawl.db")
        self.db = connect(self.path)
        with open(CREATE_SQL) as script:
            self.db.executescript(script.read())

    def tearDown(self):
        self.assertEqual(self.db.execute("SELECT crawldb_check()").fetchone()[0], "ok")
        self.db.close()
        self.folder.cleanup()

    def add(self, url, parent=None, now=1000):
        return self.db.execute("SELECT crawl_add(?, ?, NULL, ?)", (url, parent, now)).fetchone()[0]

    def test_crawl_loop(self):
        self.assertEqual(self.add("http://Example.com/"), 1)
        self.assertEqual(self.add("http://example.com/"), 0)
        self.assertEqual(self.add("http://example.com/about", "http://example.com/"), 1)
        self.assertIsNone(self.add("mailto:me@example.com", "http://example.com/"))
        self.assertEqual(self.db.execute("SELECT crawldb_last_refusal()").fetchone()[0],
                         "invalid URL: unsupported scheme 'mailto': mailto:me@example.com")
        fetched = []
        now = 1000
        while True:
            self.db.execute("BEGIN IMMEDIATE")
            rows = self.db.execute("SELECT id, url, depth FROM crawl_lease(10, 60, ?)",
                                   (now,)).fetchall()
            self.db.execute("COMMIT")
            if not rows and now > 1010:
                break
            for row_id, url, depth in rows:
                fetched.append((row_id, url, depth))
                confirmed = self.db.execute("SELECT crawl_confirm(?, 200, NULL, ?)",
                                            (url, now)).fetchone()[0]
                self.assertEqual(confirmed, 1)
            now += 1  # host_delay defaults to 1 s: one URL of example.com per second
        self.assertEqual(fetched, [(1, "http://example.com/", 1),
                                   (2, "http://example.com/about", 2)])
        self.assertEqual(self.db.execute(
            "SELECT state, count(*) FROM frontier GROUP BY state").fetchall(), [("done", 2)])

    def test_rolled_back_lease_never_happened_and_state_persists(self):
        self.add("http://a.example.org/")
        self.db.execute("BEGIN IMMEDIATE")
        self.assertEqual(len(self.db.execute("SELECT * FROM crawl_lease(5, 60, 1000)").fetchall()), 1)
        self.db.execute("ROLLBACK")
        other = connect(self.path)
        self.assertEqual(other.execute("SELECT url, state FROM frontier").fetchall(),
                         [("http://a.example.org/", "queued")])
        self.assertEqual(other.execute("SELECT url FROM crawl_lease(5, 60, 1000)").fetchall(),
                         [("http://a.example.org/",)])
        other.close()
        self.assertEqual(self.db.execute("SELECT state FROM frontier").fetchone()[0], "leased")

    def test_misuse_raises(self):
        with self.assertRaises(sqlite3.OperationalError) as caught:
            self.db.execute("SELECT crawl_add(42)")
        self.assertEqual(str(caught.exception),
                         "crawl_add: argument 1 (url) must be text, got an integer")


if __name__ == "__main__":
    unittest.main()
