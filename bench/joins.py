"""Issue 18's join benchmark: every query of the join matrix (tests/python/join_matrix.py) in a
freshly opened connection, crawldb's urls / outlinks / inlinks against plain SQLite tables with
the same ids and arcs (plain_urls with its UNIQUE url and host indexes; edges with PRIMARY
KEY(src, dst) and an index on (dst, src)), in one database file per data set:

- wikispeedia: ../shared/data/wikispeedia/links.tsv.xz as https://en.wikipedia.org/wiki/ URLs,
  inserted through SQL (4,589 URLs, 119,769 links);
- cnr-2000: ../shared/data/cnr-2000/cnr-2000.arcs.tsv.xz (325,557 nodes, 3,216,152 arcs) loaded by
  crawldb_import_arcs, node n named http://hN.cnr-2000.example/pM/n with N = n / 1000 and
  M = n / 100 (the data set has no URLs; these give urls its size and hosts their pages).

Both are optimized (crawldb_optimize) before they are timed. For each query and system:
`first` is the time of the first run in a new connection (what an analyst who opens the file
waits: it includes crawldb reading its stores, issue 13's part), `repeat` the best of --repeats
further runs in that connection. A query is measured in several new connections, crawldb's and
the plain form's in turn, as many as fit in --budget seconds (at least one, at most --samples):
`first` is the median of their first runs, `repeat` the best of all repeats, so that a point
query's figures, a fraction of a millisecond, are not one sample's noise. The ratio is
crawldb / plain; the issue's target is ≤ 2 for every query. The plan column says whether crawldb's plan in the fresh connection is the pinned
one and nests no full scan.

Usage: /usr/bin/python3 bench/joins.py [--extension=PATH] [--data=DIR] [--datasets=a,b]
       [--repeats=N] [--samples=N] [--budget=S] [--tmpdir=DIR] [--plot=PNG]
"""

import argparse
import lzma
import os
import shutil
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "python"))
import join_matrix  # noqa: E402
import plot  # noqa: E402  (bench/plot.py, beside this file)

WIKI = "https://en.wikipedia.org/wiki/"


