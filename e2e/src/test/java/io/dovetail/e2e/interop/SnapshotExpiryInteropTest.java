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
import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.snapshot.Consumers;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.apache.paimon.consumer.Consumer;
import org.apache.paimon.consumer.ConsumerManager;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same Dovetail-written history (appends, column updates, an overwrite, merged manifests) is
 * expired by Apache Paimon 1.4.2 in one copy and by Dovetail in another, with the same settings:
 * both must keep the same snapshots and leave exactly the same files, and Paimon must read
 * Dovetail's expired copy as it reads its own.
 */
class SnapshotExpiryInteropTest {

    private static final String USER = "dovetail-expiry-interop";

    @TempDir java.nio.file.Path root;

    private TableStore store;
    private long identifier;

    @Test
    void dovetailAndPaimonExpireTheSameFiles() throws Exception {
        java.nio.file.Path original = root.resolve("original");
        store = createTable(original, Map.of("manifest.merge-min-count", "3"));
        for (int round = 0; round < 6; round++) {
            append(round * 4L);
            update(List.of("score"), round);
            if (round == 2) {
                overwriteGroupAt(0);
            }
            update(List.of("name"), round);
        }
        assertThat(store.snapshots().listIds()).hasSize(19);

        java.nio.file.Path byPaimon = copy(original, root.resolve("by-paimon"));
        java.nio.file.Path byDovetail = copy(original, root.resolve("by-dovetail"));
        try (PaimonWorkbench paimon = new PaimonWorkbench(byPaimon)) {
            int expired =
                    paimon.table("t")
                            .newExpireSnapshots()
                            .config(
                                    org.apache.paimon.options.ExpireConfig.builder()
                                            .snapshotRetainMin(4)
                                            .snapshotRetainMax(Integer.MAX_VALUE)
                                            .snapshotTimeRetain(Duration.ZERO)
                                            .snapshotMaxDeletes(100)
                                            .build())
                            .expire();
            assertThat(expired).isEqualTo(15);
        }
        TableStore dovetail =
                TableStore.open(new Warehouse(new Path(byDovetail.toUri())).table("default", "t"));
        SnapshotExpiry.Result result =
                new SnapshotExpiry(dovetail)
                        .expire(
                                new ExpireConfig(4, Integer.MAX_VALUE, Duration.ZERO, 100),
                                System.currentTimeMillis());
        assertThat(result.expiredSnapshots()).isEqualTo(15);
        assertThat(result.deletedDataFiles()).isPositive();

        assertThat(files(byDovetail)).isEqualTo(files(byPaimon));
        try (PaimonWorkbench paimonOnDovetail = new PaimonWorkbench(byDovetail);
                PaimonWorkbench paimonOnPaimon = new PaimonWorkbench(byPaimon)) {
            List<String> rows = paimonOnDovetail.readRowsWithRowTracking("t");
            assertThat(rows).hasSize(20);
            assertThat(rows).isEqualTo(paimonOnPaimon.readRowsWithRowTracking("t"));
        }
    }

