"""Throughput through one crawldb-node group against the same workload on a local file
(issue 16's targets): crawl_add in batches of 1,000 URLs, then lease + confirm in batches of 100.
Starts a three-node group on loopback in a temporary folder (crawldb-node/local_group.py); the
local run loads crawldb.so into Python's sqlite3 (WAL, synchronous=NORMAL). Prints a markdown
table (URLs/s of each, the group's ÷ the local file's) and the issue's targets, met or MISSED;
--plot=PNG draws the URLs/s of both as bars (bench/plot.py). Builds nothing: build crawldb-node
and crawldb first.

    /usr/bin/python3 bench/cluster.py [BUILD_DIR] [--urls N] [--plot PNG]
"""

import argparse
import json
import os
import sqlite3
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "crawldb-node"))
import local_group  # noqa: E402
import plot  # noqa: E402  (bench/plot.py, beside this file)

NOW = 1_000_000
ADD = "SELECT count(crawl_add(value, NULL, NULL, ?)) FROM json_each(?)"
LEASE = ("INSERT INTO frontier(frontier, n, seconds, now, lease_token) "
         "VALUES ('lease', ?, 600, ?, ?)")
BY_TOKEN = "SELECT url FROM frontier WHERE lease_token = ?"
CONFIRM = "SELECT count(crawl_confirm(value, 200, 0, ?)) FROM json_each(?)"
# Issue 16's targets through one group, URLs/s: crawl_add in batches of 1,000; lease + confirm in
# batches of 100.
TARGETS = (20_000, 5_000)
WORKLOADS = ("crawl_add, batches of 1,000", "lease + confirm, batches of 100")
SCHEMA = ["CREATE VIRTUAL TABLE urls USING crawldb_urls",
          "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, clock=explicit, host_delay=0)"]


class Local:
    def __init__(self, path, extension):
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.enable_load_extension(True)
        self.db.load_extension(extension)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")

    def execute(self, sql, params=()):
        self.db.execute(sql, params).fetchall()

    def query(self, sql, params=()):
        return None, self.db.execute(sql, params).fetchall()


def workload(client, urls):
    """(adds per second, lease + confirm per second)."""
    for statement in SCHEMA:
        client.execute(statement)
    batches = [[f"http://h{i % 997}.example/p/{i}" for i in range(start, start + 1000)]
               for start in range(0, urls, 1000)]
    started = time.monotonic()
    for batch in batches:
        client.execute("BEGIN")
        client.query(ADD, (NOW, json.dumps(batch)))
        client.execute("COMMIT")
    adds = urls / (time.monotonic() - started)
    started = time.monotonic()
    leased = 0
    for round_ in range(urls // 100):
        token = f"w:{round_}"
        client.execute(LEASE, (100, NOW, token))
        got = [url for (url,) in client.query(BY_TOKEN, (token,))[1]]
        client.execute("BEGIN")
        client.query(CONFIRM, (NOW + 1, json.dumps(got)))
        client.execute("COMMIT")
        leased += len(got)
    return adds, leased / (time.monotonic() - started)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build_dir", nargs="?", default="build/release")
    parser.add_argument("--urls", type=int, default=20000)
    parser.add_argument("--plot", default=None)
    args = parser.parse_args()
    node = os.path.join(args.build_dir, "crawldb-node", "crawldb-node")
    with tempfile.TemporaryDirectory() as folder:
        local = Local(os.path.join(folder, "local.db"), os.path.join(args.build_dir, "crawldb"))
        local_rates = workload(local, args.urls)
        group = local_group.Group(folder, node)
        try:
            client = group.cluster()
            cluster_rates = workload(client, args.urls)
            client.close()
        finally:
            group.stop_all()
    print(f"| {args.urls:,} URLs | {WORKLOADS[0]} (URLs/s) | {WORKLOADS[1]} (URLs/s) |")
    print("|---|---:|---:|")
    print(f"| local file (WAL) | {local_rates[0]:,.0f} | {local_rates[1]:,.0f} |")
    print(f"| 3-node group, loopback | {cluster_rates[0]:,.0f} | {cluster_rates[1]:,.0f} |")
    print(f"| group ÷ local file | {cluster_rates[0] / local_rates[0]:.2f} "
          f"| {cluster_rates[1] / local_rates[1]:.2f} |")
    print()
    for name, rate, target in zip(WORKLOADS, cluster_rates, TARGETS):
        verdict = "met" if rate >= target else "MISSED"
        print(f"target: {name} through one group ≥ {target:,} URLs/s: {rate:,.0f}, {verdict}")
    if args.plot:
        draw(local_rates, cluster_rates, args.plot)


def draw(local_rates, cluster_rates, png):
    """URLs/s of the local file and of the group, a pair of bars per workload."""
    os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
    data = png + ".dat"
    with open(data, "w") as f:
        f.write("workload local-file 3-node-group\n")
        for name, local, cluster in zip(WORKLOADS, local_rates, cluster_rates):
            f.write(f"\"{name}\" {local:.1f} {cluster:.1f}\n")
    print()
    try:
        plot.gnuplot(png, "set style data histograms; set style fill solid; set key top right;"
                     "set ylabel 'URLs/s (log scale)'; set logscale y;"
                     f"set yrange [100:{3 * max(*local_rates, *cluster_rates):.0f}];"
                     f"plot for [c=2:3] {plot.quoted(data)} using c:xtic(1) title columnheader")
    finally:
        os.remove(data)


if __name__ == "__main__":
    main()
