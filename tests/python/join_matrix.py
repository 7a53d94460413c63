"""The join matrix of issue 18: every two-table shape of `urls`, `outlinks` and `inlinks`, shared
by tests/python/test_join_plans.py (plans and results in a fresh connection) and bench/joins.py
(times against plain tables).

Each query is written once over the names {urls}, {out} and {in}; `crawldb_sql` fills in the
crawldb tables, `plain_sql` the plain ones: `plain_urls(id INTEGER PRIMARY KEY, url TEXT UNIQUE,
host TEXT)` with an index on host, and one `edges(src, dst)` table, `PRIMARY KEY(src, dst)
WITHOUT ROWID` plus an index on (dst, src), which stands for both link tables (an `inlinks` row
is the same arc as the `outlinks` row). :x is a node with in- and out-links, :url its URL.
Every ORDER BY is total, so the rows compare one for one.

`plan` pins what EXPLAIN QUERY PLAN shows for the crawldb tables, in the order it shows them (an
IN subquery after the loop that consumes its list): one (alias, kind) per loop, kind "scan" for a
full scan (idxNum 0, or an idxStr that starts with "scan", such as the link tables' scan in
the other side's order) or "index" for a look-up.
"""

import re
import sqlite3

CRAWLDB_NAMES = {"urls": "urls", "out": "outlinks", "in": "inlinks"}
PLAIN_NAMES = {"urls": "plain_urls", "out": "edges", "in": "edges"}

PLAIN_SCHEMA = """
CREATE TABLE plain_urls(id INTEGER PRIMARY KEY, url TEXT UNIQUE, host TEXT);
CREATE INDEX plain_urls_host ON plain_urls(host);
CREATE TABLE edges(src INTEGER, dst INTEGER, PRIMARY KEY(src, dst)) WITHOUT ROWID;
CREATE INDEX edges_dst ON edges(dst, src);
"""

# (name, SQL over {urls} {out} {in}, pinned plan)
QUERIES = [
    # urls with outlinks, joined on src and on dst, both FROM orders
    ("urls-outlinks.src",
     "SELECT u.url, count(*) AS n FROM {urls} u JOIN {out} o ON o.src = u.id "
     "GROUP BY u.id ORDER BY n DESC, u.url LIMIT 10",
     [("u", "scan"), ("o", "index")]),
    ("outlinks.src-urls",
     "SELECT u.url, count(*) AS n FROM {out} o JOIN {urls} u ON u.id = o.src "
     "GROUP BY o.src ORDER BY n DESC, u.url LIMIT 10",
     [("o", "scan"), ("u", "index")]),
    ("urls-outlinks.dst",
     "SELECT u.url, count(*) AS n FROM {urls} u JOIN {out} o ON o.dst = u.id "
     "GROUP BY u.id ORDER BY n DESC, u.url LIMIT 10",
     [("u", "scan"), ("o", "index")]),
    ("outlinks.dst-urls",
     "SELECT u.url, count(*) AS n FROM {out} o JOIN {urls} u ON u.id = o.dst "
     "GROUP BY o.dst ORDER BY n DESC, u.url LIMIT 10",
     [("o", "scan"), ("u", "index")]),
    # urls with inlinks, on dst (README's most linked pages) and on src, both FROM orders
    ("inlinks.dst-urls",
     "SELECT u.url, count(*) AS n FROM {in} i JOIN {urls} u ON u.id = i.dst "
     "GROUP BY i.dst ORDER BY n DESC, u.url LIMIT 10",
     [("i", "scan"), ("u", "index")]),
    ("urls-inlinks.dst",
     "SELECT u.url, count(*) AS n FROM {urls} u JOIN {in} i ON i.dst = u.id "
     "GROUP BY u.id ORDER BY n DESC, u.url LIMIT 10",
     [("u", "scan"), ("i", "index")]),
    ("inlinks.src-urls",
     "SELECT u.url, count(*) AS n FROM {in} i JOIN {urls} u ON u.id = i.src "
     "GROUP BY i.src ORDER BY n DESC, u.url LIMIT 10",
     [("i", "scan"), ("u", "index")]),
    ("urls-inlinks.src",
     "SELECT u.url, count(*) AS n FROM {urls} u JOIN {in} i ON i.src = u.id "
     "GROUP BY u.id ORDER BY n DESC, u.url LIMIT 10",
     [("u", "scan"), ("i", "index")]),
    # one page's neighbours, with their URLs
    ("page-outlinks-urls",
     "SELECT v.url FROM {urls} u JOIN {out} o ON o.src = u.id JOIN {urls} v ON v.id = o.dst "
     "WHERE u.url = :url ORDER BY v.url",
     [("u", "index"), ("o", "index"), ("v", "index")]),
    ("page-inlinks-urls",
     "SELECT v.url FROM {in} i JOIN {urls} v ON v.id = i.src WHERE i.dst = :x ORDER BY v.url",
     [("i", "index"), ("v", "index")]),
    # self-joins: two hops, reciprocal links, co-citation, bibliographic coupling
    ("two-hops",
     "SELECT count(DISTINCT b.dst) FROM {out} a JOIN {out} b ON b.src = a.dst WHERE a.src = :x",
     [("a", "index"), ("b", "index")]),
    ("reciprocal",
     "SELECT count(*) FROM {out} a JOIN {out} b ON b.src = a.dst AND b.dst = a.src",
     [("a", "scan"), ("b", "index")]),
    ("reciprocal-inlinks",
     "SELECT count(*) FROM {out} a JOIN {in} b ON b.dst = a.src AND b.src = a.dst",
     [("a", "scan"), ("b", "index")]),
    ("co-citation",
     "SELECT o.dst, count(*) AS n FROM {in} i JOIN {out} o ON o.src = i.src "
     "WHERE i.dst = :x AND o.dst <> :x GROUP BY o.dst ORDER BY n DESC, o.dst LIMIT 10",
     [("i", "index"), ("o", "index")]),
    ("coupling",
     "SELECT i.src, count(*) AS n FROM {out} o JOIN {in} i ON i.dst = o.dst "
     "WHERE o.src = :x AND i.src <> :x GROUP BY i.src ORDER BY n DESC, i.src LIMIT 10",
     [("o", "index"), ("i", "index")]),
    # IN (SELECT …) forms
    ("urls-in-outlinks",
     "SELECT url FROM {urls} WHERE id IN (SELECT dst FROM {out} WHERE src = :x) ORDER BY url",
     [("{urls}", "index"), ("{out}", "index")]),
    ("urls-in-inlinks",
     "SELECT url FROM {urls} WHERE id IN (SELECT src FROM {in} WHERE dst = :x) ORDER BY url",
     [("{urls}", "index"), ("{in}", "index")]),
    ("inlinks-in-urls",
     "SELECT count(*) FROM {in} WHERE dst IN "
     "(SELECT id FROM {urls} WHERE url >= :url AND url < :url || '~')",
     [("{in}", "index"), ("{urls}", "index")]),
    ("outlinks-in-inlinks",
     "SELECT count(*) FROM {out} WHERE src IN (SELECT src FROM {in} WHERE dst = :x)",
     [("{out}", "index"), ("{in}", "index")]),
    # correlated subqueries: pages with no outlinks, pages nobody links to
    ("dangling",
     "SELECT count(*) FROM {urls} u WHERE NOT EXISTS (SELECT 1 FROM {out} o WHERE o.src = u.id)",
     [("u", "scan"), ("o", "index")]),
    ("unlinked",
     "SELECT count(*) FROM {urls} u WHERE NOT EXISTS (SELECT 1 FROM {in} i WHERE i.dst = u.id)",
     [("u", "scan"), ("i", "index")]),
    # ORDER BY variants
    ("order-by-dst",
     "SELECT o.dst, u.url FROM {out} o JOIN {urls} u ON u.id = o.dst WHERE o.src = :x "
     "ORDER BY o.dst",
     [("o", "index"), ("u", "index")]),
    ("order-by-url-desc",
     "SELECT u.url, i.src FROM {in} i JOIN {urls} u ON u.id = i.src WHERE i.dst = :x "
     "ORDER BY u.url DESC",
     [("i", "index"), ("u", "index")]),
    # three tables: host pairs
    ("host-pairs",
     "SELECT a.host, b.host, count(*) AS n FROM {out} o JOIN {urls} a ON a.id = o.src "
     "JOIN {urls} b ON b.id = o.dst GROUP BY 1, 2 ORDER BY n DESC, 1, 2 LIMIT 5",
     [("a", "scan"), ("o", "index"), ("b", "index")]),
]


