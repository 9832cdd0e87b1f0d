-- Licensed to the Apache Software Foundation (ASF) under the Apache License, Version 2.0.
--
-- Dovetail embedding pipeline: bin/dovetail-sql -f examples/embed-stream.sql
-- Documents with an image arrive in a streaming INSERT; a second streaming job reads each new row
-- and writes one computed column, an embedding, back by _ROW_ID. The embedding is written as files
-- of that column alone: the images are never rewritten.

-- Like the quickstart, this keeps to the quickstart database; a rerun starts over.
CREATE DATABASE IF NOT EXISTS quickstart COMMENT 'Dovetail quickstart (examples/quickstart.sql)';
USE quickstart;
DROP TABLE IF EXISTS docs;

CREATE TABLE docs (
    id BIGINT,
    body STRING,
    image BYTES,
    embedding ARRAY<FLOAT>
) COMMENT 'Created by examples/embed-stream.sql; rerunning it replaces it'
WITH (
    'row-tracking.enabled' = 'true',
    'data-evolution.enabled' = 'true'
);

SET 'execution.runtime-mode' = 'streaming';
SET 'execution.checkpointing.interval' = '1 s';

-- 1. Documents arrive: a streaming INSERT, exactly once, one commit per checkpoint. Here 1,000
--    generated documents at 500 a second; in production a message queue.
CREATE TEMPORARY TABLE arrivals (id BIGINT) WITH (
    'connector' = 'datagen',
    'fields.id.kind' = 'sequence',
    'fields.id.start' = '1',
    'fields.id.end' = '1000',
    'rows-per-second' = '500'
);

INSERT INTO docs
SELECT id,
       CONCAT('document ', CAST(id AS STRING)),
       ENCODE(CONCAT('image of document ', CAST(id AS STRING)), 'UTF-8'),
       CAST(NULL AS ARRAY<FLOAT>)
FROM arrivals;

-- 2. The embedding job. A streaming read of docs emits the rows each snapshot appends (the
--    default 'scan.changelog-mode' = 'insert-only'), so this job never reads its own updates.
--    Replace the ARRAY expression by your model: a UDF returning ARRAY<FLOAT>
--    (CREATE FUNCTION embed AS 'com.example.Embed' USING JAR '...').
--    In production the job runs until stopped, filling every new row as it arrives: leave out
--    'scan.bounded'. Here it processes the rows written so far and ends, so the script can go on.
INSERT INTO `docs$column_updates` (_ROW_ID, embedding)
SELECT _ROW_ID,
       ARRAY[CAST(CHAR_LENGTH(body) AS FLOAT) / 16,
             CAST(MOD(id, 7) AS FLOAT) / 7,
             CAST(MOD(id, 11) AS FLOAT) / 11,
             CAST(MOD(id, 13) AS FLOAT) / 13]
FROM `docs$row_tracking` /*+ OPTIONS('scan.bounded' = 'true') */;

-- 3. Every row has its embedding.
SET 'execution.runtime-mode' = 'batch';
SELECT COUNT(*) AS docs, COUNT(embedding) AS embedded FROM docs;
SELECT _ROW_ID, id, body, embedding FROM docs WHERE id <= 3 ORDER BY _ROW_ID;

-- Each row-range group: the appended file holds the images (write_cols NULL: every column), the
-- embedding is a file of its own.
SELECT first_row_id, last_row_id, record_count, write_cols
FROM `docs$files` ORDER BY first_row_id, max_sequence_number;
