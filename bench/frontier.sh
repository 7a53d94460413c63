#!/bin/sh
# Runs the frontier benchmark built in BUILD_DIR (default: build): paper 004 §3's add delay for
# crawldb, plain SQLite tables and PostgreSQL 15, then crawldb's lease + confirm throughput; prints
# the markdown tables and draws the delay against the volume with gnuplot. Builds nothing: build
# the frontier_benchmark target first (it depends on crawldb).
#
# PostgreSQL: a private server is made for the run (initdb into a temporary folder, pg_ctl start
# on 127.0.0.1 and a free port; as the user postgres when run as root) and stopped and removed at
# the end, also on failure. Server settings: C locale, synchronous_commit=off (the counterpart of
# SQLite's synchronous=NORMAL in WAL mode), shared_buffers=1GB (SQLite gets a 1 GiB page cache),
# max_wal_size=4GB. bench/plot.py draws (and installs gnuplot when missing).
#
# Arguments after BUILD_DIR go to the program (--quick, --systems=crawldb,sqlite, --adds=N, …),
# except --plot=PATH, the PNG to write (default bench/out/frontier_delay.png).
#
#   bench/frontier.sh [BUILD_DIR [--plot=PATH] [PROGRAM_ARGS...]]
set -eu
. "$(dirname "$0")/plot.sh"

build_dir=${1:-build}
[ $# -gt 0 ] && shift
program=$build_dir/bench/frontier_benchmark
if [ ! -x "$program" ]; then
  echo "frontier.sh: $program not found; build it: cmake --build $build_dir --target frontier_benchmark" >&2
  exit 1
fi

postgres=yes
for arg; do
  shift
  plot_option "$arg" && continue
  case $arg in
    --systems=*) case $arg in *postgres*) ;; *) postgres=no ;; esac ;;
  esac
  set -- "$@" "$arg"
done
plot=${plot:-bench/out/frontier_delay.png}

work=$(mktemp -d "${TMPDIR:-/tmp}/crawldb-frontier.XXXXXX")
pg_bin=/usr/lib/postgresql/15/bin
pg_data=$work/pg
as_postgres=""
cleanup() {
  if [ -f "$pg_data/postmaster.pid" ]; then
    $as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ "$postgres" = yes ]; then
  if [ ! -x "$pg_bin/initdb" ]; then
    echo "frontier.sh: $pg_bin/initdb not found; install postgresql-15, or pass --systems=crawldb,sqlite" >&2
    exit 1
  fi
  if [ "$(id -u)" -eq 0 ]; then
    as_postgres="runuser -u postgres --"
    chown postgres "$work"
  fi
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  $as_postgres "$pg_bin/initdb" -D "$pg_data" -U postgres -A trust --locale=C -E UTF8 >"$work/initdb.log" 2>&1 ||
    { cat "$work/initdb.log" >&2; exit 1; }
  $as_postgres "$pg_bin/pg_ctl" -D "$pg_data" -l "$pg_data/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $pg_data -c synchronous_commit=off -c shared_buffers=1GB -c max_wal_size=4GB" \
    start >/dev/null || { cat "$pg_data/server.log" >&2; exit 1; }
  set -- "--postgres=host=127.0.0.1 port=$port user=postgres dbname=postgres" "$@"
fi

echo "machine: $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
"$program" "--data=$work/delay.tsv" "$@"
echo
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"

# One line per system that ran: a column holding numbers, not only NaN.
lines=""
for column in "2:crawldb" "3:crawldb, window medians of its runs" "4:SQLite tables" "5:PostgreSQL 15"; do
  n=${column%%:*}
  if awk -F'\t' -v n="$n" '!/^#/ && $n != "NaN" { found = 1 } END { exit !found }' "$work/delay.tsv"; then
    lines="$lines${lines:+, }'$work/delay.tsv' using (\$1/1e6):$n with linespoints title \"${column#*:}\""
  fi
done
plot_script <<EOF
set title "crawl_add: mean delay per window of adds (paper 004, section 3)"
set xlabel "URLs in the database (millions)"
set ylabel "microseconds per add (log scale)"
set logscale y
set grid
set key top left
set datafile separator "\t"
plot $lines
EOF
