"""The benchmarks' pictures: gnuplot plumbing shared by every bench/ script's --plot=PNG.

gnuplot (Debian package gnuplot-nox) is installed with apt-get when missing. Pictures are PNGs
drawn by the pngcairo terminal, 800 × 500 unless a caller asks otherwise (a table's bar charts
get 260 pixels of height per line of panels when they have more than two lines).

Two commands, for the shell scripts (bench/plot.sh calls them; Python callers import `gnuplot`):

  plot.py script PNG [--size=WxH] < BODY
      draws a gnuplot script (no terminal or output lines: this command adds them).
  plot.py table PNG --input=FILE --label=COLUMN --values=COLUMN[,COLUMN...] [--values=...]
          [--series=COLUMN] [--ours=TEXT] [--log] [--title=TEXT] [--size=WxH]
      reads the markdown tables a benchmark printed (saved in FILE) and draws bar charts: every
      table holding the label and value columns gets one panel per --values, a group of bars
      per row named by its label column and one bar per value column, or, with --series, one
      bar per distinct value of that column (the codec table's distributions), horizontal, each
      ending in its figure. A column is named by the start of its header; a cell's figure is its
      leading number ("12.5 (31.0%)" is 12.5, "1,234" is 1234); "n/a" or "–" draws no bar, and a
      row without a figure is left out of the panel. With --ours, a panel of one bar per row
      draws the rows whose name starts with TEXT (crawldb's) in colour and the others grey.

Usage: /usr/bin/python3 bench/plot.py script|table PNG [OPTIONS...]
"""

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import textwrap

LEADING_NUMBER = re.compile(r"[*\s]*([0-9][0-9,]*(?:\.[0-9]+)?)")
OUR_COLOUR, BASELINE_COLOUR = 0x9400D3, 0xA0A0A0  # gnuplot's first colour; grey


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


def tick_label(text):
    """`text` wrapped to lines of at most 26 characters, as a double-quoted gnuplot string
    (without markdown's backquotes, which gnuplot would run as a command there)."""
    lines = textwrap.wrap(text.replace("`", ""), 26) or [""]
    return '"' + "\\n".join(line.replace("\\", "\\\\").replace('"', '\\"') for line in lines) + '"'


def figure_label(value):
    return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"


def bar_panels(png, title, panels, log=False, size=None, ours=None):
    """Draws one chart of horizontal bars per panel, two panels a line. A panel is (title,
    labels, series), series a list of (name, figures) with one figure per label (NaN: no bar);
    each bar ends with its figure, so the value axis has no tick labels. In a panel of one
    series, labels starting with `ours` are drawn in colour, the others grey."""
    columns = 1 if len(panels) == 1 else 2
    lines = math.ceil(len(panels) / columns)
    size = size or (800, max(500, 260 * lines))
    body = [f"set multiplot layout {lines},{columns} title {quoted(title)}",
            "set style fill solid border -1", "unset xtics", "set key below horizontal"]
    scale = " (log scale)" if log else ""
    if log:
        body.append("set logscale x")

    def drawn(value):  # NaN: never
        return value > 0 or (value == 0 and not log)

    for n, (panel_title, labels, series) in enumerate(panels):
        rows = [i for i in range(len(labels)) if any(drawn(values[i]) for _, values in series)]
        labels = [labels[i] for i in rows]
        series = [(name, [values[i] for i in rows]) for name, values in series]
        figures = [v for _, values in series for v in values if drawn(v)]
        # Bars start at 0, or on a log axis at the power of ten below the smallest figure.
        base = 10 ** math.floor(math.log10(min(figures, default=1))) if log else 0
        # Room right of the longest bar for its figure: a quarter of the axis.
        top = max(figures, default=1)
        end = top * (top / base) ** (1 / 3) if log else top * 4 / 3
        ticks = ", ".join(f"{tick_label(label)} {-i}" for i, label in enumerate(labels))
        body += [f"set title {quoted((panel_title + scale).strip())}",
                 f"set ytics ({ticks}) nomirror",
                 f"set xrange [{base}:{end}]",
                 f"set yrange [{0.5 - len(labels)}:0.5]",
                 "set key" if len(series) > 1 else "unset key"]
        height = 0.8 / len(series)  # the bars of a label share 0.8 of its line, first on top
        plots = []
        for s, (name, values) in enumerate(series):
            colours = [OUR_COLOUR if len(series) > 1 or not ours or label.startswith(ours)
                       else BASELINE_COLOUR for label in labels]
            bars = [f"{0.4 - height * (s + 0.5) - i} {v} \" {figure_label(v)}\" {colours[i]}"
                    for i, v in enumerate(values) if drawn(v)]
            if not bars:
                continue
            block = f"$panel{n}_{s}"
            body.append(f"{block} << EOD\n" + "\n".join(bars) + "\nEOD")
            # One series: each bar its colour (column 4); more: the default colour per series.
            colour = ":4 with boxxyerror lc rgb variable" if len(series) == 1 else \
                " with boxxyerror"
            plots += [f"{block} using 2:1:({base}):2:($1-{height / 2}):($1+{height / 2})"
                      f"{colour} title {quoted(name)}",
                      f"{block} using 2:1:3 with labels left notitle"]
        body.append("plot " + ", ".join(plots))
    body.append("unset multiplot")
    gnuplot(png, "\n".join(body), size)


