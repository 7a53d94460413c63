#!/usr/bin/python3
"""A polite web crawler whose whole state is one SQLite file, through crawldb.

Standard library only, and lxml when it is installed (Debian's python3-lxml: pages are parsed five
times faster); run it with Debian's /usr/bin/python3 (other Python builds may not be able to load
SQLite extensions). Build crawldb first (README.md), then:

    # crawl one site, at most 3 links deep, one request per host every 2 seconds
    /usr/bin/python3 examples/crawler.py --db crawl.db --same-host --max-depth 3 \\
        --host-delay 2 https://www.example.org/

    # four worker processes sharing the database, stop after 1000 pages, keep a fetch log
    /usr/bin/python3 examples/crawler.py --db crawl.db --workers 4 --max-pages 1000 \\
        --log fetches.jsonl https://www.example.org/

    # a site of your own, as fast as it goes: no host delay, 16 URLs leased at a time
    /usr/bin/python3 examples/crawler.py --db crawl.db --workers 4 --batch 16 --host-delay 0 \\
        --same-host http://127.0.0.1:8000/

    # Ctrl-C stops; the same command (seeds may be left out) resumes where it stopped
    /usr/bin/python3 examples/crawler.py --db crawl.db

    # what was crawled, and the pages with the most links to them
    sqlite3 crawl.db '.load ./build/release/crawldb' \\
        "SELECT state, status, count(*) FROM frontier GROUP BY 1, 2" \\
        "SELECT u.url, count(*) FROM inlinks i JOIN urls u ON u.id = i.dst
         GROUP BY i.dst ORDER BY count(*) DESC LIMIT 10"

How it works. The database holds crawldb's four tables (sql/crawldb.sql): `urls`, `frontier`,
`outlinks` and `inlinks`. Each worker process repeats:
  1. lease a batch of --batch URLs: SELECT url FROM crawl_lease(<batch>, <lease seconds>), in its
     own BEGIN IMMEDIATE transaction. The frontier hands out each host's URLs shallowest first,
     one per host delay at most (so with a host delay, a batch holds each host once), and never
     the same URL to two workers while its lease lasts;
  2. visit the batch: its hosts side by side, a thread each, and the URLs of a host one after
     another. With a host delay, each host comes once in a batch, so every request leaves right
     after its lease, as the delay counts from the lease; without one, a host still gets at most
     one request per worker at a time. For each URL:
     a. check robots.txt (urllib.robotparser; fetched once per origin and worker, kept for a
        day). A disallowed URL is not fetched; a Crawl-delay raises the host's delay
        (crawl_host_set);
     b. fetch it with urllib. Redirects are not followed: the Location becomes a link of
        the page;
     c. parse the links of a text/html page of at most --max-bytes (page_links.py: lxml, or
        html.parser without it): the href of <a> and <link>, resolved against the page (or its
        <base>), without the fragment, http(s) only, limited to the allowed hosts;
  3. in one transaction for the batch, for each page: crawl_add(link, page) for each link
     (crawl_add normalises the URL, queues it when new and records the link page -> link in
     `outlinks`), then crawl_confirm(page, status).
At the end the crawler prints the pages per second of the run and how the workers' time splits
between fetching (robots.txt and pages), parsing and crawldb (the lease and record transactions).
The status given to crawl_confirm, kept in frontier.status:
     100..599  the HTTP status of the response;
     0         not fetched, robots.txt disallows it (SKIPPED_BY_ROBOTS);
    -1         network error: refused, reset, timed out, malformed response (NETWORK_ERROR), or
               robots.txt unreachable (RFC 9309: crawl nothing of the host for now).
A negative status, 5xx and 429 are failures: the frontier queues the URL again with back-off
and gives up after max_attempts (table option, default 3).

Depth: crawl_add gives a link to a page of the same registrable domain the page's depth + 1 and
any other link depth 1 (frontier_functions.h); --max-depth refuses deeper URLs.

Stopping and resuming. Ctrl-C: each worker finishes the batch in hand and stops; a second Ctrl-C
stops the workers at once (a URL leased and not confirmed is leased again after its lease
expires, so the pages of the batch in hand may be fetched twice). A worker killed in any other way
loses only its leases, in the same way. Everything is in the database, so the same command
resumes. Commits are not synced to disk (WAL with synchronous=NORMAL): a power cut may undo the
last few, whose pages are then leased and fetched again; the file stays consistent. The crawl
ends when no URL is queued or leased (a URL waiting for a retry counts as queued).

--max-depth, --host-delay and --lease become table options when the database is created and are
kept by it; later runs only use --lease for their own leases and --host-delay as the least
delay of a host with a Crawl-delay. --same-host allows the hosts of the seeds given on the
command line, so give them again when resuming. Each request should end well within a lease:
--timeout must be at most a quarter of --lease (a batch takes about one request's time, as its
requests run side by side).

--log FILE appends one JSON line per event, for the tests and for debugging:
    {"event": "fetch", "url": ..., "leased_at": <unix s, the frontier's clock at the lease>,
     "time": <unix s, just before the request>, "worker": <pid>}
    {"event": "confirm", "url": ..., "status": ..., "links": <count>, "confirmed": <bool:
     crawl_confirm found the URL leased>, "time": ..., "worker": ...}
"""

