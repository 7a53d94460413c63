"""examples/page_links.py, the crawler's link extraction: lxml and html.parser find the same links
on every page of Debian's python3.11-doc, and both follow the rules on a small hand-made page; the
links are those of resolving each href on its own (page_links keeps what it resolved, keyed by
what of the base the answer depends on); without lxml, html.parser is the one used."""

import glob
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(HERE, "..", "..", "examples")
sys.path.insert(0, EXAMPLES)
import page_links  # noqa: E402 (found through the line above)

DOCS = "/usr/share/doc/python3.11/html"
PAGE = "http://127.0.0.1:8000/library/functions.html"

RULES = """<!DOCTYPE html><html><head>
<link rel="stylesheet" href="../_static/style.css">
<LINK REL="icon" HREF="/favicon.ico"/>
</head><body>
<a href="os.html#os.getcwd">first</a> <a href="os.html#os.chdir">same page, other fragment</a>
<a href="#local">this page</a> <a href>this page too</a> <a>no href</a>
<a href="sys.html" href="ignored.html">two hrefs: the first counts</a>
<a href=" stat.html ">spaces</a> <a href="a&amp;b.html?x=1&amp;y=&#50;">entities</a>
<a href="mailto:someone@example.org">mail</a> <a href="http://[::1">malformed</a>
<script>document.write('<a href="from-script.html">')</script>
<!-- <a href="commented-out.html"> -->
<base href="https://docs.python.org/3/">
<a href="tutorial/index.html">after the base</a> <area href="not-a-link-tag.html">
</body></html>"""

RULES_LINKS = [
    "http://127.0.0.1:8000/_static/style.css",
    "http://127.0.0.1:8000/favicon.ico",
    "http://127.0.0.1:8000/library/os.html",
    PAGE,
    "http://127.0.0.1:8000/library/sys.html",
    "http://127.0.0.1:8000/library/stat.html",
    "http://127.0.0.1:8000/library/a&b.html?x=1&y=2",
    "mailto:someone@example.org",
    "https://docs.python.org/3/tutorial/index.html",
]


class PageLinksTest(unittest.TestCase):
    def test_rules_on_a_small_page(self):
        for parser in page_links.PARSERS:
            with self.subTest(parser=parser):
                self.assertEqual(page_links.links(PAGE, RULES, parser), RULES_LINKS)
                self.assertEqual(page_links.links(PAGE, "", parser), [])
                self.assertEqual(page_links.links(PAGE, "<!-- nothing -->", parser), [])

    def test_each_page_resolves_against_its_own_base(self):
        # Pages share what they resolved: no page may get another's answer where the base counts.
        text = ('<a href="">itself</a> <a href="?page=2">a query</a> <a href="b.html">its folder'
                '</a> <a href="/top.html">the root</a> <a href=";v=1">parameters</a>')
        pages = ["http://h/x/a.html?q=1", "http://h/x/c.html", "http://g/x/a.html",
                 "https://h/x/a.html", "http://h/y/a.html", "http://h", "http://h/x/a.html;v=2"]
        for parser in page_links.PARSERS:
            for page in pages:
                with self.subTest(parser=parser, page=page):
                    expected = page_links.links_of_tags(page, page_links.tags_by_html_parser(text),
                                                        page_links.resolve)
                    self.assertEqual(page_links.links(page, text, parser), expected)
        self.assertEqual(len({tuple(page_links.links(page, text)) for page in pages}), len(pages))

    def test_lxml_and_html_parser_agree_on_every_page_of_the_python_docs(self):
        self.assertIn("lxml", page_links.PARSERS,
                      "python3-lxml is missing: install it (scripts/install-deps.sh)")
        files = sorted(glob.glob(os.path.join(DOCS, "**", "*.html"), recursive=True))
        self.assertGreater(len(files), 500, f"{DOCS}: install python3.11-doc")
        total = 0
        for path in files:
            url = "http://127.0.0.1:8000/" + os.path.relpath(path, DOCS)
            with open(path, "rb") as page:
                text = page.read().decode("utf-8", "replace")
            # The same tags and hrefs, so the same links: links() treats both alike after that.
            tags = page_links.tags_by_html_parser(text)
            self.assertEqual(page_links.tags_by_lxml(text), tags, path)
            links = page_links.links(url, text, "lxml")
            self.assertEqual(links, page_links.links_of_tags(url, tags, page_links.resolve), path)
            total += len(links)
        print(f"\npage links: {len(files)} pages, {total} links", file=sys.stderr)
        self.assertGreater(total, 20000)

    def test_html_parser_without_lxml(self):
        # A Python that cannot import lxml, as on a machine without python3-lxml.
        script = ("import sys; sys.modules['lxml'] = None; sys.path.insert(0, sys.argv[1]);"
                  "import page_links, json;"
                  "print(json.dumps([page_links.PARSERS,"
                  " page_links.links(sys.argv[2], sys.argv[3])]))")
        output = subprocess.run([sys.executable, "-c", script, EXAMPLES, PAGE, RULES],
                                capture_output=True, text=True, check=True).stdout
        self.assertEqual(json.loads(output), [["html.parser"], RULES_LINKS])


if __name__ == "__main__":
    unittest.main()
