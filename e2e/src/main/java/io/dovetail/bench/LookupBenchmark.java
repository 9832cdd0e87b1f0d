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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static io.dovetail.bench.SqlBenchmark.DOVETAIL;
import static io.dovetail.bench.SqlBenchmark.PAIMON;
import static io.dovetail.bench.SqlBenchmark.inTurn;

/**
 * {@code lookup}: point lookups by an indexed key, in one JVM on one embedded cluster at
 * parallelism 2. Each engine writes its own N-row table {@code (id, k, v)} with {@code k = MD5(id)}
 * (keys in random order, so file statistics cannot prune) and builds a B-tree index on {@code k}
 * with its {@code create_global_index} (Dovetail's distributed job, Apache Paimon 1.4.2's
 * procedure), each after filling and indexing a warm-up table of N/20 rows. Then {@code --lookups}
 * queries {@code SELECT id, k, v FROM t WHERE k = '<key of a random id>'}, taking turns: Dovetail
 * with the index, Paimon with its index; and {@code --full-scans} of them by Dovetail without the
 * index ({@code 'global-index.enabled' = 'false'}). Each answer must be exactly the row of that id.
 *
 * <p>Summary: median milliseconds per lookup, {@code speedup_vs_full_scan} (Dovetail without the
 * index / with it; target 10) and {@code speedup_vs_paimon_indexed} (Paimon / Dovetail, both
 * indexed; target 1.5). Every lookup is one Flink job of each engine, planning included; {@code
 * flink_job_floor_ms} is the median of a query of two literal rows ({@code VALUES}) run after each
 * lookup, the least any lookup through a Flink job costs on the same cluster, and {@code
 * speedup_vs_full_scan_above_floor} compares the two reads by what each costs above it.
 */
final class LookupBenchmark {

    private static final String BENCH = "lookup";
    private static final int PARALLELISM = 2;
    private static final String INDEXED = "indexed";
    private static final String FULL_SCAN = "full-scan";
    private static final String FLOOR = "floor";

    private final BenchSqlSession sql;
    private final long rows;
    private final Timings timings = new Timings();

    private LookupBenchmark(BenchSqlSession sql, long rows) {
        this.sql = sql;
        this.rows = rows;
    }

