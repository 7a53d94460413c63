-- Questions an analyst asks of a crawl, as plain SQL over urls / outlinks / inlinks.
-- Run it on a crawl (scripts/quickstart.sh leaves one in build/quickstart/crawl.db):
--   sqlite3 crawl.db '.load ./build/release/crawldb' '.read examples/analysis.sql'
-- Parameters (.parameter set, before the .read): :page, a URL (default: the most linked page);
-- :host, a host name (default: the host of :page).
.headers on
.mode column --wrap 100
.parameter init
INSERT OR IGNORE INTO temp.sqlite_parameters VALUES
  (':page', (SELECT u.url FROM inlinks AS i JOIN urls AS u ON u.id = i.dst
              GROUP BY i.dst ORDER BY count(*) DESC, u.url LIMIT 1));
INSERT OR IGNORE INTO temp.sqlite_parameters
  SELECT ':host', url_host(value) FROM temp.sqlite_parameters WHERE key = ':page';

.print 1. The most linked pages (inlinks decodes one list per page; the GROUP BY scans them all)
SELECT u.url, count(*) AS inlinks
  FROM inlinks AS i JOIN urls AS u ON u.id = i.dst
 GROUP BY i.dst ORDER BY inlinks DESC, u.url LIMIT 10;

.print
.print 2. Pages that link to :page, with the place of the link on each page
SELECT u.url, i.src AS id,
       (SELECT o.pos FROM outlinks AS o WHERE o.src = i.src AND o.dst = i.dst) AS position
  FROM inlinks AS i JOIN urls AS u ON u.id = i.src
 WHERE i.dst = url_id(:page)
 ORDER BY u.url LIMIT 10;

.print
.print 3. Pages of other hosts that link into :host (none in a one-host crawl)
SELECT a.host AS from_host, count(*) AS links
  FROM urls AS b JOIN inlinks AS i ON i.dst = b.id JOIN urls AS a ON a.id = i.src
 WHERE b.host = :host AND a.host <> :host
 GROUP BY a.host ORDER BY links DESC LIMIT 10;

.print
.print 4. Dangling pages: no outlinks (dead ends for a random surfer), and no inlinks (unreachable)
SELECT (SELECT count(*) FROM urls AS u
         WHERE NOT EXISTS (SELECT 1 FROM outlinks AS o WHERE o.src = u.id)) AS no_outlinks,
       (SELECT count(*) FROM urls AS u
         WHERE NOT EXISTS (SELECT 1 FROM inlinks AS i WHERE i.dst = u.id)) AS no_inlinks;

.print
.print 5. Link counts per host pair
SELECT a.host AS from_host, b.host AS to_host, count(*) AS links
  FROM outlinks AS o JOIN urls AS a ON a.id = o.src JOIN urls AS b ON b.id = o.dst
 GROUP BY a.host, b.host ORDER BY links DESC LIMIT 10;

.print
.print 6. Two-hop neighbourhood of :page: pages reached in two clicks and not in one
SELECT count(DISTINCT two.dst) AS pages_at_two_hops
  FROM outlinks AS one JOIN outlinks AS two ON two.src = one.dst
 WHERE one.src = url_id(:page)
   AND two.dst <> url_id(:page)
   AND two.dst NOT IN (SELECT dst FROM outlinks WHERE src = url_id(:page));

.print
.print 7. Reciprocal links of :page (it links to them and they link back)
SELECT u.url
  FROM outlinks AS o JOIN outlinks AS back ON back.src = o.dst AND back.dst = o.src
  JOIN urls AS u ON u.id = o.dst
 WHERE o.src = url_id(:page);

.print
.print 8. PageRank, top 10 (sql/recipes/pagerank.sql)
.read sql/recipes/pagerank.sql
