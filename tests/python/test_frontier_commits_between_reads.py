"""The frontier when another connection commits in the middle of a statement.

A statement that names no table (`SELECT crawl_add(?)`) holds no read transaction, so each read
it makes of the frontier's shadow tables may see a newer commit than the one before. A progress
handler on one connection commits on another at every step of such a statement in turn: the
statement must never report damage, and the connection must end up with exactly the state a
fresh connection reads. Also: a `urls` optimize that fails part-way leaves the frontier's ids as
they were, and a URL deleted and added again in one transaction keeps its new id everywhere.
"""
import os
import sqlite3
import tempfile
import unittest

from commit_at_step import run_with_commit_at_step
from loaded_db import connect

EVERY_ROW = "SELECT rowid, id, url, host, depth, priority, state FROM frontier ORDER BY rowid"


class CommitsBetweenReadsTest(unittest.TestCase):
    # The default log tail: the commits stay in the log rows, which every connection holds.
    TAIL = ""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.folder.name, "crawl.db")
        self.db = connect(self.path, timeout=0)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
        self.db.execute(
            "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0, cache_mb=0"
            + self.TAIL + ")")

    def tearDown(self):
        self.db.close()
        self.folder.cleanup()

    def add_hosts(self, hosts, per_host):
        self.db.execute("BEGIN")
        for host in range(hosts):
            for page in range(per_host):
                self.db.execute("SELECT crawl_add(?)", (f"http://h{host}.example.com/{page}",))
        self.db.execute("COMMIT")

    def commit_at_every_step(self, statement, commit, arguments, reopen=False):
        """Runs `statement` on self.db once per step k, with `commit` run on another connection
        at the statement's k-th step (on a newly opened self.db each time when `reopen`, which
        must then read what a fresh connection reads); returns the errors the statement
        raised."""
        other = connect(self.path, timeout=0)
        errors = []
        step = 1
        while True:
            if reopen:
                self.db.close()
                self.db = connect(self.path, timeout=0)
            fired, result = run_with_commit_at_step(
                self.db, lambda: self.db.execute(statement, arguments(step)).fetchall(),
                lambda: commit(other, step), step)
            if isinstance(result, str):
                errors.append((step, result))
            if not fired:
                break
            if reopen:
                self.assert_same_as_fresh()
            step += 1
        other.close()
        self.assertGreater(step, 20)
        return errors

    def assert_same_as_fresh(self):
        fresh = connect(self.path, timeout=0)
        self.assertEqual(self.db.execute(EVERY_ROW).fetchall(), fresh.execute(EVERY_ROW).fetchall())
        self.assertEqual(self.db.execute("SELECT crawldb_check()").fetchone()[0], "ok")
        fresh.close()

    def test_crawl_add_while_another_connection_adds_to_the_same_host(self):
        self.add_hosts(50, 5)

        def commit(other, step):
            other.execute("SELECT crawl_add(?)", (f"http://h1.example.com/other{step}",))

        errors = self.commit_at_every_step(
            "SELECT crawl_add(?)", commit, lambda step: (f"http://h1.example.com/mine{step}",))
        self.assertEqual(errors, [])
        self.assert_same_as_fresh()

    def test_opening_while_another_connection_commits(self):
        self.add_hosts(5, 5)

        def commit(other, step):
            other.execute("UPDATE frontier SET priority = ? WHERE host = 'h0.example.com'",
                          (-step,))

        errors = self.commit_at_every_step("SELECT crawl_host_set('other.example.com', 1)",
                                           commit, lambda step: (), reopen=True)
        self.assertEqual(errors, [])
        self.assert_same_as_fresh()

    def test_a_failed_urls_optimize_leaves_the_frontier_ids_as_they_were(self):
        # The default cache: the parts renumbered in memory stay held.
        self.db.execute("DROP TABLE frontier")
        self.db.execute("CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0)")
        self.add_hosts(300, 3)
        self.db.execute("DELETE FROM urls WHERE id <= 300")
        # Interrupted after more and more steps until it succeeds: some attempts fail while the
        # frontier rewrites its parts with the new ids.
        failed_in_frontier = 0
        for attempt in range(60):
            limit = int(1000 * 1.2 ** attempt)
            count = [0]

            def handler():
                count[0] += 1
                return 1 if count[0] > limit else 0

            self.db.set_progress_handler(handler, 1)
            try:
                self.db.execute("INSERT INTO urls(urls) VALUES ('optimize')")
                break
            except sqlite3.OperationalError as error:
                failed_in_frontier += str(error).startswith("crawldb_frontier")
            finally:
                self.db.set_progress_handler(None, 1)
            self.assert_same_as_fresh()
        self.assertGreater(failed_in_frontier, 0)
        self.assert_same_as_fresh()
        self.assertEqual(self.db.execute(
            "SELECT count(*) FROM frontier f JOIN urls u ON u.id = f.id WHERE u.url = f.url"
        ).fetchone()[0], 600)

    def test_a_url_deleted_and_added_again_in_one_transaction_keeps_its_new_id(self):
        self.add_hosts(3, 3)
        url = "http://h1.example.com/2"
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM frontier WHERE url = ?", (url,))
        self.db.execute("DELETE FROM urls WHERE url = ?", (url,))
        self.assertEqual(self.db.execute("SELECT crawl_add(?)", (url,)).fetchone()[0], 1)
        self.db.execute("COMMIT")
        new_id = self.db.execute("SELECT id FROM urls WHERE url = ?", (url,)).fetchone()[0]
        self.assertEqual(new_id, 10)
        # cache_mb=0: the part is read again from the file here too.
        self.assertEqual(self.db.execute("SELECT id FROM frontier WHERE url = ?",
                                         (url,)).fetchone()[0], new_id)
        self.assert_same_as_fresh()


class CommitsBetweenReadsFoldingEachCommitTest(CommitsBetweenReadsTest):
    # Every commit folds: its changes go to the parts' pending rows, which merges rewrite.
    TAIL = ", log_tail_kb=0"


if __name__ == "__main__":
    unittest.main()
