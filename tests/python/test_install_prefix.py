"""`cmake --install` of the build into a scratch prefix: the module loads from there by name, as
`sqlite3 :memory: '.load crawldb'` does after an install under /usr; the pkg-config file names
it; the SQL files and the documentation are under share/, and nothing else is installed."""

import os
import tempfile
import unittest

from installed_files import (BUILD_DIR, CMAKE, LIBDIR, LOADED_OUTPUT, VERSION, expected_files,
                             files_below, load_by_name, run)


class InstallPrefixTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory(prefix="crawldb-install-")
        cls.prefix = cls.scratch.name
        run([CMAKE, "--install", BUILD_DIR, "--prefix", cls.prefix])

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def test_installs_the_module_sql_and_docs_alone(self):
        self.assertEqual(files_below(self.prefix), expected_files())

    def test_sqlite3_shell_loads_the_module_by_name(self):
        self.assertRegex(load_by_name(self.prefix), LOADED_OUTPUT)

    def test_python_loads_the_module_by_name(self):
        # dlopen reads LD_LIBRARY_PATH when a process starts, so a child process loads it. It
        # prints the module's URL normalisation and the file it mapped.
        code = ("import sqlite3; db = sqlite3.connect(':memory:'); db.enable_load_extension(True); "
                "db.load_extension('crawldb'); print(db.execute('SELECT url_normalize(?)', "
                "('HTTP://Example.com:80/a/../b',)).fetchone()[0]); "
                "print(*{line.split()[-1] for line in open('/proc/self/maps') "
                "if line.rstrip().endswith('/crawldb.so')})")
        module = os.path.join(self.prefix, LIBDIR, "crawldb.so")
        env = dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(module))
        self.assertEqual(run(["/usr/bin/python3", "-c", code], env=env),
                         f"http://example.com/b\n{module}\n")

    def test_pkg_config_names_the_installed_module(self):
        env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(self.prefix, LIBDIR, "pkgconfig"))
        module = run(["pkg-config", "--variable=module", "crawldb"], env=env).strip()
        self.assertTrue(os.path.samefile(module, os.path.join(self.prefix, LIBDIR, "crawldb.so")))
        sqldir = run(["pkg-config", "--variable=sqldir", "crawldb"], env=env).strip()
        self.assertTrue(os.path.isfile(os.path.join(sqldir, "crawldb.sql")))
        self.assertEqual(run(["pkg-config", "--modversion", "crawldb"], env=env).strip(), VERSION)
        self.assertEqual(run(["pkg-config", "--cflags", "--libs", "crawldb"], env=env).strip(), "")


if __name__ == "__main__":
    unittest.main()
