#!/bin/sh
# Runs the seeding benchmark built in BUILD_DIR (default: build): paper 004's URLs seeded into the
# frontier by crawl_add, by INSERT INTO frontier and into urls alone, against the same model in
# plain SQLite tables filled set-wise; one markdown table. Builds nothing: build the
# seeding_benchmark target first. Arguments after BUILD_DIR go to the program: --urls=N
# (default 1,000,000), --seed=N, --tmpdir=DIR.
#
#   bench/seeding.sh [BUILD_DIR [PROGRAM_ARGS...]]
set -eu

build_dir=${1:-build}
[ $# -gt 0 ] && shift
program=$build_dir/bench/seeding_benchmark
if [ ! -x "$program" ]; then
  echo "seeding.sh: $program not found; build it: cmake --build $build_dir --target seeding_benchmark" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
"$program" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
