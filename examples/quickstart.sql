-- Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0.
--
-- Dovetail quickstart: bin/dovetail-sql -f examples/quickstart.sql
-- A partitioned data-evolution table: rows get a stable _ROW_ID; a new column is backfilled by
-- writing that column alone, and deletes become deletion vectors.

-- The quickstart keeps to a database of its own, so no table of yours is touched; a rerun starts
-- over by dropping the table the previous run made.
CREATE DATABASE IF NOT EXISTS quickstart COMMENT 'Dovetail quickstart (examples/quickstart.sql)';
USE quickstart;
DROP TABLE IF EXISTS media;

CREATE TABLE media (
    id BIGINT,
    url STRING,
    caption STRING,
    dt STRING
) COMMENT 'Created by examples/quickstart.sql; rerunning it replaces it'
PARTITIONED BY (dt) WITH (
    'row-tracking.enabled' = 'true',
    'data-evolution.enabled' = 'true',
    -- DELETE FROM needs deletion vectors. Apache Paimon 1.4.2 does not support them on
    -- data-evolution tables: leave this out if Paimon 1.4.2 must read or write the table too.
    'deletion-vectors.enabled' = 'true'
);

INSERT INTO media VALUES
    (1, 'https://example.com/1.jpg', 'a red bicycle', '2026-12-01'),
    (2, 'https://example.com/2.jpg', 'two cats on a sofa', '2026-12-01'),
    (3, 'https://example.com/3.jpg', CAST(NULL AS STRING), '2026-12-02'),
    (4, 'https://example.com/4.jpg', 'a lighthouse at dusk', '2026-12-02');

-- Evolve the schema, then backfill the new column: only files of that column are written.
ALTER TABLE media ADD (caption_len INT);

UPDATE media SET caption_len = CHAR_LENGTH(caption) WHERE caption IS NOT NULL;

DELETE FROM media WHERE id = 2;

-- _ROW_ID is a virtual metadata column: SELECT * leaves it out, naming it selects it.
SELECT _ROW_ID, * FROM media ORDER BY _ROW_ID;

-- How the rows are laid out: row-range groups and the files that provide each column.
SELECT * FROM `media$row_groups`;
