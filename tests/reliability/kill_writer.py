"""The writer of the kill campaign (kill_campaign.py): numbered transactions of mixed work on the
four crawldb tables of one file, until it is SIGKILLed.

Every transaction also keeps a plain-SQLite mirror of what it did, in the same SQLite
transaction: after each operation the writer reads back the crawldb rows the operation touched
(the URL, its frontier row, the links of the source) and writes them into the ordinary tables
m_urls, m_frontier and m_links, and it inserts its number into ledger(n). After a kill the
checker compares the crawldb tables with the mirror: SQLite makes the mirror atomic and durable,
so any difference is crawldb losing, keeping half of, or inventing a transaction.

Operations that cannot run inside a transaction (crawldb_optimize(), crawldb_import_links(),
crawldb_import_arcs()) run between transactions. An import first commits what it is going to
load into the table `pending` (the URLs and links of the file), then imports, then moves the
pending rows into the mirror in a transaction of its own; a checker that finds pending rows
after a kill requires the import to be there whole or not at all.

Standard output, one line each, flushed (the runner reads it to know what was acknowledged and
where a kill landed):
    ready <journal_mode>
    B <n> <kind>    transaction n begins (kind: work, rollback, prep, adopt)
    c <n>           COMMIT of n is being sent
    C <n>           COMMIT of n returned: n is acknowledged
    R <n>           ROLLBACK of n returned: n must leave nothing
    O <n> / o <n>   crawldb_optimize() starts / returned
    I <n> / i <n>   import n (its pending rows committed by transaction n) starts / returned

Usage: kill_writer.py DB --extension SO --start N --seed S --journal wal|delete
                      --focus any|optimize|import|commit --folder DIR
"""

import argparse
import os
import random
import sqlite3
import sys

# The schema the runner creates once (kill_campaign.py); the writer only uses it.
SCHEMA = """
CREATE VIRTUAL TABLE urls USING crawldb_urls(merge_bytes=0);
CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, host_delay=0, log_tail_kb=1,
                                                     max_attempts=2, retry_base=30);
CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);
CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);
CREATE TABLE ledger(n INTEGER PRIMARY KEY, kind TEXT NOT NULL);
CREATE TABLE m_urls(url TEXT PRIMARY KEY, kind TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE m_frontier(url TEXT PRIMARY KEY, state, depth, priority, due, attempts, status)
    WITHOUT ROWID;
CREATE INDEX m_frontier_due ON m_frontier(due);
CREATE TABLE m_links(src TEXT, dst TEXT, PRIMARY KEY(src, dst)) WITHOUT ROWID;
CREATE INDEX m_links_dst ON m_links(dst);
CREATE TABLE pending(n INTEGER, kind TEXT, a TEXT, b TEXT);
"""

FRONTIER_COLUMNS = "state, depth, priority, due, attempts, status"
HOSTS = 48  # hosts of each kind of URL: enough to spread over many partitions


