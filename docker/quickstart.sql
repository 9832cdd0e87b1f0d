-- Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0.
--
-- Dovetail's Docker quick start, run by Flink's SQL client against the compose cluster:
--   docker compose -f docker/docker-compose.yml run --rm sql-client
-- The warehouse is the volume mounted at /warehouse in every container.

SET 'execution.runtime-mode' = 'batch';
-- Each statement waits for its job, so the next one sees its snapshot.
SET 'table.dml-sync' = 'true';
-- One writer: row ids follow the order of the VALUES below (all literals, so one Values source).
SET 'parallelism.default' = '1';
SET 'sql-client.execution.result-mode' = 'tableau';

CREATE CATALOG dovetail WITH ('type' = 'dovetail', 'warehouse' = 'file:///warehouse');
USE CATALOG dovetail;

-- The quickstart keeps to a database of its own; a rerun starts over.
CREATE DATABASE IF NOT EXISTS quickstart;
USE quickstart;
DROP TABLE IF EXISTS media;

-- A data-evolution table: every row gets a stable _ROW_ID.
CREATE TABLE media (
    id BIGINT,
    url STRING,
    caption STRING
) WITH (
    'row-tracking.enabled' = 'true',
    'data-evolution.enabled' = 'true'
);

INSERT INTO media VALUES
    (1, 'https://example.com/1.jpg', 'a red bicycle'),
    (2, 'https://example.com/2.jpg', 'two cats on a sofa'),
    (3, 'https://example.com/3.jpg', 'a bowl of ramen'),
    (4, 'https://example.com/4.jpg', 'a lighthouse at dusk');

-- Add a column and backfill it: the UPDATE writes files of that column alone.
ALTER TABLE media ADD (caption_len INT);

UPDATE media SET caption_len = CHAR_LENGTH(caption);

-- _ROW_ID is a virtual metadata column: name it to select it.
SELECT _ROW_ID, id, caption, caption_len FROM media ORDER BY _ROW_ID;
