#!/bin/sh
# Runs the uniqueness benchmark built in BUILD_DIR (default: build): a stream of paper-004 URLs
# with repeats checked batch by batch by DRUM (paper 003's baseline, bench/baselines/drum.h) and by
# crawldb through SQL and through its C++ UrlStore; one markdown table. Builds nothing: build the
# uniqueness_benchmark target first. Arguments after BUILD_DIR go to the program: --urls=N
# (default 10,000,000), --batch=N (default 1,000,000), --seed=N, --tmpdir=DIR, --extension=PATH,
# --drum-ram-mib=N (default 64), --drum-buckets=N (default 64). --plot=PNG draws each system's
# checks/s (bench/plot.py).
#
#   bench/uniqueness.sh [BUILD_DIR [--plot=PNG] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done
program=$build_dir/bench/uniqueness_benchmark
if [ ! -x "$program" ]; then
  echo "uniqueness.sh: $program not found; build it: cmake --build $build_dir --target uniqueness_benchmark" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
plot_tee "$program" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
plot_table --label='data set' --log \
  --values='DRUM per batch,DRUM at full,crawldb SQL checks,crawldb C++' \
  --title="URL uniqueness checks/s: crawldb against DRUM (higher is faster)"
