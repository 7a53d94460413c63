-- The quickstart's SQL (examples/quickstart.sh runs it with :links bound to the links file).
.bail on
.headers off
.mode list
SELECT 'crawldb ' || crawldb_version() || ' on SQLite ' || sqlite_version();
.output /dev/null
PRAGMA journal_mode = WAL;      -- what a crawler uses: readers never wait for the writer
.output stdout
PRAGMA synchronous = NORMAL;

-- The four tables, then the sample crawl: a links file (paper 001 §2.1) of 4,589 Wikipedia pages.
.read sql/crawldb.sql
SELECT 'import: ' || crawldb_import_links(:links);
SELECT 'optimize: ' || json_extract(crawldb_optimize(), '$.optimized');

-- What a user would keep instead: a plain URL table and a plain edges table with both indexes.
CREATE TABLE plain_urls(id INTEGER PRIMARY KEY, url TEXT UNIQUE);
INSERT INTO plain_urls SELECT id, url FROM urls;
CREATE TABLE plain_links(src INTEGER, dst INTEGER, PRIMARY KEY(src, dst)) WITHOUT ROWID;
CREATE INDEX plain_links_dst ON plain_links(dst, src);
INSERT INTO plain_links SELECT src, dst FROM outlinks;
VACUUM;

.print
.print Sizes in the database file (bytes of its pages, from dbstat; links: both directions):
.headers on
.mode column
WITH pages AS (SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name),
     sizes AS (
       SELECT 'URLs' AS what, (SELECT count(*) FROM urls) AS count,
              (SELECT sum(bytes) FROM pages WHERE name LIKE 'urls\_%' ESCAPE '\') AS crawldb,
              (SELECT sum(bytes) FROM pages
                WHERE name = 'plain_urls' OR name LIKE 'sqlite_autoindex_plain_urls%') AS plain
       UNION ALL
       SELECT 'links', (SELECT count(*) FROM outlinks),
              (SELECT sum(bytes) FROM pages WHERE name LIKE 'outlinks\_%' ESCAPE '\'),
              (SELECT sum(bytes) FROM pages WHERE name IN ('plain_links', 'plain_links_dst')))
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
.print What https://en.wikipedia.org/wiki/Bede links to:
SELECT o.pos, u.url
  FROM outlinks AS o JOIN urls AS u ON u.id = o.dst
 WHERE o.src = url_id('https://en.wikipedia.org/wiki/Bede');

.print
.print PageRank (sql/recipes/pagerank.sql: damping 0.85, 30 iterations), top 10:
.read sql/recipes/pagerank.sql
