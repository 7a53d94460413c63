#!/bin/sh
# Runs the codec benchmark built in BUILD_DIR (default: build) and prints a markdown table:
# bits/value, encode and decode ns/value per code and distribution, and decode time relative to
# LEB128 varint measured in the same run. Builds nothing: build the codecs_benchmark target first.
# Arguments after BUILD_DIR go to the benchmark, e.g. --benchmark_filter=zipf.
#
#   bench/codecs.sh [BUILD_DIR [BENCHMARK_ARGS...]]
set -eu

build_dir=${1:-build}
[ $# -gt 0 ] && shift
bench_dir=$(cd "$(dirname "$0")" && pwd)
program=$build_dir/bench/codecs_benchmark
if [ ! -x "$program" ]; then
  echo "codecs.sh: $program not found; build it: cmake --build $build_dir --target codecs_benchmark" >&2
  exit 1
fi

json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$program" --benchmark_format=json "$@" >"$json"
/usr/bin/python3 "$bench_dir/codecs_table.py" "$json"
