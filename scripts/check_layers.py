#!/usr/bin/env python3
"""Checks that every include of codecs/ and extension/ looks down the layers (the `layers` test).

The layers, lowest first, and what a file of each may include besides its own layer:

  codecs      codecs/                                   —
  containers  extension/containers/                     —
  identity    extension/identity/                       —
  graph       extension/graph/ (graph algorithms over   —
              any source of adjacency lists)
  stores      the SQLite-free stores: STORE_SOURCES of   codecs, containers, identity, graph
              extension/CMakeLists.txt, their headers,
              and STORE_HEADERS below
  common      extension/common/ (the SQLite boundary)    —
  tables      the rest of extension/<family>/: tables,   common, stores, identity, containers,
              cursors, SQL functions                     codecs, graph
  entry       extension/entry.cc                         everything

A store includes only stores of its own family; a table includes tables of its own family, and of
another family only the interfaces in FAMILY_INTERFACES. Only extension/common/sqlite_api.h (and
entry.cc, which holds SQLITE_EXTENSION_INIT1) include SQLite's headers.
Usage: scripts/check_layers.py [REPO_ROOT]; prints each violation and exits 1 when there is one.
"""

import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1])

ALLOWED = {
    "codecs": {"codecs"},
    "containers": {"containers"},
    "identity": {"identity"},
    "graph": {"graph"},
    "stores": {"stores", "codecs", "containers", "identity", "graph"},
    "common": {"common"},
    "tables": {"tables", "common", "stores", "identity", "containers", "codecs", "graph"},
    "entry": {"entry", "tables", "common", "stores", "identity", "containers", "codecs", "graph"},
}

# Header-only stores (no .cc in STORE_SOURCES).
STORE_HEADERS = {"extension/frontier/frontier_parts.h"}

# The interfaces one family offers the others (each implemented by a table of its family, found
# through Connection::ConnectAs): a table includes another family's files only through these.
FAMILY_INTERFACES = {
    "extension/urls/url_ids.h",  # UrlIds: URL ↔ id, live ids (links, frontier)
    "extension/links/link_target.h",  # LinkTarget: where crawl_add records links (frontier)
}

SQLITE_HEADERS = {"sqlite3.h", "sqlite3ext.h"}
SQLITE_GATES = {"extension/common/sqlite_api.h", "extension/entry.cc"}
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def store_files():
    cmake = (ROOT / "extension" / "CMakeLists.txt").read_text()
    block = re.search(r"set\(STORE_SOURCES(.*?)\)", cmake, re.S)
    if block is None:
        sys.exit("check_layers: no set(STORE_SOURCES …) in extension/CMakeLists.txt")
    stores = set(STORE_HEADERS)
    for source in block.group(1).split():
        stores.add(f"extension/{source}")
        header = f"extension/{source[:-3]}.h"
        if (ROOT / header).exists():
            stores.add(header)
    return stores


def layer_of(path, stores):
    if path.startswith("codecs/"):
        return "codecs"
    if path == "extension/entry.cc":
        return "entry"
    if path in stores:
        return "stores"
    for layer in ("containers", "identity", "graph", "common"):
        if path.startswith(f"extension/{layer}/"):
            return layer
    return "tables"


def family_of(path):
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[1] in ("urls", "links", "frontier") else None


def violations():
    stores = store_files()
    files = sorted(p for folder in ("codecs", "extension")
                   for p in (ROOT / folder).rglob("*") if p.suffix in (".h", ".cc"))
    found = []
    for file in files:
        path = file.relative_to(ROOT).as_posix()
        layer = layer_of(path, stores)
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(2)
            where = f"{path}:{number}: includes {target}"
            if pathlib.PurePosixPath(target).name in SQLITE_HEADERS and path not in SQLITE_GATES:
                found.append(f"{where}: SQLite is reached through extension/common/sqlite_api.h")
                continue
            if match.group(1) == "<" or not target.startswith(("codecs/", "extension/")):
                continue
            target_layer = layer_of(target, stores)
            if target_layer not in ALLOWED[layer]:
                found.append(f"{where}: a {layer} file includes only "
                             f"{', '.join(sorted(ALLOWED[layer]))}, not {target_layer}")
            elif (layer == target_layer and layer in ("stores", "tables")
                  and family_of(path) != family_of(target)
                  and target not in FAMILY_INTERFACES):
                found.append(f"{where}: one family's {layer} include another's "
                             "only through its interfaces (FAMILY_INTERFACES)")
    return found


def main():
    found = violations()
    for line in found:
        print(line)
    print(f"layers: {len(found)} violations")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
