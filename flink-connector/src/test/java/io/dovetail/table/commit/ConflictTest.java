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

import io.dovetail.table.commit.CommitHook.Step;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.manifest.FileSource;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.TestCompaction;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** The conflict classes of data-evolution semantics §7.4, each against a real table. */
class ConflictTest {

    @TempDir java.nio.file.Path dir;

    private TestTable table;
    private Snapshot base;
    private ManifestEntry group0; // rows [0, 4]
    private ManifestEntry group1; // rows [5, 9]

    @BeforeEach
    void twoGroups() {
        table = new TestTable(dir, true);
        base =
                table.commit(
                        CommitRequest.append(
                                "setup",
                                1,
                                List.of(table.writeAppend("x", 5), table.writeAppend("x", 5))));
        group0 = table.liveAt(0).get(0);
        group1 = table.liveAt(5).get(0);
    }

    @Test
    void disjointFieldsOfTheSameRangeBothCommit() {
        table.commit(update("j1", "b"));
        Snapshot second = table.commit(update("j2", "c"));

        assertThat(second.id()).isEqualTo(3);
        assertThat(table.liveAt(0).stream().map(e -> e.file().writeCols()).toList())
                .containsExactly(null, List.of("b"), List.of("c"));
    }

    @Test
    void sameFieldOfTheSameRangeConflicts() {
        table.commit(update("j1", "b"));
        assertUnchangedAfter(
                () -> table.commit(update("j2", "c", "b")),
                "Field conflict",
                "rows [0, 4]",
                "b (id 2)",
                "snapshot 2");
        assertThat(table.liveAt(0)).hasSize(2);
    }

    @Test
    void anAppendInBetweenIsNoConflict() {
        table.commit(CommitRequest.append("other", 1, List.of(table.writeAppend("x", 3))));
        assertThat(table.commit(update("j2", "b")).id()).isEqualTo(3);
    }

    @Test
    void updateOfARangeThatACompactionMergedIsRebasedOntoTheMergedRange() {
        table.commit(compactBothGroups("compactor"));
        Snapshot updated = table.commit(update("j2", "b"));

        assertThat(updated.id()).isEqualTo(3);
        assertThat(table.liveAt(0))
                .extracting(e -> e.file().rowCount() + ":" + e.file().writeCols())
                .containsExactly("10:null", "10:[b]");
    }

    @Test
    void partialFileForARangeNoCompactionReplacedIsNotRebased() {
        ManifestEntry inside = table.writePartial("x", List.of("b"), 0, 3);
        table.commit(compactBothGroups("compactor"));
        assertUnchangedAfter(
                () -> table.commit(CommitRequest.columnUpdate("j", 1, base.id(), List.of(inside))),
                "Layout conflict",
                "rows [0, 2]",
                inside.file().fileName());
    }

    @Test
    void rebaseIsRedoneWhenAnotherCompactionWinsTheRace() {
        table.commit(CommitRequest.append("setup", 2, List.of(table.writeAppend("x", 3))));
        table.commit(compactBothGroups("compactor"));
        CommitRequest update = update("j2", "b");
        CommitRequest compactAll =
                TestCompaction.rewrite(
                        table.store, "compactor-2", table.latest(), new RowRange(0, 12));
        TreeSet<String> dataFiles = table.filesIn("dt=x/bucket-0");
        AtomicInteger rebased = new AtomicInteger();
        CommitHook racer =
                step -> {
                    if (step == Step.STAGED_FILES_REBASED && rebased.incrementAndGet() == 1) {
                        table.commit(compactAll);
                    }
                };

        Snapshot updated = new TableCommit(table.store, racer).commit(update);

        assertThat(rebased).hasValue(2);
        assertThat(updated.id()).isEqualTo(5);
        assertThat(table.liveAt(0))
                .extracting(e -> e.file().rowCount() + ":" + e.file().writeCols())
                .containsExactly("13:null", "13:[b]");
        List<String> staged =
                update.operation().dataChanges().stream().map(e -> e.file().fileName()).toList();
        assertThat(table.filesIn("dt=x/bucket-0"))
                .as("only the second attempt's rebased file is left; the staged files are gone")
                .hasSize(dataFiles.size() + 1 - staged.size())
                .doesNotContainAnyElementsOf(staged);
    }

