#!/usr/bin/env bash
# Loads crawldb into the sqlite3 shell and shows what build it is.
#   examples/quickstart.sh [build dir]     (default: build/release)
set -euo pipefail
build="${1:-build/release}"
sqlite3 :memory: ".load ${build}/crawldb" \
  "SELECT 'crawldb ' || crawldb_version();" \
  "SELECT crawldb_debug();"