    /**
     * Consumers are shared: Paimon 1.4.2's expiry keeps what a Dovetail consumer (or a job's pin, a
     * consumer entry too) still needs, and Dovetail's expiry keeps what a Paimon consumer needs
     * (and the snapshot before it, which a full changelog of the next one is compared with).
     */
    @Test
    void eachEnginesExpiryKeepsWhatTheOtherEnginesConsumersNeed() throws Exception {
        java.nio.file.Path original = root.resolve("consumed");
        store = createTable(original, Map.of());
        for (int round = 0; round < 10; round++) {
            append(round * 4L);
        }
        java.nio.file.Path byPaimon = copy(original, root.resolve("paimon-expires"));
        java.nio.file.Path byDovetail = copy(original, root.resolve("dovetail-expires"));

        TableStore readByDovetail = open(byPaimon);
        new Consumers(readByDovetail.paths()).record("dovetail-reader", 4);
        try (PaimonWorkbench paimon = new PaimonWorkbench(byPaimon)) {
            FileStoreTable table = paimon.table("t");
            assertThat(
                            new ConsumerManager(table.fileIO(), table.location())
                                    .consumer("dovetail-reader")
                                    .map(Consumer::nextSnapshot))
                    .contains(4L);
            table.newExpireSnapshots()
                    .config(
                            org.apache.paimon.options.ExpireConfig.builder()
                                    .snapshotRetainMin(1)
                                    .snapshotRetainMax(Integer.MAX_VALUE)
                                    .snapshotTimeRetain(Duration.ZERO)
                                    .snapshotMaxDeletes(100)
                                    .build())
                    .expire();
        }
        assertThat(readByDovetail.snapshots().listIds())
                .containsExactly(4L, 5L, 6L, 7L, 8L, 9L, 10L);

        TableStore readByPaimon = open(byDovetail);
        try (PaimonWorkbench paimon = new PaimonWorkbench(byDovetail)) {
            FileStoreTable table = paimon.table("t");
            new ConsumerManager(table.fileIO(), table.location())
                    .resetConsumer("paimon-reader", new Consumer(6));
        }
        assertThat(new Consumers(readByPaimon.paths()).position("paimon-reader")).hasValue(6);
        new SnapshotExpiry(readByPaimon)
                .expire(
                        new ExpireConfig(1, Integer.MAX_VALUE, Duration.ZERO, 100),
                        System.currentTimeMillis());
        assertThat(readByPaimon.snapshots().listIds()).containsExactly(5L, 6L, 7L, 8L, 9L, 10L);
    }

    /** Table {@code t (id BIGINT, name STRING, score INT)} in {@code warehouse}. */
    private static TableStore createTable(
            java.nio.file.Path warehouse, Map<String, String> options) {
        return DovetailTables.create(
                warehouse,
                "t",
                List.of(
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "name", DataTypes.STRING()),
                        new DataField(2, "score", DataTypes.INT())),
                List.of(),
                options);
    }

    private static TableStore open(java.nio.file.Path warehouse) {
        return TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", "t"));
    }

    private void append(long firstId) {
        List<GenericRowData> rows = new ArrayList<>();
        for (long id = firstId; id < firstId + 4; id++) {
            rows.add(GenericRowData.of(id, StringData.fromString("n" + id), (int) id));
        }
        DovetailTables.append(store, USER, ++identifier, GenericRowData.of(), rows);
    }

    /** Sets {@code column} of every other live row to a value derived from {@code round}. */
    private void update(List<String> columns, int round) {
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<RowUpdate> updates = new ArrayList<>();
        for (ManifestEntry group : store.files(base).liveFiles()) {
            if (group.file().writeCols() != null) {
                continue;
            }
            long first = group.file().firstRowId();
            for (long rowId = first; rowId < first + group.file().rowCount(); rowId += 2) {
                Object value =
                        columns.get(0).equals("name")
                                ? StringData.fromString("r" + round + "-" + rowId)
                                : (Object) (round * 100 + (int) rowId);
                updates.add(new RowUpdate(rowId, GenericRowData.of(value)));
            }
        }
        ColumnUpdater.on(store, base, columns).commit(USER, ++identifier, updates.iterator());
    }

    /** Removes every file of the group starting at {@code firstRowId}. */
    private void overwriteGroupAt(long firstRowId) {
        List<ManifestEntry> group =
                store.files(store.latestSnapshot().orElseThrow()).liveFiles().stream()
                        .filter(e -> e.file().firstRowId() == firstRowId)
                        .toList();
        new TableCommit(store)
                .commit(CommitRequest.overwrite(USER, ++identifier, group, List.of()));
    }

    private static java.nio.file.Path copy(java.nio.file.Path from, java.nio.file.Path to)
            throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(from)) {
            for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files::iterator) {
                java.nio.file.Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }

    /** Regular files below {@code dir} (hidden ones skipped), relative, with hint contents. */
    private static Set<String> files(java.nio.file.Path dir) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            for (java.nio.file.Path file : (Iterable<java.nio.file.Path>) files::iterator) {
                if (Files.isRegularFile(file) && !file.getFileName().toString().startsWith(".")) {
                    String name = dir.relativize(file).toString();
                    out.add(
                            name.endsWith("EARLIEST") || name.endsWith("LATEST")
                                    ? name + "=" + Files.readString(file)
                                    : name);
                }
            }
        }
        return out;
    }
}
