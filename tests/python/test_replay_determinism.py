"""One statement log replayed into two fresh database files, each by its own process, must leave
every shadow table byte-identical: what a statement-replaying engine (rqlite) needs of crawldb
(docs/sql.md, "Replicated engines"). Every write goes through a statement with an explicit `now`
(the frontier is created with clock=explicit), leases are write statements with a token, and
their URLs are read back by token.

The log: crawl_add of seeds and of links found on leased pages (with parents, across hosts and
registrable domains), leases with tokens and their look-ups, confirms (successes, re-crawls,
failures and retries), expired leases, crawl_host_set, URLs inserted into and deleted from
`urls`, links inserted into `outlinks`, UPDATE and DELETE on `frontier`, and the optimizes of
every table, in autocommit statements and explicit transactions; the crawl goes on after the
optimizes, so that the files end with log and pending rows. `urls` and the frontier fold their
log tails often (log_tail_kb=1), so that their pending rows and merges are written too.

The second replica runs the log in three processes, reopening the file between them, with a
connection cache of 0 MiB, so that whatever it writes from parts read back from the file must
match what the first wrote from memory. Rows are compared column by column with their SQL type;
blobs byte by byte, reals by their bits.
"""

import os
import pathlib
import subprocess
import sys
import tempfile
import unittest

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

SETUP = [
    "CREATE VIRTUAL TABLE urls USING crawldb_urls(log_tail_kb=1)",
    "CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, clock=explicit, log_tail_kb=1, "
    "host_delay=2, lease=60, max_attempts=2, retry_base=30)",
    "CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls)",
    "CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks)",
]

HOSTS = [f"site{h}.example.{tld}" for h in range(12) for tld in ("com", "org")] + [
    f"sub{h}.site0.example.com" for h in range(4)
]


def q(text):
    return "'" + text.replace("'", "''") + "'"


def statement_log():
    """The statements, as SQL text with every value written out (what a replaying engine
    stores). Pure function of nothing: the same list in every process."""
    log = list(SETUP)
    now = 1_700_000_000
    for i, host in enumerate(HOSTS):
        log.append(f"SELECT crawl_add({q(f'https://{host}/')}, NULL, {i % 3}, {now})")
    log.append(f"SELECT crawl_host_set('site3.example.org', 10, 50, {now + 100})")
    token = 0
    page = 0
    for step in range(20):
        now += 7
        token += 1
        name = f"worker-{step % 3}:{token}"
        log.append(
            "INSERT INTO frontier(frontier, n, seconds, now, lease_token) "
            f"VALUES ('lease', 12, 60, {now}, {q(name)})"
        )
        log.append(f"SELECT id, url, depth, due FROM frontier WHERE lease_token = {q(name)}")
        # The worker "fetches" its URLs: each page links to a few others, on its host and on
        # others; written out as the statements a worker would send.
        log.append(("FOREACH", name, now, step))
        if step % 4 == 3:
            page += 1
            log.append(f"INSERT OR IGNORE INTO urls(url) VALUES ('https://other{page}.example.net/x')")
            log.append("DELETE FROM urls WHERE id IN (SELECT id FROM urls WHERE host = "
                       f"'site{page}.example.com' ORDER BY id DESC LIMIT 1)")
        if step == 6:
            log.append("BEGIN IMMEDIATE")
            log.append("UPDATE frontier SET priority = -5 WHERE host = 'site5.example.org'")
            log.append("DELETE FROM frontier WHERE url = 'https://site7.example.com/'")
            log.append("COMMIT")
        if step == 5:
            log.append("INSERT INTO frontier(frontier) VALUES ('optimize')")
        if step == 8:
            log.append("INSERT INTO urls(urls) VALUES ('optimize')")
        if step == 12:
            log.append("SELECT crawldb_optimize()")
    # After the optimizes, the crawl goes on: the files end with log rows, pending rows and
    # deleted ids of every table, not only with what an optimize rewrote.
    now += 5
    log.append(
        "INSERT INTO frontier(frontier, n, seconds, now, lease_token) "
        f"VALUES ('lease', 20, 60, {now}, 'last')"
    )
    return log


def expand(db, entry):
    """A FOREACH entry: the statements a worker sends for the URLs its lease returned, as SQL
    text built from the rows read back by token (which the log above also reads)."""
    _, name, now, step = entry
    rows = db.execute(
        "SELECT url, depth FROM frontier WHERE lease_token = ? ORDER BY rowid", (name,)
    ).fetchall()
    out = []
    for k, (url, depth) in enumerate(rows):
        base = url.rstrip("/")
        for j in range(3):
            target = f"{base}/p{step}{j}" if j < 2 else f"https://{HOSTS[(k + step) % len(HOSTS)]}/from{step}"
            out.append(f"SELECT crawl_add({q(target)}, {q(url)}, {j}, {now + 1})")
        out.append("INSERT INTO outlinks(src, dst) SELECT a.id, b.id FROM urls a, urls b "
                   f"WHERE a.url = {q(url)} AND b.url = 'https://{HOSTS[step % 5]}/'")
        if k % 5 == 4:
            continue  # not confirmed: its lease expires and it goes back to the queue
        status = 503 if k % 7 == 3 else 200
        recrawl = "3600" if k % 4 == 0 else "NULL"
        out.append(f"SELECT crawl_confirm({q(url)}, {status}, {recrawl}, {now + 2 + k})")
    return out