def build_wikispeedia(db, data):
    links = []
    with lzma.open(os.path.join(data, "wikispeedia", "links.tsv.xz"), "rt",
                   encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                source, destination = line.split("\t")
                links.append((WIKI + source, WIKI + destination))
    db.execute("BEGIN")
    db.execute("CREATE TEMP TABLE staging(src TEXT, dst TEXT)")
    db.executemany("INSERT INTO staging VALUES (?, ?)", links)
    db.execute("INSERT OR IGNORE INTO urls(url) SELECT src FROM staging "
               "UNION ALL SELECT dst FROM staging")
    db.execute("INSERT OR IGNORE INTO outlinks(src, dst) "
               "SELECT url_id(src), url_id(dst) FROM staging")
    db.execute("DROP TABLE temp.staging")
    db.execute("COMMIT")
    return WIKI + "France"


def build_cnr(db, data, tmpdir):
    # Node n becomes URL id n + 1 (URLs inserted in node order into an empty table).
    arcs = os.path.join(tmpdir, "cnr-shifted.arcs")
    nodes = 0
    with lzma.open(os.path.join(data, "cnr-2000", "cnr-2000.arcs.tsv.xz"), "rt") as source, \
            open(arcs, "w") as target:
        for line in source:
            src, dst = line.split()
            nodes = max(nodes, int(src) + 1, int(dst) + 1)
            target.write(f"{int(src) + 1}\t{int(dst) + 1}\n")
    db.execute("BEGIN")
    db.executemany("INSERT INTO urls(url) VALUES (?)",
                   ((f"http://h{n // 1000}.cnr-2000.example/p{n // 100}/{n}",) for n in range(nodes)))
    db.execute("COMMIT")
    db.execute("SELECT crawldb_import_arcs(?)", (arcs,))
    os.remove(arcs)
    # The page: the 100th most linked one (a busy page, not the busiest).
    x = db.execute("SELECT dst FROM inlinks GROUP BY dst ORDER BY count(*) DESC, dst "
                   "LIMIT 1 OFFSET 99").fetchone()[0]
    return db.execute("SELECT url FROM urls WHERE id = ?", (x,)).fetchone()[0]


def timed(db, sql, params):
    start = time.perf_counter()
    rows = db.execute(sql, params).fetchall()
    return time.perf_counter() - start, rows


def measure(path, extension, sql, params, repeats):
    """(first run s, best repeat s, rows) in a new connection."""
    db = join_matrix.connect(path, extension)
    try:
        first, rows = timed(db, sql, params)
        repeat = min(timed(db, sql, params)[0] for _ in range(repeats))
    finally:
        db.close()
    return first, repeat, rows


def measure_both(path, args, sql, params):
    """((median first s, best repeat s, rows) of crawldb, the same of the plain form), from new
    connections taken in turn while they fit in args.budget seconds."""
    samples = {"crawldb": [], "plain": []}
    started = time.perf_counter()
    while not samples["plain"] or (len(samples["plain"]) < args.samples
                                   and time.perf_counter() - started < args.budget):
        samples["crawldb"].append(
            measure(path, args.extension, join_matrix.crawldb_sql(sql), params, args.repeats))
        samples["plain"].append(
            measure(path, args.extension, join_matrix.plain_sql(sql), params, args.repeats))
    return tuple((statistics.median(s[0] for s in runs), min(s[1] for s in runs), runs[0][2])
                 for runs in (samples["crawldb"], samples["plain"]))


def run_dataset(name, args, tmpdir):
    path = os.path.join(tmpdir, f"{name}.db")
    if os.path.exists(path):
        os.remove(path)
    db = join_matrix.connect(path, args.extension)
    with open(os.path.join(ROOT, "sql", "crawldb.sql")) as script:
        db.executescript(script.read())
    started = time.perf_counter()
    page = build_wikispeedia(db, args.data) if name == "wikispeedia" else \
        build_cnr(db, args.data, tmpdir)
    db.execute("SELECT crawldb_optimize()")
    join_matrix.load_plain_copy(db)
    urls = db.execute("SELECT count(*) FROM plain_urls").fetchone()[0]
    links = db.execute("SELECT count(*) FROM edges").fetchone()[0]
    params = {"x": db.execute("SELECT id FROM plain_urls WHERE url = ?", (page,)).fetchone()[0],
              "url": page}
    db.close()
    print(f"\n### {name}: {urls:,} URLs, {links:,} links; page {page} "
          f"(built in {time.perf_counter() - started:.1f} s)\n")
    print("| query | crawldb first ms | plain first ms | ratio | crawldb repeat ms "
          "| plain repeat ms | ratio | rows | plan |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    results = []
    for query, sql, pinned in join_matrix.QUERIES:
        check = join_matrix.connect(path, args.extension)
        loops, nested = join_matrix.crawldb_plan(check, sql, params)
        check.close()
        plan_ok = not nested and loops == join_matrix.pinned_plan(pinned)
        ours, plain = measure_both(path, args, sql, params)
        same = ours[2] == plain[2]
        first_ratio = ours[0] / plain[0]
        repeat_ratio = ours[1] / plain[1]
        results.append((query, first_ratio, repeat_ratio, same and plan_ok))
        print(f"| {query} | {ours[0] * 1e3:.2f} | {plain[0] * 1e3:.2f} | {first_ratio:.2f} "
              f"| {ours[1] * 1e3:.2f} | {plain[1] * 1e3:.2f} | {repeat_ratio:.2f} "
              f"| {len(ours[2])}{'' if same else ' DIFFER'} | {'ok' if plan_ok else 'WRONG'} |")
    firsts = [r[1] for r in results]
    repeats = [r[2] for r in results]
    print(f"\nratio crawldb / plain, median (max): first run {statistics.median(firsts):.2f} "
          f"({max(firsts):.2f}), repeated {statistics.median(repeats):.2f} ({max(repeats):.2f})")
    names = [r[0] for r in results]
    for label, ratios in (("first run", firsts), ("repeated", repeats)):
        over = [name for name, ratio in zip(names, ratios) if ratio > 2]
        verdict = "met" if not over else "MISSED (" + ", ".join(over) + ")"
        print(f"target every query ≤ 2× plain, {label}: {verdict}")
    if not all(r[3] for r in results):
        print("WRONG: a plan or a result differs (see the table)")
    os.remove(path)
    return results


def draw(all_results, png):
    data = png + ".dat"
    with open(data, "w") as f:
        names = [q for q, *_ in next(iter(all_results.values()))]
        f.write("query " + " ".join(f"{d}-first {d}-repeat" for d in all_results) + "\n")
        for i, query in enumerate(names):
            values = " ".join(f"{r[i][1]:.4f} {r[i][2]:.4f}" for r in all_results.values())
            f.write(f"{query} {values}\n")
    columns = 2 * len(all_results)
    print()
    plot.gnuplot(png, "set style data histograms; set style fill solid; set xtics rotate by -45;"
                 "set ylabel 'crawldb / plain (time, log scale)'; set logscale y; set key top left;"
                 "set arrow from graph 0, first 2 to graph 1, first 2 nohead dt 2;"
                 f"plot for [c=2:{columns + 1}] '{data}' using c:xtic(1) title columnheader",
                 size=(1400, 600))
    os.remove(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extension", default=os.path.join(ROOT, "build", "release", "crawldb"))
    parser.add_argument("--data", default=os.environ.get("CRAWLDB_SHARED_DATA")
                        or os.path.join(ROOT, "..", "shared", "data"))
    parser.add_argument("--datasets", default="wikispeedia,cnr-2000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--samples", type=int, default=9)
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--tmpdir", default=None)
    parser.add_argument("--plot", default=None)
    args = parser.parse_args()
    tmpdir = tempfile.mkdtemp(prefix="crawldb-joins-", dir=args.tmpdir)
    try:
        results = {name: run_dataset(name, args, tmpdir) for name in args.datasets.split(",")}
    finally:
        shutil.rmtree(tmpdir)
    if args.plot:
        draw(results, args.plot)


if __name__ == "__main__":
    main()