import argparse
import collections
import concurrent.futures
import http.client
import json
import multiprocessing
import os
import signal
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import urllib.robotparser

import page_links

SKIPPED_BY_ROBOTS = 0
NETWORK_ERROR = -1

HTML_TYPES = ("text/html", "application/xhtml+xml")
REDIRECTS = (301, 302, 303, 307, 308)
ROBOTS_MAX_BYTES = 512 * 1024  # RFC 9309 asks to parse at least 500 KiB
ROBOTS_CACHE_SECONDS = 24 * 3600
IDLE_SECONDS = 0.02  # wait when every queued URL's host is still in its delay
PROGRESS_SECONDS = 2.0


def parse_args(argv):
    parser = argparse.ArgumentParser(
        description="A polite web crawler on crawldb (see the docstring of this file).")
    parser.add_argument("seeds", nargs="*", help="URLs to start from (already known ones are kept)")
    parser.add_argument("--db", default="crawl.db", help="database file (default: crawl.db)")
    parser.add_argument("--extension", default="./build/release/crawldb",
                        help="the crawldb module (default: ./build/release/crawldb)")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.add_argument("--batch", type=int, default=8,
                        help="URLs a worker leases and confirms at a time, visiting their hosts"
                             " side by side (default: 8)")
    parser.add_argument("--parser", choices=page_links.PARSERS, default=page_links.DEFAULT_PARSER,
                        help=f"HTML parser (default: {page_links.DEFAULT_PARSER})")
    parser.add_argument("--max-depth", type=int, default=0,
                        help="deepest depth crawled, 0 = unlimited (table option; default 0)")
    parser.add_argument("--host-delay", type=float, default=1.0,
                        help="seconds between two requests to one host (table option; default 1)")
    parser.add_argument("--lease", type=int, default=300,
                        help="seconds a worker holds a URL (table option; default 300)")
    parser.add_argument("--same-host", action="store_true",
                        help="follow only links to the hosts of the seeds")
    parser.add_argument("--allow-host", action="append", default=[], metavar="HOST",
                        help="follow links to HOST (repeat for more hosts)")
    parser.add_argument("--max-pages", type=int, default=0,
                        help="stop after this many pages in this run, 0 = no limit")
    parser.add_argument("--max-bytes", type=int, default=5 * 1024 * 1024,
                        help="largest HTML page parsed, in bytes (default: 5 MiB)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds an HTTP request may take (default: 30)")
    parser.add_argument("--user-agent", default="crawldb-example-crawler/1.0",
                        help="User-Agent header, also the name looked up in robots.txt")
    parser.add_argument("--log", help="append one JSON line per fetch and confirm to this file")
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if not 1 <= args.batch <= 1000:
        parser.error("--batch must be from 1 to 1000")
    if args.lease < 1 or args.timeout <= 0 or args.timeout * 4 > args.lease:
        parser.error("--timeout must be positive and at most a quarter of --lease")
    allowed = {host.lower() for host in args.allow_host}
    if args.same_host:
        if not args.seeds:
            parser.error("--same-host needs the seeds on the command line")
        allowed.update(urllib.parse.urlsplit(seed).hostname or "" for seed in args.seeds)
    args.allowed_hosts = frozenset(allowed)  # empty: every host
    return args


