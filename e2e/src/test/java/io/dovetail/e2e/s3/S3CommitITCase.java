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
package io.dovetail.e2e.s3;

import io.dovetail.e2e.interop.DovetailTables;
import io.dovetail.e2e.paimon.PaimonWorkbench;
import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRace;
import io.dovetail.table.commit.TestTable;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.fs.Writers;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dovetail tables on {@code s3://} against a real S3-compatible server (S3Mock, its own JVM): data
 * files and manifests through Flink's S3 file system ({@code flink-s3-fs-hadoop}), snapshot and
 * schema files through conditional PUTs, both configured by the same {@code s3.*} keys. The
 * conditional PUTs pass an {@link S3Proxy} that makes S3Mock's condition check atomic, as S3's is.
 * Paimon 1.4.2 reads the S3 table through its own S3 file IO ({@code paimon-s3}); eight committers
 * racing on one S3 table leave exactly the model's table ({@link CommitRace}).
 */
class S3CommitITCase {

    private static final String BUCKET = "warehouse";
    private static final String USER = "dovetail-s3";
    private static final long RACE_SECONDS = Long.getLong("dovetail.s3.concurrency.seconds", 30);

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            // the S3 file system, created inside a job, is reused after it
                            .setConfiguration(
                                    Configuration.fromMap(
                                            Map.of(
                                                    "classloader.check-leaked-classloader",
                                                    "false")))
                            .build());

    private static S3MockServer s3;
    private static S3Proxy atomicConditions;
    private static Configuration conditionalPuts;
    private long identifier;

    @BeforeAll
    static void startServer() throws Exception {
        s3 = S3MockServer.start(BUCKET);
        s3.initializeFlinkFileSystems();
        atomicConditions = new S3Proxy(s3.endpoint(), S3Proxy.Mode.ATOMIC_CONDITIONS);
        conditionalPuts = S3MockServer.flinkConfiguration(atomicConditions.endpoint());
        FileIO.configureObjectStores(conditionalPuts);
    }

    @AfterAll
    static void stopServer() throws Exception {
        S3MockServer.resetFlinkFileSystems();
        atomicConditions.close();
        s3.close();
    }

    @Test
    void writeUpdateCompactionAndExpiryOnS3ReadIdenticallyByPaimon() throws Exception {
        Path warehouse = new Path("s3://" + BUCKET + "/core");
        TableStore store =
                DovetailTables.regionTable(
                        warehouse, "media", Map.of("compaction.min.file-num", "2"));
        DovetailTables.appendToRegion(store, USER, ++identifier, 0, 5, "eu");
        DovetailTables.appendToRegion(store, USER, ++identifier, 5, 4, "us");
        DovetailTables.appendToRegion(store, USER, ++identifier, 9, 6, "eu");
        updateNames(store, List.of(1L, 6L, 10L, 14L));
        long latest;

        try (PaimonWorkbench paimon =
                new PaimonWorkbench(warehouse.toString(), s3.paimonOptions())) {
            List<String> updated = paimon.readRowsWithRowTracking("media");
            assertThat(updated)
                    .hasSize(15)
                    .anyMatch(r -> r.startsWith("id=10, name=s3-10,"))
                    .anyMatch(r -> r.startsWith("id=11, name=name-11,"))
                    .isEqualTo(dovetailRows(store));

            DataEvolutionCompaction.Result compacted =
                    new DataEvolutionCompaction(store)
                            .compact(
                                    USER + "-compactor",
                                    1,
                                    p -> true,
                                    CompactionConfig.fromOptions(store.latestSchema().options())
                                            .withRewrite(CompactionConfig.Rewrite.FULL));
            assertThat(compacted.tasks()).isPositive();
            List<String> afterCompaction = paimon.readRowsWithRowTracking("media");
            assertThat(afterCompaction)
                    .hasSize(15)
                    .anyMatch(r -> r.startsWith("id=10, name=s3-10,"))
                    .isEqualTo(dovetailRows(store));

            latest = store.snapshots().latestId().orElseThrow();
            SnapshotExpiry.Result expired =
                    new SnapshotExpiry(store)
                            .expire(
                                    new ExpireConfig(1, Integer.MAX_VALUE, Duration.ZERO, 100),
                                    System.currentTimeMillis());
            assertThat(expired.expiredSnapshots()).isEqualTo(latest - 1);
            assertThat(expired.deletedDataFiles()).isPositive();
            assertThat(store.snapshots().listIds()).containsExactly(latest);
            assertThat(paimon.readRowsWithRowTracking("media"))
                    .isEqualTo(afterCompaction)
                    .isEqualTo(dovetailRows(store));
        }
        assertThat(new TreeSet<>(FileIO.listNames(store.paths().snapshotDir())))
                .as("no temporary objects: each snapshot was one conditional PUT")
                .containsExactly("EARLIEST", "LATEST", "snapshot-" + latest);
    }

    @Test
    void flinkSqlInsertUpdateAndDeleteThroughTheCatalogOnS3() throws Exception {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG s3 WITH ('type' = 'dovetail', 'warehouse' = 's3://"
                        + BUCKET
                        + "/sql')");
        sql.executeSql("USE CATALOG s3");
        sql.executeSql(
                "CREATE TABLE media (id BIGINT, name STRING, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('deletion-vectors.enabled' = 'true')");
        sql.executeSql("INSERT INTO media VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'x')")
                .await();
        sql.executeSql("UPDATE media SET name = 'B' WHERE id = 2").await();
        assertThat(rows(sql)).containsExactly("+I[1, a, x]", "+I[2, B, y]", "+I[3, c, x]");
        sql.executeSql("DELETE FROM media WHERE id = 3").await();
        assertThat(rows(sql)).containsExactly("+I[1, a, x]", "+I[2, B, y]");
        TableStore store =
                TableStore.open(
                        new Warehouse(new Path("s3://" + BUCKET + "/sql"))
                                .table("default", "media"));
        assertThat(store.snapshots().listIds()).containsExactly(1L, 2L, 3L);
    }

    /**
     * A BLOB column on S3: the descriptor of an object copies its bytes into the table's own .blob
     * file, so the value reads back byte for byte after the object is gone.
     */
    @Test
    void aBlobDescriptorOfAnS3ObjectCopiesItsBytes() throws Exception {
        byte[] image = new byte[5000];
        new Random(7).nextBytes(image);
        Path source = new Path("s3://" + BUCKET + "/outside/image.bin");
        try (FSDataOutputStream out =
                source.getFileSystem().create(source, FileSystem.WriteMode.OVERWRITE)) {
            out.write(image);
        }
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG s3 WITH ('type' = 'dovetail', 'warehouse' = 's3://"
                        + BUCKET
                        + "/blobs')");
        sql.executeSql("USE CATALOG s3");
        sql.executeSql(
                "CREATE TABLE pictures (id BIGINT, img BYTES) WITH ('row-tracking.enabled' ="
                        + " 'true', 'data-evolution.enabled' = 'true', 'blob-field' = 'img')");
        sql.executeSql(
                        "INSERT INTO pictures VALUES (1, sys.path_to_descriptor('"
                                + source
                                + "')), (2, X'0102')")
                .await();
        source.getFileSystem().delete(source, false);
        Map<Long, byte[]> images = new HashMap<>();
        try (CloseableIterator<Row> it = sql.executeSql("SELECT id, img FROM pictures").collect()) {
            it.forEachRemaining(
                    row -> images.put((Long) row.getField(0), (byte[]) row.getField(1)));
        }
        assertThat(images).containsOnlyKeys(1L, 2L);
        assertThat(images.get(1L)).isEqualTo(image);
        assertThat(images.get(2L)).containsExactly(1, 2);
    }

    @Test
    void racingCommittersOnS3MatchTheModel() throws Exception {
        TestTable table = new TestTable(new Path("s3://" + BUCKET + "/race/t"), true);
        new CommitRace(table).runAndVerify(8, RACE_SECONDS * 1000);
    }

    @Test
    void theProbeAcceptsS3MockAndASecondCreateOfOneNameIsRefused() {
        FileIO.configureObjectStores(s3.flinkConfiguration());
        try {
            Path target = new Path("s3://" + BUCKET + "/names/snapshot/snapshot-1");
            assertThat(FileIO.publishIfAbsent(target, bytes("first"), Writers.CONCURRENT)).isTrue();
            assertThat(FileIO.publishIfAbsent(target, bytes("second"), Writers.CONCURRENT))
                    .isFalse();
            assertThat(FileIO.readFully(target, "the test")).isEqualTo(bytes("first"));
        } finally {
            FileIO.configureObjectStores(conditionalPuts);
        }
    }

    @Test
    void theProbeRefusesAStoreThatIgnoresConditionalWrites() throws Exception {
        Path warehouse = new Path("s3://" + BUCKET + "/ignoring");
        TableStore existing = DovetailTables.regionTable(warehouse, "existing", Map.of());
        DovetailTables.appendToRegion(existing, USER, ++identifier, 0, 3, "eu");
        List<String> snapshotsBefore = FileIO.listNames(existing.paths().snapshotDir());
        List<String> manifestsBefore = FileIO.listNames(existing.paths().manifestDir());

        try (S3Proxy proxy = new S3Proxy(s3.endpoint(), S3Proxy.Mode.DROP_CONDITIONS)) {
            FileIO.configureObjectStores(S3MockServer.flinkConfiguration(proxy.endpoint()));
            String store = "s3://" + BUCKET + " at " + proxy.endpoint();
            assertThatThrownBy(() -> DovetailTables.regionTable(warehouse, "refused", Map.of()))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining(store + " ignores conditional writes")
                    .hasMessageContaining("'commit.single-writer' = 'true'");
            assertThat(FileIO.listNames(new Path(warehouse, "default.db/refused/schema")))
                    .isEmpty();

            assertThatThrownBy(
                            () ->
                                    DovetailTables.appendToRegion(
                                            existing, USER, ++identifier, 3, 3, "eu"))
                    .isInstanceOf(DovetailException.class)
                    .hasMessageContaining(store + " ignores conditional writes");
            assertThat(FileIO.listNames(existing.paths().snapshotDir()))
                    .containsExactlyInAnyOrderElementsOf(snapshotsBefore);
            assertThat(FileIO.listNames(existing.paths().manifestDir()))
                    .containsExactlyInAnyOrderElementsOf(manifestsBefore);

            TableStore single =
                    DovetailTables.regionTable(
                            warehouse, "single", Map.of("commit.single-writer", "true"));
            DovetailTables.appendToRegion(single, USER, ++identifier, 0, 3, "eu");
            assertThat(dovetailRows(single)).hasSize(3);
        } finally {
            FileIO.configureObjectStores(conditionalPuts);
        }
    }

    private void updateNames(TableStore store, List<Long> rowIds) {
        List<RowUpdate> updates =
                rowIds.stream()
                        .map(
                                id ->
                                        new RowUpdate(
                                                id,
                                                GenericRowData.of(
                                                        StringData.fromString("s3-" + id))))
                        .toList();
        ColumnUpdater.on(store, store.latestSnapshot().orElseThrow(), List.of("name"))
                .commit(USER, ++identifier, updates.iterator())
                .orElseThrow();
    }

    private static List<String> rows(TableEnvironment sql) throws Exception {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                sql.executeSql("SELECT id, name, dt FROM media").collect()) {
            it.forEachRemaining(row -> rows.add(row.toString()));
        }
        Collections.sort(rows);
        return rows;
    }

    private static List<String> dovetailRows(TableStore store) {
        return RenderedReads.read(
                new ReadPlanner(store)
                        .planLatest(
                                ReadRequest.allColumns(store.latestSchema()).withRowTracking()));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