    @Test
    void compactionPlannedBeforeAnUpdateOfOneRangeFailsOnTheMergedLayout() {
        table.commit(update("j1", "b"));
        assertUnchangedAfter(
                () -> table.commit(compactBothGroups("compactor")),
                "Layout conflict",
                "[0, 4]",
                "[0, 9]");
    }

    @Test
    void compactionThatKeepsTheRangePassesAndTheUpdateStillWins() {
        Snapshot updated = table.commit(update("j1", "b"));
        ManifestEntry output = table.writeAppend("x", 5);
        ManifestEntry compacted =
                TestTable.withFile(
                        output,
                        output.file().toBuilder()
                                .firstRowId(0L)
                                .fileSource(FileSource.COMPACT)
                                .sequenceNumbers(1, 1)
                                .build());
        table.commit(
                CommitRequest.compact(
                        "compactor", 1, List.of(group0), List.of(compacted), IndexChanges.NONE));

        List<ManifestEntry> group = table.liveAt(0);
        assertThat(group).hasSize(2);
        assertThat(group.get(1).file().writeCols()).containsExactly("b");
        assertThat(group.get(1).file().maxSequenceNumber()).isEqualTo(updated.id());
        assertThat(group.get(0).file().maxSequenceNumber()).isLessThan(updated.id());
    }

    @Test
    void concurrentDeletesOfOneGroupConflictOnTheReplacedVector() {
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);
        table.commit(delete("d0", writer.deleteRows(base, List.of(1L))));
        Snapshot planned = table.latest();
        IndexChanges first = writer.deleteRows(planned, List.of(2L));
        IndexChanges second = writer.deleteRows(planned, List.of(3L));
        table.commit(CommitRequest.delete("d1", 1, planned.id(), first));

