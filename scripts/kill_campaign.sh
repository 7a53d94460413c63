#!/usr/bin/env bash
# The kill campaign (tests/README.md, "The kill campaign"): KILLS (default 1000) SIGKILLs, at
# random instants, of a writer doing mixed work on the four tables of one file, each followed by
# a check of the file; prints the summary (kills, time, transactions acknowledged, lost, check
# failures, where the kills landed) and exits 1 at the first failure, naming it.
#   scripts/kill_campaign.sh [KILLS] [--folder DIR] [--seed S]
# Runs under nice on build/release's module (CRAWLDB_BUILD_DIR=DIR for another build); the file
# lives in a temporary folder, removed when the campaign passes, or in --folder DIR (kept).
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-1000}"
shift || true
build="${CRAWLDB_BUILD_DIR:-build/release}"
if [ ! -f "$build/crawldb.so" ]; then
  echo "kill_campaign.sh: $build/crawldb.so is missing; build it first:" \
       "cmake --preset release && cmake --build --preset release" >&2
  exit 2
fi
exec nice /usr/bin/python3 tests/reliability/kill_campaign.py "$kills" \
  --extension "$build/crawldb.so" "$@"
