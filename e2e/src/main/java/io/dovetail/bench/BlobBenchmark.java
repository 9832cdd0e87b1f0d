/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.dovetail.bench;

import org.apache.flink.types.Row;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static io.dovetail.bench.SqlBenchmark.DOVETAIL;
import static io.dovetail.bench.SqlBenchmark.PAIMON;
import static io.dovetail.bench.SqlBenchmark.inTurn;

/**
 * {@code blob}: a table of images and embeddings, Dovetail against Apache Paimon 1.4.2's Flink
 * connector in one JVM on one embedded cluster at parallelism 2, engines alternating per round, the
 * first round a warm-up. The table: {@code id}, {@code caption STRING}, {@code img} (a BLOB of
 * {@code --blob-kb} kB) and {@code emb} (a VECTOR of {@code --dim} floats in Avro vector-store
 * files). Per round and engine:
 *
 * <ol>
 *   <li>{@code insert}: {@code --rows} generated rows;
 *   <li>{@code scan-without-blob}: {@code id}, {@code caption}, {@code emb} aggregated; the access
 *       times of the table's {@code .blob} files are set to the epoch first, so the bytes of every
 *       {@code .blob} file the scan read are counted ({@code blob_bytes_read});
 *   <li>{@code caption-backfill}: a merge of a new caption for every row from a source table
 *       (Dovetail's {@code data_evolution_merge}, Paimon's {@code data_evolution_merge_into}),
 *       counting the bytes of the {@code .blob} files it added ({@code blob_bytes_written});
 *   <li>{@code full-read}: every column, the images' bytes included (a normal column in the
 *       projection: Paimon 1.4.2 fails a read of BLOB and vector columns alone,
 *       apache/paimon#7936).
 * </ol>
 *
 * Every result is checked (row count, sums of caption lengths, image lengths and vector elements);
 * a wrong result of Dovetail fails the benchmark, Paimon's are counted. Summary: {@code
 * speedup_vs_paimon_insert}, {@code speedup_vs_paimon_scan_without_blob} (Paimon median / Dovetail
 * median), {@code blob_bytes_read_without_blob} and {@code blob_bytes_written_by_caption_backfill}
 * (Dovetail's, targets 0), with Paimon's figures beside them.
 */
final class BlobBenchmark {

    private static final String BENCH = "blob";
    private static final int PARALLELISM = 2;

    private final BenchSqlSession sql;
    private final int rows;
    private final int blobBytes;
    private final int dim;
    private final int rounds;
    private final Path root;
    private final Timings timings = new Timings();
    private final Map<String, Long> blobBytesRead = new HashMap<>();
    private final Map<String, Long> blobBytesWritten = new HashMap<>();
    private final Map<String, String> failures = new HashMap<>();
    private int wrongResults;

    private BlobBenchmark(
            BenchSqlSession sql, int rows, int blobKb, int dim, int repeats, Path root) {
        this.sql = sql;
        this.rows = rows;
        this.blobBytes = blobKb * 1024;
        this.dim = dim;
        this.rounds = repeats + 1;
        this.root = root;
    }

