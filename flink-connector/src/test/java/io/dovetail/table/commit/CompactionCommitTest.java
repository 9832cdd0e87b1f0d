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
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.EvolvingTable;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Data-evolution compaction against concurrent commits and injected failures: a commit that lands
 * between planning and committing either leaves the compaction valid (a task that keeps its range)
 * or makes it fail with a conflict that loses nothing; a failure at any step of the commit leaves
 * the table exactly as it was, without leftover files.
 */
class CompactionCommitTest {

    private static final String COMPACTOR = "compactor";
    private static final CompactionConfig MIN_3 =
            CompactionConfig.fromOptions(Map.of())
                    .withMinFileNum(3)
                    .withRewrite(CompactionConfig.Rewrite.FULL);

    @TempDir java.nio.file.Path dir;

    private EvolvingTable table;

    @BeforeEach
    void twoGroupsOneUpdatedOneDeleted() {
        table = new EvolvingTable(dir, true, Map.of());
        table.append("a", 0, 10); // [0, 9]
        table.append("a", 10, 10); // [10, 19]
        table.update("name", Map.of(1L, "one"));
        table.delete(3);
    }

    @Test
    void aConcurrentUpdateOfOneOfTheMergedGroupsFailsTheCompaction() {
        List<String> expected = table.read("id", "name", "score", "dt", "_ROW_ID");
        TreeSet<String> dataFiles = table.filesIn("dt=a/bucket-0");
        TreeSet<String> indexFiles = table.filesIn("index");

        assertThatThrownBy(
                        () -> compactWhile(1, () -> table.update("score", Map.of(2L, 22)), MIN_3))
                .isInstanceOf(DovetailException.class)
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.CONFLICT))
                .hasMessageContaining("Layout conflict")
                .hasMessageContaining("[0, 9] and [0, 19] would overlap without being equal");

        Snapshot updated = table.latest();
        assertThat(updated.commitKind()).isEqualTo(CommitKind.APPEND);
        assertThat(table.read("id", "score")).contains("id=2, score=22");
        // only the update's file is new: the compacted file and index files were removed
        assertThat(table.filesIn("dt=a/bucket-0")).hasSize(dataFiles.size() + 1);
        assertThat(table.filesIn("index")).isEqualTo(indexFiles);

        // planned again, the compaction takes the update in
        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(table.store).compact(COMPACTOR, 2, p -> true, MIN_3);
        assertThat(result.filesRewritten()).isEqualTo(4);
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID"))
                .isEqualTo(
                        expected.stream()
                                .map(
                                        r ->
                                                r.replace(
                                                        "id=2, name=name-2, score=20,",
                                                        "id=2," + " name=name-2, score=22,"))
                                .toList());
        assertThat(table.live()).hasSize(1);
    }

    @Test
    void aConcurrentUpdateOfATaskThatKeepsItsRangeStaysOnTop() {
        table.update("score", Map.of(12L, 120, 2L, 21)); // [0, 9] and [10, 19] now hold 3 and 2
        List<String> before = table.read("id", "name", "score", "dt", "_ROW_ID");

        // a 1-byte target makes every group a bin of its own
        DataEvolutionCompaction.Result result =
                compactWhile(
                        1,
                        () -> table.update("name", Map.of(5L, "five")),
                        new CompactionConfig(1, 1, 3, CompactionConfig.Rewrite.FULL));

        assertThat(result.tasks()).isEqualTo(1); // [0, 9] alone: [10, 19] has 2 files
        List<ManifestEntry> group = table.liveAt(0);
        assertThat(group)
                .extracting(e -> e.file().writeCols() == null ? "compacted" : "update")
                .containsExactly("compacted", "update");
        Snapshot update = table.store.snapshots().snapshot(result.snapshotId().getAsLong() - 1);
        assertThat(group.get(0).file().maxSequenceNumber()).isLessThan(update.id());
        assertThat(group.get(1).file().maxSequenceNumber()).isEqualTo(update.id());
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID"))
                .isEqualTo(
                        before.stream()
                                .map(r -> r.replace("id=5, name=name-5,", "id=5, name=five,"))
                                .toList());
        assertThat(table.vectors())
                .isEqualTo(Map.of(group.get(0).file().fileName(), DeletionVector.of(3)));
    }

    @Test
    void aConcurrentDeleteInACompactedGroupFailsTheCompaction() {
        TreeSet<String> dataFiles = table.filesIn("dt=a/bucket-0");

        assertThatThrownBy(() -> compactWhile(1, () -> table.delete(12), MIN_3))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Deletion-vector conflict")
                .hasMessageContaining("rows deleted concurrently");

        assertThat(table.read("_ROW_ID")).hasSize(18).doesNotContain("_ROW_ID=3", "_ROW_ID=12");
        assertThat(table.filesIn("dt=a/bucket-0")).isEqualTo(dataFiles);
    }

    @Test
    void aConcurrentCompactionOfTheSameFilesFailsTheLaterOne() {
        TreeSet<String> dataFiles = table.filesIn("dt=a/bucket-0");

        assertThatThrownBy(
                        () ->
                                compactWhile(
                                        1,
                                        () ->
                                                new DataEvolutionCompaction(table.store)
                                                        .compact("other", 1, p -> true, MIN_3),
                                        MIN_3))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("which is no longer live");

        assertThat(table.latest().commitUser()).isEqualTo("other");
        assertThat(table.live()).hasSize(1);
        assertThat(table.filesIn("dt=a/bucket-0")).hasSize(dataFiles.size() + 1);
    }

    @ParameterizedTest
    @EnumSource(
            value = Step.class,
            names = {"STAGED_FILES_REBASED", "SNAPSHOT_PUBLISHED"},
            mode = EnumSource.Mode.EXCLUDE)
    void aFailureAtAnyStepLeavesTheTableAsItWas(Step failAt) {
        long[] snapshots = table.store.snapshots().listIds();
        TreeSet<String> manifests = table.filesIn("manifest");
        TreeSet<String> indexFiles = table.filesIn("index");
        TreeSet<String> dataFiles = table.filesIn("dt=a/bucket-0");
        List<ManifestEntry> live = table.live();
        Map<String, DeletionVector> vectors = table.vectors();
        List<String> rows = table.read("id", "name", "score", "dt", "_ROW_ID", "_SEQUENCE_NUMBER");
        List<String> values = table.read("id", "name", "score", "dt", "_ROW_ID");

        assertThatThrownBy(
                        () ->
                                new DataEvolutionCompaction(
                                                table.store,
                                                new TableCommit(table.store, failingAt(failAt)))
                                        .compact(COMPACTOR, 1, p -> true, MIN_3))
                .hasMessageContaining("injected failure at " + failAt);

        assertThat(table.store.snapshots().listIds()).isEqualTo(snapshots);
        assertThat(table.filesIn("manifest")).isEqualTo(manifests);
        assertThat(table.filesIn("index")).isEqualTo(indexFiles);
        assertThat(table.filesIn("dt=a/bucket-0")).isEqualTo(dataFiles);
        assertThat(table.live()).isEqualTo(live);
        assertThat(table.vectors()).isEqualTo(vectors);
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID", "_SEQUENCE_NUMBER"))
                .isEqualTo(rows);

        DataEvolutionCompaction.Result retried =
                new DataEvolutionCompaction(table.store).compact(COMPACTOR, 1, p -> true, MIN_3);
        assertThat(retried.snapshotId()).hasValue(snapshots[snapshots.length - 1] + 1);
        assertThat(table.read("id", "name", "score", "dt", "_ROW_ID")).isEqualTo(values);
        assertThat(table.live()).hasSize(1);
    }

    @Test
    void aFailureAfterTheSnapshotLandedIsASuccessfulCompaction() {
        DataEvolutionCompaction.Result result =
                new DataEvolutionCompaction(
                                table.store,
                                new TableCommit(table.store, failingAt(Step.SNAPSHOT_PUBLISHED)))
                        .compact(COMPACTOR, 1, p -> true, MIN_3);

        assertThat(result.snapshotId()).hasValue(table.latest().id());
        assertThat(table.latest().commitKind()).isEqualTo(CommitKind.COMPACT);
        table.store.files(table.latest()).verifyLiveFiles();
    }

    /** Compacts, running {@code concurrent} (once) as the commit starts its first attempt. */
    private DataEvolutionCompaction.Result compactWhile(
            long identifier, Runnable concurrent, CompactionConfig config) {
        boolean[] ran = {false};
        CommitHook hook =
                step -> {
                    if (step == Step.STARTED && !ran[0]) {
                        ran[0] = true;
                        concurrent.run();
                    }
                };
        return new DataEvolutionCompaction(table.store, new TableCommit(table.store, hook))
                .compact(COMPACTOR, identifier, p -> true, config);
    }

    private static CommitHook failingAt(Step failAt) {
        return step -> {
            if (step == failAt) {
                throw new IllegalStateException("injected failure at " + failAt);
            }
        };
    }
}
