-- How often the side to move is in check, by stage of the game (plies in bands of 20), over the
-- Parquet parts that `examples/dask_map.py --out-dir parts -- analyze --format parquet
-- --features inCheck` writes (one row per position; a bad game's row has only game and error).
-- Run it with DuckDB from the directory that holds parts/:
--   duckdb < examples/in_check_by_ply.sql
SELECT
  ply // 20 * 20 AS from_ply,
  count(*) AS positions,
  count(DISTINCT (filename, game)) AS games,
  round(100 * avg(inCheck::INTEGER), 2) AS in_check_pct
FROM read_parquet('parts/*.parquet', filename = true)
WHERE error IS NULL
GROUP BY from_ply
ORDER BY from_ply;
