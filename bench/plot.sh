# Sourced by the bench/ scripts for their --plot=PNG option; bench/plot.py draws (and installs
# gnuplot when missing). A script that prints markdown tables:
#
#   for arg; do shift; plot_option "$arg" || set -- "$@" "$arg"; done  # takes --plot out
#   plot_tee "$program" "$@"     # shows the tables; with --plot also keeps a copy to draw from
#   plot_table --label=COLUMN --values=COLUMNS …   # draws them into $plot (nothing without it)
plot=""
plot_py=$(dirname "$0")/plot.py
plot_tables=${TMPDIR:-/tmp}/crawldb-plot.$$.md

# Sets plot=PATH and succeeds when $1 is --plot=PATH.
plot_option() {
  case $1 in
    --plot=*) plot=${1#--plot=} ;;
    *) return 1 ;;
  esac
}

# plot_tee COMMAND [ARGS...]: runs COMMAND; with --plot its output is also written to
# $plot_tables, which plot_table removes (and this function when COMMAND fails). Returns
# COMMAND's status (sh has no pipefail).
plot_tee() {
  if [ -z "$plot" ]; then
    "$@"
    return
  fi
  { plot_status=0; "$@" || plot_status=$?; echo "$plot_status" >"$plot_tables.status"; } |
    tee "$plot_tables"
  plot_status=$(cat "$plot_tables.status")
  rm -f "$plot_tables.status"
  [ "$plot_status" -eq 0 ] || rm -f "$plot_tables"
  return "$plot_status"
}

# plot_table OPTIONS...: bench/plot.py's table command on the tables plot_tee kept, into $plot.
plot_table() {
  [ -n "$plot" ] || return 0
  plot_status=0
  /usr/bin/python3 "$plot_py" table "$plot" --input="$plot_tables" "$@" || plot_status=$?
  rm -f "$plot_tables"
  return "$plot_status"
}

# plot_script [--size=WxH] < BODY: bench/plot.py's script command into $plot.
plot_script() {
  /usr/bin/python3 "$plot_py" script "$plot" "$@"
}
