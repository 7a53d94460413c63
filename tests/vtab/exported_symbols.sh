#!/usr/bin/env bash
# Checks that crawldb.so defines exactly one dynamic symbol: sqlite3_crawldb_init.
set -euo pipefail
module="$1"
symbols=$(nm -D --defined-only "$module" | awk '{print $3}' | sort -u)
echo "defined dynamic symbols of $module:"
echo "$symbols"
if [ "$symbols" != "sqlite3_crawldb_init" ]; then
  echo "FAIL: expected only sqlite3_crawldb_init" >&2
  exit 1
fi
# And it calls SQLite only through the extension API: no libsqlite3 dependency.
if readelf -d "$module" | grep -q 'libsqlite3'; then
  echo "FAIL: $module links libsqlite3 directly" >&2
  exit 1
fi
echo "ok"
