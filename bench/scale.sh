#!/bin/sh
# Runs the scale benchmark built in BUILD_DIR (default: build): crawldb's crawl_add delay, file
# bytes/URL and RSS per window of URLs up to --urls (default 100,000,000), a new process's open +
# first lease, cold look-ups and 4 leasing processes at 1 M, 10 M and 100 M, and paper 004's model
# as plain SQLite tables up to --plain-max; then, when BUILD_DIR/bench/uniqueness_benchmark is
# built, DRUM against crawldb on the same number of URLs. Prints the markdown tables; with
# --plot=PATH also draws µs/add and bytes/URL against URLs (gnuplot, log scales). Builds nothing:
# build the scale_benchmark target first (it depends on crawldb). bench/plot.py draws (and
# installs gnuplot when missing).
#
# Arguments after BUILD_DIR go to the program (--urls=N, --window=N, --lease-seconds=N,
# --plain-max=N, --tmpdir=DIR, --keep, …), except --plot=PATH.
#
#   bench/scale.sh [BUILD_DIR [--plot=PATH] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
program=$build_dir/bench/scale_benchmark
if [ ! -x "$program" ]; then
  echo "scale.sh: $program not found; build it: cmake --build $build_dir --target scale_benchmark" >&2
  exit 1
fi

urls=100000000
tmpdir=${TMPDIR:-/tmp}
for arg; do
  shift
  plot_option "$arg" && continue
  case $arg in
    --urls=*) urls=${arg#--urls=} ;;
    --tmpdir=*) tmpdir=${arg#--tmpdir=} ;;
  esac
  set -- "$@" "$arg"
done

work=$(mktemp -d "$tmpdir/crawldb-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

echo "machine: $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
"$program" "--data=$work/scale.tsv" "$@"

uniqueness=$build_dir/bench/uniqueness_benchmark
echo
if [ -x "$uniqueness" ]; then
  "$uniqueness" "--urls=$urls" "--tmpdir=$tmpdir"
else
  echo "uniqueness (DRUM against crawldb): $uniqueness not built; not run"
fi
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

[ -n "$plot" ] || exit 0
# One line per column holding numbers, not only NaN (no plain run: no plain lines).
delay=""
bytes=""
for column in "2:1:crawldb µs/add (median)" "4:1:plain SQLite µs/add (median)" \
  "3:2:crawldb bytes/URL" "5:2:plain SQLite bytes/URL"; do
  n=${column%%:*}
  rest=${column#*:}
  panel=${rest%%:*}
  if awk -F'\t' -v n="$n" '!/^#/ && $n != "NaN" { found = 1 } END { exit !found }' "$work/scale.tsv"; then
    line="'$work/scale.tsv' using (\$1/1e6):$n with linespoints title \"${rest#*:}\""
    if [ "$panel" = 1 ]; then delay="$delay${delay:+, }$line"; else bytes="$bytes${bytes:+, }$line"; fi
  fi
done
plot_script --size=800x800 <<EOF
set multiplot layout 2,1 title "crawldb at scale: paper 004's URLs, 100,000 adds per transaction"
set datafile separator "\t"
set logscale xy
set grid
set key top left
set xlabel "URLs in the database (millions, log scale)"
set ylabel "median microseconds per add (log scale)"
plot ${delay:-1/0 notitle}
set ylabel "file bytes per URL, database + WAL (log scale)"
plot ${bytes:-1/0 notitle}
unset multiplot
EOF
