-- crawldb's tables with their default options. Load the extension first:
--   sqlite3 my.db '.load ./build/release/crawldb' '.read sql/crawldb.sql'
CREATE VIRTUAL TABLE urls USING crawldb_urls;
CREATE VIRTUAL TABLE frontier USING crawldb_frontier(urls);
CREATE VIRTUAL TABLE outlinks USING crawldb_links(urls);
CREATE VIRTUAL TABLE inlinks USING crawldb_inlinks(outlinks);
