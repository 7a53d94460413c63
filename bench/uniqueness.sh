#!/bin/sh
# Runs the uniqueness benchmark built in BUILD_DIR (default: build): a stream of paper-004 URLs
# with repeats checked batch by batch by DRUM (paper 003's baseline, bench/baselines/drum.h) and by
# crawldb through SQL and through its C++ UrlStore; one markdown table. Builds nothing: build the
# uniqueness_benchmark target first. Arguments after BUILD_DIR go to the program: --urls=N
# (default 10,000,000), --batch=N (default 1,000,000), --seed=N, --tmpdir=DIR, --extension=PATH,
# --drum-ram-mib=N (default 64), --drum-buckets=N (default 64).
#
#   bench/uniqueness.sh [BUILD_DIR [PROGRAM_ARGS...]]
set -eu

build_dir=${1:-build}
[ $# -gt 0 ] && shift
program=$build_dir/bench/uniqueness_benchmark
if [ ! -x "$program" ]; then
  echo "uniqueness.sh: $program not found; build it: cmake --build $build_dir --target uniqueness_benchmark" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
"$program" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
