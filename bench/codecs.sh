#!/bin/sh
# Runs the codec benchmark built in BUILD_DIR (default: build) and prints a markdown table:
# bits/value, encode and decode ns/value per code and distribution, and decode time relative to
# LEB128 varint measured in the same run. Builds nothing: build the codecs_benchmark target first.
# Arguments after BUILD_DIR go to the benchmark, e.g. --benchmark_filter=zipf, except
# --plot=PNG, which draws bits/value and decode ns/value by code and distribution (bench/plot.py).
#
#   bench/codecs.sh [BUILD_DIR [--plot=PNG] [BENCHMARK_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done
bench_dir=$(cd "$(dirname "$0")" && pwd)
program=$build_dir/bench/codecs_benchmark
if [ ! -x "$program" ]; then
  echo "codecs.sh: $program not found; build it: cmake --build $build_dir --target codecs_benchmark" >&2
  exit 1
fi

json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$program" --benchmark_format=json "$@" >"$json"
plot_tee /usr/bin/python3 "$bench_dir/codecs_table.py" "$json"
plot_table --label=code --series=distribution --values=bits/value --values='decode ns/value' \
  --title="integer codes of codecs/ over 2^20 values: size and decode time (varint is the baseline)"
