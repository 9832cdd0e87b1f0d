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
package io.dovetail.flink.table;

import io.dovetail.table.TableStore;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.snapshot.CommitKind;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming read at parallelism 2 across every kind of snapshot, applied to a model keyed by
 * {@code _ROW_ID} as the records arrive: a full changelog ends equal to a batch read of the final
 * table, an insert-only one to the rows as they were appended. The model refuses any record out of
 * order ({@code +I} of a present row, {@code -U} or {@code -D} of a row that is not there with
 * exactly those values, {@code +U} without its {@code -U}), so a row's changes overtaking each
 * other through the two readers fail the test.
 *
 * <p>The table has six groups in two partitions when the read starts (rows 0 to 1,199); then, while
 * it runs: updates of every third row, deletes of every seventh, updates of every fifth, a
 * compaction that merges each partition's groups (rows two readers read become one group), updates
 * of rows in the merged groups, a materialization (survivors get new row ids), updates of moved
 * rows, an overwrite of partition b, an append and an update of the appended rows.
 */
class StreamingReadModelITCase {

    private static final int GROUP = 200;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4) // the read's 2, batch reads
                            .build());

    @TempDir java.nio.file.Path warehouse;

    private TableEnvironment streaming;
    private TableEnvironment batch;
    private TableStore store;
    private TableChanges changes;

    @BeforeEach
    void createTable() {
        streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("parallelism.default", "2");
        batch = session(EnvironmentSettings.inBatchMode());
        SqlTesting.execute(
                batch,
                "CREATE TABLE t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH"
                        + " ('deletion-vectors.enabled' = 'true')");
        store = TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "t"));
        changes = new TableChanges(store);
        for (int g = 0; g < 4; g++) {
            changes.append("a", g * GROUP, GROUP);
        }
        for (int g = 4; g < 6; g++) {
            changes.append("b", g * GROUP, GROUP);
        }
    }

    @ParameterizedTest(name = "checkpoint interval {0} ms")
    @ValueSource(ints = {0, 100})
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void aFullChangelogAppliedByRowIdEqualsTheFinalTable(int checkpointInterval) throws Exception {
        if (checkpointInterval > 0) {
            streaming
                    .getConfig()
                    .set("execution.checkpointing.interval", checkpointInterval + " ms");
        }
        TableResult read = streaming.executeSql(select("'scan.changelog-mode' = 'full'"));
        Model model = new Model();
        try (CloseableIterator<Row> rows = read.collect()) {
            Thread applying = model.applyInBackground(rows);
            changeEveryWay();
            Map<Long, String> expected = batchRead("");
            model.awaitEqual(expected);
            assertThat(model.failure).isNull();
            Thread.sleep(500); // a record emitted twice would show by now
            assertThat(model.snapshot()).isEqualTo(expected);
            read.getJobClient().orElseThrow().cancel().get();
            applying.join();
        }
        assertThat(model.failure).isNull();
        assertThat(model.kinds)
                .as("every kind of change came through")
                .containsKeys(
                        RowKind.INSERT,
                        RowKind.UPDATE_BEFORE,
                        RowKind.UPDATE_AFTER,
                        RowKind.DELETE);
    }

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void anInsertOnlyChangelogHoldsTheRowsAsAppended() throws Exception {
        long start = store.latestSnapshot().orElseThrow().id();
        TableResult read = streaming.executeSql(select("'scan.changelog-mode' = 'insert-only'"));
        Model model = new Model();
        try (CloseableIterator<Row> rows = read.collect()) {
            Thread applying = model.applyInBackground(rows);
            long appended = changeEveryWay();
            Map<Long, String> expected = batchRead("'scan.snapshot-id' = '" + start + "'");
            long firstAppended = store.snapshots().snapshot(appended - 1).nextRowId();
            batchRead("'scan.snapshot-id' = '" + appended + "'")
                    .forEach(
                            (rowId, row) -> {
                                if (rowId >= firstAppended) {
                                    expected.put(rowId, row);
                                }
                            });
            model.awaitEqual(expected);
            Thread.sleep(500);
            assertThat(model.snapshot()).isEqualTo(expected);
            read.getJobClient().orElseThrow().cancel().get();
            applying.join();
        }
        assertThat(model.failure).isNull();
        assertThat(model.kinds).containsOnlyKeys(RowKind.INSERT);
    }

    /**
     * Commits the changes of the class comment, one snapshot each; returns the snapshot of the
     * append.
     */
    private long changeEveryWay() {
        changes.update(names(LongStream.range(0, 6 * GROUP).filter(r -> r % 3 == 0), "third"));
        changes.delete(LongStream.range(0, 6 * GROUP).filter(r -> r % 7 == 0).boxed().toList());
        changes.update(
                names(
                        LongStream.range(0, 6 * GROUP).filter(r -> r % 5 == 0 && r % 7 != 0),
                        "fifth"));
        changes.compact();
        assertThat(store.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
        changes.update(
                names(
                        LongStream.range(0, 6 * GROUP).filter(r -> r % 4 == 1 && r % 7 != 0),
                        "merged"));
        long moved = store.latestSnapshot().orElseThrow().nextRowId();
        changes.materialize();
        changes.update(
                names(LongStream.range(moved, moved + 300).filter(r -> r % 2 == 0), "moved"));
        changes.overwrite("b", 10_000, 150);
        long next = store.latestSnapshot().orElseThrow().nextRowId();
        changes.append("a", 20_000, 100);
        long appended = store.latestSnapshot().orElseThrow().id();
        changes.update(names(LongStream.range(next, next + 100).filter(r -> r % 3 == 0), "late"));
        return appended;
    }

    private static Map<Long, String> names(LongStream rowIds, String prefix) {
        Map<Long, String> names = new TreeMap<>();
        rowIds.forEach(r -> names.put(r, prefix + "-" + r));
        return names;
    }

    private static String select(String options) {
        return "SELECT _ROW_ID, id, name, dt FROM `t$row_tracking` /*+ OPTIONS('scan.mode' ="
                + " 'full', 'continuous.discovery-interval' = '20ms', "
                + options
                + ") */";
    }

    /** {@code _ROW_ID -> "id,name,dt"} of a batch read, with {@code options} if any. */
    private Map<Long, String> batchRead(String options) {
        Map<Long, String> rows = new HashMap<>();
        String hint = options.isEmpty() ? "" : " /*+ OPTIONS(" + options + ") */";
        for (String row :
                SqlTesting.rows(
                        batch, "SELECT _ROW_ID, id, name, dt FROM `t$row_tracking`" + hint)) {
            String[] fields = row.substring(3, row.length() - 1).split(", ");
            rows.put(Long.parseLong(fields[0]), fields[1] + "," + fields[2] + "," + fields[3]);
        }
        return rows;
    }

    private TableEnvironment session(EnvironmentSettings settings) {
        TableEnvironment env = TableEnvironment.create(settings);
        env.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG dt");
        return env;
    }

    /** Rows by {@code _ROW_ID}, changed strictly in order by the records of a read. */
    private static final class Model {

        private final Map<Long, String> rows = new HashMap<>();
        private final Map<Long, String> updating = new HashMap<>();
        final Map<RowKind, Integer> kinds = new HashMap<>();
        volatile String failure;

        Thread applyInBackground(CloseableIterator<Row> records) {
            Thread thread =
                    new Thread(
                            () -> {
                                try {
                                    while (records.hasNext()) {
                                        apply(records.next());
                                    }
                                } catch (RuntimeException e) {
                                    // the read was cancelled
                                }
                            },
                            "model");
            thread.start();
            return thread;
        }

        synchronized void apply(Row record) {
            long rowId = (Long) record.getField(0);
            String values =
                    record.getField(1) + "," + record.getField(2) + "," + record.getField(3);
            kinds.merge(record.getKind(), 1, Integer::sum);
            String present = rows.get(rowId);
            boolean inOrder;
            switch (record.getKind()) {
                case INSERT:
                    inOrder = present == null && !updating.containsKey(rowId);
                    rows.put(rowId, values);
                    break;
                case UPDATE_BEFORE:
                    inOrder = values.equals(present);
                    rows.remove(rowId);
                    updating.put(rowId, values);
                    break;
                case UPDATE_AFTER:
                    inOrder = present == null && updating.remove(rowId) != null;
                    rows.put(rowId, values);
                    break;
                default:
                    inOrder = values.equals(present);
                    rows.remove(rowId);
            }
            if (!inOrder && failure == null) {
                failure = record + " arrived out of order: the row held " + present;
            }
        }

        synchronized Map<Long, String> snapshot() {
            return new HashMap<>(rows);
        }

        /**
         * Waits up to a minute for the model to equal {@code expected}; fails naming the rows that
         * differ.
         */
        void awaitEqual(Map<Long, String> expected) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (failure == null
                    && !snapshot().equals(expected)
                    && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            Map<Long, String> rows = snapshot();
            List<String> differences = new ArrayList<>();
            expected.forEach(
                    (rowId, row) -> {
                        if (!row.equals(rows.get(rowId))) {
                            differences.add(rowId + ": " + rows.get(rowId) + " instead of " + row);
                        }
                    });
            rows.keySet().stream()
                    .filter(rowId -> !expected.containsKey(rowId))
                    .forEach(rowId -> differences.add(rowId + ": " + rows.get(rowId) + " extra"));
            assertThat(failure).isNull();
            assertThat(differences)
                    .as("%s rows differ (%s kinds)", differences.size(), kinds)
                    .isEmpty();
        }
    }
}
