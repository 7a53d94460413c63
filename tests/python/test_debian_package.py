"""The Debian package that CPack makes of the build (cmake/crawldb_package.cmake), checked
without installing it: its control fields, its files (those of `cmake --install` under /usr,
the module stripped), that apt could install it here, and that the module unpacked from it
loads by name."""

import glob
import os
import re
import tempfile
import unittest

from installed_files import (BUILD_DIR, CPACK, LIBDIR, LOADED_OUTPUT, VERSION, expected_files,
                             files_below, is_stripped, load_by_name, run)


class DebianPackageTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.TemporaryDirectory(prefix="crawldb-deb-")
        config = os.path.join(BUILD_DIR, "CPackConfig.cmake")
        run([CPACK, "--config", config, "-B", cls.scratch.name])
        (cls.deb,) = glob.glob(os.path.join(cls.scratch.name, "crawldb_*.deb"))
        cls.root = os.path.join(cls.scratch.name, "root")
        run(["dpkg-deb", "--extract", cls.deb, cls.root])

    @classmethod
    def tearDownClass(cls):
        cls.scratch.cleanup()

    def field(self, name):
        return run(["dpkg-deb", "--field", self.deb, name]).strip()

    def test_file_name_and_control_fields(self):
        architecture = run(["dpkg", "--print-architecture"]).strip()
        self.assertEqual(os.path.basename(self.deb), f"crawldb_{VERSION}_{architecture}.deb")
        self.assertEqual(self.field("Package"), "crawldb")
        self.assertEqual(self.field("Version"), VERSION)
        self.assertEqual(self.field("Architecture"), architecture)
        # dpkg-shlibdeps names the packages of the shared libraries the module links.
        depends = {re.sub(r" \(.*\)$", "", name) for name in self.field("Depends").split(", ")}
        self.assertLessEqual({"libc6", "libstdc++6", "libabsl20220623", "libzstd1", "libpsl5",
                              "libidn2-0", "liburiparser1", "libxxhash0"}, depends)
        self.assertNotIn("libsqlite3-0", depends)

    def test_holds_what_cmake_install_does_under_usr(self):
        contents = run(["dpkg-deb", "--contents", self.deb]).splitlines()
        listed = {line.split()[-1] for line in contents if line.startswith("-")}
        self.assertEqual(listed, {"./usr/" + name for name in expected_files()})
        self.assertEqual(files_below(os.path.join(self.root, "usr")), expected_files())

    def test_module_is_stripped(self):
        self.assertTrue(is_stripped(os.path.join(self.root, "usr", LIBDIR, "crawldb.so")))

    def test_apt_could_install_it(self):
        # A simulation: resolves the dependencies against this system, installs nothing.
        plan = run(["apt-get", "install", "--simulate", "-o", "Debug::NoLocking=1", self.deb])
        self.assertRegex(plan, rf"(?m)^Inst crawldb .*{re.escape(VERSION)}")

    def test_unpacked_module_loads_by_name(self):
        self.assertRegex(load_by_name(os.path.join(self.root, "usr")), LOADED_OUTPUT)


if __name__ == "__main__":
    unittest.main()