# --- The database -------------------------------------------------------------------------------

def connect(args):
    # timeout= is SQLite's busy_timeout: wait this long for another process's write lock. A
    # worker's visit threads use its connection too (crawl_host_set), under the worker's lock.
    db = sqlite3.connect(args.db, timeout=30, isolation_level=None, check_same_thread=False)
    db.enable_load_extension(True)
    db.load_extension(args.extension)
    db.enable_load_extension(False)
    db.execute("PRAGMA synchronous = NORMAL")  # in WAL mode: commits are not synced (docstring)
    return db


def is_busy(error):
    code = getattr(error, "sqlite_errorcode", 0) & 0xFF  # the primary code of an extended one
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def write_transaction(db, work):
    """Runs work() between BEGIN IMMEDIATE and COMMIT and returns its result. BEGIN IMMEDIATE takes
    the write lock first, so the frontier never sees SQLITE_BUSY_SNAPSHOT; SQLITE_BUSY (the lock
    still held after busy_timeout) rolls back and retries."""
    while True:
        try:
            db.execute("BEGIN IMMEDIATE")
            result = work()
            db.execute("COMMIT")
            return result
        except BaseException as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            if not (isinstance(error, sqlite3.OperationalError) and is_busy(error)):
                raise
            time.sleep(0.1)


def open_database(args):
    """Creates the tables when the database is new, then adds the seeds."""
    db = connect(args)
    db.execute("PRAGMA journal_mode = WAL")  # readers and one writer at a time, across processes

    def create_tables():
        if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'frontier'").fetchone():
            return
        db.execute("CREATE VIRTUAL TABLE urls USING crawldb_urls")
        db.execute(f"CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls, lease={args.lease},"
                   f" max_depth={args.max_depth}, host_delay={args.host_delay!r})")
        db.execute("CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls)")
        db.execute("CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks)")

    def add_seeds():
        for seed in args.seeds:
            if db.execute("SELECT crawl_add(?)", (seed,)).fetchone()[0] is None:
                reason = db.execute("SELECT crawldb_last_refusal()").fetchone()[0]
                print(f"seed refused: {reason}", file=sys.stderr)

    write_transaction(db, create_tables)
    write_transaction(db, add_seeds)
    return db


def frontier_counts(db):
    """The frontier's counts (queued, leased, done, failed, ...) from crawldb_stats()."""
    # In a transaction of its own: crawldb_stats() reads several shadow tables, and a SELECT that
    # names no table holds no read transaction, so each read could see another worker commit
    # (crawldb then reports the tables damaged).
    db.execute("BEGIN")
    try:
        stats = json.loads(db.execute("SELECT crawldb_stats()").fetchone()[0])
    finally:
        db.execute("COMMIT")
    return next(table for table in stats["tables"] if table["table"] == "frontier")


def work_pending(db):
    """True while a URL is queued (or waiting for a retry) or leased by some worker."""
    return db.execute("SELECT EXISTS (SELECT 1 FROM frontier WHERE state = 'queued')"
                      " OR EXISTS (SELECT 1 FROM frontier WHERE state = 'leased')").fetchone()[0]


# --- HTTP ---------------------------------------------------------------------------------------

class NoRedirect(urllib.request.HTTPRedirectHandler):
    """Makes urllib return a 3xx as an HTTPError instead of following it."""

    def redirect_request(self, request, fp, code, message, headers, new_url):
        return None


def http_get(opener, url, user_agent, timeout):
    """Sends a GET. Returns (status, response): the response (an HTTPError for 3xx/4xx/5xx) is
    open, for the caller to read and close; (NETWORK_ERROR, None) when there was no response."""
    request = urllib.request.Request(url, headers={"User-Agent": user_agent})
    try:
        response = opener.open(request, timeout=timeout)
        return response.status, response
    except urllib.error.HTTPError as error:
        return error.code, error
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError):
        return NETWORK_ERROR, None


