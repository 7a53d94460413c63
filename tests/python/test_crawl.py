"""examples/crawler.py end to end, on a real site: the Python 3.11 documentation of Debian's
python3.11-doc (scripts/install-deps.sh installs it).

Three sites, each served by `python3 -m http.server` on its own loopback address:
  127.0.0.1  a copy of the documentation: the seed is its index.html
  127.0.0.2  a second copy (another host, another registrable domain: an IP literal is its own)
  127.0.0.3  five small pages whose robots.txt disallows /private/ and asks for Crawl-delay: 1
The copies get a few cross-host links, all to the index page of another site, so that every site
has one page of depth 1 (see "Why the expected result is exact" below).

The crawl runs with 2 workers, each leasing 4 URLs at a time (--batch 4) and visiting them side by
side. Once 150 pages are confirmed, one worker is stopped in the middle of a batch (it has logged a
fetch, not the batch's confirms) and SIGKILLed; the crawl goes on, then gets the SIGINT of a Ctrl-C
and stops (exit 130); a second run of the same command resumes and finishes.

What is checked, against a model computed from the served files (the test's own parser, the
http.server rules, robots.txt, crawl_add's depth rule; URLs normalised by url_normalize):
  - the frontier holds exactly the URLs within max_depth of the seed, each `done` with its depth
    and status (200, 404, or 0 when robots.txt disallows it);
  - fetched once: every page the model fetches was requested exactly once (the servers' access
    logs), no other page was requested, except the pages the killed worker had fetched and not
    confirmed: each is requested at most twice and fetched twice by the crawler's --log, the
    second time under a lease taken after the first lease expired. Every URL is confirmed once
    (the crawler's --log);
  - politeness: per host, two leases are at least the host's delay apart (0.05 s; 1 s for the
    host with a Crawl-delay, whose requests are also 1 s apart, less 0.2 s of slack);
  - outlinks (joined with urls) holds only links parsed from the fetched pages, and every such
    link except those crawl_add refuses by the depth rule (see below); inlinks is its transpose.

Why the expected result is exact although two workers race. crawl_add gives a URL its depth when
first added and never lowers it. The frontier leases each host's URLs shallowest first, and every
site here has a single page of depth 1 (cross-host links all point to an index page), so with
max_depth 3 all depth-2 URLs of a site are known before any of its depth-2 pages is leased, and
a depth-3 URL can only come from a depth-2 page: every URL gets the depth of its shortest path.
A link from a depth-3 page P to another page X of its site is refused when P is processed before
X is known (X would get depth 4), and recorded when X is already known (at depth 3): that alone
depends on the order, and the test allows exactly it.
"""
import collections
import hashlib
import html.parser
import json
import os
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

EXTENSION = os.environ["CRAWLDB_EXTENSION"]
HERE = os.path.dirname(os.path.abspath(__file__))
CRAWLER = os.path.join(HERE, "..", "..", "examples", "crawler.py")
DOCS = "/usr/share/doc/python3.11/html"

HOSTS = ("127.0.0.1", "127.0.0.2", "127.0.0.3")
MAX_DEPTH = 3
HOST_DELAY = 0.05
CRAWL_DELAY = 1.0  # robots.txt of 127.0.0.3
LEASE = 8          # seconds: the killed worker's URL is leased again after this
TIMEOUT = 2        # HTTP timeout, at most LEASE / 4
MAX_BYTES = 1_000_000  # contents.html and genindex-all.html are larger: fetched, not parsed
BATCH = 4          # URLs a worker leases at a time
SKIPPED_BY_ROBOTS = 0  # the crawler's status for a URL robots.txt disallows
KILL_AFTER = 150   # confirmed pages before a worker is killed
SIGINT_AFTER = 30  # more confirmed pages before the Ctrl-C

SMALL_SITE = {
    "robots.txt": "User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n",
    "index.html": '<a href="a.html">a</a> <a href="b.html">b</a> <a href="private/secret.html">'
                  's</a> <a href="notes.txt">notes</a> <a href="{host1}/index.html">docs</a> '
                  '<a href="mailto:someone@example.org">mail</a> <a href="http://example.com/">x</a>',
    "a.html": '<link rel="stylesheet" href="style.css"><a href="index.html">index</a> '
              '<a href="b.html#part">b</a> <a href="{host2}/index.html">mirror</a>',
    "b.html": '<A HREF="a.html">a</A> <a href="missing.html">gone</a> <a href="b.html">self</a>',
    "style.css": "p { margin: 0 }",
    "notes.txt": 'not parsed: <a href="hidden.html">',
    "private/secret.html": '<a href="hidden.html">hidden</a>',
    "hidden.html": "never reached",
}