def crawldb_sql(sql):
    return sql.format(**CRAWLDB_NAMES)


def plain_sql(sql):
    return sql.format(**PLAIN_NAMES)


def pinned_plan(plan):
    """The pinned plan with table names filled in (IN subqueries name the table itself)."""
    return [(crawldb_sql(alias), kind) for alias, kind in plan]


LOOP = re.compile(r"^(?:SCAN|SEARCH) (\S+) VIRTUAL TABLE INDEX (\d+):(.*)$")


def crawldb_plan(db, sql, params):
    """(alias, kind) of each crawldb table loop of EXPLAIN QUERY PLAN, in the order shown, and
    the loops that nest a full scan: a scan that is not the first loop of its block, or that sits
    in a correlated subquery (both run once per outer row)."""
    rows = db.execute("EXPLAIN QUERY PLAN " + crawldb_sql(sql), params).fetchall()
    details = {row[0]: row[3] for row in rows}
    loops, nested_scans = [], []
    loops_in_block = {}
    for node, parent, _, detail in rows:
        match = LOOP.match(detail)
        if not match:
            continue
        alias, index, description = match.group(1), int(match.group(2)), match.group(3)
        kind = "scan" if index == 0 or description.startswith("scan") else "index"
        loops.append((alias, kind))
        earlier = loops_in_block.get(parent, 0)
        loops_in_block[parent] = earlier + 1
        correlated = details.get(parent, "").startswith("CORRELATED")
        if kind == "scan" and (earlier > 0 or correlated):
            nested_scans.append(detail)
    return loops, nested_scans


def load_plain_copy(db):
    """Fills the plain tables from the crawldb tables of `db` (same ids, same arcs)."""
    db.executescript("DROP TABLE IF EXISTS plain_urls; DROP TABLE IF EXISTS edges;" + PLAIN_SCHEMA)
    db.execute("INSERT INTO plain_urls(id, url, host) SELECT id, url, host FROM urls")
    db.execute("INSERT INTO edges(src, dst) SELECT src, dst FROM outlinks")


def connect(path, extension):
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(extension)
    db.enable_load_extension(False)
    return db
