"""What `cmake --install` and the Debian package hold (cmake/crawldb_install.cmake), for the
package tests, and how they run a program against the build: the module, the SQL files and the
documentation under a prefix, the module in the multiarch library folder."""

import os
import re
import subprocess
import sysconfig

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BUILD_DIR = os.environ["CRAWLDB_BUILD_DIR"]
VERSION = os.environ["CRAWLDB_VERSION"]  # the project's, as CMake has it
CMAKE = os.environ["CRAWLDB_CMAKE"]
CPACK = os.environ["CRAWLDB_CPACK"]
SQLITE3 = os.environ["CRAWLDB_SQLITE3"]
# Debian's Python knows the multiarch tuple (x86_64-linux-gnu); dlopen searches
# /usr/lib/<tuple>, which is why the module goes there.
LIBDIR = "lib/" + sysconfig.get_config_var("MULTIARCH")
DOCDIR = "share/doc/crawldb"
EXAMPLES = ["crawler.py", "page_links.py", "sample_links.py", "analysis.sql", "quickstart.sql"]


def files_below(folder):
    """Every file below `folder`, relative to it."""
    found = set()
    for root, _, names in os.walk(folder):
        for name in names:
            found.add(os.path.relpath(os.path.join(root, name), folder))
    return found


def expected_files():
    """The files an install puts under its prefix, relative to it."""
    expected = {f"{LIBDIR}/crawldb.so", f"{LIBDIR}/pkgconfig/crawldb.pc",
                f"{DOCDIR}/README.md", f"{DOCDIR}/ARCHITECTURE.md"}
    expected |= {f"share/crawldb/{name}" for name in files_below(os.path.join(REPO, "sql"))}
    expected |= {f"{DOCDIR}/{name}" for name in files_below(os.path.join(REPO, "docs"))}
    expected |= {f"{DOCDIR}/examples/{name}" for name in EXAMPLES}
    return expected


def run(command, **kwargs):
    """Runs `command`; its standard output, or a failure showing what it printed."""
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited with {done.returncode}:\n"
                             f"{done.stdout}{done.stderr}")
    return done.stdout


def is_stripped(module):
    """Whether the shared object `module` keeps its dynamic symbols alone: no debug information,
    no symbol table."""
    headers = run(["readelf", "--section-headers", "--wide", module])
    sections = set(re.findall(r"\] (\.\S+)", headers))
    return ".dynsym" in sections and not sections & {".debug_info", ".symtab"}


def load_by_name(prefix):
    """The sqlite3 shell loads `crawldb` with no path, finding the module in prefix/lib/<multiarch>
    as dlopen finds it in /usr/lib/<multiarch>, creates the tables with the installed
    crawldb.sql and uses them; returns what it printed."""
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(prefix, LIBDIR))
    return run([SQLITE3, ":memory:", ".load crawldb",
                ".read " + os.path.join(prefix, "share/crawldb/crawldb.sql"),
                "INSERT INTO urls(url) VALUES ('HTTP://Example.com:80/a/../b')",
                "SELECT crawldb_version(), url, crawldb_check() FROM urls"], env=env)


# What load_by_name prints when the installed module is this build's.
LOADED_OUTPUT = rf"^{re.escape(VERSION)}\+([0-9a-f]{{12}}|unknown)\|http://example\.com/b\|ok\n$"
