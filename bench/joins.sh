#!/bin/sh
# Runs issue 18's join benchmark (bench/joins.py): every query of the join matrix in a fresh
# connection, crawldb's urls / outlinks / inlinks against plain SQLite tables, on Wikispeedia and
# cnr-2000 from ../shared/data. Builds nothing: build the module (the crawldb target) first.
# Arguments after BUILD_DIR go to the program: --datasets=wikispeedia,cnr-2000, --repeats=N,
# --tmpdir=DIR, --plot=PNG (the ratios by query; bench/plot.py).
#
#   bench/joins.sh [BUILD_DIR [PROGRAM_ARGS...]]
set -eu

build_dir=${1:-build}
[ $# -gt 0 ] && shift
module=$build_dir/crawldb.so
if [ ! -f "$module" ]; then
  echo "joins.sh: $module not found; build it: cmake --build $build_dir --target crawldb" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
/usr/bin/python3 "$(dirname "$0")/joins.py" --extension="$build_dir/crawldb" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
