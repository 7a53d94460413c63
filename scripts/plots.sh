#!/usr/bin/env bash
# Regenerates the pictures README.md shows, into docs/img/: crawl_add's delay against the volume
# (bench/frontier.sh: crawldb, plain SQLite tables and PostgreSQL 15) and the urls table against
# its baselines (bench/urls.sh on paper 004's generated URLs alone). Both draw from data the
# project generates (bench/paper004_urls.h), never from ../shared/data, which must not go into
# the repository. Builds the module and the two programs (release preset) and runs them under
# nice. --quick runs both benchmarks 10× smaller (a few minutes instead of about 50); the pictures
# in the repository and the run that made them are named in bench/README.md ("pictures").
#
#   scripts/plots.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
quick=()
case "${1:-}" in
  --quick) quick=(--quick) ;;
  "") ;;
  *) echo "plots.sh: unknown argument $1; usage: scripts/plots.sh [--quick]" >&2; exit 2 ;;
esac

nice -n 10 scripts/build.sh release crawldb frontier_benchmark urls_benchmark
nice -n 10 bench/frontier.sh build/release --plot=docs/img/frontier_delay.png "${quick[@]}"
nice -n 10 bench/urls.sh build/release --plot=docs/img/urls_paper004.png --datasets=paper004 \
  "${quick[@]}"
