"""The benchmarks' pictures: gnuplot plumbing shared by every bench/ script's --plot=PNG.

gnuplot (Debian package gnuplot-nox) is installed with apt-get when missing. Pictures are PNGs
drawn by the pngcairo terminal, 800 × 500 unless a caller asks otherwise (a table's bar charts
get 260 pixels of height per line of panels when they have more than two lines).

Two commands, for the shell scripts (Python callers import `gnuplot` and `bar_panels`):

  plot.py script PNG [--size=WxH] < BODY
      draws a gnuplot script (no terminal or output lines: this command adds them).
  plot.py table PNG --input=FILE --label=COLUMN --values=COLUMN[,COLUMN...] [--values=...]
          [--series=COLUMN] [--tables=TEXT] [--log] [--title=TEXT] [--size=WxH]
      reads the markdown tables a benchmark printed (saved in FILE) and draws bar charts: every
      table holding the label and value columns (whose heading line contains TEXT, if given)
      gets one panel per --values, a bar group per row named by its label column and one bar per
      value column, or, with --series, one bar per distinct value of that column (the codec
      table's distributions). A column is named by the start of its header; a cell's figure is
      its leading number ("12.5 (31.0%)" is 12.5, "1,234" is 1234); "n/a" or "–" draws no bar.

Usage: /usr/bin/python3 bench/plot.py script|table PNG [OPTIONS...]
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

LEADING_NUMBER = re.compile(r"[*\s]*([0-9][0-9,]*(?:\.[0-9]+)?)")


def ensure_gnuplot():
    if shutil.which("gnuplot"):
        return
    print("plot.py: installing gnuplot-nox", file=sys.stderr)
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    install = sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "gnuplot-nox"]
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    if subprocess.run(install, env=env, stdout=sys.stderr).returncode != 0:
        subprocess.run(sudo + ["apt-get", "update", "-qq"], env=env, stdout=sys.stderr, check=True)
        subprocess.run(install, env=env, stdout=sys.stderr, check=True)


def quoted(text):
    """`text` as a gnuplot string in single quotes (where '' stands for a quote)."""
    return "'" + text.replace("'", "''") + "'"


def gnuplot(png, body, size=(800, 500)):
    """Draws `body` (gnuplot commands) into the PNG `png`, making its folder."""
    ensure_gnuplot()
    os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
    script = (f"set terminal pngcairo size {size[0]},{size[1]} noenhanced font ',9'\n"
              f"set output {quoted(png)}\n{body}\n")
    if subprocess.run(["gnuplot"], input=script, text=True).returncode != 0:
        sys.exit(f"plot.py: gnuplot could not draw {png} (its message is above)")
    print(f"plot: {png}")


def markdown_tables(text):
    """Yields (heading, header cells, rows of cells) for each markdown table in `text`; the
    heading is the last line starting with '#' above the table ('' when none)."""
    heading, table = "", []
    for line in text.splitlines() + [""]:
        if line.startswith("|"):
            table.append([cell.strip() for cell in line.strip().strip("|").split("|")])
            continue
        if len(table) > 2:
            yield heading, table[0], table[2:]
        table = []
        if line.startswith("#"):
            heading = line.lstrip("#").strip()


def figure(cell):
    match = LEADING_NUMBER.match(cell)
    return float(match.group(1).replace(",", "")) if match else math.nan


def column_index(header, name):
    for i, cell in enumerate(header):
        if cell.startswith(name):
            return i
    return None


def bar_panels(png, title, panels, log=False, size=None):
    """Draws one bar chart per panel, two panels a line. A panel is (title, labels, series),
    series a list of (name, figures) with one figure per label (NaN: no bar)."""
    columns = 1 if len(panels) == 1 else 2
    lines = math.ceil(len(panels) / columns)
    size = size or (800, max(500, 260 * lines))
    work = tempfile.mkdtemp(prefix="crawldb-plot-")
    try:
        body = [f"set multiplot layout {lines},{columns} "
                f"title {quoted(title)}",
                "set style data histograms", "set style histogram clustered gap 1",
                "set style fill solid border -1", "set grid ytics",
                "set key top right horizontal", "set datafile missing 'NaN'",
                "set yrange [0:*]", "set offsets 0, 0, graph 0.15, 0"]
        if log:
            body += ["set logscale y", "set yrange [*:*]", "set offsets 0, 0, 0, 0"]
        for n, (panel_title, labels, series) in enumerate(panels):
            data = os.path.join(work, f"panel{n}.tsv")
            ticks = [textwrap.wrap(label, 16) or [""] for label in labels]
            with open(data, "w", encoding="utf-8") as f:
                f.write("\t".join(["label"] + [name for name, _ in series]) + "\n")
                for i, tick in enumerate(ticks):
                    cells = ['"' + "\\n".join(tick) + '"'] + [str(v[i]) for _, v in series]
                    f.write("\t".join(cells) + "\n")
            key = "set key" if len(series) > 1 else "unset key"
            # Room under the panel for its tallest wrapped label.
            bmargin = max(len(tick) for tick in ticks) + 1
            body += [f"set title {quoted(panel_title)}", key, f"set bmargin {bmargin}",
                     "set datafile separator '\\t'",
                     f"plot for [c=2:{len(series) + 1}] {quoted(data)} using c:xtic(1) "
                     "title columnheader"]
        body.append("unset multiplot")
        gnuplot(png, "\n".join(body), size)
    finally:
        shutil.rmtree(work)


def table_panels(text, args):
    panels = []
    for heading, header, rows in markdown_tables(text):
        if args.tables and args.tables not in heading:
            continue
        label = column_index(header, args.label)
        series_column = column_index(header, args.series) if args.series else None
        for values in args.values:
            indexes = [column_index(header, name) for name in values.split(",")]
            if label is None or None in indexes or (args.series and series_column is None):
                continue
            labels = list(dict.fromkeys(row[label] for row in rows))
            if series_column is None:
                series = [(header[i], [figure(row[i]) for row in rows]) for i in indexes]
            else:  # one series per distinct value of the series column, one value column
                series = []
                for name in dict.fromkeys(row[series_column] for row in rows):
                    cells = {row[label]: row[indexes[0]] for row in rows
                             if row[series_column] == name}
                    series.append((name, [figure(cells.get(l, "")) for l in labels]))
            panel_title = header[indexes[0]] if len(indexes) == 1 else ""
            panels.append((" — ".join(filter(None, [heading, panel_title])), labels, series))
    return panels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["script", "table"])
    parser.add_argument("png")
    parser.add_argument("--size", default=None, help="WxH pixels")
    parser.add_argument("--input")
    parser.add_argument("--label")
    parser.add_argument("--values", action="append", default=[])
    parser.add_argument("--series")
    parser.add_argument("--tables")
    parser.add_argument("--log", action="store_true")
    parser.add_argument("--title", default="")
    args = parser.parse_args()
    size = tuple(int(n) for n in args.size.split("x")) if args.size else None
    if args.command == "script":
        gnuplot(args.png, sys.stdin.read(), size or (800, 500))
        return
    if not (args.input and args.label and args.values):
        parser.error("table needs --input, --label and --values")
    with open(args.input, encoding="utf-8") as f:
        panels = table_panels(f.read(), args)
    if not panels:
        sys.exit(f"plot.py: no table in {args.input} has the columns {args.label} and "
                 f"{' / '.join(args.values)}; nothing drawn")
    bar_panels(args.png, args.title, panels, args.log, size)


if __name__ == "__main__":
    main()