def replay(path, first, last, cache_mb):
    """Runs log entries [first, last) on the file at `path` (this process); prints the rows read
    back by token, so that the two replicas' reads are compared too."""
    import loaded_db

    db = loaded_db.connect(path)
    db.execute("PRAGMA synchronous = OFF")  # how the file reaches the disk, not what it holds
    if cache_mb is not None:
        db.execute(f"SELECT crawldb_cache_mb({cache_mb})")
    for entry in statement_log()[first:last]:
        statements = expand(db, entry) if isinstance(entry, tuple) else [entry]
        for sql in statements:
            rows = db.execute(sql).fetchall()
            if "lease_token =" in sql:
                print(sql, rows)
    db.close()


def run_replica(path, pieces, cache_mb=None):
    log = statement_log()
    bounds = [len(log) * k // pieces for k in range(pieces + 1)]
    for k, bound in enumerate(bounds):  # never between BEGIN and COMMIT
        while 0 < bound < len(log) and "BEGIN IMMEDIATE" in log[:bound] and (
            log[:bound][::-1].index("BEGIN IMMEDIATE") < (log[:bound][::-1] + ["COMMIT"]).index("COMMIT")):
            bound += 1
        bounds[k] = bound
    output = []
    for first, last in zip(bounds, bounds[1:]):
        args = [sys.executable, __file__, "replay", path, str(first), str(last)]
        if cache_mb is not None:
            args.append(str(cache_mb))
        done = subprocess.run(args, capture_output=True, text=True, env=os.environ)
        if done.returncode != 0:
            raise AssertionError(f"replay of {path} failed:\n{done.stderr}")
        output.append(done.stdout)
    return "".join(output)


def typed(value):
    """A value with its SQL type, compared exactly (blobs byte by byte, reals by their bits)."""
    if isinstance(value, float):
        return ("real", value.hex())
    return (type(value).__name__, value)


def shadow_tables(path):
    """{table: rows} for every real table of the file (the shadow tables and sqlite_schema's own
    rows), read without crawldb loaded: the bytes as stored."""
    import sqlite3

    db = sqlite3.connect(path)
    tables = {"sqlite_schema": db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema "
                                          "ORDER BY name").fetchall()}
    names = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' "
        "ORDER BY name")]
    for name in names:
        keys = [r[1] for r in sorted(
            (r for r in db.execute(f'PRAGMA table_info("{name}")') if r[5] > 0),
            key=lambda r: r[5])]
        without_rowid = db.execute(
            "SELECT sql LIKE '%WITHOUT ROWID' FROM sqlite_schema WHERE name = ?", (name,)
        ).fetchone()[0]
        order = ", ".join(f'"{k}"' for k in keys) if without_rowid else "rowid"
        tables[name] = [tuple(typed(v) for v in row)
                        for row in db.execute(f'SELECT * FROM "{name}" ORDER BY {order}')]
    db.close()
    return tables


class ReplayDeterminism(unittest.TestCase):
    def test_two_replicas_write_the_same_bytes(self):
        with tempfile.TemporaryDirectory() as folder:
            one = os.path.join(folder, "one.db")
            two = os.path.join(folder, "two.db")
            read_one = run_replica(one, 1)
            read_two = run_replica(two, 3, cache_mb=0)
            a, b = shadow_tables(one), shadow_tables(two)

        # The log reached every kind of row it is meant to write.
        for table in ("frontier_log", "frontier_snapshot", "frontier_pending", "frontier_leases",
                      "urls_base", "urls_log", "urls_deleted", "outlinks_graph", "outlinks_log"):
            self.assertIn(table, a)
        for table in ("frontier_log", "frontier_snapshot", "frontier_pending", "frontier_leases",
                      "urls_base", "urls_log", "urls_pending", "urls_deleted", "outlinks_graph",
                      "outlinks_log"):
            self.assertTrue(a[table], f"{table} is empty: the log no longer exercises it")
        self.assertGreater(read_one.count("https://"), 100, "the leases by token returned little")

        self.assertEqual(read_one, read_two, "the rows read back by token differ")
        self.assertEqual(sorted(a), sorted(b), "the two files hold different tables")
        for table in sorted(a):
            rows_a, rows_b = a[table], b[table]
            for i, (ra, rb) in enumerate(zip(rows_a, rows_b)):
                self.assertEqual(ra, rb, f"{table}: row {i} differs")
            self.assertEqual(len(rows_a), len(rows_b), f"{table}: the row counts differ")


if __name__ == "__main__":
    if len(sys.argv) >= 5 and sys.argv[1] == "replay":
        replay(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
               int(sys.argv[5]) if len(sys.argv) > 5 else None)
    else:
        unittest.main()
