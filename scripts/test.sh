#!/usr/bin/env bash
# The README's test command: installs what is needed, builds, and runs every test, then lists the
# tests that skipped and why (scripts/skipped_tests.py).
#   scripts/test.sh [preset]    presets: release (default), asan (AddressSanitizer + UBSan)
# Under CI (CI=true) warnings are errors. Tests that read ../shared/data skip when it is missing,
# unless CRAWLDB_REQUIRE_SHARED_DATA=1 (.ci/run sets it): then they fail.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
scripts/install-deps.sh
if [ "${CI:-}" = "true" ]; then
  cmake --preset "$preset" -DCRAWLDB_WERROR=ON >/dev/null
fi
scripts/build.sh "$preset"
status=0
ctest --preset "$preset" || status=$?
/usr/bin/python3 scripts/skipped_tests.py "build/$preset"
exit "$status"
