"""The Python package: bindings/python/build_wheel.py makes the wheel of the built module, pip
installs it (nothing downloaded) in a venv made with --system-site-packages from Debian's
Python, and a program there imports crawldb, loads it into a sqlite3 connection and queries."""

import base64
import hashlib
import os
import sys
import sysconfig
import tempfile
import unittest
import zipfile

from installed_files import REPO, VERSION, is_stripped, run

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
TAG = "py3-none-" + sysconfig.get_platform().replace("-", "_")

# Run with the venv's Python in the scratch folder, so that crawldb comes from the venv.
PROGRAM = """
import os, sqlite3, sys, crawldb
db = sqlite3.connect(":memory:")
crawldb.load(db)
db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
db.execute("INSERT INTO urls(url) VALUES ('HTTP://Example.com:80/a/../b')")
print(*db.execute("SELECT id, url, crawldb_check() FROM urls").fetchone())
print(db.execute("SELECT crawldb_version()").fetchone()[0])
print(os.path.relpath(crawldb.loadable_path(), sys.prefix))
try:
    db.load_extension(crawldb.loadable_path())
except sqlite3.OperationalError as error:
    print(error)
"""


class PythonWheelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory(prefix="crawldb-wheel-")
        cls.wheel = run(["/usr/bin/python3", os.path.join(REPO, "bindings/python/build_wheel.py"),
                         EXTENSION, VERSION, os.path.join(cls.scratch.name, "dist")]).strip()
        cls.venv = os.path.join(cls.scratch.name, "venv")
        run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", cls.venv])
        cls.python = os.path.join(cls.venv, "bin", "python")
        run([cls.python, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet",
             "--disable-pip-version-check", cls.wheel])

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_wheel_holds_the_package_and_its_record(self):
        self.assertEqual(os.path.basename(self.wheel), f"crawldb-{VERSION}-{TAG}.whl")
        dist_info = f"crawldb-{VERSION}.dist-info"
        with zipfile.ZipFile(self.wheel) as wheel:
            names = set(wheel.namelist())
            self.assertEqual(names, {"crawldb/__init__.py", "crawldb/crawldb.so",
                                     f"{dist_info}/METADATA", f"{dist_info}/WHEEL",
                                     f"{dist_info}/RECORD"})
            self.assertIn(f"Tag: {TAG}\n", wheel.read(f"{dist_info}/WHEEL").decode())
            records = [line.split(",") for line in
                       wheel.read(f"{dist_info}/RECORD").decode().splitlines()]
            self.assertEqual({name for name, _, _ in records}, names)
            for name, digest, size in records:
                if name.endswith("/RECORD"):
                    continue
                data = wheel.read(name)
                sha256 = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
                self.assertEqual((digest, size), ("sha256=" + sha256.decode(), str(len(data))))

    def test_module_is_stripped(self):
        with zipfile.ZipFile(self.wheel) as wheel:
            module = wheel.extract("crawldb/crawldb.so", self.scratch.name)
        self.assertTrue(is_stripped(module))

    def test_pip_knows_the_installed_version(self):
        shown = run([self.python, "-m", "pip", "show", "--disable-pip-version-check", "crawldb"])
        self.assertIn(f"Version: {VERSION}\n", shown)

    def test_import_load_and_query_in_the_venv(self):
        lines = run([self.python, "-c", PROGRAM], cwd=self.scratch.name).splitlines()
        self.assertEqual(lines[0], "1 http://example.com/b ok")
        self.assertRegex(lines[1], rf"^{VERSION}\+")
        python = f"python{sys.version_info.major}.{sys.version_info.minor}"
        self.assertEqual(lines[2], f"lib/{python}/site-packages/crawldb/crawldb.so")
        self.assertEqual(lines[3], "not authorized")  # load() turned extension loading off


if __name__ == "__main__":
    unittest.main()