    static void run(BenchArgs args) throws Exception {
        int rows = args.intValue("rows", 20_000);
        int blobKb = args.intValue("blob-kb", 256);
        int dim = args.intValue("dim", 768);
        int repeats = args.intValue("repeats", 3);
        Path root = Files.createTempDirectory("dovetail-bench-blob");
        try (BenchSqlSession sql = new BenchSqlSession(PARALLELISM)) {
            sql.set("table.dml-sync", "true"); // Paimon's procedures return at submission otherwise
            sql.function("bench_image", BenchFunctions.Image.class);
            sql.function("bench_vector", BenchFunctions.Vector.class);
            sql.function("bench_length", BenchFunctions.Length.class);
            sql.execute(SqlBenchmark.catalog(DOVETAIL, DOVETAIL, root.resolve(DOVETAIL)));
            sql.execute(SqlBenchmark.paimonCatalog(root.resolve(PAIMON)));
            sql.execute(SqlBenchmark.idGenerator(rows));
            BlobBenchmark bench = new BlobBenchmark(sql, rows, blobKb, dim, repeats, root);
            for (int round = 0; round < bench.rounds; round++) {
                for (String engine : inTurn(round, DOVETAIL, PAIMON)) {
                    bench.round(engine, round);
                }
            }
            bench.summary(repeats);
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    private void round(String engine, int round) throws IOException {
        String table = "media_" + round;
        String name = engine + ".`default`." + table;
        Path dir = root.resolve(engine).resolve("default.db").resolve(table);
        sql.execute(
                "CREATE TABLE "
                        + name
                        + " (id BIGINT, caption STRING, img BYTES, emb ARRAY<FLOAT>) WITH ("
                        + SqlBenchmark.tableOptions(
                                "'blob-field' = 'img'",
                                "'vector-field' = 'emb'",
                                "'field.emb.vector-dim' = '" + dim + "'",
                                "'vector.file.format' = 'avro'")
                        + ")");
        timed(
                engine,
                "insert",
                round,
                "INSERT INTO "
                        + name
                        + " SELECT id, 'caption-' || CAST(id AS STRING), bench_image(id, "
                        + blobBytes
                        + "), bench_vector(id, "
                        + dim
                        + ") FROM generated");
        check(engine, "insert", name, "COUNT(*)", rows);

        resetBlobAccessTimes(dir);
        Row scan =
                timedQuery(
                        engine,
                        "scan-without-blob",
                        round,
                        "SELECT COUNT(*), SUM(CAST(CHAR_LENGTH(caption) AS BIGINT)), SUM(CAST(emb["
                                + dim
                                + "] AS DOUBLE)) FROM "
                                + name);
        long read = blobBytesReadSinceReset(dir);
        record(engine, round, "scan-without-blob", "blob_bytes_read", read, blobBytesRead);
        checkRow(
                engine,
                "scan-without-blob",
                scan,
                Row.of((long) rows, captionChars(""), vectorSum(dim - 1)));

        String source = engine + ".`default`.captions_" + round;
        sql.execute(
                "CREATE TABLE "
                        + source
                        + " (id BIGINT, caption STRING) WITH ("
                        + SqlBenchmark.tableOptions()
                        + ")");
        sql.execute(
                "INSERT INTO "
                        + source
                        + " SELECT id, 'v2-caption-' || CAST(id AS STRING) FROM generated");
        Map<String, Long> blobsBefore = blobFiles(dir);
        try {
            timed(engine, "caption-backfill", round, merge(engine, table, "captions_" + round));
            long written = newBlobBytes(blobsBefore, blobFiles(dir));
            record(
                    engine,
                    round,
                    "caption-backfill",
                    "blob_bytes_written",
                    written,
                    blobBytesWritten);
            check(
                    engine,
                    "caption-backfill",
                    name,
                    "SUM(CAST(CHAR_LENGTH(caption) AS BIGINT))",
                    captionChars("v2-"));
        } catch (IllegalStateException e) {
            if (engine.equals(DOVETAIL)) {
                throw e;
            }
            failures.put("caption-backfill", String.valueOf(rootCause(e).getMessage()));
            System.err.println("warning: paimon's caption backfill failed: " + rootCause(e));
        }

        Row full =
                timedQuery(
                        engine,
                        "full-read",
                        round,
                        "SELECT COUNT(*), COUNT(caption), SUM(bench_length(img)),"
                                + " SUM(CAST(emb[1] AS DOUBLE)) FROM "
                                + name);
        checkRow(
                engine,
                "full-read",
                full,
                Row.of((long) rows, (long) rows, (long) rows * blobBytes, vectorSum(0)));
        sql.execute("DROP TABLE " + name);
        sql.execute("DROP TABLE " + source);
        if (Files.exists(dir)) {
            BenchSupport.deleteRecursively(dir);
        }
    }

    private static String merge(String engine, String table, String source) {
        if (engine.equals(PAIMON)) {
            return "CALL paimon.sys.data_evolution_merge_into('default."
                    + table
                    + "', '', '', 'default."
                    + source
                    + "', '"
                    + table
                    + ".id = "
                    + source
                    + ".id', 'caption = "
                    + source
                    + ".caption', "
                    + PARALLELISM
                    + ")";
        }
        return "CALL dovetail.sys.data_evolution_merge(target => 'default."
                + table
                + "', source => 'default."
                + source
                + "', merge_condition => 't.id = s.id', matched_update_set => 'caption ="
                + " s.caption', parallelism => "
                + PARALLELISM
                + ")";
    }

    private void timed(String engine, String phase, int round, String statement) {
        long start = System.nanoTime();
        sql.execute(statement);
        report(engine, phase, round, System.nanoTime() - start);
    }

    private Row timedQuery(String engine, String phase, int round, String query) {
        long start = System.nanoTime();
        Row row = sql.row(query);
        report(engine, phase, round, System.nanoTime() - start);
        return row;
    }

    private void report(String engine, String phase, int round, long elapsed) {
        if (round > 0) {
            timings.add(phase, engine, elapsed);
        }
        new Measurement(BENCH, phase)
                .put("engine", engine)
                .put("round", round)
                .put("warmup", round == 0)
                .put("blob_kb", blobBytes / 1024)
                .put("dim", dim)
                .timing(rows, elapsed)
                .print();
    }

    private void record(
            String engine,
            int round,
            String phase,
            String key,
            long bytes,
            Map<String, Long> into) {
        new Measurement(BENCH, phase)
                .put("engine", engine)
                .put("round", round)
                .put(key, bytes)
                .print();
        into.merge(engine, bytes, Math::max);
    }

    private void check(String engine, String phase, String table, String aggregate, long expected) {
        checkRow(
                engine, phase, sql.row("SELECT " + aggregate + " FROM " + table), Row.of(expected));
    }

    /** Fails the benchmark on a wrong result of Dovetail; counts Paimon's. */
    private void checkRow(String engine, String phase, Row actual, Row expected) {
        if (expected.equals(actual)) {
            return;
        }
        String message = phase + " gave " + actual + ", not " + expected;
        if (engine.equals(DOVETAIL)) {
            throw new ResultMismatch(message);
        }
        wrongResults++;
        System.err.println("warning: " + engine + "'s result is wrong: " + message);
    }

    /** The characters of captions {@code prefix + "caption-" + id} over all ids. */
    private long captionChars(String prefix) {
        long chars = 0;
        for (long id = 0; id < rows; id++) {
            chars += prefix.length() + "caption-".length() + Long.toString(id).length();
        }
        return chars;
    }

    /** The sum over all rows of element {@code i} of {@code bench_vector}. */
    private double vectorSum(int i) {
        double sum = 0;
        for (long id = 0; id < rows; id++) {
            sum += (id + i) % 1000;
        }
        return sum;
    }

    private static void resetBlobAccessTimes(Path table) throws IOException {
        for (Path blob : blobPaths(table)) {
            Files.getFileAttributeView(blob, BasicFileAttributeView.class)
                    .setTimes(null, FileTime.fromMillis(0), null);
        }
    }

    /** The bytes of the {@code .blob} files read since their access times were reset. */
    private static long blobBytesReadSinceReset(Path table) throws IOException {
        long bytes = 0;
        for (Path blob : blobPaths(table)) {
            BasicFileAttributes attributes = Files.readAttributes(blob, BasicFileAttributes.class);
            if (attributes.lastAccessTime().toMillis() > 0) {
                bytes += attributes.size();
            }
        }
        return bytes;
    }

    private static Map<String, Long> blobFiles(Path table) throws IOException {
        Map<String, Long> sizes = new HashMap<>();
        for (Path blob : blobPaths(table)) {
            sizes.put(blob.toString(), Files.size(blob));
        }
        return sizes;
    }

    private static long newBlobBytes(Map<String, Long> before, Map<String, Long> after) {
        long bytes = 0;
        for (Map.Entry<String, Long> file : after.entrySet()) {
            if (!before.containsKey(file.getKey())) {
                bytes += file.getValue();
            }
        }
        return bytes;
    }

    private static List<Path> blobPaths(Path table) throws IOException {
        if (!Files.exists(table)) {
            return List.of();
        }
        try (Stream<Path> paths = Files.walk(table)) {
            return paths.filter(p -> p.getFileName().toString().endsWith(".blob")).toList();
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private void summary(int repeats) {
        double insertDovetail = timings.medianMs("insert", DOVETAIL);
        double insertPaimon = timings.medianMs("insert", PAIMON);
        double scanDovetail = timings.medianMs("scan-without-blob", DOVETAIL);
        double scanPaimon = timings.medianMs("scan-without-blob", PAIMON);
        Measurement summary =
                new Measurement(BENCH, "summary")
                        .put("rows", rows)
                        .put("blob_kb", blobBytes / 1024)
                        .put("dim", dim)
                        .put("repeats", repeats)
                        .put("parallelism", PARALLELISM)
                        .put("median_insert_ms_dovetail", insertDovetail)
                        .put("median_insert_ms_paimon", insertPaimon)
                        .put("median_scan_without_blob_ms_dovetail", scanDovetail)
                        .put("median_scan_without_blob_ms_paimon", scanPaimon)
                        .put(
                                "median_caption_backfill_ms_dovetail",
                                timings.medianMs("caption-backfill", DOVETAIL))
                        .put(
                                "median_full_read_ms_dovetail",
                                timings.medianMs("full-read", DOVETAIL))
                        .put("median_full_read_ms_paimon", timings.medianMs("full-read", PAIMON))
                        .put("speedup_vs_paimon_insert", insertPaimon / insertDovetail)
                        .put("speedup_vs_paimon_scan_without_blob", scanPaimon / scanDovetail)
                        .put("blob_bytes_read_without_blob", blobBytesRead.get(DOVETAIL))
                        .put("paimon_blob_bytes_read_without_blob", blobBytesRead.get(PAIMON))
                        .put(
                                "blob_bytes_written_by_caption_backfill",
                                blobBytesWritten.get(DOVETAIL))
                        .put("paimon_wrong_results", wrongResults)
                        .put("targets", "blob bytes read without blob 0, written by backfill 0");
        if (failures.containsKey("caption-backfill")) {
            summary.put("paimon_caption_backfill_failed", failures.get("caption-backfill"));
        } else {
            summary.put(
                            "median_caption_backfill_ms_paimon",
                            timings.medianMs("caption-backfill", PAIMON))
                    .put(
                            "paimon_blob_bytes_written_by_caption_backfill",
                            blobBytesWritten.get(PAIMON));
        }
        summary.print();
    }
}
