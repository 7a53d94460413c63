-- crawldb's tables with their default options. Load the extension first:
--   sqlite3 my.db '.load ./build/release/crawldb' '.read sql/crawldb.sql'
-- The frontier and link tables (frontier, outlinks, inlinks) are added here as they land.
CREATE VIRTUAL TABLE urls USING crawldb_urls;
