"""Golden dumps of the shadow tables: a small fixed crawl (URLs typed here, times given), and every
shadow table's rows after it, blobs in hex, compared with tests/golden/shadow_tables.txt. A change
of any on-disk format shows up as a diff of that file in review; a change that should not touch
the formats fails here.

After an intended format change: CRAWLDB_UPDATE_GOLDEN=1 /usr/bin/python3 -m unittest
test_golden_shadow_tables (from tests/python, with CRAWLDB_EXTENSION set), then review the diff.
Runs of rows that differ only in their first column (the 1,024 frontier snapshot parts, mostly
empty) are written once, as "first..last|rest".
"""

import difflib
import os
import pathlib
import sqlite3
import tempfile
import unittest

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
ROOT = pathlib.Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "shadow_tables.txt"

URLS = [
    "https://example.com/",
    "https://example.com/a",
    "https://example.com/b?x=1",
    "http://www.example.org/",
    "http://www.example.org/docs/index.html",
    "https://sub.example.com/c",
]


def value_text(value):
    return value.hex() if isinstance(value, bytes) else repr(value)


def collapsed(rows):
    """Lines for `rows`, consecutive rows equal but for their first column written once."""
    lines, run = [], []

    def flush():
        if run:
            first, last, rest = run[0][0], run[-1][0], run[0][1:]
            key = value_text(first) if first == last else f"{value_text(first)}..{value_text(last)}"
            lines.append("|".join([key] + [value_text(v) for v in rest]))

    for row in rows:
        if run and row[1:] == run[-1][1:] and isinstance(row[0], int) and row[0] == run[-1][0] + 1:
            run.append(row)
            continue
        flush()
        run = [row]
    flush()
    return lines


def dump(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(EXTENSION)
    with open(ROOT / "sql" / "crawldb.sql") as script:
        db.executescript(script.read())
    db.execute("BEGIN")
    db.execute("SELECT crawl_add(?, NULL, 0, 1000)", (URLS[0],))
    for priority, url in enumerate(URLS[1:]):
        db.execute("SELECT crawl_add(?, ?, ?, 1000)", (url, URLS[0], priority))
    db.execute("COMMIT")
    db.execute("SELECT * FROM crawl_lease(2, 60, 1001)").fetchall()
    db.execute("SELECT crawl_confirm(?, 200, 86400, 1002)", (URLS[0],))
    db.execute("INSERT INTO urls(url) VALUES ('https://example.net/after-optimize')")
    lines = []
    for stage in ("before optimize", "after optimize"):
        if stage == "after optimize":
            db.execute("SELECT crawldb_optimize()")
        lines.append(f"# {stage}")
        names = [name for (name,) in db.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%\\_%' ESCAPE '\\' "
            "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")]
        for name in names:
            lines.append(f"== {name}")
            lines.extend(collapsed(db.execute(f'SELECT * FROM "{name}" ORDER BY 1').fetchall()))
    db.close()
    return "\n".join(lines) + "\n"


class GoldenShadowTablesTest(unittest.TestCase):
    def test_shadow_tables_match_the_golden_dump(self):
        with tempfile.TemporaryDirectory() as temp:
            ours = dump(os.path.join(temp, "golden.db"))
            again = dump(os.path.join(temp, "again.db"))
        self.assertEqual(ours, again, "the same statements wrote different bytes")
        if os.environ.get("CRAWLDB_UPDATE_GOLDEN") == "1":
            GOLDEN.write_text(ours)
        expected = GOLDEN.read_text()
        if ours != expected:
            diff = "".join(difflib.unified_diff(expected.splitlines(True), ours.splitlines(True),
                                                str(GOLDEN), "this build"))
            self.fail("the shadow tables differ from the golden dump (an on-disk format changed?)"
                      "; if intended, regenerate it (see this file's docstring):\n" + diff[:20000])


if __name__ == "__main__":
    unittest.main()
