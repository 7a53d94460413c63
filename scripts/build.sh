#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release) into build/<preset>: every target, or
# only the targets named after the preset (scripts/build.sh release crawldb: the module alone).
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
cmake --preset "$preset" >/dev/null
targets=()
for target in "$@"; do
  targets+=(--target "$target")
done
cmake --build --preset "$preset" "${targets[@]}"
