"""`urls` when another connection commits in the middle of a statement.

Outside a transaction, each read a statement makes of the shadow tables could see a newer
commit than the one before: a part's run of one commit beside pending rows of the next. A
progress handler on one connection commits on another at every step of a statement in turn
(an add and a delete that fold pending rows and merge runs, with no part kept between reads):
the statement must never report damage, and must see the state of one commit, before or after.
"""
import os
import tempfile
import unittest

from commit_at_step import run_with_commit_at_step
from loaded_db import connect


class UrlsCommitsBetweenReadsTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "urls.db")
        self.db = connect(self.path, timeout=0)
        self.db.execute("PRAGMA journal_mode = WAL")
        # merge_bytes=0: commits merge runs; cache_mb=0: every statement reads parts again.
        self.db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0, cache_mb=0)")
        self.db.execute("BEGIN")
        for i in range(300):
            self.db.execute("INSERT INTO urls(url) VALUES (?)", (f"http://h{i % 7}.example.com/{i}",))
        self.db.execute("COMMIT")

    def tearDown(self):
        self.db.close()
        self.folder.cleanup()

    def commit_at_every_step(self, statement, instructions_per_step=1):
        """Runs `statement` once per step k (of `instructions_per_step` VM instructions), with
        another connection committing at the statement's k-th step; returns (step, rows or
        error, rows before the commit, rows after it)."""
        other = connect(self.path, timeout=0)
        outcomes = []
        before = self.fresh_rows(statement)
        step = 1
        def commit():
            # One URL of the scanned host in, one out: every statement runs about as long as
            # the one before.
            other.execute("BEGIN")
            other.execute("INSERT INTO urls(url) VALUES (?)", (f"http://h1.example.com/step{step}",))
            other.execute("DELETE FROM urls WHERE id = (SELECT min(id) FROM urls "
                          "WHERE host = 'h1.example.com')")
            other.execute("COMMIT")

        while True:
            fired, rows = run_with_commit_at_step(
                self.db, lambda: self.db.execute(statement).fetchall(), commit, step,
                instructions_per_step)
            after = self.fresh_rows(statement)
            outcomes.append((step, rows, before, after))
            if not fired:
                break
            before = after
            step += 1
        other.close()
        self.assertGreater(step, 20)
        return outcomes

    def fresh_rows(self, statement):
        fresh = connect(self.path, timeout=0)
        rows = fresh.execute(statement).fetchall()
        fresh.close()
        return rows

    def assert_one_commit_each(self, outcomes):
        for step, rows, before, after in outcomes:
            self.assertIsInstance(rows, list, f"step {step}: {rows}")
            self.assertIn(rows, (before, after), f"step {step}")

    def test_a_scan_sees_one_commit(self):
        self.assert_one_commit_each(self.commit_at_every_step(
            "SELECT count(*), sum(length(url)), max(id) FROM urls WHERE host = 'h1.example.com'"))

    def test_stats_and_check_see_one_commit(self):
        outcomes = self.commit_at_every_step(
            "SELECT json_extract(crawldb_stats(), '$.tables[0].urls'), crawldb_check()", 200)
        self.assert_one_commit_each(outcomes)
        self.assertTrue(all(rows[0][1] == "ok" for _, rows, _, _ in outcomes))


if __name__ == "__main__":
    unittest.main()
