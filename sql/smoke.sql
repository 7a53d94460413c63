-- Loads nothing by itself: run after `.load ./build/release/crawldb` to see that the module works
-- (the shell_load test runs it).
SELECT crawldb_version();
SELECT crawldb_debug();
