#!/usr/bin/python3
"""The kill campaign (issue 15, item 1): a writer doing mixed work on the four crawldb tables of
one file (kill_writer.py) is SIGKILLed at random instants, again and again, on the same file;
after each kill a fresh connection checks the file:

- `crawldb_check()` is 'ok';
- every transaction the writer saw commit (its `C n` line) is in the ledger, every import it saw
  return (`i n`) is there whole, and no transaction it rolled back (`R n`) is;
- the four tables hold exactly what the writer's plain-table mirror says (kill_writer.py's
  docstring): every URL, every frontier row (state, depth, priority, due, attempts, status) and
  every link, so the transaction in flight is there whole or not at all — in urls, frontier and
  outlinks alike — and nothing rolled back or never committed is;
- an import in flight (pending rows left) is there whole or not at all; the check then records
  which in the mirror, as the writer would have.

Then the writer starts again on the same file. Kills alternate between WAL and rollback-journal
mode (the writer switches the file's mode as it opens it). A kill aims at one of: any instant;
inside crawldb_optimize(); inside an import; inside a COMMIT (urls merges every part a commit adds
to, merge_bytes=0; the frontier folds its log into its snapshot every kilobyte, log_tail_kb=1):
the runner waits for the writer to announce the operation and kills it after a random delay up
to about the operation's usual length, which it learns as it goes. Where each kill landed is read
from the writer's last line.

    kill_campaign.py KILLS --extension PATH/crawldb.so [--folder DIR] [--seed S]

Prints a line per 50 kills and a summary; exits 1 at the first failure, leaving the file as the
kill left it in DIR/failure/ (a copy taken before the check opened it) with the writer's output.
"""

import argparse
import collections
import os
import queue
import random
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kill_writer  # noqa: E402  (the schema)

PYTHON = "/usr/bin/python3"
# The operations a kill aims at: the line announcing it, the line it ended with, a first guess
# at its length (s).
TARGETS = {"optimize": ("O", "o", 0.05), "import": ("I", "i", 0.02), "commit": ("c", "C", 0.003)}
FOCUS = ["any"] * 3 + ["optimize"] * 3 + ["import"] * 2 + ["commit"] * 2


class Failure(Exception):
    pass


