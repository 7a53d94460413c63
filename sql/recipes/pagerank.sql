-- PageRank over the link graph, in plain SQL (sqlite3 shell: .read sql/recipes/pagerank.sql).
--
-- Reads outlinks once into temporary tables, then runs a fixed number of power iterations:
--   rank'(v) = (1 − d) / N + d · (Σ_{u → v} rank(u) / outdegree(u) + Σ_{u dangling} rank(u) / N)
-- with damping d = 0.85 and 30 iterations (change temp.pagerank_params below). N counts every
-- URL of `urls` and every id that appears in `outlinks` (graphs loaded by crawldb_import_arcs
-- have no URLs); a page without outlinks (dangling) spreads its rank evenly over all pages, so
-- the ranks sum to 1. The result is temp.pagerank_rank(id, rank) (not temp.pagerank: crawldb's
-- function pagerank() holds that name); the last statement prints the top 10. Running it again
-- recomputes from scratch. pagerank('outlinks') computes the same ranks from the compressed lists.
DROP TABLE IF EXISTS temp.pagerank_params;
DROP TABLE IF EXISTS temp.pagerank_rank;
DROP TABLE IF EXISTS temp.pagerank_edge;
DROP TABLE IF EXISTS temp.pagerank_iteration;

CREATE TEMP TABLE pagerank_params(damping REAL NOT NULL, iterations INTEGER NOT NULL);
INSERT INTO temp.pagerank_params VALUES (0.85, 30);

CREATE TEMP TABLE pagerank_rank(id INTEGER PRIMARY KEY, outdegree INTEGER NOT NULL DEFAULT 0,
                                rank REAL, next REAL);
INSERT OR IGNORE INTO temp.pagerank_rank(id) SELECT id FROM urls;
INSERT OR IGNORE INTO temp.pagerank_rank(id) SELECT src FROM outlinks;
INSERT OR IGNORE INTO temp.pagerank_rank(id) SELECT dst FROM inlinks;

CREATE TEMP TABLE pagerank_edge(src INTEGER NOT NULL, dst INTEGER NOT NULL);
INSERT INTO temp.pagerank_edge SELECT src, dst FROM outlinks;
UPDATE temp.pagerank_rank SET outdegree = d.n
  FROM (SELECT src, count(*) AS n FROM temp.pagerank_edge GROUP BY src) AS d
  WHERE d.src = pagerank_rank.id;
UPDATE temp.pagerank_rank SET rank = 1.0 / (SELECT count(*) FROM temp.pagerank_rank);

-- One iteration per row inserted into pagerank_iteration (a temporary trigger may only name
-- its own schema's tables unqualified in UPDATE).
CREATE TEMP TABLE pagerank_iteration(i INTEGER);
CREATE TEMP TRIGGER pagerank_step AFTER INSERT ON pagerank_iteration BEGIN
  UPDATE pagerank_rank SET next =
    (1 - (SELECT damping FROM temp.pagerank_params)) / (SELECT count(*) FROM temp.pagerank_rank)
    + (SELECT damping FROM temp.pagerank_params)
      * (SELECT coalesce(sum(rank), 0) FROM temp.pagerank_rank WHERE outdegree = 0)
      / (SELECT count(*) FROM temp.pagerank_rank);
  UPDATE pagerank_rank SET next = next + (SELECT damping FROM temp.pagerank_params) * c.share
    FROM (SELECT e.dst AS id, sum(p.rank / p.outdegree) AS share
            FROM temp.pagerank_edge AS e JOIN temp.pagerank_rank AS p ON p.id = e.src
           GROUP BY e.dst) AS c
    WHERE c.id = pagerank_rank.id;
  UPDATE pagerank_rank SET rank = next;
END;
WITH RECURSIVE step(i) AS (
  SELECT 1 UNION ALL SELECT i + 1 FROM step, temp.pagerank_params WHERE i < iterations)
INSERT INTO temp.pagerank_iteration SELECT i FROM step;

SELECT p.id, u.url, printf('%.6f', p.rank) AS rank
  FROM temp.pagerank_rank AS p LEFT JOIN urls AS u ON u.id = p.id
 ORDER BY p.rank DESC, p.id LIMIT 10;