class LinkCollector(html.parser.HTMLParser):
    """The href of every <a> and <link> start tag, as written."""

    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag in ("a", "link"):
            self.hrefs.extend(value for name, value in attrs if name == "href" and value)


def free_port(host):
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def wait_for(condition, timeout, what):
    deadline = time.time() + timeout
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def read_log(path):
    if not os.path.exists(path):
        return []
    with open(path) as log:
        return [json.loads(line) for line in log if line.endswith("\n")]


class CrawlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.path.isdir(DOCS):
            raise AssertionError(f"{DOCS} is missing: install python3.11-doc "
                                 "(scripts/install-deps.sh)")
        cls.folder = tempfile.TemporaryDirectory()
        cls.addClassCleanup(cls.folder.cleanup)
        cls.db_sql = sqlite3.connect(":memory:")
        cls.db_sql.enable_load_extension(True)
        cls.db_sql.load_extension(EXTENSION)
        cls.addClassCleanup(cls.db_sql.close)
        cls.ports = [free_port(host) for host in HOSTS]
        cls.origins = [f"http://{host}:{port}" for host, port in zip(HOSTS, cls.ports)]
        cls.roots = [os.path.join(cls.folder.name, f"site{n}") for n in (1, 2, 3)]
        cls.make_sites()
        cls.servers = []
        for host, port, root in zip(HOSTS, cls.ports, cls.roots):
            log = open(os.path.join(cls.folder.name, f"{host}.log"), "w")
            cls.addClassCleanup(log.close)
            server = subprocess.Popen(
                [sys.executable, "-m", "http.server", "--bind", host, "--directory", root,
                 str(port)], stdout=subprocess.DEVNULL, stderr=log)
            cls.servers.append(server)
            cls.addClassCleanup(server.wait)
            cls.addClassCleanup(server.terminate)
        for host, port in zip(HOSTS, cls.ports):
            wait_for(lambda: cls.accepts(host, port), 20, f"http.server on {host}:{port}")

    @staticmethod
    def accepts(host, port):
        try:
            socket.create_connection((host, port), timeout=1).close()
            return True
        except OSError:
            return False

    @classmethod
    def make_sites(cls):
        host1, host2, host3 = cls.origins
        for root in cls.roots[:2]:
            shutil.copytree(DOCS, root, symlinks=True)
        cls.append_links(cls.roots[0], "index.html", [f"{host2}/index.html", f"{host3}/"])
        cls.append_links(cls.roots[0], "tutorial/index.html", [f"{host2}/index.html#top"])
        cls.append_links(cls.roots[1], "tutorial/index.html",
                         [f"{host1}/index.html", "https://docs.python.org/3/"])
        cls.append_links(cls.roots[1], "index.html", [f"{host2}/./index.html"])
        for name, text in SMALL_SITE.items():
            path = os.path.join(cls.roots[2], name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as out:
                out.write(text.replace("{host1}", host1).replace("{host2}", host2))

    @staticmethod
    def append_links(root, name, urls):
        path = os.path.join(root, name)
        os.chmod(path, 0o644)
        with open(path, encoding="utf-8") as page:
            text = page.read()
        anchors = "".join(f'<a href="{url}">cross-host</a>' for url in urls)
        assert "</body>" in text, path
        with open(path, "w", encoding="utf-8") as page:
            page.write(text.replace("</body>", anchors + "</body>", 1))

    def setUp(self):
        self.normalised = {}  # url -> url_normalize(url)
        self.hrefs = {}       # sha1 of a served HTML file -> its hrefs
        self.domains = {}     # host -> url_domain

    # --- The model: what the crawl must do, from the served files ------------------------------

    def sql(self, query, *args):
        return self.db_sql.execute(query, args).fetchone()[0]

    def normalise(self, url):
        if url not in self.normalised:
            self.normalised[url] = self.sql("SELECT url_normalize(?)", url)
        return self.normalised[url]

    def domain(self, url):
        host = urllib.parse.urlsplit(url).hostname
        if host not in self.domains:
            self.domains[host] = self.sql("SELECT url_domain(?)", url)
        return self.domains[host]

    def served_file(self, url):
        """(site index, file path) that http.server answers url with."""
        parts = urllib.parse.urlsplit(url)
        site = self.origins.index(f"{parts.scheme}://{parts.netloc}")
        path = urllib.parse.unquote(parts.path)
        if path.endswith("/"):
            path += "index.html"
        file = os.path.join(self.roots[site], path.lstrip("/"))
        self.assertFalse(os.path.isdir(file), f"{url}: http.server would redirect")
        return site, file

    def status_of(self, url):
        site, file = self.served_file(url)
        if site == 2 and urllib.parse.urlsplit(url).path.startswith("/private/"):
            return SKIPPED_BY_ROBOTS
        return 200 if os.path.isfile(file) else 404

    def links_of(self, url):
        """The normalised links the crawler must follow from url: <a>/<link> of a parsed page,
        http(s) on the three hosts."""
        if self.status_of(url) != 200:
            return []
        _, file = self.served_file(url)
        if not file.endswith(".html") or os.path.getsize(file) > MAX_BYTES:
            return []
        with open(file, "rb") as page:
            content = page.read()
        digest = hashlib.sha1(content).digest()
        if digest not in self.hrefs:
            collector = LinkCollector()
            collector.feed(content.decode("utf-8", "replace"))
            self.hrefs[digest] = collector.hrefs
        links = {}
        for href in self.hrefs[digest]:
            target = urllib.parse.urljoin(url, href.strip())
            parts = urllib.parse.urlsplit(target)
            if parts.scheme in ("http", "https") and parts.hostname in HOSTS:
                normalised = self.normalise(target)
                if normalised is not None:
                    links[normalised] = None
        return list(links)

    def build_model(self, seed):
        """depth by URL (crawl_add's rule, shortest path) and links by parsed URL."""
        depth, links = {seed: 1}, {}
        layer = [seed]
        while layer:  # breadth first; a URL reached again at a smaller depth is expanded again
            next_layer = []
            for url in layer:
                links[url] = self.links_of(url)
                for target in links[url]:
                    same = self.domain(url) == self.domain(target)
                    new_depth = depth[url] + 1 if same else 1
                    if new_depth <= MAX_DEPTH and new_depth < depth.get(target, MAX_DEPTH + 1):
                        depth[target] = new_depth
                        next_layer.append(target)
            layer = next_layer
        return depth, links

    # --- The crawl ---------------------------------------------------------------------------

    def crawler(self, seeds):
        command = [sys.executable, CRAWLER, "--db", self.db_path, "--extension", EXTENSION,
                   "--workers", "2", "--batch", str(BATCH), "--max-depth", str(MAX_DEPTH),
                   "--host-delay", str(HOST_DELAY), "--lease", str(LEASE), "--timeout",
                   str(TIMEOUT), "--max-bytes", str(MAX_BYTES), "--log", self.log_path]
        for host in HOSTS:
            command += ["--allow-host", host]
        process = subprocess.Popen(command + seeds, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.addCleanup(self.end_crawler, process)
        return process

    @staticmethod
    def end_crawler(process):
        """Kills what is left of a crawler (parent and workers) when a check failed early."""
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # all gone
        process.communicate()

    def confirmed(self):
        return [event for event in read_log(self.log_path) if event["event"] == "confirm"]

    def kill_a_worker_mid_page(self):
        """SIGKILLs a worker that has fetched a page of its batch, and confirmed none of the batch.
        Returns its pid."""
        deadline = time.time() + 60
        while time.time() < deadline:
            pids = {event["worker"] for event in read_log(self.log_path)}
            for pid in pids:
                os.kill(pid, signal.SIGSTOP)
                events = [event for event in read_log(self.log_path) if event["worker"] == pid]
                if events[-1]["event"] == "fetch":
                    os.kill(pid, signal.SIGKILL)
                    return pid
                os.kill(pid, signal.SIGCONT)
            time.sleep(0.01)
        raise AssertionError("no worker was caught between a fetch and its confirm")

    def test_crawl_kill_interrupt_resume(self):
        seed = f"{self.origins[0]}/index.html"
        self.db_path = os.path.join(self.folder.name, "crawl.db")
        self.log_path = os.path.join(self.folder.name, "fetches.jsonl")
        started = time.time()

        first = self.crawler([seed])
        wait_for(lambda: len(self.confirmed()) >= KILL_AFTER or first.poll() is not None, 120,
                 f"{KILL_AFTER} confirmed pages")
        self.assertIsNone(first.poll(), "the crawl ended before the kill")
        victim = self.kill_a_worker_mid_page()
        survivors = lambda: [e for e in self.confirmed() if e["worker"] != victim]
        count = len(survivors())
        wait_for(lambda: len(survivors()) >= count + SIGINT_AFTER, 60, "the surviving worker")
        os.killpg(first.pid, signal.SIGINT)
        output, _ = first.communicate(timeout=60)
        self.assertEqual(first.returncode, 130, output)
        self.assertIn(f"(pid {victim}) ended with exit code -9", output)
        self.assertIn("interrupted: run the same command again to resume", output)

        second = self.crawler([])
        output, _ = second.communicate(timeout=240)
        self.assertEqual(second.returncode, 0, output)
        self.assertIn("crawl finished", output)
        print(f"\ncrawl: {time.time() - started:.1f} s", file=sys.stderr)

        depth, links = self.build_model(self.normalise(seed))
        db = sqlite3.connect(self.db_path)
        db.enable_load_extension(True)
        db.load_extension(EXTENSION)
        self.addCleanup(db.close)
        self.assertEqual(db.execute("SELECT crawldb_check()").fetchone()[0], "ok")
        events = read_log(self.log_path)
        self.check_frontier(db, depth)
        self.check_fetched_once(depth, events, victim)
        self.check_politeness(events)
        self.check_links(db, depth, links)

    # --- The checks ---------------------------------------------------------------------------

    def check_frontier(self, db, depth):
        rows = {url: (state, d, status) for url, state, d, status in
                db.execute("SELECT url, state, depth, status FROM frontier")}
        self.assertEqual(sorted(rows), sorted(depth))
        expected = {url: ("done", depth[url], self.status_of(url)) for url in depth}
        self.assertEqual(rows, expected)
        self.assertGreater(len(rows), 900)
        self.assertEqual(collections.Counter(row[2] for row in rows.values())[SKIPPED_BY_ROBOTS], 1)

    def requests(self):
        """Page requests seen by the servers (robots.txt excluded): normalised URL -> count."""
        counts = collections.Counter()
        for host, origin in zip(HOSTS, self.origins):
            with open(os.path.join(self.folder.name, f"{host}.log")) as log:
                for path in re.findall(r'"GET (\S+) HTTP/1\.[01]"', log.read()):
                    if path != "/robots.txt":
                        counts[self.normalise(origin + path)] += 1
        return counts

    def check_fetched_once(self, depth, events, victim):
        fetched = {url for url in depth if self.status_of(url) != SKIPPED_BY_ROBOTS}
        requests = self.requests()
        self.assertEqual(set(requests), fetched)
        # The killed worker's pages: those it fetched after its last confirm (it was stopped in
        # the middle of that batch).
        mine = [e for e in events if e["worker"] == victim]
        self.assertEqual(mine[-1]["event"], "fetch")
        confirms = [n for n, e in enumerate(mine) if e["event"] == "confirm"]
        lost = {e["url"] for e in mine[confirms[-1] + 1 if confirms else 0:]}
        self.assertLessEqual(len(lost), BATCH)
        twice = {url: n for url, n in requests.items() if n != 1}
        self.assertLessEqual(set(twice), lost)
        self.assertLessEqual(set(twice.values()), {2})
        for url in lost:
            fetches = [e for e in events if e["event"] == "fetch" and e["url"] == url]
            self.assertEqual(len(fetches), 2, url)
            self.assertGreaterEqual(fetches[1]["leased_at"], fetches[0]["leased_at"] + LEASE - 1e-6)
        # Every URL confirmed once, by a worker that held its lease.
        confirms = collections.Counter(e["url"] for e in events if e["event"] == "confirm")
        self.assertEqual(dict(confirms), {url: 1 for url in depth})
        self.assertTrue(all(e["confirmed"] for e in events if e["event"] == "confirm"))

    def check_politeness(self, events):
        """Leases of one host are the host's delay apart (the frontier's clock); the requests of the
        host with a Crawl-delay of 1 s are too, but for the time a worker takes from its lease to
        the request (milliseconds; up to tens of ms on a loaded machine, so not checked at 0.05 s)."""
        by_host = collections.defaultdict(list)
        for event in events:
            if event["event"] == "fetch":
                by_host[urllib.parse.urlsplit(event["url"]).hostname].append(event)
        self.assertEqual(sorted(by_host), list(HOSTS))
        for host, fetches in by_host.items():
            delay = CRAWL_DELAY if host == HOSTS[2] else HOST_DELAY
            leases = sorted(e["leased_at"] for e in fetches)
            self.assertGreaterEqual(min(b - a for a, b in zip(leases, leases[1:])), delay - 1e-6,
                                    host)
            self.assertTrue(all(e["leased_at"] <= e["time"] for e in fetches), host)
        starts = sorted(e["time"] for e in by_host[HOSTS[2]])
        self.assertGreaterEqual(min(b - a for a, b in zip(starts, starts[1:])), CRAWL_DELAY - 0.2)

    def check_links(self, db, depth, links):
        recorded = set(db.execute("SELECT s.url, d.url FROM outlinks o JOIN urls s ON s.id = o.src"
                                  " JOIN urls d ON d.id = o.dst"))
        parsed = {(page, target) for page, targets in links.items() if page in depth
                  for target in targets if target != page}
        self.assertLessEqual(recorded, parsed)
        for page, target in parsed - recorded:  # only what the depth rule refuses
            self.assertEqual(depth[page], MAX_DEPTH, (page, target))
            self.assertEqual(depth.get(target, MAX_DEPTH), MAX_DEPTH, (page, target))
            self.assertEqual(self.domain(page), self.domain(target), (page, target))
        self.assertGreater(len(recorded), 30000)
        transposed = set(db.execute("SELECT src, dst FROM inlinks"))
        self.assertEqual(transposed, set(db.execute("SELECT src, dst FROM outlinks")))
        print(f"links: {len(recorded)} recorded, {len(parsed - recorded)} refused by the depth "
              f"rule", file=sys.stderr)


class BatchTest(unittest.TestCase):
    """--batch: a worker leases BATCH_SIZE URLs at a time and confirms them together; the crawler
    ends with pages/s and the split of its time."""

    PAGES = 40  # index.html links to the 39 others
    BATCH_SIZE = 5

    def test_leases_and_confirms_in_batches(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        site = os.path.join(folder.name, "site")
        os.mkdir(site)
        names = [f"p{n}.html" for n in range(1, self.PAGES)]
        with open(os.path.join(site, "index.html"), "w") as page:
            page.write("".join(f'<a href="{name}">{name}</a>' for name in names))
        for name in names:
            with open(os.path.join(site, name), "w") as page:
                page.write('<a href="index.html">home</a>')
        port = free_port(HOSTS[0])
        server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", HOSTS[0],
                                   "--directory", site, str(port)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.addCleanup(server.wait)
        self.addCleanup(server.terminate)
        wait_for(lambda: CrawlTest.accepts(HOSTS[0], port), 20, "http.server")
        log_path = os.path.join(folder.name, "fetches.jsonl")
        crawl = subprocess.run(
            [sys.executable, CRAWLER, "--db", os.path.join(folder.name, "crawl.db"),
             "--extension", EXTENSION, "--workers", "1", "--batch", str(self.BATCH_SIZE),
             "--host-delay", "0", "--same-host", "--log", log_path,
             f"http://{HOSTS[0]}:{port}/index.html"],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(crawl.returncode, 0, crawl.stderr)
        self.assertIn("crawl finished", crawl.stderr)

        events = read_log(log_path)
        fetches = [e for e in events if e["event"] == "fetch"]
        self.assertEqual(len(fetches), self.PAGES)
        # One lease for the seed, then leases of BATCH_SIZE URLs (the last one: what is left).
        batches = collections.Counter(e["leased_at"] for e in fetches)
        sizes = [batches[leased_at] for leased_at in sorted(batches)]
        self.assertEqual(sizes, [1] + [5] * 7 + [4])
        # Each batch is confirmed in one go, after all its pages were fetched.
        for leased_at in batches:
            urls = {e["url"] for e in fetches if e["leased_at"] == leased_at}
            last_fetch = max(n for n, e in enumerate(events)
                             if e["event"] == "fetch" and e["url"] in urls)
            confirms = [n for n, e in enumerate(events)
                        if e["event"] == "confirm" and e["url"] in urls]
            self.assertEqual(len(confirms), len(urls))
            self.assertGreater(min(confirms), last_fetch)

        summary = re.search(r"^(\d+) pages in [\d.]+ s: [\d.]+ pages/s \(1 workers, batch 5, "
                            r"(lxml|html\.parser)\); time in the workers: fetching (\d+)%, "
                            r"parsing (\d+)%, crawldb (\d+)%$", crawl.stderr, re.MULTILINE)
        self.assertIsNotNone(summary, crawl.stderr)
        self.assertEqual(int(summary.group(1)), self.PAGES)
        self.assertIn(sum(int(summary.group(n)) for n in (3, 4, 5)), (99, 100, 101))


if __name__ == "__main__":
    unittest.main()