    static void run(BenchArgs args) throws Exception {
        long rows = args.intValue("rows", 20_000_000);
        int lookups = args.intValue("lookups", 100);
        int fullScans = args.intValue("full-scans", 15);
        Path root = Files.createTempDirectory("dovetail-bench-lookup");
        try (BenchSqlSession sql = new BenchSqlSession(PARALLELISM)) {
            sql.set("table.dml-sync", "true");
            sql.execute(SqlBenchmark.catalog(DOVETAIL, DOVETAIL, root));
            sql.execute(SqlBenchmark.paimonCatalog(root));
            LookupBenchmark bench = new LookupBenchmark(sql, rows);
            bench.fill();
            bench.lookUp(lookups, fullScans);
            bench.summary(lookups, fullScans);
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    /**
     * Each engine fills and indexes a table of a twentieth of the rows first (the JVM's first jobs
     * run several times slower, whichever engine runs them), then its measured table.
     */
    private void fill() {
        sql.execute(new BenchColumns(2).generatorTable("warm_up", Math.max(rows / 20, 1_000)));
        sql.execute(new BenchColumns(2).generatorTable("generated", rows));
        for (String engine : List.of(DOVETAIL, PAIMON)) {
            fill(engine, "warm_up_" + engine, "warm_up");
        }
        for (String engine : List.of(DOVETAIL, PAIMON)) {
            long[] elapsed = fill(engine, table(engine), "generated");
            new Measurement(BENCH, "fill")
                    .put("engine", engine)
                    .put("rows", rows)
                    .put("insert_ms", elapsed[0] / 1e6)
                    .put("index_build_ms", elapsed[1] / 1e6)
                    .print();
        }
    }

    /** Fills {@code table} from {@code generator} and indexes it; returns both nanoseconds. */
    private long[] fill(String engine, String table, String generator) {
        String name = engine + ".`default`." + table;
        sql.execute(
                "CREATE TABLE "
                        + name
                        + " (id BIGINT, k STRING, v STRING) WITH ("
                        + SqlBenchmark.tableOptions()
                        + ")");
        long start = System.nanoTime();
        sql.execute(
                "INSERT INTO "
                        + name
                        + " SELECT id, MD5(CAST(id AS STRING)),"
                        + " CONCAT('value-', CAST(id AS STRING)) FROM "
                        + generator);
        long written = System.nanoTime();
        sql.execute(
                "CALL "
                        + engine
                        + ".sys.create_global_index(`table` => 'default."
                        + table
                        + "', index_column => 'k', index_type => 'btree')");
        return new long[] {written - start, System.nanoTime() - written};
    }

    private void lookUp(int lookups, int fullScans) {
        SplittableRandom random = new SplittableRandom(17);
        for (int warmUp = 0; warmUp < 3; warmUp++) {
            long id = random.nextLong(rows);
            for (String engine : List.of(DOVETAIL, PAIMON)) {
                query(engine, id, true);
            }
            query(DOVETAIL, id, false);
        }
        for (int i = 0; i < lookups; i++) {
            long id = random.nextLong(rows);
            for (String engine : inTurn(i, DOVETAIL, PAIMON)) {
                timings.add(INDEXED, engine, query(engine, id, true));
            }
            if (i < fullScans) {
                timings.add(FULL_SCAN, DOVETAIL, query(DOVETAIL, id, false));
            }
            timings.add(FLOOR, FLOOR, floor());
        }
    }

    /** Looks up the key of {@code id}; checks the answer; returns the elapsed nanoseconds. */
    private long query(String engine, long id, boolean indexed) {
        String hint = indexed ? "" : " /*+ OPTIONS('global-index.enabled' = 'false') */";
        String query =
                "SELECT id, k, v FROM "
                        + engine
                        + ".`default`."
                        + table(engine)
                        + hint
                        + " WHERE k = '"
                        + key(id)
                        + "'";
        long start = System.nanoTime();
        List<Row> answer = sql.rows(query);
        long elapsed = System.nanoTime() - start;
        if (answer.size() != 1
                || !Long.valueOf(id).equals(answer.get(0).getField(0))
                || !("value-" + id).equals(answer.get(0).getField(2))) {
            throw new IllegalStateException(
                    engine + " answered " + answer + " for the key of id " + id + ": " + query);
        }
        return elapsed;
    }

    /** Runs a query of literal rows; returns the elapsed nanoseconds. */
    private long floor() {
        long start = System.nanoTime();
        List<Row> answer = sql.rows("SELECT x FROM (VALUES (1), (2)) AS v(x) WHERE x = 1");
        long elapsed = System.nanoTime() - start;
        if (answer.size() != 1) {
            throw new IllegalStateException("VALUES answered " + answer);
        }
        return elapsed;
    }

    private void summary(int lookups, int fullScans) {
        double dovetail = timings.medianMs(INDEXED, DOVETAIL);
        double paimon = timings.medianMs(INDEXED, PAIMON);
        double fullScan = timings.medianMs(FULL_SCAN, DOVETAIL);
        double floor = timings.medianMs(FLOOR, FLOOR);
        new Measurement(BENCH, "summary")
                .put("rows", rows)
                .put("lookups", lookups)
                .put("full_scans", fullScans)
                .put("dovetail_indexed_ms", dovetail)
                .put("dovetail_full_scan_ms", fullScan)
                .put("paimon_indexed_ms", paimon)
                .put("flink_job_floor_ms", floor)
                .put("speedup_vs_full_scan", fullScan / dovetail)
                .put("speedup_vs_paimon_indexed", paimon / dovetail)
                .put("speedup_vs_full_scan_above_floor", (fullScan - floor) / (dovetail - floor))
                .print();
    }

    private static String table(String engine) {
        return "lookup_" + engine;
    }

    private static String key(long id) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("MD5")
                                    .digest(String.valueOf(id).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
