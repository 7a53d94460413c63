#!/usr/bin/python3
"""Writes a links file (paper 001 §2.1) of a made-up documentation site, to try
crawldb_import_links on; the SQL examples of README.md and docs/sql.md import it as `sample.links`:

    /usr/bin/python3 examples/sample_links.py > sample.links

The site https://docs.example.org/ has an index page, 10 chapters of 20 sections each and a
general index. Every page links home; a chapter links to its sections and the next chapter; a
section to its chapter, its neighbours, the general index and one section of another chapter; the
general index to every section. A few links show what an import does with them: every tenth
section links to www.python.org, one section also to a mail address (an invalid URL, skipped) and
to a page that nothing else links to (dropped when the threshold is 2), and the last record is the
first section crawled again, with fewer links (the newest record of a source wins).
"""

import sys

SITE = "https://docs.example.org/"
CHAPTERS = 10
SECTIONS = 20


def chapter(c):
    return f"{SITE}c{c}/"


def section(c, s):
    return f"{SITE}c{c}/s{s}.html"


def records():
    """(source URL, [destination URLs]) in file order."""
    yield SITE, [chapter(c) for c in range(1, CHAPTERS + 1)] + [SITE + "genindex.html"]
    for c in range(1, CHAPTERS + 1):
        next_chapter = [chapter(c + 1)] if c < CHAPTERS else []
        yield chapter(c), [SITE] + [section(c, s) for s in range(1, SECTIONS + 1)] + next_chapter
        for s in range(1, SECTIONS + 1):
            links = [SITE, chapter(c)]
            links += [section(c, s - 1)] if s > 1 else []
            links += [section(c, s + 1)] if s < SECTIONS else []
            links += [SITE + "genindex.html"]
            links += [section(c * s % CHAPTERS + 1, (7 * s + 3 * c) % SECTIONS + 1)]
            if s % 10 == 0:
                links.append("https://www.python.org/")
            if (c, s) == (3, 5):
                links += ["mailto:docs@example.org", "https://example.com/cited-once"]
            yield section(c, s), links
    yield SITE + "genindex.html", [section(c, s) for c in range(1, CHAPTERS + 1)
                                   for s in range(1, SECTIONS + 1)]
    yield section(1, 1), [SITE, chapter(1)]


def text():
    return "".join(source + "\n" + "".join(f"  {url}\n" for url in links)
                   for source, links in records())


if __name__ == "__main__":
    sys.stdout.write(text())
