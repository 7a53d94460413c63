#!/bin/sh
# Runs the seeding benchmark built in BUILD_DIR (default: build): paper 004's URLs seeded into the
# frontier by crawl_add, by INSERT INTO frontier and into urls alone, against the same model in
# plain SQLite tables filled set-wise; one markdown table. Builds nothing: build the
# seeding_benchmark target first. Arguments after BUILD_DIR go to the program: --urls=N
# (default 1,000,000), --seed=N, --tmpdir=DIR. --plot=PNG draws µs/URL by route (bench/plot.py).
#
#   bench/seeding.sh [BUILD_DIR [--plot=PNG] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done
program=$build_dir/bench/seeding_benchmark
if [ ! -x "$program" ]; then
  echo "seeding.sh: $program not found; build it: cmake --build $build_dir --target seeding_benchmark" >&2
  exit 1
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
plot_tee "$program" "$@"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
plot_table --label=route --values='µs/URL' \
  --title="seeding paper 004's URLs: µs per URL by route (lower is faster)"
