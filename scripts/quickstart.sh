#!/usr/bin/env bash
# The README's main command: installs what is needed, builds the crawldb module alone (not the
# tests and benchmarks, which scripts/test.sh builds), and runs the quickstart: a crawl of the
# Python documentation served on 127.0.0.1, then SQL on it (examples/quickstart.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release crawldb
examples/quickstart.sh build/release
