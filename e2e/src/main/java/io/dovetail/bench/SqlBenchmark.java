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

import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.scan.SnapshotFiles;

import org.apache.flink.types.Row;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code sql}: Flink SQL through Dovetail's catalog against Apache Paimon 1.4.2's own Flink
 * connector, in one JVM on one embedded cluster at parallelism 2, on the same generated N x M rows
 * ({@link BenchColumns}). Every phase runs a discarded warm-up round, then R measured rounds that
 * alternate the engines' order.
 *
 * <ul>
 *   <li>{@code insert}: {@code INSERT INTO} a new table from a {@code datagen} sequence, each
 *       engine into a data-evolution table of its own catalog (Parquet, zstd, bucket -1, no key).
 *   <li>{@code read}: {@code SELECT COUNT(*), SUM(..)} over all columns of one table that Dovetail
 *       wrote and then updated ({@code UPDATE t SET c1 = c1 + 1}: one partial-column file per
 *       row-range group), read through Dovetail, through Paimon's catalog over the same warehouse,
 *       and through Flink's {@code filesystem} Parquet source over the base files alone (the engine
 *       floor). Dovetail and Paimon must agree exactly; the floor must agree on every column but
 *       c1, whose sum it reads N smaller.
 *   <li>{@code update} / {@code delete}: Dovetail's {@code UPDATE .. WHERE} of c1 for 1% (every
 *       100th id, so every group is touched) and 100% of the rows, then {@code DELETE FROM ..
 *       WHERE} of another 1%, on a fresh table with deletion vectors per round.
 * </ul>
 *
 * Summary: {@code speedup_vs_paimon_insert} and {@code speedup_vs_paimon_read} = Paimon median /
 * Dovetail median (targets 1.2 and 1.5), {@code ratio_vs_flink_parquet_read} = Flink filesystem
 * median / Dovetail median (target 1.0), and the update and delete medians.
 */
final class SqlBenchmark {

    static final String DOVETAIL = "dovetail";
    static final String PAIMON = "paimon";
    static final String FLINK_PARQUET = "flink-parquet";

    private static final String BENCH = "sql";
    private static final int PARALLELISM = 2;
    private static final String UPDATED = "c1";
    private static final String GENERATOR = "generated";
    private static final String FLOOR_TABLE = "flink_parquet_base";
    private static final String PAIMON_ON_DOVETAIL = "paimon_on_dovetail";
    private static final String READ_TABLE = "read_table";
    private static final String UPDATE_1PCT = "update-1pct";
    private static final String UPDATE_100PCT = "update-100pct";
    private static final String DELETE_1PCT = "delete-1pct";

    private final BenchSqlSession sql;
    private final BenchColumns columns;
    private final int rows;
    private final int cols;
    private final int rounds;
    private final Path root;
    private final Timings timings = new Timings();

    private SqlBenchmark(BenchSqlSession sql, int rows, int cols, int repeats, Path root) {
        this.sql = sql;
        this.columns = new BenchColumns(cols);
        this.rows = rows;
        this.cols = cols;
        this.rounds = repeats + 1;
        this.root = root;
    }

    static void run(BenchArgs args) throws Exception {
        int rows = args.intValue("rows", 2_000_000);
        int cols = args.intValue("cols", 20);
        int repeats = args.intValue("repeats", 3);
        Path root = Files.createTempDirectory("dovetail-bench-sql");
        try (BenchSqlSession sql = new BenchSqlSession(PARALLELISM)) {
            SqlBenchmark bench = new SqlBenchmark(sql, rows, cols, repeats, root);
            bench.createCatalogs();
            bench.insert();
            bench.read();
            bench.updateAndDelete();
            bench.summary(repeats);
        } finally {
            BenchSupport.deleteRecursively(root);
        }
    }

    private void createCatalogs() {
        sql.execute(catalog(DOVETAIL, DOVETAIL, warehouse(DOVETAIL)));
        sql.execute(catalog(PAIMON, PAIMON, warehouse(PAIMON)));
        sql.execute(columns.generatorTable(GENERATOR, rows));
    }

    static String catalog(String name, String type, Path warehouse) {
        return "CREATE CATALOG "
                + name
                + " WITH ('type' = '"
                + type
                + "', 'warehouse' = '"
                + warehouse.toUri()
                + "')";
    }

    /** The catalog {@code paimon} of Apache Paimon over {@code warehouse}, without its cache. */
    static String paimonCatalog(Path warehouse) {
        return "CREATE CATALOG "
                + PAIMON
                + " WITH ('type' = 'paimon', 'cache-enabled' = 'false', 'warehouse' = '"
                + warehouse.toUri()
                + "')";
    }