def read_at_most(response, max_bytes):
    """The body, or None when it is longer than max_bytes."""
    length = response.headers.get("Content-Length", "")
    if length.isdigit() and int(length) > max_bytes:
        return None
    body = response.read(max_bytes + 1)
    return body if len(body) <= max_bytes else None


def followed(links, allowed_hosts):
    """The links worth a crawl_add: http(s), an allowed host, each once."""
    kept = {}
    for link in links:
        try:
            parts = urllib.parse.urlsplit(link)
            host = parts.hostname
        except ValueError:
            continue
        if parts.scheme in ("http", "https") and host and (
                not allowed_hosts or host in allowed_hosts):
            kept[link] = None
    return list(kept)


class Fetcher:
    """One worker's HTTP side: pages (redirects not followed) and robots.txt rules per origin."""

    def __init__(self, args):
        self.args = args
        self.page_opener = urllib.request.build_opener(NoRedirect)
        self.robots_opener = urllib.request.build_opener()  # robots.txt redirects are followed
        self.robots = {}  # origin -> (RobotFileParser, time fetched)

    def robots_rules(self, url):
        """(rules, fresh): the RobotFileParser of url's origin, fresh when just fetched; rules is
        None when robots.txt could not be fetched (network error or 5xx; not cached)."""
        parts = urllib.parse.urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        cached = self.robots.get(origin)
        if cached and time.time() - cached[1] < ROBOTS_CACHE_SECONDS:
            return cached[0], False
        rules = urllib.robotparser.RobotFileParser(origin + "/robots.txt")
        status, response = http_get(self.robots_opener, rules.url, self.args.user_agent,
                                    self.args.timeout)
        if response is None or status >= 500:
            return None, False
        with response:
            if 200 <= status < 300:
                try:
                    body = response.read(ROBOTS_MAX_BYTES)
                except (http.client.HTTPException, OSError):
                    return None, False
                rules.parse(body.decode("utf-8", "replace").splitlines())
            else:
                rules.allow_all = True  # RFC 9309: 4xx means there are no rules
        self.robots[origin] = (rules, time.time())
        return rules, True

    def fetch_page(self, url):
        """GETs url. Returns (status, text, links): text is the HTML of a text/html page of at most
        --max-bytes, else None; links holds the Location of a redirect."""
        status, response = http_get(self.page_opener, url, self.args.user_agent, self.args.timeout)
        if response is None:
            return status, None, []
        with response:
            if status in REDIRECTS:
                location = response.headers.get("Location")
                target = page_links.resolve(url, location) if location else None
                return status, None, [target] if target else []
            if not (200 <= status < 300 and response.headers.get_content_type() in HTML_TYPES):
                return status, None, []
            try:
                body = read_at_most(response, self.args.max_bytes)
            except (http.client.HTTPException, OSError):
                return NETWORK_ERROR, None, []
            if body is None:
                return status, None, []
            try:
                text = body.decode(response.headers.get_content_charset() or "utf-8", "replace")
            except LookupError:  # a charset Python does not know
                text = body.decode("utf-8", "replace")
            return status, text, []


# --- The workers --------------------------------------------------------------------------------

class FetchLog:
    """The --log file: JSON lines, each appended with one write so that workers do not mix."""

    def __init__(self, path):
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if path else None

    def write(self, **event):
        if self.fd is not None:
            event.update(time=time.time(), worker=os.getpid())
            os.write(self.fd, (json.dumps(event) + "\n").encode())


class Totals:
    """What the workers did, shared between processes: pages visited, errors among them, and the
    seconds spent fetching, parsing and in crawldb (summed over the visit threads)."""

    def __init__(self):
        self.pages = multiprocessing.Value("q", 0)
        self.errors = multiprocessing.Value("q", 0)
        self.seconds = multiprocessing.Array("d", 3)

    def add(self, pages, errors, seconds):
        with self.pages.get_lock():
            self.pages.value += pages
        with self.errors.get_lock():
            self.errors.value += errors
        with self.seconds.get_lock():
            for kind, value in enumerate(seconds):
                self.seconds[kind] += value


