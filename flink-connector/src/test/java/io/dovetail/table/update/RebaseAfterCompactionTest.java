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
package io.dovetail.table.update;

import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.TestCompaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Column updates staged on a base snapshot and committed after a concurrent compaction moved their
 * row ranges: rebased onto the compacted ranges when only compaction changed the layout, still a
 * conflict otherwise. Every outcome is checked by reading the table back against the model.
 */
class RebaseAfterCompactionTest {

    private static final String STAGER = "stager";

    @TempDir Path dir;

    @Test
    void updateOfARangeThatACompactionMergedIsRebasedOntoTheMergedRange() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5); // rows 0-4
        table.append("x", 4); // rows 5-8
        Snapshot base = table.latest();
        Map<Long, Object[]> staged = Map.of(1L, row("one"), 3L, row("three"));
        List<ManifestEntry> files = stage(table, base, staged);
        table.update(List.of("b"), Map.of(2L, row(-2))); // other field, same range
        table.update(List.of("a"), Map.of(6L, row("six"))); // same field, other range
        compact(table, new RowRange(0, 8));
        table.update(List.of("b"), Map.of(0L, row(-10))); // other field, on the merged range

        Snapshot committed = commit(table, base, files);
        table.updateModel(List.of("a"), staged);

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.read().get(1L)).containsExactly(1L, "one", 10, "x");
        assertThat(table.read().get(6L)).containsExactly(6L, "six", 60, "x");
        assertThat(table.read().get(0L)).containsExactly(0L, "a0", -10, "x");
        List<ManifestEntry> added = table.delta(committed);
        assertThat(added).hasSize(1);
        DataFileMeta file = added.get(0).file();
        assertThat(file.fileName()).isNotEqualTo(files.get(0).file().fileName());
        assertThat(file.firstRowId()).isZero();
        assertThat(file.rowCount()).isEqualTo(9);
        assertThat(file.writeCols()).containsExactly("a");
        assertThat(file.minSequenceNumber()).isEqualTo(committed.id());
        assertThat(file.maxSequenceNumber()).isEqualTo(committed.id());
    }

    @Test
    void stagedFilesOfBothMergedRangesBecomeOneFile() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        table.append("x", 4);
        table.append("x", 3); // rows 9-11, not compacted
        Snapshot base = table.latest();
        Map<Long, Object[]> staged = Map.of(1L, row("one"), 6L, row("six"), 10L, row("ten"));
        List<ManifestEntry> files = stage(table, base, staged);
        assertThat(files).hasSize(3);
        compact(table, new RowRange(0, 8));

        Snapshot committed = commit(table, base, files);
        table.updateModel(List.of("a"), staged);

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.delta(committed))
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactlyInAnyOrder("0+9", "9+3");
        assertThat(table.delta(committed))
                .extracting(e -> e.file().fileName())
                .contains(files.get(2).file().fileName()) // its range is still live: kept
                .doesNotContain(files.get(0).file().fileName(), files.get(1).file().fileName());
        assertThat(table.dataFiles("x"))
                .as("the staged files the rebase replaced are deleted, the kept one stays")
                .contains(files.get(2).file().fileName())
                .doesNotContain(files.get(0).file().fileName(), files.get(1).file().fileName());
    }

    @Test
    void positionsHiddenByDeletionVectorsStayHiddenAndAligned() throws IOException {
        UpdateTable table = new UpdateTable(dir, true);
        table.append("x", 5);
        table.append("x", 4);
        table.delete(2L);
        Snapshot base = table.latest();
        Map<Long, Object[]> staged = Map.of(1L, row("one"), 6L, row("six"));
        List<ManifestEntry> files = stage(table, base, staged);
        table.delete(7L);
        compact(table, new RowRange(0, 8));

        Snapshot committed = commit(table, base, files);
        table.updateModel(List.of("a"), staged);

        assertThat(table.read()).isEqualTo(table.model).doesNotContainKeys(2L, 7L);
        ManifestEntry rebased = table.delta(committed).get(0);
        assertThat(
                        ColumnUpdaterTest.stringColumn(
                                dir.resolve("dt=x/bucket-0").resolve(rebased.file().fileName())))
                .as("hidden positions 2 and 7 keep their values")
                .containsExactly("a0", "one", "a2", "a3", "a4", "a5", "six", "a7", "a8");
    }

    @Test
    void concurrentUpdateOfTheSameFieldBeforeTheCompactionStillConflicts() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        table.append("x", 4);
        Snapshot base = table.latest();
        List<ManifestEntry> files = stage(table, base, Map.of(1L, row("one")));
        table.update(List.of("a"), Map.of(3L, row("three")));
        compact(table, new RowRange(0, 8));

        assertConflictChangesNothing(
                table, base, files, "Field conflict", "rows [0, 4]", "a (id 1)");
    }

    @Test
    void concurrentUpdateOfTheSameFieldOnTheMergedRangeStillConflicts() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        table.append("x", 4);
        Snapshot base = table.latest();
        List<ManifestEntry> files = stage(table, base, Map.of(1L, row("one")));
        compact(table, new RowRange(0, 8));
        table.update(List.of("a"), Map.of(7L, row("seven")));

        assertConflictChangesNothing(
                table, base, files, "Field conflict", "rows [0, 8]", "a (id 1)");
    }

    @Test
    void compactionThatSplitsTheStagedRangeStaysALayoutConflict() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        table.append("x", 4);
        Snapshot base = table.latest();
        List<ManifestEntry> files = stage(table, base, Map.of(1L, row("one")));
        compact(table, new RowRange(0, 2), new RowRange(3, 8));

        assertConflictChangesNothing(
                table,
                base,
                files,
                "Layout conflict",
                "rows [0, 4]",
                files.get(0).file().fileName());
    }

    @Test
    void rowsRemovedByAnOverwriteStayAConflict() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        table.append("x", 4);
        Snapshot base = table.latest();
        List<ManifestEntry> files = stage(table, base, Map.of(6L, row("six")));
        compact(table, new RowRange(0, 8));
        List<ManifestEntry> live = table.store.files(table.latest()).liveFiles();
        new TableCommit(table.store)
                .commit(CommitRequest.overwrite("overwriter", 1, live, List.of()));
        table.model.clear();

        assertConflictChangesNothing(table, base, files, "rows [5, 8]");
    }

    @Test
    void mergeOfUpdatesNewRowsAndDeletesIsRebasedAndCommittedAsOneSnapshot() {
        UpdateTable table = new UpdateTable(dir, true);
        table.append("x", 5); // rows 0-4
        table.append("x", 4); // rows 5-8
        table.append("x", 3); // rows 9-11
        Snapshot base = table.latest();
        Map<Long, Object[]> staged = Map.of(1L, row("one"), 6L, row("six"));
        List<ManifestEntry> partial = stage(table, base, staged);
        UpdateTable.StagedRows newRows = table.stageAppend("x", 2);
        IndexChanges deletes = new DeletionVectorWriter(table.store).deleteRows(base, List.of(10L));
        compact(table, new RowRange(0, 8)); // moves the staged ranges, not the deleted row's

        Snapshot committed =
                new TableCommit(table.store)
                        .commit(
                                CommitRequest.merge(
                                        STAGER, 1, base.id(), partial, newRows.files(), deletes));
        table.updateModel(List.of("a"), staged);
        table.addToModel(committed, newRows);
        table.model.remove(10L);

        assertThat(committed.id()).isEqualTo(base.id() + 2); // the compaction, then the merge
        assertThat(committed.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(table.read()).isEqualTo(table.model).containsKeys(12L, 13L);
        assertThat(table.delta(committed))
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactlyInAnyOrder("0+9", "12+2"); // rebased partial file, new rows
    }

    @Test
    void mergeWhoseDeletedRowsWereCompactedConcurrentlyConflictsAndChangesNothing() {
        UpdateTable table = new UpdateTable(dir, true);
        table.append("x", 5);
        table.append("x", 4);
        Snapshot base = table.latest();
        List<ManifestEntry> partial = stage(table, base, Map.of(1L, row("one")));
        IndexChanges deletes = new DeletionVectorWriter(table.store).deleteRows(base, List.of(6L));
        compact(table, new RowRange(0, 8));
        Snapshot latest = table.latest();

        assertThatThrownBy(
                        () ->
                                new TableCommit(table.store)
                                        .commit(
                                                CommitRequest.merge(
                                                        STAGER, 1, base.id(), partial, List.of(),
                                                        deletes)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Deletion-vector conflict");
        assertThat(table.latest()).isEqualTo(latest);
        assertThat(table.read()).isEqualTo(table.model);
    }

    private static List<ManifestEntry> stage(
            UpdateTable table, Snapshot base, Map<Long, Object[]> values) {
        return ColumnUpdater.on(table.store, base, List.of("a"))
                .write(UpdateTable.updates(values).iterator());
    }

    private static void compact(UpdateTable table, RowRange... outputs) {
        Snapshot compacted =
                new TableCommit(table.store)
                        .commit(
                                TestCompaction.rewrite(
                                        table.store, "compactor", table.latest(), outputs));
        assertThat(compacted.commitKind()).isEqualTo(CommitKind.COMPACT);
    }

    private static Snapshot commit(UpdateTable table, Snapshot base, List<ManifestEntry> files) {
        return new TableCommit(table.store)
                .commit(CommitRequest.columnUpdate(STAGER, 1, base.id(), files));
    }

    /** The commit fails with a conflict naming {@code parts}; the table reads as before. */
    private static void assertConflictChangesNothing(
            UpdateTable table, Snapshot base, List<ManifestEntry> files, String... parts) {
        Snapshot latest = table.latest();
        TreeSet<String> dataFiles = table.dataFiles("x");
        Throwable thrown = catchThrowable(() -> commit(table, base, files));

        assertThat(thrown)
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("table is unchanged")
                .hasMessageContainingAll(parts);
        assertThat(((DovetailException) thrown).kind()).isEqualTo(DovetailException.Kind.CONFLICT);
        assertThat(table.latest()).isEqualTo(latest);
        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.dataFiles("x")).isEqualTo(dataFiles);
    }

    private static Object[] row(Object... values) {
        return values;
    }
}