    /** The temporary table {@code generated}: the ids 0 to {@code rows - 1}, unthrottled. */
    static String idGenerator(long rows) {
        return "CREATE TEMPORARY TABLE generated (id BIGINT) WITH ('connector' = 'datagen',"
                + " 'rows-per-second' = '1000000000', 'number-of-rows' = '"
                + rows
                + "', 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                + " 'fields.id.end' = '"
                + (rows - 1)
                + "')";
    }

    private Path warehouse(String engine) {
        return root.resolve(engine);
    }

    private Path tableDir(String engine, String table) {
        return warehouse(engine).resolve("default.db").resolve(table);
    }

    /** The same options for both engines: a data-evolution table of zstd-compressed Parquet. */
    static String tableOptions(String... extra) {
        List<String> options = new ArrayList<>();
        options.add("'row-tracking.enabled' = 'true'");
        options.add("'data-evolution.enabled' = 'true'");
        options.add("'bucket' = '-1'");
        options.add("'file.format' = 'parquet'");
        options.add("'file.compression' = 'zstd'");
        options.addAll(List.of(extra));
        return String.join(", ", options);
    }

    /** Creates {@code engine}'s table {@code table} and fills it from the generator. */
    private String createTable(String engine, String table, String... extraOptions) {
        String name = engine + ".`default`." + table;
        sql.execute(
                "CREATE TABLE "
                        + name
                        + " ("
                        + columns.schema()
                        + ") WITH ("
                        + tableOptions(extraOptions)
                        + ")");
        return name;
    }

    private String fill(String table) {
        return "INSERT INTO " + table + " SELECT " + columns.names() + " FROM " + GENERATOR;
    }

    private void insert() throws IOException {
        for (int round = 0; round < rounds; round++) {
            for (String engine : inTurn(round, DOVETAIL, PAIMON)) {
                String table = "insert_" + round;
                String name = createTable(engine, table);
                measureStatement(
                                "insert",
                                "insert",
                                engine,
                                round,
                                fill(name),
                                tableDir(engine, table))
                        .print();
                if (round == 0) {
                    expectRows(name, rows);
                }
            }
        }
    }

    private void read() throws IOException {
        String table = createTable(DOVETAIL, READ_TABLE);
        sql.execute(fill(table));
        sql.execute("UPDATE " + table + " SET " + UPDATED + " = " + UPDATED + " + 1");
        sql.execute(catalog(PAIMON_ON_DOVETAIL, PAIMON, warehouse(DOVETAIL)));
        sql.execute(
                "CREATE TEMPORARY TABLE "
                        + FLOOR_TABLE
                        + " ("
                        + columns.schema()
                        + ") WITH ('connector' = 'filesystem', 'format' = 'parquet', 'path' = '"
                        + linkBaseFiles(READ_TABLE).toUri()
                        + "')");
        Map<String, String> sources = new LinkedHashMap<>();
        sources.put(DOVETAIL, table);
        sources.put(PAIMON, PAIMON_ON_DOVETAIL + ".`default`." + READ_TABLE);
        sources.put(FLINK_PARQUET, FLOOR_TABLE);
        ReadResults results = new ReadResults(columns.aggregateOf(UPDATED), rows);
        String query = "SELECT " + columns.aggregates() + " FROM ";
        for (int round = 0; round < rounds; round++) {
            for (String engine : inTurn(round, DOVETAIL, PAIMON, FLINK_PARQUET)) {
                long start = System.nanoTime();
                Row result = sql.row(query + sources.get(engine));
                long elapsed = System.nanoTime() - start;
                record("read", "read", engine, round, elapsed).put("bytes_written", 0L).print();
                results.add(engine, result);
            }
            results.check();
        }
    }

    /**
     * Hard-links the full-row (base) data files of Dovetail's table {@code table} into a directory
     * of their own, the path of the floor's {@code filesystem} table.
     */
    private Path linkBaseFiles(String table) throws IOException {
        Path dir = Files.createDirectory(root.resolve(FLOOR_TABLE));
        TableStore store =
                TableStore.open(
                        new Warehouse(
                                        new org.apache.flink.core.fs.Path(
                                                warehouse(DOVETAIL).toUri()))
                                .table("default", table));
        SnapshotFiles files = store.files(store.latestSnapshot().orElseThrow());
        int base = 0;
        int partial = 0;
        for (ManifestEntry entry : files.liveFiles()) {
            if (entry.file().writeCols() != null) {
                partial++;
                continue;
            }
            Path file = Paths.get(files.dataFilePath(entry).toUri());
            Files.createLink(dir.resolve(file.getFileName()), file);
            base++;
        }
        new Measurement(BENCH, "read-table")
                .put("engine", DOVETAIL)
                .put("rows", rows)
                .put("cols", cols)
                .put("base_files", base)
                .put("partial_column_files", partial)
                .print();
        return dir;
    }

