#!/bin/sh
# Runs the links benchmark built in BUILD_DIR (default: build) and prints paper 001's Table 2 on
# cnr-2000 as markdown: bits/link by component, sequential and random-order scan ns/link and
# strongly connected components time for link1, link2, link3 and link3+huff, outlinks and
# inlinks, next to the paper's figures. Builds nothing: build the links_benchmark target first.
# Arguments after BUILD_DIR go to the program: --arcs=PATH (default: the shared cnr-2000 arcs),
# --repetitions=N (timings are medians of N runs, default 5), --seed=N (the random order).
# --plot=PNG draws bits/link and rand ns/link by codec, both directions (bench/plot.py).
#
#   bench/links.sh [BUILD_DIR [--plot=PNG] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done
program=$build_dir/bench/links_benchmark
if [ ! -x "$program" ]; then
  echo "links.sh: $program not found; build it: cmake --build $build_dir --target links_benchmark" >&2
  exit 1
fi
if ! command -v xz >/dev/null 2>&1; then
  echo "links.sh: xz not found; it reads the arcs file" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
plot_tee "$program" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
plot_table --label=codec --values=bits/link --values='rand ns/link' \
  --title="paper 001's Table 2 on cnr-2000: bits/link and random-order scan by codec"
