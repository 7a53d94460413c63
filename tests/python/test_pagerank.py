"""sql/recipes/pagerank.sql on the wikispeedia graph against a PageRank computed here in Python,
and the function pagerank() (extension/links/graph_functions.h) against the recipe."""
import lzma
import os
import sqlite3
import tempfile
import unittest

from shared_data import shared_data_path

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
WIKI = "https://en.wikipedia.org/wiki/"


def connect():
    db = sqlite3.connect(":memory:", isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(EXTENSION)
    db.enable_load_extension(False)
    return db


def read_links():
    """The (source article, destination article) pairs of links.tsv, in file order."""
    links = []
    with lzma.open(shared_data_path("wikispeedia/links.tsv.xz"), "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                source, destination = line.split("\t")
                links.append((source, destination))
    return links


def reference_pagerank(nodes, edges, damping=0.85, iterations=30):
    """Power iteration; dangling pages spread their rank evenly (the recipe's definition)."""
    n = len(nodes)
    out = {v: [] for v in nodes}
    for source, destination in edges:
        out[source].append(destination)
    rank = {v: 1.0 / n for v in nodes}
    for _ in range(iterations):
        dangling = sum(rank[v] for v in nodes if not out[v])
        base = (1 - damping) / n + damping * dangling / n
        following = {v: base for v in nodes}
        for v in nodes:
            if out[v]:
                share = damping * rank[v] / len(out[v])
                for w in out[v]:
                    following[w] += share
        rank = following
    return rank


def import_wikispeedia(db, links):
    """Creates the four tables in `db` and loads `links` (read_links()) as one links file."""
    with open(os.path.join(ROOT, "sql", "crawldb.sql")) as script:
        db.executescript(script.read())
    with tempfile.NamedTemporaryFile("w", suffix=".links", delete=False) as f:
        source = None
        for a, b in links:
            if a != source:
                f.write("\n" + WIKI + a + "\n")
                source = a
            f.write("  " + WIKI + b + "\n")
    try:
        db.execute("SELECT crawldb_import_links(?)", (f.name,))
    finally:
        os.unlink(f.name)
    db.execute("SELECT crawldb_optimize()")


class PageRankRecipeTest(unittest.TestCase):
    def test_top_ten_of_wikispeedia_matches_the_reference(self):
        links = read_links()
        self.assertGreater(len(links), 100000)
        db = connect()
        import_wikispeedia(db, links)
        with open(os.path.join(ROOT, "sql", "recipes", "pagerank.sql")) as script:
            db.executescript(script.read())
        ours = db.execute("SELECT u.url, p.rank FROM temp.pagerank_rank p JOIN urls u ON u.id = p.id "
                          "ORDER BY p.rank DESC, u.url").fetchall()

        # The reference: the same URLs (normalised as crawldb does), self links and duplicates
        # dropped as paper 001 says.
        normalized = {}
        for a, b in links:
            for name in (a, b):
                if name not in normalized:
                    normalized[name] = db.execute("SELECT url_normalize(?)",
                                                  (WIKI + name,)).fetchone()[0]
        edges = {(normalized[a], normalized[b]) for a, b in links if normalized[a] != normalized[b]}
        nodes = sorted(set(normalized.values()))
        reference = reference_pagerank(nodes, sorted(edges))
        expected = sorted(reference.items(), key=lambda item: (-item[1], item[0]))

        self.assertEqual(len(ours), len(nodes))
        self.assertEqual([url for url, _ in ours[:10]], [url for url, _ in expected[:10]])
        for (url, rank), (_, expected_rank) in zip(ours[:10], expected[:10]):
            self.assertAlmostEqual(rank, expected_rank, delta=1e-9 * expected_rank, msg=url)
        self.assertEqual(ours[0][0], WIKI + "United_States")
        self.assertAlmostEqual(sum(rank for _, rank in ours), 1.0, places=9)
        self.assertEqual(db.execute("SELECT crawldb_check()").fetchone()[0], "ok")

        # The function: every node's rank within 1e-9 of the recipe's.
        recipe = dict(db.execute("SELECT id, rank FROM temp.pagerank_rank"))
        function = dict(db.execute("SELECT id, rank FROM pagerank('outlinks')"))
        self.assertEqual(function.keys(), recipe.keys())
        for node, rank in recipe.items():
            self.assertAlmostEqual(function[node], rank, delta=1e-9 * rank, msg=node)
        top = "SELECT id FROM {} ORDER BY rank DESC, id LIMIT 100"
        self.assertEqual(db.execute(top.format("pagerank('outlinks')")).fetchall(),
                         db.execute(top.format("temp.pagerank_rank")).fetchall())


if __name__ == "__main__":
    unittest.main()
