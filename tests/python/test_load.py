"""Loads crawldb.so through Python's standard sqlite3 module, as a user of any binding would."""
import os
import re
import sqlite3
import unittest

EXTENSION = os.environ["CRAWLDB_EXTENSION"]


def connect():
    db = sqlite3.connect(":memory:")
    db.enable_load_extension(True)
    db.load_extension(EXTENSION)
    db.enable_load_extension(False)
    return db


class LoadTest(unittest.TestCase):
    def test_version(self):
        (version,) = connect().execute("SELECT crawldb_version()").fetchone()
        self.assertRegex(version, r"^\d+\.\d+\.\d+\+([0-9a-f]{12}|unknown)$")

    def test_debug_names_the_running_sqlite(self):
        db = connect()
        (debug,) = db.execute("SELECT crawldb_debug()").fetchone()
        (running,) = db.execute("SELECT sqlite_version()").fetchone()
        self.assertIn("sqlite_running: " + running, debug)

    def test_wrong_arguments_are_an_sql_error(self):
        with self.assertRaisesRegex(sqlite3.OperationalError, "wrong number of arguments"):
            connect().execute("SELECT crawldb_version('x')")


if __name__ == "__main__":
    unittest.main()
