"""A connection with the crawldb extension loaded (CRAWLDB_EXTENSION, which ctest sets), in
autocommit mode (isolation_level=None), as the Python tests open them."""

import os
import sqlite3

EXTENSION = os.environ["CRAWLDB_EXTENSION"]


def connect(path=":memory:", timeout=5.0):
    """`timeout`: seconds to wait on a lock (0: SQLITE_BUSY at once)."""
    db = sqlite3.connect(path, isolation_level=None, timeout=timeout)
    db.enable_load_extension(True)
    db.load_extension(EXTENSION)
    db.enable_load_extension(False)
    return db
