#!/usr/bin/python3
"""Writes the crawldb wheel: the package crawldb/ (loadable_path(), load(conn)) with the built
module inside, for `pip install`. Standard library only, so it builds with nothing downloaded
(no build backend from PyPI): a wheel is a zip of the package and a dist-info folder (METADATA,
WHEEL, RECORD: PEP 427, PEP 491).

    bindings/python/build_wheel.py MODULE VERSION OUT_DIR

MODULE is the built crawldb.so, which goes in stripped of its debug information and symbol
table (binutils' strip, as the Debian package's copy); VERSION the project's (CMake's
PROJECT_VERSION; the target crawldb_wheel passes both). Prints the wheel's path:
OUT_DIR/crawldb-VERSION-py3-none-PLATFORM.whl.
The tag is py3-none: the module does not use Python's C API, only SQLite's routine table; the
platform is this machine's (linux_x86_64), and the module links the shared libraries of Debian
12 that scripts/install-deps.sh installs (Abseil, libzstd, libpsl, libidn2, liburiparser,
libxxhash).
"""

import base64
import hashlib
import os
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

PACKAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "crawldb")
# Fixed entry times, so that the same inputs give the same wheel.
ENTRY_TIME = (1980, 1, 1, 0, 0, 0)

METADATA = """\
Metadata-Version: 2.1
Name: crawldb
Version: {version}
Summary: SQLite extension: URL store, crawl frontier and compressed link graph as virtual tables
Requires-Python: >=3.7
Description-Content-Type: text/plain

crawldb keeps what a web crawler and a web-graph analyst need (the set of URLs, the crawl
frontier and the link graph) compressed in one SQLite database file, queryable with plain SQL.

    import sqlite3, crawldb
    db = sqlite3.connect("crawl.db")
    crawldb.load(db)

crawldb.loadable_path() is the module's path, for other SQLite clients.
"""

WHEEL = """\
Wheel-Version: 1.0
Generator: crawldb bindings/python/build_wheel.py
Root-Is-Purelib: false
Tag: {tag}
"""


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}\n"


def add(wheel, name, data, mode=0o644):
    info = zipfile.ZipInfo(name, ENTRY_TIME)
    info.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
    info.compress_type = zipfile.ZIP_DEFLATED
    wheel.writestr(info, data)


def stripped(module):
    """The bytes of `module` without its debug information and symbol table."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "crawldb.so")
        subprocess.run(["strip", "--strip-unneeded", "-o", copy, module], check=True)
        with open(copy, "rb") as source:
            return source.read()


def build(module, version, out_dir):
    tag = "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
    dist_info = f"crawldb-{version}.dist-info"
    with open(os.path.join(PACKAGE, "__init__.py"), "rb") as source:
        init = source.read()
    so = stripped(module)
    files = [
        ("crawldb/__init__.py", init, 0o644),
        ("crawldb/crawldb.so", so, 0o755),
        (f"{dist_info}/METADATA", METADATA.format(version=version).encode(), 0o644),
        (f"{dist_info}/WHEEL", WHEEL.format(tag=tag).encode(), 0o644),
    ]
    record = "".join(record_line(name, data) for name, data, _ in files)
    record += f"{dist_info}/RECORD,,\n"
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"crawldb-{version}-{tag}.whl")
    with zipfile.ZipFile(path, "w") as wheel:
        for name, data, mode in files:
            add(wheel, name, data, mode)
        add(wheel, f"{dist_info}/RECORD", record.encode())
    return path


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print(build(*argv[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
