"""Loads crawldb.so through Python's standard sqlite3 module, as a user of any binding would."""
import os
import re
import sqlite3
import subprocess
import sys
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

    def test_stays_loaded_after_its_last_connection_closes(self):
        # SQLite unloads an extension with the connection that loaded it; crawldb keeps itself
        # loaded (entry.cc), so that the next connection neither maps nor relocates it again. In
        # a process of its own: this one's other connections may still hold it.
        script = (
            "import os, sqlite3, sys\n"
            "db = sqlite3.connect(':memory:')\n"
            "db.enable_load_extension(True)\n"
            "db.load_extension(sys.argv[1])\n"
            "db.execute('SELECT crawldb_version()').fetchone()\n"
            "db.close()\n"
            "print(*sorted({os.path.realpath(line.split()[-1]) for line in open('/proc/self/maps')"
            " if os.path.basename(line.split()[-1]).startswith('crawldb')}), sep='\\n')\n")
        mapped = subprocess.run([sys.executable, "-c", script, EXTENSION], check=True,
                                capture_output=True, text=True).stdout.split()
        module = EXTENSION if EXTENSION.endswith(".so") else EXTENSION + ".so"
        self.assertEqual(mapped, [os.path.realpath(module)])

    def test_wrong_arguments_are_an_sql_error(self):
        with self.assertRaisesRegex(sqlite3.OperationalError, "wrong number of arguments"):
            connect().execute("SELECT crawldb_version('x')")


if __name__ == "__main__":
    unittest.main()
