"""examples/analysis.sql on a links file, its answers checked against the same questions computed
here in Python from the file: the made-up site of examples/sample_links.py (runs anywhere), and the
Wikispeedia graph of ../shared/data (skipped when it is missing)."""
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from shared_data import shared_data_path

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "examples"))
import sample_links  # noqa: E402 (found through the line above)

WIKI = "https://en.wikipedia.org/wiki/"


def read_links(text):
    """{source: [destinations]} of a links file (newest record wins), http(s) URLs only."""
    links, source = {}, None
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0] in " \t":
            if line.strip().startswith(("http://", "https://")):
                links[source].append(line.strip())
        else:
            source = line.strip()
            links[source] = []
    return links


def wikispeedia_links_file():
    """links.tsv of Wikispeedia (a source article, a tab, a linked article) as a links file."""
    lines, source = [], None
    with lzma.open(shared_data_path("wikispeedia/links.tsv.xz"), "rt", encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            article, linked = line.split("\t")
            if article != source:
                lines.append(WIKI + article)
                source = article
            lines.append("  " + WIKI + linked)
    return "\n".join(lines) + "\n"


def run_analysis(text, page):
    """The output of examples/analysis.sql with :page set, on a database that imported text."""
    work = tempfile.mkdtemp()
    try:
        path = os.path.join(work, "sample.links")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        db = os.path.join(work, "crawl.db")
        return subprocess.run(
            ["sqlite3", db, ".load " + EXTENSION, "PRAGMA synchronous = OFF;",
             ".read sql/crawldb.sql", f"SELECT length(crawldb_import_links('{path}'));",
             "SELECT length(crawldb_optimize());", f".parameter set :page '{page}'",
             ".read examples/analysis.sql"],
            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    finally:
        shutil.rmtree(work)


class AnalysisTest(unittest.TestCase):
    def check_answers(self, text, page):
        """Runs analysis.sql and checks its answers against the links file. Returns its output."""
        output = run_analysis(text, page)
        links = read_links(text)
        self.assertIn(page, links)
        # URLs of both files are already normalised, as crawldb keeps them.
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
        top = min(urls, key=lambda u: (-len(inn[u]), u))
        self.assertRegex(output, rf"{re.escape(top)} +{len(inn[top])} *\n")
        two = {w for v in out[page] for w in out[v]} - out[page] - {page}
        self.assertRegex(output, rf"pages_at_two_hops\n-+\n{len(two)} *\n")
        reciprocal = sorted(v for v in out[page] if page in out[v])
        section = output.split("7. Reciprocal links")[1].split("8. PageRank")[0]
        self.assertEqual(sorted(re.findall(r"https://\S+", section)), reciprocal)
        host = re.compile(r"https?://([^/:]+)")
        pairs = {}
        for s, d in edges:
            pair = (host.match(s).group(1), host.match(d).group(1))
            pairs[pair] = pairs.get(pair, 0) + 1
        for (from_host, to_host), count in pairs.items():
            self.assertRegex(output,
                             rf"\n{re.escape(from_host)} +{re.escape(to_host)} +{count} *\n")
        return output

    def test_answers_match_on_the_sample_site(self):
        output = self.check_answers(sample_links.text(), sample_links.section(3, 5))
        self.assertIn("docs.example.org  www.python.org", output)

    def test_answers_match_on_wikispeedia(self):
        output = self.check_answers(wikispeedia_links_file(), WIKI + "Bede")
        self.assertIn("United_States     0.009578", output)


if __name__ == "__main__":
    unittest.main()
