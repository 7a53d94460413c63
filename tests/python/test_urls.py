"""The urls table from Python's standard sqlite3 module: creation, insert-if-unique, look-ups."""
import os
import sqlite3
import tempfile
import unittest

from loaded_db import connect

CREATE_SQL = os.path.join(os.path.dirname(__file__), "..", "..", "sql", "crawldb.sql")


class UrlsTest(unittest.TestCase):
    def setUp(self):
        self.db = connect()
        with open(CREATE_SQL) as script:
            self.db.executescript(script.read())

    def tearDown(self):
        self.assertEqual(self.db.execute("SELECT crawldb_check()").fetchone()[0], "ok")

    def test_bulk_load_skips_junk_and_duplicates(self):
        scraped = ["http://Example.com/a", "mailto:someone@example.com", "http://example.com/a",
                   "javascript:void(0)", "https://example.com/b", "http://example.com:80/a"]
        self.db.execute("CREATE TEMP TABLE staging(url TEXT)")
        self.db.executemany("INSERT INTO staging VALUES (?)", [(u,) for u in scraped])
        cursor = self.db.execute("INSERT OR IGNORE INTO urls(url) SELECT url FROM staging")
        self.assertEqual(cursor.rowcount, 2)
        self.db.commit()
        self.assertEqual(self.db.execute("SELECT id, url FROM urls ORDER BY id").fetchall(),
                         [(1, "http://example.com/a"), (2, "https://example.com/b")])

    def test_plain_insert_of_a_known_url_names_it(self):
        self.db.execute("INSERT INTO urls(url) VALUES ('http://example.com/a')")
        with self.assertRaises(sqlite3.IntegrityError) as caught:
            self.db.execute("INSERT INTO urls(url) VALUES ('HTTP://EXAMPLE.COM/a')")
        self.assertEqual(str(caught.exception),
                         "crawldb_urls: URL already stored: http://example.com/a (id 1); "
                         "use INSERT OR IGNORE to skip known URLs")

    def test_lastrowid_is_the_new_id(self):
        cursor = self.db.execute("INSERT INTO urls(url) VALUES ('http://a.com/')")
        self.assertEqual(cursor.lastrowid, 1)
        cursor = self.db.execute("INSERT INTO urls(url) VALUES ('http://b.com/')")
        self.assertEqual(cursor.lastrowid, 2)
        self.assertEqual(self.db.execute("SELECT url_text(2), url_id('http://a.com')").fetchone(),
                         ("http://b.com/", 1))

    def test_persists_across_connections(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "crawl.db")
            db = connect(path)
            db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
            db.execute("INSERT INTO urls(url) VALUES ('http://a.com/x')")
            db.commit()
            db.close()
            again = connect(path)
            self.assertEqual(again.execute("SELECT url FROM urls WHERE id = 1").fetchone(),
                             ("http://a.com/x",))
            again.close()


if __name__ == "__main__":
    unittest.main()
