#!/bin/sh
# Runs the urls benchmark built in BUILD_DIR (default: build) on both data sets (the reddit URLs
# and 2,000,000 URLs generated as paper 004 §3 describes) and prints one markdown table per data
# set, with the issue's targets below each table. Builds nothing: build the urls_benchmark target
# first (it depends on crawldb). Arguments after BUILD_DIR go to the program, e.g. --quick
# (200,000 generated URLs), --reddit=PATH, --lookups=N, --datasets=reddit. --plot=PNG draws
# bytes/URL, insert URLs/s and look-up µs by structure, per data set (bench/plot.py).
#
#   bench/urls.sh [BUILD_DIR [--plot=PNG] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done
program=$build_dir/bench/urls_benchmark
if [ ! -x "$program" ]; then
  echo "urls.sh: $program not found; build it: cmake --build $build_dir --target urls_benchmark" >&2
  exit 1
fi
for tool in xz gzip; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "urls.sh: $tool not found; it reads the reddit set and is a baseline" >&2
    exit 1
  fi
done

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
plot_tee "$program" "$@"
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
plot_table --label=structure --ours=crawldb --values=bytes/URL --values='insert URLs/s' \
  --values='URL→id µs' --values='id→URL µs' \
  --title="the urls table against a plain SQLite table and paper 000's tree"