        assertUnchangedAfter(
                () -> table.commit(CommitRequest.delete("d2", 1, planned.id(), second)),
                "Deletion-vector conflict",
                group0.file().fileName(),
                "replaced by a concurrent commit");
        assertThat(table.vectors())
                .containsEntry(group0.file().fileName(), DeletionVector.of(1, 2));
    }

    @Test
    void twoFirstVectorsForOneAnchorConflict() {
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);
        IndexChanges first = writer.deleteRows(base, List.of(1L));
        IndexChanges second = writer.deleteRows(base, List.of(2L));
        table.commit(CommitRequest.delete("d1", 1, base.id(), first));

        assertUnchangedAfter(
                () -> table.commit(CommitRequest.delete("d2", 1, base.id(), second)),
                "Deletion-vector conflict",
                group0.file().fileName(),
                "got a deletion vector");
    }

    @Test
    void deletesInOtherGroupsOfOtherPartitionsBothCommit() {
        Snapshot withY =
                table.commit(CommitRequest.append("setup", 2, List.of(table.writeAppend("y", 4))));
        DeletionVectorWriter writer = new DeletionVectorWriter(table.store);
        IndexChanges inX = writer.deleteRows(withY, List.of(6L));
        IndexChanges inY = writer.deleteRows(withY, List.of(11L));
        table.commit(CommitRequest.delete("d1", 1, withY.id(), inX));
        table.commit(CommitRequest.delete("d2", 1, withY.id(), inY));

        String anchorY = table.liveAt(10).get(0).file().fileName();
        assertThat(table.vectors())
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                group1.file().fileName(),
                                DeletionVector.of(1),
                                anchorY,
                                DeletionVector.of(1)));
    }

    @Test
    void deleteOfRowsWhoseAnchorWasCompactedAwayConflicts() {
        IndexChanges planned = new DeletionVectorWriter(table.store).deleteRows(base, List.of(7L));
        table.commit(compactBothGroups("compactor"));

        assertUnchangedAfter(
                () -> table.commit(CommitRequest.delete("d1", 1, base.id(), planned)),
                "Deletion-vector conflict",
                group1.file().fileName(),
                "not live");
    }

    @Test
    void compactionThatWouldDropAConcurrentVectorConflicts() {
        CommitRequest compaction = compactBothGroups("compactor");
        table.commit(
                delete("d1", new DeletionVectorWriter(table.store).deleteRows(base, List.of(2L))));

        assertUnchangedAfter(
                () -> table.commit(compaction),
                "Deletion-vector conflict",
                group0.file().fileName(),
                "does not carry over");
    }

    @Test
    void overwriteOfAFileThatIsNoLongerLiveConflicts() {
        table.commit(CommitRequest.overwrite("o1", 1, List.of(group1), List.of()));
        assertUnchangedAfter(
                () -> table.commit(CommitRequest.overwrite("o2", 1, List.of(group1), List.of())),
                "no longer live",
                group1.file().fileName());
    }

    @Test
    void overwriteDropsTheVectorsOfRemovedFilesAndKeepsTheOthers() {
        table.commit(
                delete(
                        "d1",
                        new DeletionVectorWriter(table.store).deleteRows(base, List.of(0L, 9L))));
        String before = table.latest().indexManifest();
        Snapshot overwritten =
                table.commit(CommitRequest.overwrite("o1", 1, List.of(group1), List.of()));

        assertThat(overwritten.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(overwritten.indexManifest()).isNotEqualTo(before);
        assertThat(table.vectors())
                .isEqualTo(Map.of(group0.file().fileName(), DeletionVector.of(0)));
    }

    @Test
    void partialFileForARangeThatDoesNotExistIsALayoutConflict() {
        ManifestEntry shifted = table.writePartial("x", List.of("b"), 2, 5);
        assertUnchangedAfter(
                () -> table.commit(CommitRequest.columnUpdate("j", 1, base.id(), List.of(shifted))),
                "Layout conflict",
                "rows [2, 6]");
    }

    @Test
    void appendOnlyCommitsKeepTheIndexManifest() {
        table.commit(
                delete("d1", new DeletionVectorWriter(table.store).deleteRows(base, List.of(0L))));
        String indexManifest = table.latest().indexManifest();
        assertThat(indexManifest).isNotNull();
        Snapshot appended =
                table.commit(CommitRequest.append("a", 1, List.of(table.writeAppend("x", 2))));
        assertThat(appended.indexManifest()).isEqualTo(indexManifest);
        assertThat(table.commit(update("j", "a")).indexManifest()).isEqualTo(indexManifest);
    }

    @Test
    void replayedUpdatesAndDeletesAreNoOps() {
        CommitRequest update = update("j1", "b");
        CommitRequest delete =
                delete("d1", new DeletionVectorWriter(table.store).deleteRows(base, List.of(3L)));
        Snapshot updated = table.commit(update);
        Snapshot deleted = table.commit(delete);
        table.commit(update("j3", "c"));

        assertThat(table.commit(update)).isEqualTo(updated);
        assertThat(table.commit(delete)).isEqualTo(deleted);
        assertThat(table.snapshotIds()).containsExactly(1, 2, 3, 4);
    }

    private CommitRequest update(String user, String... columns) {
        return CommitRequest.columnUpdate(
                user, 1, base.id(), List.of(table.writePartial("x", List.of(columns), 0, 5)));
    }

    private CommitRequest delete(String user, IndexChanges changes) {
        return CommitRequest.delete(user, 1, table.latest().id(), changes);
    }

    /** Merges both groups of the base snapshot into one file [0, 9]. */
    private CommitRequest compactBothGroups(String user) {
        ManifestEntry output = table.writeAppend("x", 10);
        ManifestEntry compacted =
                TestTable.withFile(
                        output,
                        output.file().toBuilder()
                                .firstRowId(0L)
                                .fileSource(FileSource.COMPACT)
                                .sequenceNumbers(1, 1)
                                .build());
        return CommitRequest.compact(
                user, 1, List.of(group0, group1), List.of(compacted), IndexChanges.NONE);
    }

    /** The commit fails with a conflict naming {@code parts} and changes nothing. */
    private void assertUnchangedAfter(ThrowingCallable commit, String... parts) {
        long[] snapshots = table.snapshotIds();
        TreeSet<String> manifests = table.filesIn("manifest");
        Throwable thrown = catchThrowable(commit);
        assertThat(thrown)
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("table is unchanged")
                .hasMessageContainingAll(parts);
        assertThat(((DovetailException) thrown).kind()).isEqualTo(DovetailException.Kind.CONFLICT);
        assertThat(table.snapshotIds()).isEqualTo(snapshots);
        assertThat(table.filesIn("manifest")).isEqualTo(manifests);
        table.files().verifyLiveFiles();
    }
}