# What visiting one URL gave: the status for crawl_confirm, the links to add, and the seconds
# spent fetching (robots.txt and the page), parsing and in crawldb (crawl_host_set).
Visit = collections.namedtuple("Visit", "status links fetching parsing crawldb")


class Worker:
    """One worker process: leases a batch, visits it (its hosts side by side), records it in one
    transaction."""

    def __init__(self, args):
        self.args = args
        self.db = connect(args)
        self.db_lock = threading.Lock()  # the visit threads' crawl_host_set
        self.fetcher = Fetcher(args)
        self.log = FetchLog(args.log)
        self.threads = concurrent.futures.ThreadPoolExecutor(args.batch)

    def lease(self, count):
        """[(url, lease_until, host)] of up to count URLs."""
        sql = "SELECT url, lease_until, url_host(url) FROM crawl_lease(?, ?)"
        return write_transaction(self.db, lambda: self.db.execute(
            sql, (count, self.args.lease)).fetchall())

    def visit_batch(self, leased):
        """Visits the leased URLs, the hosts side by side (a thread each) and the URLs of a host one
        after another. Returns the visits in lease order."""
        by_host = {}
        for url, lease_until, host in leased:
            by_host.setdefault(host, []).append((url, lease_until - self.args.lease))
        hosts = list(by_host.values())

        def visit_host(rows):
            return [self.visit(url, leased_at) for url, leased_at in rows]

        done = [visit_host(hosts[0])] if len(hosts) == 1 else self.threads.map(visit_host, hosts)
        visits = {url: visit for rows, results in zip(hosts, done)
                  for (url, _), visit in zip(rows, results)}
        return [visits[url] for url, _, _ in leased]

    def visit(self, url, leased_at):
        """Fetches one leased URL under robots.txt and parses it, in its host's thread. Returns a
        Visit."""
        args = self.args
        started = time.perf_counter()
        rules, fresh = self.fetcher.robots_rules(url)
        if rules is None:
            return Visit(NETWORK_ERROR, [], time.perf_counter() - started, 0.0, 0.0)
        if not rules.can_fetch(args.user_agent, url):
            return Visit(SKIPPED_BY_ROBOTS, [], time.perf_counter() - started, 0.0, 0.0)
        crawldb = 0.0
        if fresh and rules.crawl_delay(args.user_agent):
            # From now on the host's delay is its Crawl-delay, counted from the request made now.
            delay = max(float(rules.crawl_delay(args.user_agent)), args.host_delay)
            begun = time.perf_counter()
            with self.db_lock:
                write_transaction(self.db, lambda: self.db.execute(
                    "SELECT crawl_host_set(url_host(?), ?, NULL, ?)",
                    (url, delay, time.time() + delay)))
            crawldb = time.perf_counter() - begun
        self.log.write(event="fetch", url=url, leased_at=leased_at)
        status, text, links = self.fetcher.fetch_page(url)
        fetched = time.perf_counter()
        if text is not None:
            links = page_links.links(url, text, args.parser)
        links = followed(links, args.allowed_hosts)
        parsed = time.perf_counter()
        return Visit(status, links, fetched - started - crawldb, parsed - fetched, crawldb)

    def record(self, pages):
        """Adds the links of each (url, status, links) and confirms it. Returns crawl_confirm's
        answers (1: it was leased)."""
        confirmed = []
        for url, status, links in pages:
            for link in links:
                self.db.execute("SELECT crawl_add(?, ?)", (link, url))
            confirmed.append(
                self.db.execute("SELECT crawl_confirm(?, ?)", (url, status)).fetchone()[0])
        return confirmed

    def run(self, stop, totals):
        args = self.args
        while not stop.is_set():
            wanted = args.batch
            if args.max_pages:
                wanted = min(wanted, args.max_pages - totals.pages.value)
                if wanted <= 0:
                    return
            begun = time.perf_counter()
            leased = self.lease(wanted)
            if not leased:
                if not work_pending(self.db):
                    return  # the crawl is over
                time.sleep(IDLE_SECONDS)
                continue
            crawldb = time.perf_counter() - begun
            visits = self.visit_batch(leased)
            pages = [(url, visit.status, visit.links) for (url, _, _), visit in zip(leased, visits)]
            begun = time.perf_counter()
            confirmed = write_transaction(self.db, lambda: self.record(pages))
            crawldb += time.perf_counter() - begun
            for (url, status, links), answer in zip(pages, confirmed):
                self.log.write(event="confirm", url=url, status=status, links=len(links),
                               confirmed=bool(answer))
            errors = sum(1 for visit in visits
                         if visit.status < 0 or visit.status >= 500 or visit.status == 429)
            totals.add(len(pages), errors, [sum(visit.fetching for visit in visits),
                                            sum(visit.parsing for visit in visits),
                                            crawldb + sum(visit.crawldb for visit in visits)])

    def close(self):
        self.threads.shutdown()
        self.db.close()


