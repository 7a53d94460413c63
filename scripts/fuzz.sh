#!/usr/bin/env bash
# Fuzzes the targets of tests/fuzz/ (tests/README.md): builds them with clang's libFuzzer,
# AddressSanitizer and UBSan in build/fuzz, then runs each in turn for SECONDS (default 60).
#   scripts/fuzz.sh [SECONDS] [TARGET…]   TARGET: a folder name of tests/fuzz/corpus/ (all if none)
#   scripts/fuzz.sh --seeds [TARGET…]     rewrites the seeds in tests/fuzz/corpus/<target>/ from
#                                         the targets' own encoders (built in build/release)
# Each run starts from tests/fuzz/corpus/<target>/ (read, never written) and the inputs earlier
# runs found in build/fuzz/corpus/<target>/. A crash or a failed property stops the target,
# leaves its input in build/fuzz/findings/<target>/ and makes the script exit 1. Prints one line
# per target: executions, executions per second, coverage, the corpus size.
# Environment: JOBS (build jobs, default 2); everything runs under nice.
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets() { find tests/fuzz/corpus -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort; }
build_args() { for target in "$@"; do printf -- '--target %s_fuzz ' "$target"; done; }

if [ "${1:-}" = "--seeds" ]; then
  shift
  targets=("$@")
  [ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(all_targets)
  cmake --preset release >/dev/null
  # shellcheck disable=SC2046
  nice cmake --build build/release -j "${JOBS:-2}" $(build_args "${targets[@]}")
  for target in "${targets[@]}"; do
    "build/release/tests/fuzz/${target}_fuzz" --write-seeds "tests/fuzz/corpus/$target"
  done
  exit 0
fi

seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(all_targets)
cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 -DCRAWLDB_FUZZ=ON \
  -DCRAWLDB_SANITIZE=address,undefined -DCRAWLDB_BUILD_BENCHMARKS=OFF >/dev/null
# shellcheck disable=SC2046
nice cmake --build build/fuzz -j "${JOBS:-2}" $(build_args "${targets[@]}")

status=0
for target in "${targets[@]}"; do
  corpus="build/fuzz/corpus/$target"
  findings="build/fuzz/findings/$target"
  log="build/fuzz/$target.log"
  mkdir -p "$corpus" "$findings"
  if ! nice "build/fuzz/tests/fuzz/${target}_fuzz" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" \
    "$corpus" "tests/fuzz/corpus/$target" >"$log" 2>&1; then
    status=1
    echo "$target: FINDING — $(grep -m1 -E 'ERROR|FUZZ_CHECK|runtime error' "$log" || true)"
    echo "  log: $log; input: $(ls -t "$findings" | head -1)"
    continue
  fi
  runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$log")
  per_second=$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")
  coverage=$(grep -E '^#[0-9]+.*(DONE|pulse)' "$log" | tail -1 | grep -oE 'cov: [0-9]+' || true)
  echo "$target: $runs executions in ${seconds} s ($per_second/s), $coverage," \
    "corpus $(find "$corpus" -type f | wc -l) new + $(find "tests/fuzz/corpus/$target" -type f | wc -l)"
done
exit "$status"
