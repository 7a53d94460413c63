"""examples/analysis.sql on the quickstart sample, its answers checked against the same questions
computed here in Python from the links file."""
import lzma
import os
import re
import shutil
import sqlite3
import subprocess
import tempfile
import unittest

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SAMPLE = os.path.join(ROOT, "examples", "data", "wikispeedia.links.xz")
PAGE = "https://en.wikipedia.org/wiki/Bede"


def read_links(text):
    """{source: [destinations]} of a links file (newest record wins), every URL seen."""
    links, source = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0] in " \t":
            links[source].append(line.strip())
        else:
            source = line.strip()
            links[source] = []
    return links


class AnalysisTest(unittest.TestCase):
    def test_answers_match_the_links_file(self):
        with lzma.open(SAMPLE, "rt", encoding="utf-8") as f:
            text = f.read()
        work = tempfile.mkdtemp()
        try:
            path = os.path.join(work, "sample.links")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            db = os.path.join(work, "crawl.db")
            output = subprocess.run(
                ["sqlite3", db, ".load " + EXTENSION, "PRAGMA synchronous = OFF;",
                 ".read sql/crawldb.sql", f"SELECT length(crawldb_import_links('{path}'));",
                 "SELECT length(crawldb_optimize());", ".read examples/analysis.sql"],
                cwd=ROOT, capture_output=True, text=True, check=True).stdout
        finally:
            shutil.rmtree(work)

        # The same questions in Python; URLs of the sample are already normalised.
        links = read_links(text)
        edges = {(s, d) for s, ds in links.items() for d in ds if s != d}
        urls = set(links) | {d for ds in links.values() for d in ds}
        out = {u: set() for u in urls}
        inn = {u: set() for u in urls}
        for s, d in edges:
            out[s].add(d)
            inn[d].add(s)
        no_out = sum(1 for u in urls if not out[u])
        no_in = sum(1 for u in urls if not inn[u])
        self.assertRegex(output, rf"no_outlinks +no_inlinks\n[- ]+\n{no_out} +{no_in} *\n")
        top = max(urls, key=lambda u: (len(inn[u]), u))
        self.assertRegex(output, rf"{re.escape(top)} +{len(inn[top])} *\n")
        two = {w for v in out[PAGE] for w in out[v]} - out[PAGE] - {PAGE}
        self.assertRegex(output, rf"pages_at_two_hops\n-+\n{len(two)} *\n")
        reciprocal = sorted(v for v in out[PAGE] if PAGE in out[v])
        section = output.split("7. Reciprocal links")[1].split("8. PageRank")[0]
        self.assertEqual(sorted(re.findall(r"https://\S+", section)), reciprocal)
        self.assertIn(f"en.wikipedia.org  en.wikipedia.org  {len(edges)}", output)
        self.assertIn("United_States     0.009578", output)


if __name__ == "__main__":
    unittest.main()
