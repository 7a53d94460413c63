-- Loads nothing by itself: run after `.load ./build/release/crawldb` to see that the module works.
SELECT crawldb_version();
SELECT crawldb_debug();