    private void updateAndDelete() throws IOException {
        for (int round = 0; round < rounds; round++) {
            String table = "dml_" + round;
            String name = createTable(DOVETAIL, table, "'deletion-vectors.enabled' = 'true'");
            sql.execute(fill(name));
            Path dir = tableDir(DOVETAIL, table);
            String set = "UPDATE " + name + " SET " + UPDATED + " = " + UPDATED + " + 1 WHERE ";
            measureStatement("update", UPDATE_1PCT, DOVETAIL, round, set + "MOD(id, 100) = 0", dir)
                    .put("fraction", 0.01)
                    .print();
            measureStatement("update", UPDATE_100PCT, DOVETAIL, round, set + "id >= 0", dir)
                    .put("fraction", 1.0)
                    .print();
            String delete = "DELETE FROM " + name + " WHERE MOD(id, 100) = 1";
            measureStatement("delete", DELETE_1PCT, DOVETAIL, round, delete, dir)
                    .put("fraction", 0.01)
                    .print();
            expectAfterDml(name);
        }
    }

    /**
     * After the 1% and 100% updates of c1 (+1 each) and the 1% delete: the rows left and their c1
     * sum, computed here from the generator's formula.
     */
    private void expectAfterDml(String table) {
        long left = 0;
        double sum = 0;
        for (long id = 0; id < rows; id++) {
            if (id % 100 != 1) {
                left++;
                sum += id * 0.5 + 1 + 1 + (id % 100 == 0 ? 1 : 0);
            }
        }
        Row expected = Row.of(left, sum);
        Row actual = sql.row("SELECT COUNT(*), SUM(" + UPDATED + ") FROM " + table);
        if (!expected.equals(actual)) {
            throw new ResultMismatch(
                    "after UPDATE and DELETE " + table + " holds " + actual + ", not " + expected);
        }
    }

    private void expectRows(String table, long expected) {
        Row actual = sql.row("SELECT COUNT(*) FROM " + table);
        if (!Row.of(expected).equals(actual)) {
            throw new ResultMismatch(table + " holds " + actual + " rows, not " + expected);
        }
    }

    /**
     * Runs {@code statement}, timed, and the bytes it added under {@code tableDir} (data files and
     * metadata alike).
     */
    private Measurement measureStatement(
            String phase, String series, String engine, int round, String statement, Path tableDir)
            throws IOException {
        long before = BenchSupport.directoryBytes(tableDir);
        long start = System.nanoTime();
        sql.execute(statement);
        long elapsed = System.nanoTime() - start;
        return record(phase, series, engine, round, elapsed)
                .put("bytes_written", BenchSupport.directoryBytes(tableDir) - before);
    }

    /**
     * A measurement line of {@code phase}; its time counts in the medians of {@code series} unless
     * it is the warm-up round.
     */
    private Measurement record(
            String phase, String series, String engine, int round, long elapsed) {
        boolean warmUp = round == 0;
        if (!warmUp) {
            timings.add(series, engine, elapsed);
        }
        return new Measurement(BENCH, phase)
                .put("engine", engine)
                .put("round", round)
                .put("warmup", warmUp)
                .put("cols", cols)
                .timing(rows, elapsed);
    }

    /** The engines in round {@code round}'s order: rotated by one each round. */
    static List<String> inTurn(int round, String... engines) {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < engines.length; i++) {
            order.add(engines[(i + round) % engines.length]);
        }
        return order;
    }

    private void summary(int repeats) {
        double insertDovetail = timings.medianMs("insert", DOVETAIL);
        double insertPaimon = timings.medianMs("insert", PAIMON);
        double readDovetail = timings.medianMs("read", DOVETAIL);
        double readPaimon = timings.medianMs("read", PAIMON);
        double readFloor = timings.medianMs("read", FLINK_PARQUET);
        new Measurement(BENCH, "summary")
                .put("rows", rows)
                .put("cols", cols)
                .put("repeats", repeats)
                .put("parallelism", PARALLELISM)
                .put("median_insert_ms_dovetail", insertDovetail)
                .put("median_insert_ms_paimon", insertPaimon)
                .put("speedup_vs_paimon_insert", insertPaimon / insertDovetail)
                .put("median_read_ms_dovetail", readDovetail)
                .put("median_read_ms_paimon", readPaimon)
                .put("median_read_ms_flink_parquet", readFloor)
                .put("speedup_vs_paimon_read", readPaimon / readDovetail)
                .put("ratio_vs_flink_parquet_read", readFloor / readDovetail)
                .put("median_update_ms_1pct", timings.medianMs(UPDATE_1PCT, DOVETAIL))
                .put("median_update_ms_100pct", timings.medianMs(UPDATE_100PCT, DOVETAIL))
                .put("median_delete_ms_1pct", timings.medianMs(DELETE_1PCT, DOVETAIL))
                .put("read_table", "written and updated (UPDATE SET c1 = c1 + 1) by Dovetail")
                .put("targets", "insert >= 1.2, read >= 1.5, vs flink-parquet >= 1.0")
                .print();
    }
}
