#!/usr/bin/env bash
# The README's test command: installs what is needed, builds, and runs every test.
#   scripts/test.sh [preset]    presets: release (default), asan (AddressSanitizer + UBSan)
# Under CI (CI=true) warnings are errors.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
scripts/install-deps.sh
if [ "${CI:-}" = "true" ]; then
  cmake --preset "$preset" -DCRAWLDB_WERROR=ON >/dev/null
fi
scripts/build.sh "$preset"
ctest --preset "$preset"
