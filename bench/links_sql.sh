#!/bin/sh
# Runs the link tables' SQL benchmark built in BUILD_DIR (default: build) and prints one markdown
# table: crawldb's outlinks / inlinks against a plain SQLite edges table with both indexes, on
# cnr-2000 — bits/link as the file pays it, load, full scan, and out- and in-list look-ups — then
# a second: pagerank() against sql/recipes/pagerank.sql and against the same C++ over the plain
# table, and scc().
# Builds nothing: build the links_sql_benchmark target first. Arguments after BUILD_DIR go to
# the program: --arcs=PATH, --codec=NAME, --lookups=N, --repetitions=N, --seed=N, --tmpdir=DIR,
# --recipe=PATH.
# --plot=PNG draws crawldb ÷ plain per measure (bench/plot.py).
#
#   bench/links_sql.sh [BUILD_DIR [--plot=PNG] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done
program=$build_dir/bench/links_sql_benchmark
if [ ! -x "$program" ]; then
  echo "links_sql.sh: $program not found; build it: cmake --build $build_dir --target links_sql_benchmark" >&2
  exit 1
fi
if ! command -v xz >/dev/null 2>&1; then
  echo "links_sql.sh: xz not found; it reads the arcs file" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
plot_tee "$program" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
plot_table --label=measure --values='crawldb ÷ plain' --log \
  --title="crawldb ÷ a plain edges table through SQL (below 1 is better)"
