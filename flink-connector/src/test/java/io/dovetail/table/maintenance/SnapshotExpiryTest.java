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
package io.dovetail.table.maintenance;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.snapshot.SnapshotJson;
import io.dovetail.table.testing.RenderedReads;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Expiry on a table with appends, column updates, deletes (deletion vectors) and merged manifests:
 * kept snapshots read exactly as before, and the files left on disk are exactly what the kept
 * snapshots (and tags) reference.
 */
class SnapshotExpiryTest {

    private static final ExpireConfig KEEP_5 =
            new ExpireConfig(5, Integer.MAX_VALUE, Duration.ZERO, 100);

    @TempDir java.nio.file.Path dir;

    private TableStore store;
    private long identifier;
    private final Map<Long, List<String>> readsBefore = new TreeMap<>();

    @BeforeEach
    void buildHistory() {
        store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "a", DataTypes.STRING()),
                                new DataField(2, "b", DataTypes.INT())),
                        List.of(),
                        List.of(),
                        Map.of(
                                "row-tracking.enabled", "true",
                                "data-evolution.enabled", "true",
                                "deletion-vectors.enabled", "true",
                                "manifest.merge-min-count", "3"),
                        null);
        Random random = new Random(7);
        for (int commit = 0; commit < 24; commit++) {
            int dice = commit < 3 ? 0 : random.nextInt(3);
            if (commit == 6) {
                overwriteFirstGroup();
            } else if (dice == 0) {
                append(store.latestSnapshot().map(Snapshot::nextRowId).orElse(0L));
            } else if (dice == 1) {
                update(random, commit);
            } else {
                delete(random);
            }
            Snapshot s = store.latestSnapshot().orElseThrow();
            readsBefore.put(s.id(), read(s));
        }
    }

    @Test
    void keptSnapshotsReadAsBeforeAndOnlyTheirFilesRemain() throws IOException {
        SnapshotExpiry.Result result = new SnapshotExpiry(store).expire(KEEP_5, now());

        long latest = store.snapshots().latestId().getAsLong();
        assertThat(result.expiredSnapshots()).isEqualTo(24 - 5);
        assertThat(result.earliestSnapshot()).isEqualTo(latest - 4);
        assertThat(result.deletedDataFiles()).isPositive();
        assertThat(result.deletedMetadataFiles()).isPositive();
        assertThat(store.snapshots().listIds()).containsExactly(20, 21, 22, 23, 24);
        assertThat(store.snapshots().earliestId()).hasValue(20);
        assertKeptSnapshotsIntactAndNothingElseOnDisk(List.of());
    }

    @Test
    void expiringAgainIsANoOpAndRewritesTheEarliestHint() throws IOException {
        new SnapshotExpiry(store).expire(KEEP_5, now());
        FileIO.deleteQuietly(store.paths().earliestHint());
        SnapshotExpiry.Result again = new SnapshotExpiry(store).expire(KEEP_5, now());
        assertThat(again.expiredSnapshots()).isZero();
        assertThat(new String(Files.readAllBytes(dir.resolve("snapshot/EARLIEST"))))
                .isEqualTo("20");
        assertKeptSnapshotsIntactAndNothingElseOnDisk(List.of());
    }

    @Test
    void youngSnapshotsStayUnlessMoreThanRetainMaxExist() {
        long cut = store.snapshots().snapshot(10).timeMillis();
        ExpireConfig hour = new ExpireConfig(1, Integer.MAX_VALUE, Duration.ofHours(1), 100);
        new SnapshotExpiry(store).expire(hour, cut + Duration.ofHours(1).toMillis());
        long earliest = store.snapshots().earliestId().getAsLong();
        assertThat(earliest).isLessThanOrEqualTo(10);
        assertThat(store.snapshots().snapshot(earliest).timeMillis()).isGreaterThanOrEqualTo(cut);

        new SnapshotExpiry(store).expire(hour.withRetainMax(3), 0);
        assertThat(store.snapshots().listIds()).containsExactly(22, 23, 24);
    }

    @Test
    void oneRunExpiresAtMostTheLimit() {
        new SnapshotExpiry(store).expire(KEEP_5.withMaxExpires(4), now());
        assertThat(store.snapshots().earliestId()).hasValue(5);
    }

    @Test
    void taggedSnapshotsKeepTheirFiles() throws IOException {
        Snapshot tagged = store.snapshots().snapshot(8);
        Files.createDirectories(dir.resolve("tag"));
        Files.write(dir.resolve("tag/tag-keep"), SnapshotJson.toBytes(tagged));

        new SnapshotExpiry(store).expire(KEEP_5, now());

        assertThat(store.snapshots().exists(8)).isFalse();
        assertThat(read(tagged)).isEqualTo(readsBefore.get(8L));
        assertKeptSnapshotsIntactAndNothingElseOnDisk(List.of(tagged));
    }

    @Test
    void snapshotsAConsumerStillReadsStay() throws IOException {
        Files.createDirectories(dir.resolve("consumer"));
        Files.writeString(dir.resolve("consumer/consumer-job"), "{\"nextSnapshot\":12}");
        new SnapshotExpiry(store).expire(KEEP_5, now());
        // the reader reads 12 next, compared with 11 (Paimon's expiry would keep 12 on)
        assertThat(store.snapshots().earliestId()).hasValue(11);
    }

    @Test
    void badSettingsAreRefusedClearly() {
        assertThatThrownBy(() -> KEEP_5.withRetainMin(0))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("At least one snapshot must be retained");
        assertThatThrownBy(() -> KEEP_5.withRetainMax(2))
                .hasMessageContaining("retain-max (2) must be at least retain-min (5)");
        assertThatThrownBy(
                        () -> ExpireConfig.fromOptions(Map.of("snapshot.time-retained", "a while")))
                .hasMessageContaining("'snapshot.time-retained' must be a duration");
        assertThat(ExpireConfig.fromOptions(Map.of("snapshot.time-retained", "30 min")))
                .isEqualTo(new ExpireConfig(10, Integer.MAX_VALUE, Duration.ofMinutes(30), 50));
    }

    /**
     * Every kept snapshot reads as it did before expiry, and the table directory holds exactly the
     * files kept snapshots and {@code tags} reference (besides schema and snapshot files).
     */
    private void assertKeptSnapshotsIntactAndNothingElseOnDisk(List<Snapshot> tags)
            throws IOException {
        FileReferences referenced = new FileReferences();
        for (long id : store.snapshots().listIds()) {
            Snapshot kept = store.snapshots().snapshot(id);
            store.files(kept).verifyLiveFiles();
            assertThat(read(kept)).as("snapshot %s", id).isEqualTo(readsBefore.get(id));
            referenced.addSnapshot(store, kept, true);
        }
        for (Snapshot tag : tags) {
            referenced.addSnapshot(store, tag, true);
        }
        Set<String> expected = new TreeSet<>();
        Stream.concat(referenced.dataFiles().stream(), referenced.metadata().stream())
                .forEach(p -> expected.add(relative(p)));
        Set<String> onDisk = new TreeSet<>();
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            files.filter(Files::isRegularFile)
                    .map(f -> dir.relativize(f).toString())
                    .filter(f -> !f.startsWith("schema/") && !f.startsWith("snapshot/"))
                    .filter(f -> !f.startsWith("tag/") && !f.startsWith("consumer/"))
                    .forEach(onDisk::add);
        }
        assertThat(onDisk).isEqualTo(expected);
    }

    private String relative(Path path) {
        return dir.relativize(java.nio.file.Path.of(path.toUri())).toString();
    }

    private List<String> read(Snapshot snapshot) {
        return RenderedReads.read(
                new ReadPlanner(store)
                        .plan(
                                snapshot,
                                ReadRequest.allColumns(store.latestSchema()).withRowTracking()));
    }

    private void append(long firstId) {
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), GenericRowData.of())) {
            for (long id = firstId; id < firstId + 6; id++) {
                writer.write(GenericRowData.of(id, StringData.fromString("a" + id), (int) id));
            }
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append("test", ++identifier, files));
    }

    /** Removes the files of the oldest group (an overwrite deleting its rows). */
    private void overwriteFirstGroup() {
        List<ManifestEntry> first =
                store.files(store.latestSnapshot().orElseThrow()).liveFiles().stream()
                        .filter(e -> e.file().firstRowId() == 0)
                        .toList();
        new TableCommit(store)
                .commit(CommitRequest.overwrite("test", ++identifier, first, List.of()));
    }

    private void update(Random random, int commit) {
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<RowUpdate> updates = new ArrayList<>();
        for (ManifestEntry group : normalFiles(base)) {
            long first = group.file().firstRowId();
            for (long rowId = first; rowId < first + group.file().rowCount(); rowId++) {
                if (random.nextInt(3) == 0) {
                    updates.add(
                            new RowUpdate(rowId, GenericRowData.of(commit * 1000 + (int) rowId)));
                }
            }
        }
        ColumnUpdater.on(store, base, List.of("b"))
                .commit("test", ++identifier, updates.iterator());
    }

    private void delete(Random random) {
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<ManifestEntry> normal = normalFiles(base);
        ManifestEntry anchor = normal.get(random.nextInt(normal.size()));
        long[] positions = {random.nextInt((int) anchor.file().rowCount())};
        IndexChanges changes =
                new DeletionVectorWriter(store)
                        .write(base, Map.of(anchor.file().fileName(), positions));
        new TableCommit(store)
                .commit(CommitRequest.delete("test", ++identifier, base.id(), changes));
    }

    private List<ManifestEntry> normalFiles(Snapshot snapshot) {
        return store.files(snapshot).liveFiles().stream()
                .filter(e -> e.file().writeCols() == null)
                .sorted(java.util.Comparator.comparing(e -> e.file().firstRowId()))
                .toList();
    }

    private static long now() {
        return System.currentTimeMillis();
    }
}