def emit(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Writer:
    def __init__(self, args):
        self.rng = random.Random(args.seed)
        self.n = args.start
        self.focus = args.focus
        self.folder = args.folder
        self.stop = args.start + args.transactions if args.transactions else 0
        self.db = sqlite3.connect(args.db, isolation_level=None, timeout=30)
        self.db.enable_load_extension(True)
        self.db.load_extension(args.extension)
        self.db.enable_load_extension(False)
        mode = "wal" if args.journal == "wal" else "delete"
        got = self.db.execute(f"PRAGMA journal_mode = {mode}").fetchone()[0]
        if got != mode:
            raise SystemExit(f"kill_writer: journal_mode {mode} refused (got {got})")
        # What later transactions pick from: URLs that only urls holds (deletable), frontier
        # URLs, leased ones (to confirm). Kept from the mirror, which is what is committed.
        self.plain = [r[0] for r in self.db.execute("SELECT url FROM m_urls WHERE kind = 'u'")]
        self.crawl = [r[0] for r in self.db.execute("SELECT url FROM m_urls WHERE kind = 'f'")]
        self.leased = [r[0] for r in self.db.execute(
            "SELECT url FROM m_frontier WHERE state = 'leased'")]
        self.links = self.db.execute("SELECT count(*) FROM m_links").fetchone()[0]
        emit(f"ready {got}")

    # Virtual time: a transaction's operations happen at 10 * n + k seconds, so time moves
    # forward across restarts (n does) and leases expire and retries come due as they would.
    def now(self, k=0):
        return 10 * self.n + k

    def q(self, sql, params=()):
        return self.db.execute(sql, params).fetchall()

    # --- the mirror: read back what crawldb shows, write it into the plain tables ---

    def mirror_frontier(self, url):
        row = self.q(f"SELECT {FRONTIER_COLUMNS} FROM frontier WHERE url = ?", (url,))
        if row:
            self.q("INSERT OR REPLACE INTO m_frontier VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (url, *row[0]))
        else:
            self.q("DELETE FROM m_frontier WHERE url = ?", (url,))

    def mirror_links(self, src):
        src_id = self.q("SELECT url_id(?)", (src,))[0][0]
        dsts = self.q("SELECT u.url FROM outlinks o JOIN urls u ON u.id = o.dst WHERE o.src = ?",
                      (src_id,)) if src_id is not None else []
        self.q("DELETE FROM m_links WHERE src = ?", (src,))
        self.db.executemany("INSERT INTO m_links VALUES (?, ?)", [(src, d) for (d,) in dsts])

    def mirror_url(self, url, kind):
        if self.q("SELECT url_id(?)", (url,))[0][0] is None:
            raise RuntimeError(f"kill_writer: {url} was just added and url_id() finds nothing")
        self.q("INSERT OR IGNORE INTO m_urls VALUES (?, ?)", (url, kind))

    def mirror_due(self, now):
        """A lease or a confirm at `now` returns expired leases and due retries and re-crawls to
        the queue: read back every row that could have come due."""
        for (url,) in self.q("SELECT url FROM m_frontier WHERE due <= ?", (now,)):
            self.mirror_frontier(url)

    # --- operations inside a transaction ---

    def crawl_adds(self, touched):
        host = f"h{self.rng.randrange(HOSTS)}.example"
        parent = f"http://{host}/t{self.n}/"
        self.q("SELECT crawl_add(?, NULL, ?, ?)", (parent, self.rng.randrange(5), self.now()))
        touched["crawl"].append(parent)
        for i in range(self.rng.randint(1, 4)):
            if self.rng.random() < 0.2:  # another domain: depth 1
                child = f"http://x{self.rng.randrange(HOSTS)}.example/t{self.n}/{i}"
            else:
                child = f"{parent}{i}"
            self.q("SELECT crawl_add(?, ?, ?, ?)", (child, parent, self.rng.randrange(5),
                                                    self.now()))
            touched["crawl"].append(child)
        if self.crawl and self.rng.random() < 0.3:  # a known URL found again: a link only
            known = self.rng.choice(self.crawl)
            self.q("SELECT crawl_add(?, ?, NULL, ?)", (known, parent, self.now()))
            touched["frontier"].append(known)
        touched["sources"].append(parent)

    def url_inserts(self, touched):
        host = f"u{self.rng.randrange(HOSTS)}.example"
        for i in range(self.rng.randint(1, 5)):
            url = f"http://{host}/t{self.n}/{i}"
            self.q("INSERT INTO urls(url) VALUES (?)", (url,))
            touched["plain"].append(url)

    def url_deletes(self, touched):
        for _ in range(self.rng.randint(1, 2)):
            if len(self.plain) < 20:
                return
            url = self.plain.pop(self.rng.randrange(len(self.plain)))
            self.q("DELETE FROM urls WHERE url = ?", (url,))
            self.q("DELETE FROM m_urls WHERE url = ?", (url,))
            # A deleted URL's links go with it, both ways.
            sources = [r[0] for r in self.q("SELECT src FROM m_links WHERE dst = ?", (url,))]
            self.q("DELETE FROM m_links WHERE src = ? OR dst = ?", (url, url))
            touched["sources"].extend(sources)
            touched["deleted"].append(url)

    def link_inserts(self, touched):
        pool = self.plain + self.crawl
        if len(pool) < 2:
            return
        for _ in range(self.rng.randint(1, 4)):
            src, dst = self.rng.choice(pool), self.rng.choice(pool)
            self.q("INSERT INTO outlinks(src, dst) VALUES (url_id(?), url_id(?))", (src, dst))
            touched["sources"].append(src)

    def link_deletes(self, touched):
        rows = self.q("SELECT src, dst FROM m_links LIMIT 1 OFFSET ?",
                      (self.rng.randrange(max(self.links, 1)),))
        for src, dst in rows:
            self.q("DELETE FROM outlinks WHERE src = url_id(?) AND dst = url_id(?)", (src, dst))
            touched["sources"].append(src)

    def lease_and_confirm(self, touched):
        now = self.now(1)
        leased = self.q("SELECT url FROM crawl_lease(?, ?, ?)",
                        (self.rng.randint(1, 6), self.rng.choice((15, 40, 100000)), now))
        self.mirror_due(now)
        for (url,) in leased:
            touched["frontier"].append(url)
            self.leased.append(url)
        for _ in range(self.rng.randint(0, 4)):
            if not self.leased:
                break
            url = self.leased.pop(self.rng.randrange(len(self.leased)))
            status, again = self.rng.choice(((200, None), (200, 50), (404, None), (503, None),
                                             (-1, None)))
            self.q("SELECT crawl_confirm(?, ?, ?, ?)", (url, status, again, self.now(2)))
            touched["frontier"].append(url)
        self.mirror_due(self.now(2))  # a confirm expires timers too

    def priority_update(self, touched):
        if self.crawl:
            url = self.rng.choice(self.crawl)
            self.q("UPDATE frontier SET priority = ? WHERE url = ?", (self.rng.randrange(9), url))
            touched["frontier"].append(url)

    def work(self, touched):
        ops = [self.crawl_adds, self.url_inserts, self.url_deletes, self.link_inserts,
               self.link_deletes, self.lease_and_confirm, self.priority_update]
        for op in self.rng.sample(ops, self.rng.randint(3, len(ops))):
            op(touched)
        for url in touched["crawl"]:
            self.mirror_url(url, "f")
        for url in touched["plain"]:
            self.mirror_url(url, "u")
        for url in set(touched["crawl"] + touched["frontier"]):
            self.mirror_frontier(url)
        for src in set(touched["sources"]):
            if src not in touched["deleted"]:
                self.mirror_links(src)

    def transaction(self, kind, body):
        """Runs body() in transaction n; commits it (acknowledged on return) or, for kind
        'rollback', rolls it back. Returns what body returned."""
        emit(f"B {self.n} {kind}")
        self.q("BEGIN IMMEDIATE")
        touched = {"crawl": [], "plain": [], "frontier": [], "sources": [], "deleted": []}
        result = body(touched)
        self.q("INSERT INTO ledger VALUES (?, ?)", (self.n, kind))
        if kind == "rollback":
            self.q("ROLLBACK")
            emit(f"R {self.n}")
            # What the transaction changed in the lists is undone: read them back.
            self.plain = [r[0] for r in self.q("SELECT url FROM m_urls WHERE kind = 'u'")]
            self.leased = [r[0] for r in self.q(
                "SELECT url FROM m_frontier WHERE state = 'leased'")]
        else:
            emit(f"c {self.n}")
            self.q("COMMIT")
            emit(f"C {self.n}")
            self.crawl.extend(touched["crawl"])
            self.plain.extend(touched["plain"])
        self.links = self.q("SELECT count(*) FROM m_links")[0][0]
        self.n += 1
        return result

    # --- operations between transactions ---

    def optimize(self):
        emit(f"O {self.n}")
        self.q("SELECT crawldb_optimize()")
        emit(f"o {self.n}")
        self.n += 1

    def import_links(self):
        """A links file of new URLs on 2 hosts, each a source with 2 to 5 destinations."""
        hosts = [f"imp{self.n}-{h}.example" for h in range(2)]
        pages = [f"http://{self.rng.choice(hosts)}/p{i}" for i in range(self.rng.randint(8, 30))]
        records = []
        for src in pages:
            dsts = self.rng.sample([p for p in pages if p != src], self.rng.randint(2, 5))
            records.append((src, dsts))
        path = os.path.join(self.folder, f"import{self.n}.links")
        with open(path, "w") as out:
            for src, dsts in records:
                out.write(src + "\n" + "".join(f"  {d}\n" for d in dsts))

        def prep(touched):
            rows = [(self.n, "url", p, None) for p in pages]
            rows += [(self.n, "link", s, d) for s, dsts in records for d in dsts]
            self.db.executemany("INSERT INTO pending VALUES (?, ?, ?, ?)", rows)
        self.run_import(prep, "SELECT crawldb_import_links(?)", path)

    def import_arcs(self):
        """An arcs file from 2 to 4 new URLs (inserted first) to new and known URLs."""
        fresh = [f"http://arc{self.n}.example/{i}" for i in range(self.rng.randint(2, 4))]
        pool = fresh + self.plain + self.crawl
        arcs = sorted({(s, self.rng.choice(pool)) for s in fresh for _ in range(4)})
        arcs = [(s, d) for s, d in arcs if s != d]

        def prep(touched):
            for url in fresh:
                self.q("INSERT INTO urls(url) VALUES (?)", (url,))
                touched["plain"].append(url)
                self.mirror_url(url, "u")
            self.db.executemany("INSERT INTO pending VALUES (?, 'link', ?, ?)",
                                [(self.n, s, d) for s, d in arcs])
        path = os.path.join(self.folder, f"import{self.n}.arcs")

        def write_file():
            ends = sorted({u for arc in arcs for u in arc})
            ids = dict(self.q("SELECT url, id FROM urls WHERE url IN (%s)" %
                              ",".join("?" * len(ends)), ends))
            with open(path, "w") as out:
                out.writelines(f"{ids[s]}\t{ids[d]}\n" for s, d in arcs)
        self.run_import(prep, "SELECT crawldb_import_arcs(?)", path, write_file)

    def run_import(self, prep, statement, path, before=None):
        k = self.n
        self.transaction("prep", prep)
        if before:
            before()
        emit(f"I {k}")
        self.q(statement, (path,))
        emit(f"i {k}")
        os.remove(path)

        def adopt(touched):
            self.q("INSERT OR IGNORE INTO m_urls SELECT a, 'u' FROM pending "
                   "WHERE n = ? AND kind = 'url'", (k,))
            self.q("INSERT OR IGNORE INTO m_links SELECT a, b FROM pending "
                   "WHERE n = ? AND kind = 'link'", (k,))
            touched["plain"].extend(
                r[0] for r in self.q("SELECT a FROM pending WHERE n = ? AND kind = 'url'", (k,)))
            self.q("DELETE FROM pending WHERE n = ?", (k,))
        self.transaction("adopt", adopt)

    def run(self):
        weights = {"any": (3, 5), "commit": (3, 5), "optimize": (25, 5), "import": (3, 30)}
        optimize_pct, import_pct = weights[self.focus]
        while not self.stop or self.n < self.stop:
            roll = self.rng.randrange(100)
            if roll < optimize_pct:
                self.optimize()
            elif roll < optimize_pct + import_pct:
                self.import_links() if self.rng.random() < 0.5 else self.import_arcs()
            elif roll < optimize_pct + import_pct + 10:
                self.transaction("rollback", self.work)
            else:
                self.transaction("work", self.work)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("--extension", required=True)
    parser.add_argument("--start", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--journal", choices=("wal", "delete"), required=True)
    parser.add_argument("--focus", choices=("any", "optimize", "import", "commit"), default="any")
    parser.add_argument("--folder", required=True)
    parser.add_argument("--transactions", type=int, default=0,
                        help="stop after this many steps (0: run until killed)")
    Writer(parser.parse_args()).run()


if __name__ == "__main__":
    main()
