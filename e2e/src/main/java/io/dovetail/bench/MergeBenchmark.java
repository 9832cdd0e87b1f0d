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
import java.util.List;

import static io.dovetail.bench.SqlBenchmark.DOVETAIL;
import static io.dovetail.bench.SqlBenchmark.PAIMON;
import static io.dovetail.bench.SqlBenchmark.inTurn;

/**
 * {@code merge}: Dovetail's {@code CALL sys.data_evolution_merge} against Apache Paimon 1.4.2's
 * {@code CALL sys.data_evolution_merge_into}, in one JVM on one embedded cluster at parallelism 2,
 * both with a shuffled join ({@code table.optimizer.join.broadcast-threshold = -1}, broadcast and
 * nested-loop joins disabled: the plan under which Paimon's result is right). Per round and engine
 * fresh N x M tables (ids 0..N-1, c1 = id / 2 + 1) get c1 from a source table keyed by id: one for
 * 1% of the rows (every 100th id: every row-range group is touched), one for 100%. Each result is
 * checked (row count and the sum of c1). Dovetail also runs a self-merge on {@code _ROW_ID} (1%)
 * and a width sweep (1% on tables of 2, 20 and 100 columns of {@code --sweep-rows} rows).
 *
 * <p>Summary: {@code speedup_vs_paimon_100} and {@code speedup_vs_paimon_1} (Paimon median /
 * Dovetail median; targets 3 and 2) and {@code merge_width_growth} (100 vs 2 columns; target at
 * most 1.2).
 */
final class MergeBenchmark {

    private static final String BENCH = "merge";
    private static final int PARALLELISM = 2;
    private static final List<Integer> SWEEP_WIDTHS = List.of(2, 20, 100);

    private final BenchSqlSession sql;
    private final int rows;
    private final int cols;
    private final int rounds;
    private final int sweepRows;
    private final Path root;
    private final Timings timings = new Timings();
    private int wrongResults;

    private MergeBenchmark(
            BenchSqlSession sql, int rows, int cols, int repeats, int sweepRows, Path root) {
        this.sql = sql;
        this.rows = rows;
        this.cols = cols;
        this.rounds = repeats + 1;
        this.sweepRows = sweepRows;
        this.root = root;
    }

