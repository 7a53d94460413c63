"""Issue 18: joins of urls, outlinks and inlinks plan the same in a freshly opened connection as in
the one that loaded the data, with an indexed look-up on every inner side, and return what plain
tables return. The graph is Wikispeedia's (4,589 pages, 119,769 links), checked twice: as inserted
through SQL (links in the delta) and after crawldb_optimize() (links compressed, ids renumbered).
"""

import lzma
import os
import tempfile
import unittest

import join_matrix
from shared_data import shared_data_path

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
WIKI = "https://en.wikipedia.org/wiki/"
PAGE = WIKI + "France"


def read_links():
    """(source URL, destination URL) of every line of links.tsv."""
    links = []
    with lzma.open(shared_data_path("wikispeedia/links.tsv.xz"), "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                source, destination = line.split("\t")
                links.append((WIKI + source, WIKI + destination))
    return links


class JoinPlansTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.links = read_links()
        cls.temp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.temp.name, "graph.db")
        cls.warm = join_matrix.connect(cls.path, EXTENSION)
        with open(os.path.join(ROOT, "sql", "crawldb.sql")) as script:
            cls.warm.executescript(script.read())
        db = cls.warm
        db.execute("BEGIN")
        db.execute("CREATE TEMP TABLE staging(src TEXT, dst TEXT)")
        db.executemany("INSERT INTO staging VALUES (?, ?)", cls.links)
        db.execute("INSERT OR IGNORE INTO urls(url) SELECT src FROM staging "
                   "UNION ALL SELECT dst FROM staging")
        db.execute("INSERT OR IGNORE INTO outlinks(src, dst) "
                   "SELECT url_id(src), url_id(dst) FROM staging")
        db.execute("COMMIT")

    @classmethod
    def tearDownClass(cls):
        cls.warm.close()
        cls.temp.cleanup()

    def check_matrix(self, state):
        db = self.warm
        join_matrix.load_plain_copy(db)
        x = db.execute("SELECT url_id(?)", (PAGE,)).fetchone()[0]
        self.assertIsNotNone(x)
        params = {"x": x, "url": PAGE}
        for name, sql, pinned in join_matrix.QUERIES:
            with self.subTest(state=state, query=name):
                fresh = join_matrix.connect(self.path, EXTENSION)
                try:
                    # Plans first: a nested full scan of a large table would take minutes.
                    loops, nested = join_matrix.crawldb_plan(fresh, sql, params)
                    self.assertEqual([], nested, f"{name}: a full scan inside a loop")
                    self.assertEqual(join_matrix.pinned_plan(pinned), loops, name)
                    warm_loops, _ = join_matrix.crawldb_plan(db, sql, params)
                    self.assertEqual(loops, warm_loops, f"{name}: warm and fresh plans differ")
                    ours = fresh.execute(join_matrix.crawldb_sql(sql), params).fetchall()
                finally:
                    fresh.close()
                plain = db.execute(join_matrix.plain_sql(sql), params).fetchall()
                self.assertEqual(plain, ours, name)
                self.assertEqual(plain, db.execute(join_matrix.crawldb_sql(sql), params).fetchall())
                self.assertTrue(plain and plain[0] != (0,) and plain[0] != (None,),
                                f"{name}: the query finds nothing on this graph")

    def test_matrix_as_inserted_then_optimized(self):
        self.assertGreater(len(self.links), 100000)
        self.check_matrix("inserted")
        self.warm.execute("SELECT crawldb_optimize()")
        self.check_matrix("optimized")

    def test_a_fresh_connection_plans_from_the_stored_figures(self):
        # The figures a commit stored, not what the connection has loaded: a fresh connection
        # that has read nothing plans the README query with the look-up inside.
        fresh = join_matrix.connect(self.path, EXTENSION)
        self.addCleanup(fresh.close)
        figures = dict(fresh.execute("SELECT key, value FROM outlinks_config "
                                     "WHERE key LIKE 'plan.%'").fetchall())
        arcs = self.warm.execute("SELECT count(*) FROM outlinks").fetchone()[0]
        self.assertEqual(int(figures["plan.rows"]), 1 << (arcs - 1).bit_length())
        self.assertGreater(int(figures["plan.keys"]), 4096)
        rows = dict(fresh.execute("SELECT key, value FROM urls_config "
                                  "WHERE key LIKE 'plan.%'").fetchall())
        urls = self.warm.execute("SELECT count(*) FROM urls").fetchone()[0]
        self.assertEqual(int(rows["plan.rows"]), 1 << (urls - 1).bit_length())


if __name__ == "__main__":
    unittest.main()
