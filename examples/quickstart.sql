-- The quickstart's SQL, run on the crawl examples/quickstart.sh made, with :site bound to the
-- crawled site (http://127.0.0.1:PORT/) and :plain to a scratch file for the plain tables.
.bail on
.headers off
.mode list
SELECT 'crawldb ' || crawldb_version() || ' on SQLite ' || sqlite_version();
SELECT 'crawled: ' || group_concat(state || ' ' || n, ', ')
  FROM (SELECT state, count(*) AS n FROM frontier GROUP BY state ORDER BY state);
SELECT 'optimize: ' || json_extract(crawldb_optimize(), '$.optimized');

-- What a user would keep instead: a plain URL table and a plain edges table with both indexes, in
-- a database of their own so that the crawl stays as it was.
ATTACH :plain AS plain;
CREATE TABLE plain.plain_urls(id INTEGER PRIMARY KEY, url TEXT UNIQUE);
INSERT INTO plain_urls SELECT id, url FROM urls;
CREATE TABLE plain.plain_links(src INTEGER, dst INTEGER, PRIMARY KEY(src, dst)) WITHOUT ROWID;
CREATE INDEX plain.plain_links_dst ON plain_links(dst, src);
INSERT INTO plain_links SELECT src, dst FROM outlinks;
VACUUM main;
VACUUM plain;

.print
.print Sizes in the database files (bytes of their pages, from dbstat; links: both directions):
.headers on
.mode column
WITH crawldb AS (SELECT name, sum(pgsize) AS bytes FROM dbstat('main') GROUP BY name),
     plain AS (SELECT name, sum(pgsize) AS bytes FROM dbstat('plain') GROUP BY name),
     sizes AS (
       SELECT 'URLs' AS what, (SELECT count(*) FROM urls) AS count,
              (SELECT sum(bytes) FROM crawldb WHERE name LIKE 'urls\_%' ESCAPE '\') AS crawldb,
              (SELECT sum(bytes) FROM plain
                WHERE name = 'plain_urls' OR name LIKE 'sqlite_autoindex_plain_urls%') AS plain
       UNION ALL
       SELECT 'links', (SELECT count(*) FROM outlinks),
              (SELECT sum(bytes) FROM crawldb WHERE name LIKE 'outlinks\_%' ESCAPE '\'),
              (SELECT sum(bytes) FROM plain WHERE name IN ('plain_links', 'plain_links_dst')))
SELECT what, count, crawldb AS crawldb_bytes, plain AS plain_bytes,
       printf('%.1f', 1.0 * crawldb / count) AS crawldb_per_item,
       printf('%.1f', 1.0 * plain / count) AS plain_per_item,
       printf('%.1fx', 1.0 * plain / crawldb) AS smaller
  FROM sizes;

.print
.print The ten pages with most inlinks:
SELECT u.url, count(*) AS inlinks
  FROM inlinks AS i JOIN urls AS u ON u.id = i.dst
 GROUP BY i.dst ORDER BY inlinks DESC, u.url LIMIT 10;

.print
.print What the tutorial's first page links to:
SELECT o.pos, u.url
  FROM outlinks AS o JOIN urls AS u ON u.id = o.dst
 WHERE o.src = url_id(:site || 'tutorial/index.html');

.print
.print PageRank (sql/recipes/pagerank.sql: damping 0.85, 30 iterations), top 10:
.read sql/recipes/pagerank.sql
