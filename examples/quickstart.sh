#!/usr/bin/env bash
# The quickstart: loads the sample crawl shipped in examples/data (the Wikispeedia link graph,
# see examples/data/README.md) into a fresh database with crawldb, then shows sizes next to plain
# tables', the most linked pages, one page's links and the PageRank top 10.
#   examples/quickstart.sh [build dir]     (default: build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
xz -dc examples/data/wikispeedia.links.xz > "$work/wikispeedia.links"
sqlite3 "$work/quickstart.db" \
  ".load ${build}/crawldb" \
  ".parameter set :links '$work/wikispeedia.links'" \
  ".read examples/quickstart.sql"