def worker(args, stop, totals):
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent turns Ctrl-C into `stop`
    crawler = Worker(args)
    try:
        crawler.run(stop, totals)
    finally:
        crawler.close()


def print_progress(db, started, totals):
    counts = frontier_counts(db)
    pages = totals.pages.value
    rate = pages / max(time.time() - started, 1e-9)
    print(f"pages {counts['done'] + counts['failed']} ({pages} this run, {rate:.1f}/s), "
          f"queue {counts['queued']}, leased {counts['leased']}, errors {totals.errors.value}",
          file=sys.stderr, flush=True)


def print_summary(args, seconds, totals):
    """Pages per second of the run and the split of the workers' time."""
    spent = list(totals.seconds)
    busy = max(sum(spent), 1e-9)
    shares = ", ".join(f"{name} {100 * value / busy:.0f}%"
                       for name, value in zip(("fetching", "parsing", "crawldb"), spent))
    print(f"{totals.pages.value} pages in {seconds:.2f} s: {totals.pages.value / seconds:.1f}"
          f" pages/s ({args.workers} workers, batch {args.batch}, {args.parser}); time in the"
          f" workers: {shares}", file=sys.stderr, flush=True)


def main(argv=None):
    args = parse_args(argv)
    open_database(args).close()
    stop = multiprocessing.Event()
    totals = Totals()
    workers = [multiprocessing.Process(target=worker, args=(args, stop, totals),
                                       name=f"worker-{number}")
               for number in range(1, args.workers + 1)]
    started = time.time()
    for process in workers:
        process.start()
    db = connect(args)  # for the progress line; opened after the fork, so no child shares it
    next_progress = started + PROGRESS_SECONDS
    reported = set()
    while any(process.is_alive() for process in workers):
        try:
            time.sleep(0.05)
            if time.time() >= next_progress:
                print_progress(db, started, totals)
                next_progress += PROGRESS_SECONDS
        except KeyboardInterrupt:
            if stop.is_set():
                print("stopping now; URLs in hand are leased until their lease expires",
                      file=sys.stderr)
                for process in workers:
                    process.terminate()
            else:
                print("stopping after the batches in hand (Ctrl-C again: now)", file=sys.stderr)
                stop.set()
        for process in workers:
            if process.exitcode not in (None, 0) and process.name not in reported:
                reported.add(process.name)
                print(f"{process.name} (pid {process.pid}) ended with exit code"
                      f" {process.exitcode}", file=sys.stderr)
    seconds = time.time() - started
    print_progress(db, started, totals)
    print_summary(args, seconds, totals)
    finished = not work_pending(db)
    db.close()
    if stop.is_set():
        print("interrupted: run the same command again to resume", file=sys.stderr)
        return 130
    if finished:
        print("crawl finished", file=sys.stderr)
    elif args.max_pages and totals.pages.value >= args.max_pages:
        print(f"stopped after --max-pages {args.max_pages}", file=sys.stderr)
    return 1 if reported else 0


if __name__ == "__main__":
    sys.exit(main())
