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
package io.dovetail.e2e.hdfs;

import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.RenderedReads;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.dovetail.e2e.hdfs.SqlResults.rowIds;
import static io.dovetail.e2e.hdfs.SqlResults.values;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Dovetail catalog whose warehouse is on HDFS ({@link MiniHdfs}), used through Flink SQL as on
 * any other file system: CREATE TABLE, batch and streaming (checkpointed) INSERT, ALTER TABLE,
 * UPDATE, {@code sys.data_evolution_merge}, {@code sys.compact} and {@code sys.expire_snapshots};
 * DELETE FROM and a deleting merge on a table with deletion vectors. Rows, row ids and snapshots
 * are checked after the steps, and Paimon 1.4.2 reads the table without deletion vectors from HDFS
 * exactly as Dovetail does, with {@code _ROW_ID} and {@code _SEQUENCE_NUMBER}.
 */
class HdfsSqlITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static MiniHdfs hdfs;
    private static Path warehouse;
    private static TableEnvironment batch;

    @BeforeAll
    static void startHdfs() throws Exception {
        hdfs = MiniHdfs.start();
        warehouse = hdfs.directory("/warehouse");
        batch = session(EnvironmentSettings.inBatchMode());
    }

    @AfterAll
    static void stopHdfs() {
        hdfs.close();
    }

    @Test
    void writesMergeCompactionAndExpiryOnHdfsReadIdenticallyByPaimon() throws Exception {
        execute(
                batch,
                "CREATE TABLE media (id BIGINT, url STRING, caption STRING, dt STRING)"
                        + " PARTITIONED BY (dt) WITH ('row-tracking.enabled' = 'true',"
                        + " 'data-evolution.enabled' = 'true', 'snapshot.num-retained.min' = '1')");
        execute(
                batch,
                "INSERT INTO media VALUES (1, 'u1', 'a red bicycle', 'x'),"
                        + " (2, 'u2', 'two cats', 'x'), (3, 'u3', CAST(NULL AS STRING), 'y')");
        TableStore store = TableStore.open(new Warehouse(warehouse).table("default", "media"));
        assertThat(store.snapshots().listIds()).containsExactly(1L);

        TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        streaming.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'rows-per-second' = '400', 'number-of-rows' = '800',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '100',"
                        + " 'fields.id.end' = '899')");
        execute(
                streaming,
                "INSERT INTO media SELECT id, CONCAT('u', CAST(id AS STRING)),"
                        + " CAST(NULL AS STRING), 'x' FROM gen");
        long streamed = store.snapshots().latestId().orElseThrow();
        assertThat(streamed)
                .as("the streaming insert committed on several checkpoints")
                .isGreaterThan(2);
        assertThat(kinds(store, streamed)).containsOnly(CommitKind.APPEND);

        execute(batch, "ALTER TABLE media ADD caption_len INT");
        execute(
                batch,
                "UPDATE media SET caption_len = CHAR_LENGTH(caption) WHERE caption IS NOT NULL");
        execute(batch, "CREATE TABLE captions (id BIGINT, caption STRING)");
        execute(
                batch,
                "INSERT INTO captions VALUES (3, 'a lighthouse'), (150, 'c150'), (151, 'c151'),"
                        + " (9000, 'new')");
        Map<Long, Object> rowIds = rowIds(mediaRows());
        Map<String, Object> merged =
                call(
                        "CALL hdfs.sys.data_evolution_merge(target => 'default.media', source =>"
                                + " 'captions', merge_condition => 't.id = s.id',"
                                + " matched_update_set => 'caption = s.caption',"
                                + " not_matched_insert_values => 'id = s.id, url = ''none'',"
                                + " caption = s.caption, dt = ''z''')");
        long afterMerge = streamed + 2;
        assertThat(merged)
                .containsEntry("matched", 3L)
                .containsEntry("updated", 3L)
                .containsEntry("inserted", 1L)
                .containsEntry("snapshot_id", afterMerge);
        List<Row> rows = mediaRows();
        assertThat(values(rows)).isEqualTo(expectedMedia());
        assertThat(rowIds(rows)).as("merges keep row ids").containsAllEntriesOf(rowIds);

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse.toString(), Map.of())) {
            assertPaimonReadsAsDovetail(paimon, store);

            Map<String, Object> compacted =
                    call(
                            "CALL hdfs.sys.compact(`table` => 'default.media',"
                                    + " compact_strategy => 'full')");
            assertThat((Long) compacted.get("files_rewritten")).isGreaterThan(4);
            assertThat(compacted).containsEntry("snapshot_id", afterMerge + 1);
            assertThat(store.latestSnapshot().orElseThrow().commitKind())
                    .isEqualTo(CommitKind.COMPACT);
            rows = mediaRows();
            assertThat(values(rows)).isEqualTo(expectedMedia());
            assertThat(rowIds(rows)).as("compaction keeps row ids").containsAllEntriesOf(rowIds);
            List<String> compactedRows = assertPaimonReadsAsDovetail(paimon, store);

            Map<String, Object> expired =
                    call(
                            "CALL hdfs.sys.expire_snapshots(`table` => 'default.media',"
                                    + " retain_max => 1)");
            assertThat(expired)
                    .containsEntry("expired_snapshots", afterMerge)
                    .containsEntry("earliest_snapshot", afterMerge + 1);
            assertThat((Long) expired.get("deleted_data_files")).isPositive();
            assertThat(FileIO.listNames(store.paths().snapshotDir()))
                    .containsExactlyInAnyOrder(
                            "EARLIEST", "LATEST", "snapshot-" + (afterMerge + 1));
            assertThat(assertPaimonReadsAsDovetail(paimon, store)).isEqualTo(compactedRows);
        }
        assertThat(values(mediaRows())).isEqualTo(expectedMedia());
    }

    @Test
    void deletesAndADeletingMergeWriteDeletionVectorsOnHdfs() throws Exception {
        execute(
                batch,
                "CREATE TABLE events (id BIGINT, name STRING) WITH ('row-tracking.enabled' ="
                        + " 'true', 'data-evolution.enabled' = 'true', 'deletion-vectors.enabled'"
                        + " = 'true')");
        execute(
                batch,
                "INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e'),"
                        + " (6, 'f')");
        Map<Long, Object> rowIds = rowIds(eventRows());
        execute(batch, "DELETE FROM events WHERE id IN (2, 5)");
        List<Row> rows = eventRows();
        assertThat(values(rows)).containsExactly("+I[1, a]", "+I[3, c]", "+I[4, d]", "+I[6, f]");
        assertThat(rowIds).containsAllEntriesOf(rowIds(rows));
        TableStore store = TableStore.open(new Warehouse(warehouse).table("default", "events"));
        Snapshot deleted = store.latestSnapshot().orElseThrow();
        assertThat(deleted.id()).isEqualTo(2);
        assertThat(store.files(deleted).indexFiles()).as("one deletion-vector file").hasSize(1);
        assertThat(FileIO.listNames(store.paths().indexDir())).hasSize(1);

        execute(batch, "CREATE TABLE changes (id BIGINT, name STRING, op STRING)");
        execute(batch, "INSERT INTO changes VALUES (3, '', 'D'), (4, 'D4', 'U'), (7, 'g', 'I')");
        Map<String, Object> merged =
                call(
                        "CALL hdfs.sys.data_evolution_merge(target => 'default.events', source =>"
                                + " 'changes', merge_condition => 't.id = s.id',"
                                + " matched_update_set => 'name = s.name',"
                                + " matched_delete_condition => 's.op = ''D''',"
                                + " not_matched_insert_values => 'id = s.id, name = s.name')");
        assertThat(merged)
                .containsEntry("updated", 1L)
                .containsEntry("deleted", 1L)
                .containsEntry("inserted", 1L)
                .containsEntry("snapshot_id", 3L);
        assertThat(store.snapshots().listIds()).containsExactly(1L, 2L, 3L);
        rows = eventRows();
        assertThat(values(rows)).containsExactly("+I[1, a]", "+I[4, D4]", "+I[6, f]", "+I[7, g]");
        assertThat(rowIds(rows))
                .as("survivors keep their row ids")
                .containsEntry(1L, rowIds.get(1L))
                .containsEntry(4L, rowIds.get(4L))
                .containsEntry(6L, rowIds.get(6L));
    }

    /**
     * A BLOB column on HDFS: the descriptor of a file on HDFS copies the file's bytes into the
     * table's own .blob file, so the value reads back byte for byte after the file is gone.
     */
    @Test
    void aBlobDescriptorOfAnHdfsFileCopiesItsBytes() throws Exception {
        byte[] image = new byte[5000];
        new Random(7).nextBytes(image);
        Path source = new Path(hdfs.directory("/outside"), "image.bin");
        try (FSDataOutputStream out =
                source.getFileSystem().create(source, FileSystem.WriteMode.OVERWRITE)) {
            out.write(image);
        }
        execute(
                batch,
                "CREATE TABLE pictures (id BIGINT, img BYTES) WITH ('row-tracking.enabled' ="
                        + " 'true', 'data-evolution.enabled' = 'true', 'blob-field' = 'img')");
        execute(
                batch,
                "INSERT INTO pictures VALUES (1, sys.path_to_descriptor('"
                        + source
                        + "')), (2, X'0102')");
        source.getFileSystem().delete(source, false);
        Map<Long, byte[]> images = new HashMap<>();
        for (Row row : collect("SELECT id, img FROM pictures")) {
            images.put((Long) row.getField(0), (byte[]) row.getField(1));
        }
        assertThat(images).containsOnlyKeys(1L, 2L);
        assertThat(images.get(1L)).isEqualTo(image);
        assertThat(images.get(2L)).containsExactly(1, 2);
        TableStore store = TableStore.open(new Warehouse(warehouse).table("default", "pictures"));
        assertThat(store.files(store.latestSnapshot().orElseThrow()).liveFiles())
                .anyMatch(entry -> entry.file().fileName().endsWith(".blob"));
    }

    /** What the statements wrote to {@code media}, rendered like {@link #values}. */
    private static List<String> expectedMedia() {
        List<String> rows = new ArrayList<>();
        rows.add("+I[1, u1, a red bicycle, 13, x]");
        rows.add("+I[2, u2, two cats, 8, x]");
        rows.add("+I[3, u3, a lighthouse, null, y]");
        rows.add("+I[9000, none, new, null, z]");
        for (long id = 100; id < 900; id++) {
            String caption = id == 150 || id == 151 ? "c" + id : "null";
            rows.add("+I[" + id + ", u" + id + ", " + caption + ", null, x]");
        }
        rows.sort(null);
        return rows;
    }

    /**
     * Paimon's read of the latest snapshot with row tracking equals Dovetail's; returns the rows.
     */
    private static List<String> assertPaimonReadsAsDovetail(
            PaimonWorkbench paimon, TableStore store) throws Exception {
        List<String> dovetail =
                RenderedReads.read(
                        new ReadPlanner(store)
                                .planLatest(
                                        ReadRequest.allColumns(store.latestSchema())
                                                .withRowTracking()));
        assertThat(paimon.readRowsWithRowTracking("media"))
                .hasSize(expectedMedia().size())
                .isEqualTo(dovetail);
        return dovetail;
    }

    private static List<CommitKind> kinds(TableStore store, long upTo) {
        List<CommitKind> kinds = new ArrayList<>();
        for (long id = 1; id <= upTo; id++) {
            kinds.add(store.snapshots().snapshot(id).commitKind());
        }
        return kinds;
    }

    private static List<Row> mediaRows() throws Exception {
        return collect("SELECT id, url, caption, caption_len, dt, _ROW_ID FROM media");
    }

    private static List<Row> eventRows() throws Exception {
        return collect("SELECT id, name, _ROW_ID FROM events");
    }

    /** The one row of a procedure's result, by column name. */
    private static Map<String, Object> call(String statement) throws Exception {
        return SqlResults.namedRow(batch.executeSql(statement));
    }

    private static List<Row> collect(String query) throws Exception {
        return SqlResults.rows(batch.executeSql(query));
    }

    private static TableEnvironment session(EnvironmentSettings settings) {
        TableEnvironment sql = TableEnvironment.create(settings);
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG hdfs WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse
                        + "')");
        sql.executeSql("USE CATALOG hdfs");
        return sql;
    }

    private static void execute(TableEnvironment sql, String statement) throws Exception {
        sql.executeSql(statement).await();
    }
}
