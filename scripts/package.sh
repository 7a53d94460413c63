#!/usr/bin/env bash
# Builds the module alone and packages it into build/<preset>/dist/: the Debian package (CPack,
# cmake/crawldb_package.cmake) and the Python wheel (bindings/python/build_wheel.py).
#   scripts/package.sh [preset]    (default: release)
# Then: sudo apt install ./build/release/dist/crawldb_*.deb, or in a venv:
# pip install build/release/dist/crawldb-*.whl
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
scripts/install-deps.sh
scripts/build.sh "$preset" crawldb_wheel
cpack --config "build/$preset/CPackConfig.cmake" -B "build/$preset/dist" >/dev/null
rm -rf "build/$preset/dist/_CPack_Packages"
ls "build/$preset"/dist/crawldb*.deb "build/$preset"/dist/crawldb*.whl