    static void run(BenchArgs args) throws Exception {
        int rows = args.intValue("rows", 2_000_000);
        int cols = args.intValue("cols", 20);
        int repeats = args.intValue("repeats", 3);
        int sweepRows = args.intValue("sweep-rows", Math.max(1000, rows / 4));
        Path root = Files.createTempDirectory("dovetail-bench-merge");
        try (BenchSqlSession sql = new BenchSqlSession(PARALLELISM)) {
            sql.set("table.dml-sync", "true"); // Paimon's procedures return at submission otherwise
            sql.set("table.optimizer.join.broadcast-threshold", "-1");
            sql.set("table.exec.disabled-operators", "NestedLoopJoin,BroadcastHashJoin");
            MergeBenchmark bench = new MergeBenchmark(sql, rows, cols, repeats, sweepRows, root);
            sql.execute(SqlBenchmark.catalog(DOVETAIL, DOVETAIL, root.resolve(DOVETAIL)));
            sql.execute(SqlBenchmark.paimonCatalog(root.resolve(PAIMON)));
            bench.againstPaimon();
            bench.widthSweep();
            bench.summary(repeats);
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    private void againstPaimon() throws IOException {
        BenchColumns columns = new BenchColumns(cols);
        sql.execute(columns.generatorTable("generated", rows));
        for (int round = 0; round < rounds; round++) {
            for (String engine : inTurn(round, DOVETAIL, PAIMON)) {
                String sparse = "merge1_" + round;
                String sparseName = createAndFill(engine, sparse, columns, "generated");
                String onePercent = source(engine, "src1_" + round, 10, "MOD(id, 100) = 0");
                measure(engine, "merge-1pct", round, 0.01, merge(engine, sparse, onePercent))
                        .put(
                                "result_correct",
                                check(engine, sparseName, rows, sumOfC1(rows, 0, 10)))
                        .print();
                String dense = "merge100_" + round;
                String denseName = createAndFill(engine, dense, columns, "generated");
                String all = source(engine, "src100_" + round, 10, "TRUE");
                measure(engine, "merge-100pct", round, 1.0, merge(engine, dense, all))
                        .put("result_correct", check(engine, denseName, rows, sumOfC1(rows, 10, 0)))
                        .print();
                if (engine.equals(DOVETAIL)) {
                    String self =
                            "CALL dovetail.sys.data_evolution_merge(target => 'default."
                                    + sparse
                                    + "', source => 'SELECT _ROW_ID, c1 + 1 AS c1 FROM "
                                    + sparse
                                    + " WHERE MOD(id, 100) = 0', merge_condition =>"
                                    + " 't._ROW_ID = s._ROW_ID', matched_update_set => 'c1 ="
                                    + " s.c1', parallelism => "
                                    + PARALLELISM
                                    + ")";
                    measure(engine, "self-merge-1pct", round, 0.01, self)
                            .put(
                                    "result_correct",
                                    check(engine, sparseName, rows, sumOfC1(rows, 0, 11)))
                            .print();
                }
            }
        }
    }

    private void widthSweep() throws IOException {
        for (int width : SWEEP_WIDTHS) {
            BenchColumns columns = new BenchColumns(width);
            String generator = "generated_" + width;
            sql.execute(columns.generatorTable(generator, sweepRows));
            for (int round = 0; round < rounds; round++) {
                String table = "sweep_" + width + "_" + round;
                String name = createAndFill(DOVETAIL, table, columns, generator);
                String source = "dovetail.`default`.sweep_src_" + width + "_" + round;
                sql.execute("CREATE TABLE " + source + " (id BIGINT, c1 DOUBLE)");
                sql.execute(
                        "INSERT INTO "
                                + source
                                + " SELECT id, c1 + 10 FROM "
                                + generator
                                + " WHERE MOD(id, 100) = 0");
                Measurement m =
                        measure(
                                DOVETAIL,
                                "sweep-" + width,
                                round,
                                0.01,
                                merge(DOVETAIL, table, source));
                double expected = sumOfC1(sweepRows, 0, 0) + 10.0 * ((sweepRows + 99) / 100);
                m.put("sweep_rows", sweepRows)
                        .put("result_correct", check(DOVETAIL, name, sweepRows, expected))
                        .print();
            }
        }
    }

    /** A source table in {@code engine}'s catalog giving c1 = id / 2 + 1 + {@code add}. */
    private String source(String engine, String table, int add, String where) {
        String name = engine + ".`default`." + table;
        sql.execute(
                "CREATE TABLE "
                        + name
                        + " (id BIGINT, c1 DOUBLE) WITH ("
                        + SqlBenchmark.tableOptions()
                        + ")");
        sql.execute(
                "INSERT INTO "
                        + name
                        + " SELECT id, CAST(id AS DOUBLE) * 0.5 + 1 + "
                        + add
                        + " FROM generated WHERE "
                        + where);
        return name;
    }

    private String createAndFill(
            String engine, String table, BenchColumns columns, String generator) {
        String name = engine + ".`default`." + table;
        sql.execute(
                "CREATE TABLE "
                        + name
                        + " ("
                        + columns.schema()
                        + ") WITH ("
                        + SqlBenchmark.tableOptions()
                        + ")");
        sql.execute("INSERT INTO " + name + " SELECT " + columns.names() + " FROM " + generator);
        return name;
    }

    /** The engine's merge of c1 from {@code source} (a catalog table) into {@code table}. */
    private static String merge(String engine, String table, String source) {
        String sourceTable = source.substring(source.indexOf('.') + 1).replace("`", "");
        if (engine.equals(PAIMON)) {
            String alias = sourceTable.substring(sourceTable.indexOf('.') + 1);
            return "CALL paimon.sys.data_evolution_merge_into('default."
                    + table
                    + "', '', '', '"
                    + sourceTable
                    + "', '"
                    + table
                    + ".id = "
                    + alias
                    + ".id', 'c1 = "
                    + alias
                    + ".c1', "
                    + PARALLELISM
                    + ")";
        }
        return "CALL dovetail.sys.data_evolution_merge(target => 'default."
                + table
                + "', source => '"
                + sourceTable
                + "', merge_condition => 't.id = s.id', matched_update_set => 'c1 = s.c1',"
                + " parallelism => "
                + PARALLELISM
                + ")";
    }

    /** Runs {@code call}, timed, and the bytes it added to {@code engine}'s warehouse. */
    private Measurement measure(
            String engine, String series, int round, double fraction, String call)
            throws IOException {
        Path dir = root.resolve(engine);
        long before = BenchSupport.directoryBytes(dir);
        long start = System.nanoTime();
        sql.execute(call);
        long elapsed = System.nanoTime() - start;
        boolean warmUp = round == 0;
        if (!warmUp) {
            timings.add(series, engine, elapsed);
        }
        Measurement m =
                new Measurement(BENCH, series)
                        .put("engine", engine)
                        .put("round", round)
                        .put("warmup", warmUp)
                        .put(
                                "cols",
                                series.startsWith("sweep-")
                                        ? Integer.parseInt(series.substring(6))
                                        : cols)
                        .put("fraction", fraction)
                        .timing(series.startsWith("sweep-") ? sweepRows : rows, elapsed)
                        .put("bytes_written", BenchSupport.directoryBytes(dir) - before);
        return m;
    }

    /**
     * The sum of c1 over ids 0..n-1 when every c1 is id / 2 + 1 + {@code all}, plus {@code
     * everyHundredth} more on every 100th id.
     */
    private static double sumOfC1(long n, int all, int everyHundredth) {
        double sum = 0;
        for (long id = 0; id < n; id++) {
            sum += id * 0.5 + 1 + all + (id % 100 == 0 ? everyHundredth : 0);
        }
        return sum;
    }

    /**
     * Whether {@code table} holds {@code count} rows whose c1 sums to {@code sum}. A wrong result
     * of Dovetail fails the benchmark; Paimon's is reported ({@code result_correct}) and counted.
     */
    private boolean check(String engine, String table, long count, double sum) {
        Row expected = Row.of(count, sum);
        Row actual = sql.row("SELECT COUNT(*), SUM(c1) FROM " + table);
        if (expected.equals(actual)) {
            return true;
        }
        String message = "after the merge " + table + " holds " + actual + ", not " + expected;
        if (engine.equals(DOVETAIL)) {
            throw new ResultMismatch(message);
        }
        wrongResults++;
        System.err.println("warning: " + engine + "'s result is wrong: " + message);
        return false;
    }

    private void summary(int repeats) {
        double dovetail100 = timings.medianMs("merge-100pct", DOVETAIL);
        double paimon100 = timings.medianMs("merge-100pct", PAIMON);
        double dovetail1 = timings.medianMs("merge-1pct", DOVETAIL);
        double paimon1 = timings.medianMs("merge-1pct", PAIMON);
        double narrow = timings.medianMs("sweep-2", DOVETAIL);
        double wide = timings.medianMs("sweep-100", DOVETAIL);
        new Measurement(BENCH, "summary")
                .put("rows", rows)
                .put("cols", cols)
                .put("repeats", repeats)
                .put("parallelism", PARALLELISM)
                .put("median_merge_ms_dovetail_100", dovetail100)
                .put("median_merge_ms_paimon_100", paimon100)
                .put("median_merge_ms_dovetail_1", dovetail1)
                .put("median_merge_ms_paimon_1", paimon1)
                .put(
                        "median_self_merge_ms_dovetail_1",
                        timings.medianMs("self-merge-1pct", DOVETAIL))
                .put("speedup_vs_paimon_100", paimon100 / dovetail100)
                .put("speedup_vs_paimon_1", paimon1 / dovetail1)
                .put("sweep_rows", sweepRows)
                .put("median_sweep_ms_2", narrow)
                .put("median_sweep_ms_20", timings.medianMs("sweep-20", DOVETAIL))
                .put("median_sweep_ms_100", wide)
                .put("merge_width_growth", wide / narrow)
                .put("paimon_wrong_results", wrongResults)
                .put("targets", "speedup 100% >= 3, 1% >= 2, width growth <= 1.2")
                .print();
    }
}
