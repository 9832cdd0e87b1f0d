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
import io.dovetail.table.snapshot.Consumers;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streaming SELECT on one MiniCluster at parallelism 2: while the query runs, the table is changed
 * through the core API (appends, partial-column updates, deletes by deletion vector, a compaction,
 * a materialization, an overwrite) and a full changelog read emits each snapshot's changes: exactly
 * these rows and kinds, nothing for the compaction, a delete and an insert for each row a
 * materialization moved, and the pair of an update in {@code -U}, {@code +U} order; the default
 * insert-only read emits the appended rows only.
 *
 * <p>Row ids equal ids: every append continues the ids where the previous one stopped.
 */
class StreamingReadITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path warehouse;

    private TableEnvironment sql;
    private TableStore store;
    private TableChanges changes;

    @BeforeEach
    void createTable() {
        sql = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
        sql.executeSql(
                "CREATE TABLE t (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt) WITH"
                        + " ('deletion-vectors.enabled' = 'true')");
        store = TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "t"));
        changes = new TableChanges(store);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everySnapshotBecomesItsChangelog() throws Exception {
        append("a", 0, 5); // snapshot 1
        TableResult result =
                sql.executeSql(
                        "SELECT id, name, dt FROM t /*+ OPTIONS('scan.changelog-mode' = 'full',"
                                + " 'continuous.discovery-interval' = '50ms') */");
        try (CloseableIterator<Row> rows = result.collect()) {
            assertThat(take(rows, 5))
                    .containsExactlyInAnyOrder(
                            "+I[0, name-0, a]",
                            "+I[1, name-1, a]",
                            "+I[2, name-2, a]",
                            "+I[3, name-3, a]",
                            "+I[4, name-4, a]");

            append("b", 5, 3); // 2
            assertThat(take(rows, 3))
                    .containsExactlyInAnyOrder(
                            "+I[5, name-5, b]", "+I[6, name-6, b]", "+I[7, name-7, b]");

            update(new long[] {1, 6}, "one", "six"); // 3: rewrites both groups in full
            List<String> updates = take(rows, 4);
            assertThat(updates)
                    .containsExactlyInAnyOrder(
                            "-U[1, name-1, a]",
                            "+U[1, one, a]",
                            "-U[6, name-6, b]",
                            "+U[6, six, b]");
            assertThat(updates.indexOf("-U[1, name-1, a]"))
                    .isLessThan(updates.indexOf("+U[1, one, a]"));
            assertThat(updates.indexOf("-U[6, name-6, b]"))
                    .isLessThan(updates.indexOf("+U[6, six, b]"));

            delete(2, 7); // 4
            assertThat(take(rows, 2))
                    .containsExactlyInAnyOrder("-D[2, name-2, a]", "-D[7, name-7, b]");

            compact(); // 5: no change rows
            assertThat(store.latestSnapshot().orElseThrow().commitKind())
                    .isEqualTo(CommitKind.COMPACT);

            overwrite("b", 100, 2); // 6: drops b's rows 5, 6 (7 is deleted already), adds 100, 101
            assertThat(take(rows, 4))
                    .containsExactlyInAnyOrder(
                            "-D[5, name-5, b]",
                            "-D[6, six, b]",
                            "+I[100, name-100, b]",
                            "+I[101, name-101, b]");

            append("a", 102, 1); // 7: the next row is this one, nothing else came in between
            assertThat(take(rows, 1)).containsExactly("+I[102, name-102, a]");
        } finally {
            result.getJobClient().orElseThrow().cancel();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void latestAndFromSnapshotModesAndMetadataOnChangeRows() throws Exception {
        sql.getConfig().set("parallelism.default", "1"); // two jobs share the cluster's 2 slots
        sql.getConfig().set("execution.checkpointing.interval", "100ms"); // records the consumer
        append("a", 0, 3); // 1
        update(new long[] {0}, "zero"); // 2
        TableResult fromSecond =
                sql.executeSql(
                        "SELECT id, name, _ROW_ID FROM `t$row_tracking` /*+ OPTIONS('scan.mode' ="
                                + " 'from-snapshot', 'scan.snapshot-id' = '2',"
                                + " 'scan.changelog-mode' = 'full',"
                                + " 'continuous.discovery-interval' = '50ms') */");
        TableResult latest =
                sql.executeSql(
                        "SELECT id, name FROM t /*+ OPTIONS('scan.mode' = 'latest',"
                                + " 'scan.changelog-mode' = 'full',"
                                + " 'continuous.discovery-interval' = '50ms', 'consumer-id' ="
                                + " 'me') */");
        try (CloseableIterator<Row> changes = fromSecond.collect();
                CloseableIterator<Row> after = latest.collect()) {
            assertThat(take(changes, 2)).containsExactly("-U[0, name-0, 0]", "+U[0, zero, 0]");
            Thread.sleep(500); // the latest-mode read has started and skipped snapshot 2
            delete(1); // 3
            assertThat(take(changes, 1)).containsExactly("-D[1, name-1, 1]");
            assertThat(take(after, 1)).containsExactly("-D[1, name-1]");
            // read up to 3: 4 is next, compared with 3, which expiry must keep too
            Consumers consumers = new Consumers(store.paths());
            while (consumers.position("me").orElse(0) != 4) {
                Thread.sleep(50);
            }
        } finally {
            fromSecond.getJobClient().orElseThrow().cancel();
            latest.getJobClient().orElseThrow().cancel();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aMaterializationIsADeleteOfTheOldIdAndAnInsertOfTheNewOne() throws Exception {
        append("a", 0, 5); // 1
        delete(1, 3); // 2
        TableResult result =
                sql.executeSql(
                        "SELECT id, name, _ROW_ID FROM `t$row_tracking` /*+ OPTIONS('scan.mode' ="
                                + " 'latest', 'scan.changelog-mode' = 'full',"
                                + " 'continuous.discovery-interval' = '50ms') */");
        try (CloseableIterator<Row> rows = result.collect()) {
            Thread.sleep(500); // the read has started after snapshot 2
            materialize(); // 3: survivors 0, 2, 4 get row ids 5, 6, 7
            List<String> changes = take(rows, 6);
            assertThat(changes)
                    .containsExactlyInAnyOrder(
                            "-D[0, name-0, 0]",
                            "-D[2, name-2, 2]",
                            "-D[4, name-4, 4]",
                            "+I[0, name-0, 5]",
                            "+I[2, name-2, 6]",
                            "+I[4, name-4, 7]");
            append("a", 8, 1); // 4
            assertThat(take(rows, 1)).containsExactly("+I[8, name-8, 8]");
        } finally {
            result.getJobClient().orElseThrow().cancel();
        }
    }

    /**
     * The default insert-only changelog: the planner is told so, and of the same kinds of snapshots
     * as above only the appended rows come out; an overwrite's rows only with {@code
     * streaming-read-append-overwrite}.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anInsertOnlyReadEmitsTheRowsEachSnapshotAppended() throws Exception {
        sql.getConfig().set("parallelism.default", "1"); // two jobs share the cluster's 2 slots
        append("a", 0, 3); // 1
        append("b", 3, 2); // 2
        update(new long[] {1}, "one"); // 3
        delete(0); // 4
        compact(); // 5
        materialize(); // 6: survivors of a (1, 2) get row ids 5, 6
        overwrite("b", 100, 2); // 7: rows 100, 101 get row ids 7, 8
        append("a", 102, 1); // 8: row id 9
        String select =
                "SELECT id, name, dt, _ROW_ID FROM `t$row_tracking` /*+ OPTIONS('scan.mode' ="
                        + " 'from-snapshot', 'scan.snapshot-id' = '2',"
                        + " 'continuous.discovery-interval' = '50ms'";
        assertThat(sql.explainSql(select + ") */", ExplainDetail.CHANGELOG_MODE))
                .contains("changelogMode=[I]")
                .doesNotContain("UB");
        TableResult appends = sql.executeSql(select + ") */");
        TableResult withOverwrites =
                sql.executeSql(select + ", 'streaming-read-append-overwrite' = 'true') */");
        try (CloseableIterator<Row> rows = appends.collect();
                CloseableIterator<Row> all = withOverwrites.collect()) {
            assertThat(take(rows, 3))
                    .containsExactly(
                            "+I[3, name-3, b, 3]",
                            "+I[4, name-4, b, 4]",
                            "+I[102, name-102, a, 9]");
            assertThat(take(all, 5))
                    .containsExactly(
                            "+I[3, name-3, b, 3]",
                            "+I[4, name-4, b, 4]",
                            "+I[100, name-100, b, 7]",
                            "+I[101, name-101, b, 8]",
                            "+I[102, name-102, a, 9]");
        } finally {
            appends.getJobClient().orElseThrow().cancel();
            withOverwrites.getJobClient().orElseThrow().cancel();
        }
    }

    /** The next {@code n} rows of a running query. */
    private static List<String> take(CloseableIterator<Row> rows, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(rows.next().toString());
        }
        return out;
    }

    private void append(String dt, long first, int count) {
        changes.append(dt, first, count);
    }

    private void update(long[] rowIds, String... names) {
        changes.update(rowIds, names);
    }

    private void delete(long... rowIds) {
        changes.delete(LongStream.of(rowIds).boxed().toList());
    }

    private void compact() {
        changes.compact();
    }

    private void materialize() {
        changes.materialize();
    }

    private void overwrite(String dt, long first, int count) {
        changes.overwrite(dt, first, count);
    }
}
