"""crawldb for Python's sqlite3 module: the SQLite extension (URL store, crawl frontier,
compressed link graph as virtual tables), shipped inside this package.

    import sqlite3, crawldb
    db = sqlite3.connect("crawl.db")
    crawldb.load(db)
    db.execute("SELECT crawldb_version()")

The Python must be able to load SQLite extensions (Debian's /usr/bin/python3 can).
"""

import os


def loadable_path():
    """The path of the module crawldb.so inside this package."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "crawldb.so")


def load(conn):
    """Loads crawldb into the sqlite3 connection `conn`; extension loading is off again after."""
    conn.enable_load_extension(True)
    try:
        conn.load_extension(loadable_path())
    finally:
        conn.enable_load_extension(False)
