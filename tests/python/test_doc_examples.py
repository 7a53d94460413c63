"""Runs every ```sql block of README.md and docs/*.md and checks the results they show.

The convention (also stated in docs/sql.md, "Examples in these docs"):
- Each ```sql block runs on its own, in a fresh in-memory database with crawldb loaded. Nothing
  else is set up: a block that needs the four tables runs `.read sql/crawldb.sql` itself.
- Dot-commands at the start of a line: `.load …` is skipped (the test loads the extension
  itself); `.read FILE` runs the SQL of FILE (relative to the repository root). Any other
  dot-command fails the test.
- `-- → RESULT` after a statement pins the first row it returns, its columns joined by '|'
  (NULL shown as NULL); `-- → (no rows)` pins an empty result; `-- → error: MESSAGE` pins the
  error the statement fails with. A statement without a pin must simply succeed.
- `sample.links` is replaced, in statements and pins, by the links file of examples/sample_links.py
  written to a temporary directory.
- `<!-- not run: REASON -->` on the line before a block skips it (used sparingly).
- Relative paths in a block are relative to the repository root.
- Each block runs on a database file, and each query (a SELECT or WITH statement) also runs in a
  freshly opened connection on a copy of that file made just before it: both must return the same
  rows or the same error, so that no result depends on what a connection has loaded (issue 18). Queries that read per-connection state
  (CONNECTION_STATE) run in the block's connection only. Each such query also runs on two
  read-only connections to that copy (`mode=ro`, `PRAGMA query_only = 1`): a query must answer
  the same there, unless it calls a writing function (WRITING_FUNCTIONS) and fails with SQLite's
  read-only error.
"""

import os
import pathlib
import re
import shutil
import sqlite3
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples"))
import sample_links  # noqa: E402 (found through the line above)

EXTENSION = os.environ.get("CRAWLDB_EXTENSION", str(ROOT / "build" / "release" / "crawldb"))
LINKS_PLACEHOLDER = "sample.links"
PIN = re.compile(r"\s*--\s*→\s?(.*)$")
SKIP = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")
QUERY = re.compile(r"^\s*(SELECT|WITH)\b", re.IGNORECASE)
# What differs between two connections by design: the last insert and change counts, the last
# refusal, temporary tables, crawldb_stats()'s memory figures and the statements a connection
# holds (crawldb_statements).
# How SQLite refuses a write on a read-only connection (mode=ro, PRAGMA query_only), and the
# functions that write: any other query must answer on one as on a writable connection.
READ_ONLY_ERROR = re.compile(r"attempt to write a readonly database")
WRITING_FUNCTIONS = re.compile(
    r"\b(crawl_add|crawl_lease|crawl_confirm|crawl_host_set|crawldb_import_\w+|crawldb_optimize)"
    r"\s*\(", re.IGNORECASE)
CONNECTION_STATE = re.compile(
    r"last_insert_rowid|changes\s*\(|crawldb_last_refusal|\btemp\.|crawldb_stats|crawldb_statements",
    re.IGNORECASE)


def doc_files():
    files = [ROOT / "README.md"]
    files += sorted((ROOT / "docs").glob("*.md"))
    return files


def sql_blocks(path):
    """Yields (first line number, lines, skip reason or None) of each ```sql block in `path`."""
    lines = path.read_text(encoding="utf-8").splitlines()
    previous = ""
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```sql":
            skip = SKIP.search(previous)
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            if j == len(lines):
                raise AssertionError(f"{path.name}:{i + 1}: unterminated ```sql block")
            yield start + 1, lines[start:j], skip.group(1) if skip else None
            i = j + 1
            previous = ""
            continue
        if lines[i].strip():
            previous = lines[i]
        i += 1


def render(row):
    return "|".join("NULL" if value is None else str(value) for value in row)


class DocExamplesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory()
        cls.links_path = os.path.join(cls.temp.name, "sample.links")
        with open(cls.links_path, "w", encoding="utf-8") as target:
            target.write(sample_links.text())
        cls.cwd = os.getcwd()
        os.chdir(ROOT)

    @classmethod
    def tearDownClass(cls):
        os.chdir(cls.cwd)
        cls.temp.cleanup()

    def connect(self, path=None, uri=False):
        """A connection with crawldb loaded: to `path` (a URI when `uri`), or to a new database
        file."""
        if path is None:
            handle, path = tempfile.mkstemp(suffix=".db", dir=self.temp.name)
            os.close(handle)
        db = sqlite3.connect(path, isolation_level=None, uri=uri)
        db.enable_load_extension(True)
        db.load_extension(EXTENSION)
        db.enable_load_extension(False)
        return db

    def database_file(self, db):
        return db.execute("PRAGMA database_list").fetchone()[2]

    def outcome(self, db, sql):
        """The rows of `sql` on `db`, or its error as "error: …"."""
        try:
            return db.execute(sql).fetchall()
        except sqlite3.Error as error:
            return f"error: {error}"

    def fresh_outcome(self, db, sql, where):
        """The rows (or the error) of `sql` in a new connection to a copy of db's file (what it
        writes stays there); None when it is not a query that two connections must answer alike.
        The query also runs first in two read-only connections to the copy (mode=ro, and
        PRAGMA query_only): a query that reads gives the same answer there, so opening and
        catching up write nothing; one that writes fails there with SQLite's read-only error."""
        if db.in_transaction or not QUERY.match(sql) or CONNECTION_STATE.search(sql):
            return None
        copy = os.path.join(self.temp.name, "fresh.db")
        shutil.copyfile(self.database_file(db), copy)
        read_only = []
        for kind in ("mode=ro", "query_only"):
            if kind == "mode=ro":
                reader = self.connect(pathlib.Path(copy).as_uri() + "?mode=ro", uri=True)
            else:
                reader = self.connect(copy)
                reader.execute("PRAGMA query_only = 1")
            try:
                read_only.append((kind, self.outcome(reader, sql)))
            finally:
                reader.close()
        fresh = self.connect(copy)
        try:
            result = self.outcome(fresh, sql)
        finally:
            fresh.close()
            os.remove(copy)
        for kind, answer in read_only:
            if answer == result:
                continue
            writes = WRITING_FUNCTIONS.search(sql) is not None
            self.assertTrue(writes and isinstance(answer, str) and READ_ONLY_ERROR.search(answer),
                            f"{where}: on a {kind} connection: {answer}, "
                            f"on a writable one: {result}\n{sql}")
        return result

    def run_statement(self, db, where, sql, pin):
        sql = sql.replace(LINKS_PLACEHOLDER, self.links_path)
        if pin is not None:
            pin = pin.replace(LINKS_PLACEHOLDER, self.links_path)
        fresh = self.fresh_outcome(db, sql, where)
        try:
            rows = db.execute(sql).fetchall()
        except sqlite3.ProgrammingError as error:
            if "one statement at a time" not in str(error) or pin is not None:
                raise AssertionError(f"{where}: {error}\n{sql}") from None
            db.executescript(sql)
            return
        except sqlite3.Error as error:
            if fresh is not None:
                self.assertEqual(fresh, f"error: {error}", f"{where}: in a fresh connection\n{sql}")
            if pin is not None and pin.startswith("error: "):
                self.assertEqual(pin[len("error: "):], str(error), f"{where}: {sql}")
                return
            raise AssertionError(f"{where}: {error}\n{sql}") from None
        if fresh is not None:
            self.assertEqual(fresh, rows, f"{where}: in a fresh connection\n{sql}")
        if pin is None:
            return
        self.assertFalse(pin.startswith("error: "), f"{where}: succeeded, expected {pin}\n{sql}")
        shown = render(rows[0]) if rows else "(no rows)"
        self.assertEqual(pin, shown, f"{where}: {sql}")

    def run_block(self, db, name, first_line, lines):
        """Runs one block; returns the number of statements run."""
        statements = 0
        buffer, pin, start = "", None, first_line
        for offset, line in enumerate(lines):
            number = first_line + offset
            if not buffer.strip() and line.startswith("."):
                command, _, argument = line.partition(" ")
                argument = PIN.sub("", argument).split("--")[0].strip()
                if command == ".load":
                    continue
                if command == ".read":
                    db.executescript((ROOT / argument).read_text(encoding="utf-8"))
                    statements += 1
                    continue
                self.fail(f"{name}:{number}: unsupported dot-command {command}")
            if not buffer.strip() and line.lstrip().startswith("--"):
                self.assertIsNone(PIN.search(line), f"{name}:{number}: a pin without a statement")
                continue
            match = PIN.search(line)
            if match:
                pin = match.group(1).strip()
                line = line[:match.start()]
            if not buffer.strip():
                start = number
            buffer += line + "\n"
            if sqlite3.complete_statement(buffer):
                self.run_statement(db, f"{name}:{start}", buffer, pin)
                statements += 1
                buffer, pin = "", None
            elif pin is not None:
                self.fail(f"{name}:{number}: a pin after an unfinished statement")
        self.assertFalse(buffer.strip(), f"{name}:{start}: unfinished statement")
        return statements

    def test_every_sql_block(self):
        run = skipped = statements = 0
        for path in doc_files():
            name = path.relative_to(ROOT).as_posix()
            for first_line, lines, skip in sql_blocks(path):
                if skip:
                    skipped += 1
                    continue
                with self.subTest(block=f"{name}:{first_line}"):
                    db = self.connect()
                    try:
                        statements += self.run_block(db, name, first_line, lines)
                    finally:
                        db.close()
                run += 1
        print(f"doc examples: {run} blocks run ({statements} statements), {skipped} skipped")
        self.assertGreater(run, 0)

    def test_a_wrong_pin_fails(self):
        # The checker itself: a wrong result, a wrong error and a missing error are caught.
        db = self.connect()
        self.addCleanup(db.close)
        with self.assertRaises(AssertionError):
            self.run_block(db, "t", 1, ["SELECT 1, 2;  -- → 1|3"])
        with self.assertRaises(AssertionError):
            self.run_block(db, "t", 1, ["SELECT url_fp(1, 2);  -- → error: nothing"])
        with self.assertRaises(AssertionError):
            self.run_block(db, "t", 1, ["SELECT 1;  -- → error: no such table"])
        with self.assertRaises(AssertionError):
            self.run_block(db, "t", 1, ["SELECT * FROM no_such_table;"])
        with self.assertRaises(AssertionError):  # an answer that depends on the connection
            self.run_block(db, "t", 1, ["CREATE TEMP TABLE t(x);", "INSERT INTO t VALUES (1);",
                                        "SELECT x FROM t;"])
        self.assertEqual(2, self.run_block(db, "t", 1, [
            "SELECT 1 AS a,", "       NULL;  -- → 1|NULL",
            "SELECT 1 WHERE 0;  -- → (no rows)"]))


if __name__ == "__main__":
    unittest.main()
