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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables written only through Dovetail's Flink SQL (a partitioned Parquet or ORC table: batch
 * INSERT, streaming INSERT with checkpoints, INSERT OVERWRITE of a partition, ALTER TABLE ADD, then
 * UPDATE ... SET of the new and of an existing column with a WHERE, a merge updating two columns
 * and inserting a row) are read by Paimon 1.4.2 after every step exactly as Dovetail reads them,
 * row by row with {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}; the values are those the statements
 * wrote.
 */
class PaimonReadsSqlWritesITCase {

    private static final List<String> FORMATS = List.of("parquet", "orc");
    private static final String COLUMNS = "id, name, score, dt";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private static PaimonWorkbench paimon;

    /** Expected values by id (ids are unique), rendered per column like Paimon's rows. */
    private final Map<Long, Map<String, Object>> model = new TreeMap<>();

    @BeforeAll
    static void openPaimon() {
        paimon = new PaimonWorkbench(warehouse);
    }

    @AfterAll
    static void closePaimon() throws Exception {
        paimon.close();
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void paimonReadsEverySqlWriteAsDovetailDoes(String format) throws Exception {
        String t = "sql_" + format;
        TableEnvironment batch = session(EnvironmentSettings.inBatchMode());
        batch.executeSql(
                "CREATE TABLE "
                        + t
                        + " (id BIGINT, name STRING, score DOUBLE, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('file.format' = '"
                        + format
                        + "')");

        execute(
                batch,
                "INSERT INTO "
                        + t
                        + " VALUES (1, 'a1', 1.5, 'a'), (2, 'b2', 2.5, 'b'),"
                        + " (3, CAST(NULL AS STRING), 3.5, 'a'), (4, 'n4', CAST(NULL AS DOUBLE),"
                        + " CAST(NULL AS STRING)), (5, 'b5', 5.5, 'b')");
        put(1, "a1", 1.5, "a");
        put(2, "b2", 2.5, "b");
        put(3, null, 3.5, "a");
        put(4, "n4", null, null);
        put(5, "b5", 5.5, "b");
        assertPaimonReadsWhatDovetailReads(t);

        TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        streaming.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '500', 'number-of-rows' = '1500',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '100',"
                        + " 'fields.id.end' = '1599')");
        long beforeStreaming = latestSnapshot(t);
        execute(
                streaming,
                "INSERT INTO "
                        + t
                        + " SELECT id, CONCAT('s', CAST(id AS STRING)), CAST(id AS DOUBLE) / 2, IF(MOD(id, 2) = 0,"
                        + " 'a', 'b') FROM gen");
        assertThat(latestSnapshot(t) - beforeStreaming)
                .as("the streaming insert committed on several checkpoints")
                .isGreaterThan(1);
        LongStream.range(100, 1600)
                .forEach(id -> put(id, "s" + id, id / 2.0, id % 2 == 0 ? "a" : "b"));
        assertPaimonReadsWhatDovetailReads(t);

        execute(
                batch,
                "INSERT OVERWRITE "
                        + t
                        + " PARTITION (dt = 'a') VALUES (7, 'o7', 7.5), (8, 'o8', CAST(NULL AS"
                        + " DOUBLE))");
        model.values().removeIf(v -> "a".equals(v.get("dt")));
        put(7, "o7", 7.5, "a");
        put(8, "o8", null, "a");
        assertPaimonReadsWhatDovetailReads(t);

        batch.executeSql("ALTER TABLE " + t + " ADD note STRING");
        model.values().forEach(v -> v.put("note", null));
        List<String> rowIdsBeforeUpdates = rowIds(batch, t);
        assertPaimonReadsWhatDovetailReads(t);

        execute(
                batch,
                "UPDATE "
                        + t
                        + " SET note = CONCAT('n-', name), score = score * 2 WHERE id < 300 OR dt"
                        + " IS NULL");
        long firstUpdate = latestSnapshot(t);
        execute(batch, "UPDATE " + t + " SET note = 'last' WHERE MOD(id, 10) = 7");
        long secondUpdate = latestSnapshot(t);
        // the update that last changed a row; its whole row-range group may be rewritten later
        Map<Long, Long> lastUpdate = new TreeMap<>();
        model.forEach(
                (id, v) -> {
                    if (id < 300 || v.get("dt") == null) {
                        String name = (String) v.get("name");
                        v.put("note", name == null ? null : "n-" + name);
                        v.computeIfPresent("score", (k, s) -> (Double) s * 2);
                        lastUpdate.put(id, firstUpdate);
                    }
                    if (id % 10 == 7) {
                        v.put("note", "last");
                        lastUpdate.put(id, secondUpdate);
                    }
                });
        List<String> rows = assertPaimonReadsWhatDovetailReads(t);
        assertThat(rowIds(batch, t))
                .as("updates keep every row id")
                .containsExactlyInAnyOrderElementsOf(rowIdsBeforeUpdates);
        Map<Long, Long> sequences = sequenceNumbers(rows);
        lastUpdate.forEach(
                (id, last) ->
                        assertThat(sequences.get(id))
                                .as("_SEQUENCE_NUMBER of row %s (the group's newest file)", id)
                                .isBetween(last, secondUpdate));
        assertThat(sequences.values()).contains(firstUpdate, secondUpdate);

        batch.executeSql(
                "CREATE TABLE " + t + "_fix (id BIGINT, name STRING, note STRING, dt STRING)");
        execute(
                batch,
                "INSERT INTO "
                        + t
                        + "_fix VALUES (5, 'five', 'merged', 'b'), (1501, 'x', 'merged', 'b'),"
                        + " (9001, 'new', 'inserted', 'a')");
        execute(
                batch,
                "CALL dt.sys.data_evolution_merge(target => 'default."
                        + t
                        + "', source => '"
                        + t
                        + "_fix', merge_condition => 't.id = s.id', matched_update_set =>"
                        + " 'note = s.note, name = s.name', not_matched_insert_values => '*')");
        model.get(5L).put("note", "merged");
        model.get(5L).put("name", "five");
        model.get(1501L).put("note", "merged");
        model.get(1501L).put("name", "x");
        put(9001, "new", null, "a");
        model.get(9001L).put("note", "inserted");
        assertPaimonReadsWhatDovetailReads(t);
    }

