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
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static io.dovetail.flink.table.SqlTesting.execute;
import static io.dovetail.flink.table.SqlTesting.rows;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code INSERT INTO} and {@code INSERT OVERWRITE} through Flink SQL on one MiniCluster at
 * parallelism 2, in batch and streaming mode: rows read back through SQL and the core, with the
 * snapshots and files the commits made.
 */
class SqlWriteITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private TableEnvironment batch;
    private SqlTesting tables;

    @BeforeEach
    void connect() {
        tables = new SqlTesting(warehouse);
        batch = session(EnvironmentSettings.inBatchMode());
    }

    @Test
    void batchInsertAppendsOneSnapshotWithFreshRowIds() {
        batch.executeSql("CREATE TABLE plain (id BIGINT, name STRING)");
        execute(batch, "INSERT INTO plain VALUES (1, 'a'), (2, 'b'), (3, CAST(NULL AS STRING))");
        execute(batch, "INSERT INTO plain SELECT id + 10, name FROM plain");

        assertThat(rows(batch, "SELECT * FROM plain"))
                .containsExactlyInAnyOrder(
                        "+I[1, a]",
                        "+I[2, b]",
                        "+I[3, null]",
                        "+I[11, a]",
                        "+I[12, b]",
                        "+I[13, null]");
        assertThat(rows(batch, "SELECT _ROW_ID FROM `plain$row_tracking`"))
                .containsExactlyInAnyOrderElementsOf(
                        LongStream.range(0, 6).mapToObj(i -> "+I[" + i + "]").toList());
        TableStore store = tables.store("plain");
        Snapshot latest = store.latestSnapshot().orElseThrow();
        assertThat(latest.id()).isEqualTo(2);
        assertThat(latest.commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(latest.commitIdentifier()).isEqualTo(CommitRequest.BATCH_IDENTIFIER);
        assertThat(latest.nextRowId()).isEqualTo(6);
        assertThat(store.snapshots().snapshot(1).commitUser())
                .startsWith("dovetail-")
                .isNotEqualTo(latest.commitUser());
    }

    @Test
    void insertSelectStarFromTheTableNeverWritesRowIds() {
        batch.executeSql("CREATE TABLE copied (id BIGINT, name STRING)");
        execute(batch, "INSERT INTO copied VALUES (1, 'a'), (2, 'b')");
        execute(batch, "INSERT INTO copied SELECT * FROM copied");
        assertThat(rows(batch, "SELECT _ROW_ID, id, name FROM copied"))
                .containsExactlyInAnyOrder(
                        "+I[0, 1, a]", "+I[1, 2, b]", "+I[2, 1, a]", "+I[3, 2, b]");
        assertThatThrownBy(
                        () ->
                                batch.executeSql(
                                        "INSERT INTO copied SELECT _ROW_ID, id, name FROM copied"))
                .hasMessageContaining("Column types of query result and sink");
    }

    @Test
    void partitionedInsertWritesOneFilePerPartitionAndWriter() {
        batch.executeSql(
                "CREATE TABLE parts (id BIGINT, v STRING, dt STRING, h INT) PARTITIONED BY (dt, h)");
        execute(
                batch,
                "INSERT INTO parts VALUES (1, 'x', 'a', 1), (2, 'y', 'a', 2), (3, 'z', 'b', 1),"
                        + " (4, 'w', 'a', 1), (5, CAST(NULL AS STRING), CAST(NULL AS STRING), 1)");
        assertThat(rows(batch, "SELECT id, v FROM parts WHERE dt = 'a' AND h = 1"))
                .containsExactlyInAnyOrder("+I[1, x]", "+I[4, w]");
        assertThat(rows(batch, "SELECT id FROM parts WHERE dt IS NULL")).containsExactly("+I[5]");
        List<String> partitions =
                tables.liveFiles("parts").stream()
                        .map(
                                e ->
                                        tables.store("parts")
                                                .files(tables.latest("parts"))
                                                .dataFilePath(e))
                        .map(
                                p ->
                                        p.getParent().getParent().getParent().getName()
                                                + "/"
                                                + p.getParent().getParent().getName())
                        .distinct()
                        .sorted()
                        .toList();
        assertThat(partitions)
                .containsExactly(
                        "dt=__DEFAULT_PARTITION__/h=1", "dt=a/h=1", "dt=a/h=2", "dt=b/h=1");
        assertThat(rows(batch, "SHOW PARTITIONS parts")).hasSize(4);
    }

    @Test
    void filesRollByTargetFileSizeAndSinkParallelism() {
        batch.executeSql("CREATE TABLE rolled (id BIGINT, payload STRING)");
        execute(
                batch,
                "INSERT INTO rolled /*+ OPTIONS('target-file-size' = '1 kb', 'sink.parallelism' ="
                        + " '1') */ SELECT id, REPEAT('p', 200) FROM (VALUES "
                        + LongStream.range(0, 3000)
                                .mapToObj(i -> "(" + i + ")")
                                .collect(Collectors.joining(","))
                        + ") AS v(id)");
        List<ManifestEntry> files = tables.liveFiles("rolled");
        assertThat(files.stream().map(e -> e.file().rowCount()))
                .as("one writer rolls when a size check (every 1,000 rows) finds 1 kb exceeded")
                .containsExactly(1000L, 1000L, 1000L);
        assertThat(rows(batch, "SELECT count(*), count(DISTINCT id) FROM rolled"))
                .containsExactly("+I[3000, 3000]");
    }

    @Test
    void overwriteReplacesTheTableOrThePartitionsWritten() {
        batch.executeSql("CREATE TABLE ow (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        execute(batch, "INSERT INTO ow VALUES (1, 'a'), (2, 'b'), (3, 'c')");

        execute(batch, "INSERT OVERWRITE ow VALUES (10, 'a'), (11, 'a')");
        assertThat(rows(batch, "SELECT * FROM ow"))
                .as("dynamic overwrite replaces only the partitions written")
                .containsExactlyInAnyOrder("+I[10, a]", "+I[11, a]", "+I[2, b]", "+I[3, c]");
        assertThat(tables.latest("ow").commitKind()).isEqualTo(CommitKind.OVERWRITE);

        execute(batch, "INSERT OVERWRITE ow PARTITION (dt = 'b') VALUES (20)");
        assertThat(rows(batch, "SELECT * FROM ow"))
                .containsExactlyInAnyOrder("+I[10, a]", "+I[11, a]", "+I[20, b]", "+I[3, c]");

        execute(batch, "INSERT OVERWRITE ow PARTITION (dt = 'c') SELECT id FROM ow WHERE id < 0");
        assertThat(rows(batch, "SELECT * FROM ow"))
                .as("a static partition overwritten with no rows is emptied")
                .containsExactlyInAnyOrder("+I[10, a]", "+I[11, a]", "+I[20, b]");

        batch.executeSql("ALTER TABLE ow SET ('dynamic-partition-overwrite' = 'false')");
        execute(batch, "INSERT OVERWRITE ow VALUES (30, 'z')");
        assertThat(rows(batch, "SELECT * FROM ow")).containsExactly("+I[30, z]");

        batch.executeSql("CREATE TABLE ow_plain (id BIGINT)");
        execute(batch, "INSERT INTO ow_plain VALUES (1), (2)");
        execute(batch, "INSERT OVERWRITE ow_plain VALUES (3)");
        assertThat(rows(batch, "SELECT * FROM ow_plain")).containsExactly("+I[3]");
        assertThat(rows(batch, "SELECT _ROW_ID FROM `ow_plain$row_tracking`"))
                .as("overwritten rows get new row ids")
                .containsExactly("+I[2]");
    }

    @Test
    void boundedStreamingInsertCommitsOnCheckpointsIncludingTheLastData() {
        TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        streaming.executeSql("CREATE TABLE streamed (id BIGINT, dt STRING) PARTITIONED BY (dt)");
        streaming.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '4000', 'number-of-rows' = '6000',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                        + " 'fields.id.end' = '5999')");
        execute(
                streaming,
                "INSERT INTO streamed SELECT id, IF(MOD(id, 2) = 0, 'even', 'odd') FROM gen");

        assertThat(
                        rows(
                                batch,
                                "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM streamed"))
                .containsExactly("+I[6000, 6000, 0, 5999]");
        TableStore store = tables.store("streamed");
        List<Snapshot> snapshots =
                Arrays.stream(store.snapshots().listIds())
                        .mapToObj(store.snapshots()::snapshot)
                        .toList();
        assertThat(snapshots).allMatch(s -> s.commitKind() == CommitKind.APPEND);
        assertThat(snapshots)
                .as("streaming commits carry checkpoint ids, not the batch identifier")
                .allMatch(s -> s.commitIdentifier() < CommitRequest.BATCH_IDENTIFIER);
        assertThat(snapshots.stream().map(Snapshot::commitUser).distinct()).hasSize(1);
    }

    @Test
    void writersExpireSnapshotsPerTheTableRetention() {
        batch.executeSql(
                "CREATE TABLE retained (id BIGINT) WITH ('snapshot.num-retained.min' = '1',"
                        + " 'snapshot.num-retained.max' = '2')");
        for (int i = 0; i < 4; i++) {
            execute(batch, "INSERT INTO retained VALUES (" + i + ")");
        }
        TableStore store = tables.store("retained");
        assertThat(store.snapshots().listIds()).containsExactly(3, 4);
        assertThat(rows(batch, "SELECT * FROM retained"))
                .containsExactlyInAnyOrder("+I[0]", "+I[1]", "+I[2]", "+I[3]");

        batch.executeSql(
                "CREATE TABLE write_only (id BIGINT) WITH ('snapshot.num-retained.min' ="
                        + " '1', 'snapshot.num-retained.max' = '1', 'write-only' = 'true')");
        execute(batch, "INSERT INTO write_only VALUES (1)");
        execute(batch, "INSERT INTO write_only VALUES (2)");
        assertThat(tables.store("write_only").snapshots().listIds()).containsExactly(1, 2);
    }

    @Test
    void badWritesFailClearlyAndChangeNothing() {
        batch.executeSql("CREATE TABLE guarded (id BIGINT, name STRING)");
        execute(batch, "INSERT INTO guarded VALUES (1, 'a')");
        assertThatThrownBy(
                        () ->
                                batch.executeSql(
                                        "INSERT INTO guarded /*+ OPTIONS('sink.paralelism' = '2')"
                                                + " */ VALUES (2, 'b')"))
                .hasStackTraceContaining("Unknown option 'sink.paralelism'")
                .hasStackTraceContaining("sink.parallelism");
        assertThatThrownBy(() -> batch.executeSql("INSERT INTO guarded VALUES (1)"))
                .hasMessageContaining("Column types of query result and sink for")
                .hasMessageContaining("guarded");
        assertThatThrownBy(
                        () ->
                                batch.executeSql(
                                        "INSERT INTO `guarded$row_tracking` VALUES (1, 'a')"))
                .hasStackTraceContaining("guarded$row_tracking");
        assertThatThrownBy(
                        () ->
                                batch.executeSql(
                                        "INSERT INTO guarded SELECT * FROM `guarded$row_tracking`"))
                .hasMessageContaining("Column types of query result and sink");

        TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.executeSql(
                "CREATE TEMPORARY TABLE endless (id BIGINT, name STRING) WITH ('connector' ="
                        + " 'datagen')");
        assertThatThrownBy(() -> streaming.executeSql("INSERT INTO guarded SELECT * FROM endless"))
                .hasStackTraceContaining("checkpointing is off")
                .hasStackTraceContaining("execution.checkpointing.interval");
        assertThat(tables.store("guarded").snapshots().listIds()).containsExactly(1);
        assertThat(rows(batch, "SELECT * FROM guarded")).containsExactly("+I[1, a]");
    }

    @Test
    void aWarehouseThatCannotBeWrittenIsAClearError() throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(warehouse.resolve("a-file"), "x");
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        assertThatThrownBy(
                        () ->
                                env.executeSql(
                                        "CREATE CATALOG unwritable WITH ('type' = 'dovetail',"
                                                + " 'warehouse' = '"
                                                + file.resolve("warehouse").toUri()
                                                + "')"))
                .hasStackTraceContaining(file.resolve("warehouse").toString());
        assertThat(java.nio.file.Files.readString(file)).isEqualTo("x");
    }

    // ---------------------------------------------------------------- helpers

    private static TableEnvironment session(EnvironmentSettings settings) {
        TableEnvironment env = TableEnvironment.create(settings);
        env.getConfig().set("parallelism.default", "2");
        env.getConfig()
                .set("table.column-expansion-strategy", "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
        env.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        env.executeSql("USE CATALOG dt");
        return env;
    }
}