def short_labels(labels):
    """Row names for the axis: a remark in parentheses is dropped from a name longer than 26
    characters when the shorter name stays unique."""
    short = [re.sub(r" \(.*\)$", "", label) if len(label) > 26 else label for label in labels]
    return [name if short.count(name) == 1 else label for name, label in zip(short, labels)]


def table_panels(text, args):
    """The panels of `args` in the tables of `text`, and the headings of those tables."""
    found = []  # (heading, column title, labels, series)
    for heading, header, rows in markdown_tables(text):
        label = column_index(header, args.label)
        series_column = column_index(header, args.series) if args.series else None
        if label is None or (args.series and series_column is None):
            continue
        labels = list(dict.fromkeys(row[label] for row in rows))
        for values in args.values:
            indexes = [column_index(header, name) for name in values.split(",")]
            if None in indexes:
                continue
            if series_column is None:
                series = [(header[i], [figure(row[i]) for row in rows]) for i in indexes]
            else:  # one series per distinct value of the series column, one value column
                series = []
                for name in dict.fromkeys(row[series_column] for row in rows):
                    cells = {row[label]: row[indexes[0]] for row in rows
                             if row[series_column] == name}
                    series.append((name, [figure(cells.get(row_name, "")) for row_name in labels]))
            column_title = header[indexes[0]] if len(indexes) == 1 else ""
            found.append((heading, column_title, short_labels(labels), series))
    headings = list(dict.fromkeys(heading for heading, *_ in found))
    panels = []
    for heading, column_title, labels, series in found:
        # One table: its heading goes in the picture's title. More: a short one in each panel's.
        named = re.sub(r" \(.*", "", heading) if len(headings) > 1 else ""
        panels.append((" — ".join(filter(None, [named, column_title])), labels, series))
    return headings, panels


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=["script", "table"])
    parser.add_argument("png")
    parser.add_argument("--size", default=None, help="WxH pixels")
    parser.add_argument("--input")
    parser.add_argument("--label")
    parser.add_argument("--values", action="append", default=[])
    parser.add_argument("--series")
    parser.add_argument("--ours")
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
        headings, panels = table_panels(f.read(), args)
    if not panels:
        sys.exit(f"plot.py: no table in {args.input} has the columns {args.label} and "
                 f"{' / '.join(args.values)}; nothing drawn")
    if len(headings) == 1:  # a path in it shows as its file name
        heading = re.sub(r"\S*/(\S+)", r"\1", headings[0])
        title = textwrap.shorten(": ".join(filter(None, [args.title, heading])), 120)
    else:
        title = args.title
    bar_panels(args.png, title, panels, args.log, size, args.ours)


if __name__ == "__main__":
    main()