    /**
     * Paimon's read of the table with {@code _ROW_ID} and {@code _SEQUENCE_NUMBER} equals
     * Dovetail's SQL read of {@code $row_tracking}; without the system columns it is the model.
     * Returns Paimon's rows.
     */
    private List<String> assertPaimonReadsWhatDovetailReads(String t) throws Exception {
        FileStoreTable table = paimon.table(t);
        List<String> columns = new ArrayList<>(table.rowType().getFieldNames());
        List<String> tableColumns = List.copyOf(columns);
        columns.add("_ROW_ID");
        columns.add("_SEQUENCE_NUMBER");
        List<String> paimonRows = TwoSidedReads.paimon(table, columns.toArray(String[]::new));
        List<String> dovetailRows =
                SqlRows.rendered(
                        session(EnvironmentSettings.inBatchMode()),
                        "SELECT " + String.join(", ", columns) + " FROM `" + t + "$row_tracking`");
        assertThat(paimonRows).isEqualTo(dovetailRows);
        assertThat(TwoSidedReads.paimon(table, tableColumns.toArray(String[]::new)))
                .isEqualTo(expected(tableColumns));
        return paimonRows;
    }

    /** The model rendered like Paimon's rows of {@code columns}, sorted. */
    private List<String> expected(List<String> columns) {
        return model.values().stream()
                .map(
                        v ->
                                columns.stream()
                                        .map(c -> c + "=" + v.get(c))
                                        .collect(Collectors.joining(", ")))
                .sorted()
                .toList();
    }

    private void put(long id, String name, Double score, String dt) {
        Map<String, Object> v = new java.util.HashMap<>();
        v.put("id", id);
        v.put("name", name);
        v.put("score", score);
        v.put("dt", dt);
        model.put(id, v);
    }

    /** Row id by id, as Dovetail reads them. */
    private static List<String> rowIds(TableEnvironment sql, String t) {
        return SqlRows.rendered(sql, "SELECT id, _ROW_ID FROM `" + t + "$row_tracking`");
    }

    /** {@code _SEQUENCE_NUMBER} by id of rendered rows that start with {@code id=}. */
    private static Map<Long, Long> sequenceNumbers(List<String> rows) {
        Function<String, Long> id = r -> Long.parseLong(r.substring(3, r.indexOf(',')));
        Function<String, Long> sequence = r -> Long.parseLong(r.substring(r.lastIndexOf('=') + 1));
        return rows.stream().collect(Collectors.toMap(id, sequence, (a, b) -> a, TreeMap::new));
    }

    private long latestSnapshot(String t) throws Exception {
        return paimon.table(t).snapshotManager().latestSnapshotId();
    }

    private static TableEnvironment session(EnvironmentSettings settings) {
        TableEnvironment env = TableEnvironment.create(settings);
        env.getConfig().set("parallelism.default", "2");
        env.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG dt");
        return env;
    }

    private static void execute(TableEnvironment env, String statement) {
        try {
            env.executeSql(statement).await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
