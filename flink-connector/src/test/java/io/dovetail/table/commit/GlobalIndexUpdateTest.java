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
package io.dovetail.table.commit;

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.GlobalIndexMeta;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexFileMeta;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.maintenance.SnapshotRollback;
import io.dovetail.table.manifest.FileKind;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.schema.SchemaChange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Global indexes (built by Paimon's {@code create_global_index}) through every kind of commit: a
 * column update of an indexed column of an indexed partition is refused, drops the partition's
 * index files of the column, or keeps them, as {@code global-index.column-update-action} says;
 * materializations and overwrites drop the rewritten partitions' indexes; compactions keep them.
 */
class GlobalIndexUpdateTest {

    private static final int A = 1; // field id of column a
    private static final int B = 2;

    @TempDir Path dir;
    private TestTable table;

    @BeforeEach
    void twoPartitions() {
        table = new TestTable(dir.resolve("t"), false);
        table.commit(
                CommitRequest.append(
                        "writer",
                        1,
                        List.of(table.fakeAppend("p1", 10), table.fakeAppend("p2", 10))));
    }

    @Test
    void anUpdateOfAnIndexedColumnOfAnIndexedPartitionIsRefusedAndChangesNothing() {
        addGlobalIndex("p1", A);
        long[] snapshots = table.snapshotIds();
        List<IndexManifestEntry> indexes = table.files().indexFiles();

        assertThatThrownBy(() -> updateColumn("a", "p1"))
                .isInstanceOf(DovetailException.class)
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.REFUSED_BY_OPTION))
                .hasMessageContaining("changes column(s) [a]")
                .hasMessageContaining("btree index")
                .hasMessageContaining("in partition dt=p1")
                .hasMessageContaining("'global-index.column-update-action' = 'THROW_ERROR'")
                .hasMessageContaining("DROP_PARTITION_INDEX");
        assertThat(table.snapshotIds()).isEqualTo(snapshots);
        assertThat(table.files().indexFiles()).isEqualTo(indexes);
    }

    @Test
    void aBitmapIndexIsGuardedAsABTreeIndexIs() {
        addGlobalIndex("p1", A, "bitmap");

        assertThatThrownBy(() -> updateColumn("a", "p1"))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("bitmap index")
                .hasMessageContaining("in partition dt=p1");
        dropPartitionIndex();
        updateColumn("a", "p1");

        assertThat(globalIndexes()).isEmpty();
    }

    @Test
    void anotherColumnOrAnotherPartitionCommitsAndKeepsTheIndex() {
        IndexManifestEntry index = addGlobalIndex("p1", A);

        updateColumn("b", "p1");
        updateColumn("a", "p2");

        assertThat(globalIndexes()).containsExactly(index);
    }

    @Test
    void dropPartitionIndexDropsOnlyTheAffectedPartitionsIndexesOfTheColumn() {
        table.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption(
                                "global-index.column-update-action", "drop_partition_index"));
        IndexManifestEntry aInP1 = addGlobalIndex("p1", A);
        IndexManifestEntry aInP2 = addGlobalIndex("p2", A);
        IndexManifestEntry bInP1 = addGlobalIndex("p1", B);

        Snapshot updated = updateColumn("a", "p1");

        assertThat(globalIndexes()).containsExactlyInAnyOrder(aInP2, bInP1).doesNotContain(aInP1);
        assertThat(table.store.files(updated).liveFiles())
                .anyMatch(e -> e.file().writeCols() != null);
    }

    @Test
    void ignoreKeepsTheIndexFiles() {
        table.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption("global-index.column-update-action", "IGNORE"));
        IndexManifestEntry index = addGlobalIndex("p1", A);

        updateColumn("a", "p1");

        assertThat(globalIndexes()).containsExactly(index);
    }

    @Test
    void anUnknownActionIsAClearError() {
        table.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption("global-index.column-update-action", "SOMETIMES"));
        addGlobalIndex("p1", A);

        assertThatThrownBy(() -> updateColumn("a", "p1"))
                .hasMessageContaining(
                        "Option 'global-index.column-update-action' must be one of"
                                + " [THROW_ERROR, DROP_PARTITION_INDEX, IGNORE], got 'SOMETIMES'");
    }

    @Test
    void anIndexBuiltAfterTheUpdatesBaseSnapshotIsSeenByItsCommit() {
        Snapshot base = table.latest();
        addGlobalIndex("p1", A);

        assertThatThrownBy(
                        () ->
                                table.commit(
                                        CommitRequest.columnUpdate(
                                                "updater",
                                                1,
                                                base.id(),
                                                List.of(partial("a", "p1")))))
                .hasMessageContaining("global indexes cover");
    }

    @Test
    void aMergesPartialFilesFollowThePolicyToo() {
        addGlobalIndex("p2", A);
        Snapshot base = table.latest();

        assertThatThrownBy(
                        () ->
                                table.commit(
                                        CommitRequest.merge(
                                                "merger",
                                                1,
                                                base.id(),
                                                List.of(partial("a", "p2")),
                                                List.of(table.fakeAppend("p2", 3)),
                                                IndexChanges.NONE)))
                .hasMessageContaining("in partition dt=p2");
    }

    @Test
    void materializationAndOverwriteDropTheRewrittenPartitionsIndexesAndCompactionKeepsThem() {
        IndexManifestEntry inP1 = addGlobalIndex("p1", A);
        IndexManifestEntry inP2 = addGlobalIndex("p2", B);
        ManifestEntry p1 = groupOf("p1");
        ManifestEntry p2 = groupOf("p2");

        table.commit(
                CommitRequest.compact(
                        "compactor",
                        1,
                        List.of(p1),
                        List.of(
                                TestTable.withFile(
                                        table.fakeAppend("p1", 10),
                                        p1.file().toBuilder()
                                                .fileName(
                                                        "compacted-"
                                                                + UUID.randomUUID()
                                                                + ".parquet")
                                                .build())),
                        IndexChanges.NONE));
        assertThat(globalIndexes()).containsExactlyInAnyOrder(inP1, inP2);

        table.commit(
                CommitRequest.materialize(
                        "materializer",
                        1,
                        table.latest().id(),
                        List.of(groupOf("p1")),
                        List.of(table.fakeAppend("p1", 9)),
                        IndexChanges.NONE));
        assertThat(globalIndexes()).containsExactly(inP2);

        table.commit(
                CommitRequest.overwrite(
                        "overwriter", 1, List.of(p2), List.of(table.fakeAppend("p2", 4))));
        assertThat(globalIndexes()).isEmpty();
    }

    @Test
    void theColumnUpdaterRefusesBeforeItWritesTheGroupsFile() {
        TestTable real = new TestTable(dir.resolve("real"), false);
        real.commit(CommitRequest.append("writer", 1, List.of(real.writeAppend("p1", 5))));
        table = real;
        addGlobalIndex("p1", A);
        var dataFilesBefore = real.filesIn("dt=p1/bucket-0");

        assertThatThrownBy(
                        () ->
                                ColumnUpdater.on(real.store, real.latest(), List.of("a"))
                                        .commit(
                                                "updater",
                                                1,
                                                List.of(
                                                                new RowUpdate(
                                                                        2,
                                                                        GenericRowData.of(
                                                                                StringData
                                                                                        .fromString(
                                                                                                "new"))))
                                                        .iterator()))
                .hasMessageContaining("global indexes cover");
        assertThat(real.filesIn("dt=p1/bucket-0")).isEqualTo(dataFilesBefore);
    }

    @Test
    void rollbackRestoresTheTargetsGlobalIndexesAndDeletesThoseBuiltAfterIt() {
        dropPartitionIndex();
        IndexManifestEntry index = addGlobalIndex("p1", A);
        long indexed = table.latest().id();
        updateColumn("a", "p1");
        assertThat(globalIndexes()).isEmpty();
        assertThat(indexFile(index)).as("snapshot %s still has it", indexed).exists();

        new SnapshotRollback(table.store).toSnapshot(indexed);

        assertThat(globalIndexes()).containsExactly(index);
        assertThat(table.live())
                .as("the update is gone")
                .allMatch(e -> e.file().writeCols() == null);
        assertThat(indexFile(index)).exists();

        new SnapshotRollback(table.store).toSnapshot(1);

        assertThat(globalIndexes()).isEmpty();
        assertThat(indexFile(index)).as("no snapshot refers to it").doesNotExist();
    }

    @Test
    void expiryKeepsEveryIndexFileALiveSnapshotReferencesAndDeletesTheDroppedOnes() {
        dropPartitionIndex();
        IndexManifestEntry dropped = addGlobalIndex("p1", A);
        IndexManifestEntry kept = addGlobalIndex("p2", B);
        updateColumn("a", "p1");
        table.commit(CommitRequest.append("writer", 9, List.of(table.fakeAppend("p2", 5))));

        new SnapshotExpiry(table.store).expire(new ExpireConfig(1, 1, Duration.ZERO, 100), 0);

        assertThat(table.snapshotIds()).containsExactly(table.latest().id());
        assertThat(globalIndexes()).containsExactly(kept);
        assertThat(indexFile(kept)).exists();
        assertThat(indexFile(dropped)).doesNotExist();
    }

    @Test
    void aColumnUpdateAndACompactionGiveTheChangedRangeSequencesAboveTheIndexBuild() {
        // Paimon's refresh of an index kept under IGNORE finds the ranges whose indexed column a
        // file with a larger sequence number than the index's build snapshot wrote
        TestTable real = new TestTable(dir.resolve("real"), false);
        real.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption("global-index.column-update-action", "IGNORE"));
        real.commit(CommitRequest.append("writer", 1, List.of(real.writeAppend("p1", 5))));
        table = real;
        addGlobalIndex("p1", A);
        long built = table.latest().id();

        ColumnUpdater.on(real.store, real.latest(), List.of("a"))
                .commit(
                        "updater",
                        2,
                        List.of(new RowUpdate(2, GenericRowData.of(StringData.fromString("new"))))
                                .iterator())
                .orElseThrow();
        assertThat(table.live())
                .filteredOn(e -> e.file().writeCols() != null)
                .singleElement()
                .satisfies(e -> assertThat(e.file().maxSequenceNumber()).isGreaterThan(built));

        new DataEvolutionCompaction(real.store)
                .compact(
                        "compactor",
                        3,
                        p -> true,
                        new CompactionConfig(256 << 20, 4 << 20, 1, CompactionConfig.Rewrite.FULL));

        assertThat(table.live())
                .singleElement()
                .satisfies(
                        e -> {
                            assertThat(e.file().fileSource()).isEqualTo(FileSource.COMPACT);
                            assertThat(e.file().maxSequenceNumber()).isGreaterThan(built);
                        });
        assertThat(globalIndexes()).hasSize(1);
    }

    private void dropPartitionIndex() {
        table.store
                .schemas()
                .commitChanges(
                        SchemaChange.setOption(
                                "global-index.column-update-action", "DROP_PARTITION_INDEX"));
    }

    private java.io.File indexFile(IndexManifestEntry entry) {
        return new java.io.File(
                entry.indexFile().path(table.store.paths().indexDir()).toUri().getPath());
    }

    private Snapshot updateColumn(String column, String partition) {
        return table.commit(
                CommitRequest.columnUpdate(
                        "updater", 1, table.latest().id(), List.of(partial(column, partition))));
    }

    private ManifestEntry partial(String column, String partition) {
        ManifestEntry group = groupOf(partition);
        return table.fakePartial(
                partition, List.of(column), group.file().firstRowId(), group.file().rowCount());
    }

    private ManifestEntry groupOf(String partition) {
        byte[] bytes = TestTable.partitionBytes(partition);
        return table.live().stream()
                .filter(e -> java.util.Arrays.equals(e.partition(), bytes))
                .filter(e -> e.file().writeCols() == null)
                .findFirst()
                .orElseThrow();
    }

    private List<IndexManifestEntry> globalIndexes() {
        return table.files().indexFiles().stream().filter(GlobalIndexFiles::isGlobalIndex).toList();
    }

    /**
     * Commits a snapshot that adds a global index file (B-tree unless {@code type} says otherwise)
     * of {@code fieldId} in {@code partition} covering the rows so far, as Paimon's {@code
     * create_global_index} does (the index file's 100 zero bytes do not matter here).
     */
    private IndexManifestEntry addGlobalIndex(String partition, int fieldId) {
        return addGlobalIndex(partition, fieldId, "btree");
    }

    private IndexManifestEntry addGlobalIndex(String partition, int fieldId, String type) {
        Snapshot latest = table.latest();
        IndexManifestEntry index =
                new IndexManifestEntry(
                        FileKind.ADD,
                        TestTable.partitionBytes(partition),
                        0,
                        new IndexFileMeta(
                                type,
                                type + "-global-index-" + UUID.randomUUID() + ".index",
                                100,
                                10,
                                null,
                                null,
                                new GlobalIndexMeta(
                                        0, latest.nextRowId() - 1, fieldId, null, null)));
        try {
            java.io.File file = indexFile(index);
            file.getParentFile().mkdirs();
            java.nio.file.Files.write(file.toPath(), new byte[100]);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        table.addIndexes(List.of(index));
        return index;
    }
}