class Campaign:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.folder = args.folder
        self.db_path = os.path.join(self.folder, "crawl.db")
        self.next_n = 1
        self.acked, self.rolled_back, self.acked_imports = set(), set(), set()
        self.durations = {t: [] for t in TARGETS}
        self.landed = collections.Counter()
        self.in_flight = collections.Counter()
        self.kills = 0
        self.checks_failed = 0
        self.lost = 0
        self.imports_resolved = collections.Counter()
        self.started = time.monotonic()
        self.last_lines = []

    def connect(self):
        db = sqlite3.connect(self.db_path, isolation_level=None, timeout=30)
        db.enable_load_extension(True)
        db.load_extension(self.args.extension)
        db.enable_load_extension(False)
        return db

    def create(self):
        db = self.connect()
        db.executescript(kill_writer.SCHEMA)
        db.close()

    # --- one writer's life ---

    def run_writer(self, k):
        journal = "wal" if k % 2 == 0 else "delete"
        focus = self.rng.choice(FOCUS)
        command = [PYTHON, os.path.join(HERE, "kill_writer.py"), self.db_path,
                   "--extension", self.args.extension, "--start", str(self.next_n),
                   "--seed", str(self.rng.randrange(2**31)), "--journal", journal,
                   "--focus", focus, "--folder", self.folder]
        stderr = open(os.path.join(self.folder, "writer.stderr"), "w+")
        writer = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=stderr, text=True)
        lines = queue.Queue()

        def read():
            for line in writer.stdout:
                lines.put((time.monotonic(), line.split()))
            lines.put(None)
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        seen = []

        def take(timeout):
            try:
                item = lines.get(timeout=max(timeout, 0))
            except queue.Empty:
                return False
            if item is None:
                raise Failure(self.writer_died(writer, stderr, seen))
            seen.append(item)
            return True

        deadline = time.monotonic() + 60
        while not seen or seen[-1][1][0] != "ready":
            if not take(deadline - time.monotonic()):
                raise Failure("the writer did not open the file within 60 s")
        if focus == "any":
            kill_at = time.monotonic() + self.rng.uniform(0.0, self.args.max_run)
        else:
            start_word, _, guess = TARGETS[focus]
            usual = statistics.median(self.durations[focus][-50:] or [guess])
            wanted = self.rng.randint(1, 8) if focus == "commit" else 1
            deadline = time.monotonic() + 10
            kill_at = None
            while kill_at is None and time.monotonic() < deadline:
                if take(deadline - time.monotonic()) and seen[-1][1][0] == start_word:
                    wanted -= 1
                    if wanted == 0:
                        kill_at = seen[-1][0] + self.rng.uniform(0.0, 1.3 * usual)
            kill_at = kill_at or time.monotonic()
        while time.monotonic() < kill_at:
            take(kill_at - time.monotonic())
        writer.send_signal(signal.SIGKILL)
        writer.wait()
        reader.join()
        while True:
            item = lines.get()
            if item is None:
                break
            seen.append(item)
        if writer.returncode != -signal.SIGKILL:
            raise Failure(self.writer_died(writer, stderr, seen))
        stderr.close()
        self.kills += 1
        self.record(seen, journal, focus)

    def writer_died(self, writer, stderr, seen):
        writer.wait()
        stderr.seek(0)
        return (f"the writer exited with {writer.returncode} before the kill; its last lines: "
                f"{[' '.join(w) for _, w in seen[-5:]]}; its error output:\n{stderr.read()}")

    def record(self, seen, journal, focus):
        """Reads what the writer acknowledged, and where the kill landed."""
        started = {}
        begun = None
        for at, words in seen:
            word = words[0]
            if word == "ready":
                continue
            n = int(words[1])
            self.next_n = max(self.next_n, n + 1)
            if word == "B":
                begun = n
            elif word == "C":
                self.acked.add(n)
            elif word == "R":
                self.rolled_back.add(n)
            elif word == "i":
                self.acked_imports.add(n)
            for target, (start_word, end_word, _) in TARGETS.items():
                if word == start_word:
                    started[target] = at
                elif word == end_word and target in started:
                    self.durations[target].append(at - started.pop(target))
        last = seen[-1][1]
        where = {"O": "optimize", "I": "import", "c": "commit"}.get(last[0])
        if where is None:
            where = "transaction body" if last[0] == "B" else "between operations"
        self.landed[where] += 1
        self.landed[f"{journal} mode"] += 1
        self.in_flight_n = begun if last[0] in ("B", "c") else None
        self.last_lines = [" ".join(w) for _, w in seen[-8:]]
        self.last_focus = focus

    # --- the check after a kill ---

    def keep_image(self):
        image = os.path.join(self.folder, "last_kill")
        shutil.rmtree(image, ignore_errors=True)
        os.makedirs(image)
        for suffix in ("", "-wal", "-journal", "-shm"):
            if os.path.exists(self.db_path + suffix):
                shutil.copy2(self.db_path + suffix, image)

    def check(self):
        db = self.connect()
        try:
            self.check_connection(db)
        finally:
            db.close()

    def check_connection(self, db):
        verdict = db.execute("SELECT crawldb_check()").fetchone()[0]
        if verdict != "ok":
            self.checks_failed += 1
            raise Failure(f"crawldb_check() = {verdict!r}")
        ledger = {n for (n,) in db.execute("SELECT n FROM ledger")}
        lost = sorted(self.acked - ledger)
        if lost:
            self.lost += len(lost)
            raise Failure(f"acknowledged transactions missing from the ledger: {lost[:20]}")
        leaked = sorted(self.rolled_back & ledger)
        if leaked:
            raise Failure(f"rolled-back transactions in the ledger: {leaked[:20]}")
        if self.in_flight_n is not None:
            self.in_flight["present" if self.in_flight_n in ledger else "absent"] += 1

        urls = dict(db.execute("SELECT id, url FROM urls"))
        links = set()
        for src, dst in db.execute("SELECT src, dst FROM outlinks"):
            if src not in urls or dst not in urls:
                raise Failure(f"outlinks shows {src} -> {dst}, and urls has no URL of that id")
            links.add((urls[src], urls[dst]))
        url_set = set(urls.values())
        if len(url_set) != len(urls):
            raise Failure("urls shows one URL under two ids")
        self.resolve_imports(db, url_set, links)

        mirror_urls = {u for (u,) in db.execute("SELECT url FROM m_urls")}
        self.compare("urls", url_set, mirror_urls)
        frontier = {}
        for row in db.execute(f"SELECT url, {kill_writer.FRONTIER_COLUMNS} FROM frontier"):
            if row[0] is None or row[0] in frontier:
                raise Failure(f"frontier shows a row with no URL or twice: {row}")
            frontier[row[0]] = tuple(row[1:])
        mirror_frontier = {r[0]: tuple(r[1:]) for r in db.execute("SELECT * FROM m_frontier")}
        self.compare("frontier", set(frontier.items()), set(mirror_frontier.items()))
        mirror_links = set(db.execute("SELECT src, dst FROM m_links"))
        self.compare("outlinks", links, mirror_links)
        inlinks = {(urls[s], urls[d]) for s, d in db.execute("SELECT src, dst FROM inlinks")
                   if s in urls and d in urls}
        self.compare("inlinks", inlinks, mirror_links)

    def resolve_imports(self, db, url_set, links):
        """An import the kill may have cut: its URLs (links file) or links (arcs file) are all
        there or none; acknowledged ones all. Then the mirror records the outcome."""
        for (n,) in db.execute("SELECT DISTINCT n FROM pending").fetchall():
            rows = db.execute("SELECT kind, a, b FROM pending WHERE n = ?", (n,)).fetchall()
            expected = [(a, b) for kind, a, b in rows if kind == "link"]
            news = [a for kind, a, _ in rows if kind == "url"]
            if news:
                present = sum(u in url_set for u in news)
                whole, total = present == len(news), len(news)
            else:
                present = sum(link in links for link in expected)
                whole, total = present == len(expected), len(expected)
            if present and not whole:
                raise Failure(f"import {n} is there in part: {present} of its {total} "
                              f"{'URLs' if news else 'links'}")
            if not present and n in self.acked_imports:
                self.lost += 1
                raise Failure(f"import {n} returned to the writer and is not there")
            db.execute("BEGIN IMMEDIATE")
            if present:
                db.executemany("INSERT OR IGNORE INTO m_urls VALUES (?, 'u')",
                               [(u,) for u in news])
                db.executemany("INSERT OR IGNORE INTO m_links VALUES (?, ?)", expected)
            db.execute("DELETE FROM pending WHERE n = ?", (n,))
            db.execute("COMMIT")
            for suffix in (".links", ".arcs"):
                path = os.path.join(self.folder, f"import{n}{suffix}")
                if os.path.exists(path):
                    os.remove(path)
            self.imports_resolved["present" if present else "absent"] += 1

    def compare(self, what, found, mirror):
        if found != mirror:
            missing, extra = sorted(mirror - found), sorted(found - mirror)
            raise Failure(f"{what} differs from the mirror: {len(missing)} missing, e.g. "
                          f"{missing[:4]}; {len(extra)} not in the mirror, e.g. {extra[:4]}")

    # --- the campaign ---

    def run(self):
        self.create()
        for k in range(self.args.kills):
            try:
                self.run_writer(k)
                self.keep_image()
                self.check()
            except Failure as failure:
                self.fail(k, failure)
                return 1
            if (k + 1) % 50 == 0 and k + 1 < self.args.kills:
                print(f"{k + 1} kills, {time.monotonic() - self.started:.0f} s, "
                      f"{len(self.acked)} transactions acknowledged, lost 0, check failures 0",
                      flush=True)
        self.summary()
        return 0

    def fail(self, k, failure):
        image = os.path.join(self.folder, "failure")
        if os.path.exists(os.path.join(self.folder, "last_kill")):
            shutil.rmtree(image, ignore_errors=True)
            os.rename(os.path.join(self.folder, "last_kill"), image)
        print(f"FAILED at kill {k + 1}: {failure}", flush=True)
        print(f"  the writer's last lines: {self.last_lines}")
        print(f"  the file as the kill left it: {image}/ (the writer's files: {self.folder})")
        self.summary()

    def summary(self):
        sizes = os.path.getsize(self.db_path)
        landed = ", ".join(f"{where} {count}" for where, count in sorted(self.landed.items()))
        print(f"kills: {self.kills}\n"
              f"time: {time.monotonic() - self.started:.1f} s\n"
              f"transactions acknowledged: {len(self.acked)} (rolled back: "
              f"{len(self.rolled_back)}; imports acknowledged: {len(self.acked_imports)})\n"
              f"lost: {self.lost}\n"
              f"check failures: {self.checks_failed}\n"
              f"kills landed: {landed}\n"
              f"transaction in flight at the kill: "
              f"{dict(self.in_flight) or 'none'}; imports cut by a kill: "
              f"{dict(self.imports_resolved) or 'none'}\n"
              f"file: {sizes / 1e6:.1f} MB", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kills", type=int)
    parser.add_argument("--extension", default=os.environ.get("CRAWLDB_EXTENSION"),
                        help="the built crawldb.so (default: $CRAWLDB_EXTENSION)")
    parser.add_argument("--folder", help="where the file goes (default: a temporary folder, "
                        "removed when the campaign passes)")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--max-run", type=float, default=0.6,
                        help="longest a writer aimed at no operation runs before its kill (s)")
    args = parser.parse_args()
    if not args.extension:
        parser.error("give --extension PATH/crawldb.so or set CRAWLDB_EXTENSION")
    args.extension = os.path.abspath(args.extension)
    print(f"kill campaign: {args.kills} kills, seed {args.seed}", flush=True)
    if args.folder:
        os.makedirs(args.folder, exist_ok=True)
        if os.path.exists(os.path.join(args.folder, "crawl.db")):
            parser.error(f"{args.folder} already holds crawl.db; give an empty folder")
        return Campaign(args).run()
    folder = tempfile.mkdtemp(prefix="kill_campaign.")
    args.folder = folder
    status = Campaign(args).run()
    if status == 0:
        shutil.rmtree(folder)
    return status


if __name__ == "__main__":
    sys.exit(main())
