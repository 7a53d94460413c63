#!/usr/bin/env bash
# Installs every Debian 12 package crawldb needs to build, test and benchmark. Does nothing
# when all are present, so the README's commands stay fast on a second run.
set -euo pipefail

packages=(
  build-essential g++ cmake ninja-build pkg-config git binutils xz-utils python3
  clang-format  # the format test (scripts/check_format.sh)
  libsqlite3-dev sqlite3
  libabsl-dev libgtest-dev libgmock-dev libbenchmark-dev libsqlitecpp-dev
  libxxhash-dev liburiparser-dev libpsl-dev libidn2-dev libzstd-dev
  python3.11-doc  # the site the quickstart and tests/python/test_crawl.py crawl
  python3-lxml    # examples/crawler.py's fast HTML parser (html.parser without it)
  dpkg-dev file   # the Debian package (CPack): dpkg-shlibdeps finds its dependencies
  python3-venv    # the wheel's test installs it in a venv (pip from ensurepip, nothing downloaded)
  gnuplot-nox     # the benchmarks' --plot (bench/plot.py) and its test
  libdqlite-dev   # crawldb-node, a dqlite node serving crawldb (built only when present)
  go-dqlite       # the dqlite shell, for ad-hoc SQL against a crawldb-node cluster
)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
