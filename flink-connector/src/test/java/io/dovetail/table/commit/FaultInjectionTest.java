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
import io.dovetail.table.index.DeletionVector;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.TestCompaction;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A failure at each step of a commit leaves the table readable and as it was, and nothing of the
 * failed attempt is referenced; a failure after the snapshot landed is a successful commit.
 */
class FaultInjectionTest {

    @TempDir java.nio.file.Path dir;

    private TestTable table;
    private Snapshot base;
    private String anchor;
    private String otherAnchor;

    @BeforeEach
    void tableWithOneVector() {
        table = new TestTable(dir, true);
        Snapshot appended =
                table.commit(
                        CommitRequest.append(
                                "setup",
                                1,
                                List.of(table.writeAppend("x", 6), table.writeAppend("x", 3))));
        anchor = table.liveAt(0).get(0).file().fileName();
        otherAnchor = table.liveAt(6).get(0).file().fileName();
        table.commit(
                CommitRequest.delete(
                        "setup",
                        2,
                        appended.id(),
                        new DeletionVectorWriter(table.store)
                                .deleteRows(appended, List.of(0L, 8L))));
        base = table.latest();
    }

    @ParameterizedTest
    @EnumSource(
            value = Step.class,
            names = {"STAGED_FILES_REBASED", "SNAPSHOT_PUBLISHED"},
            mode = EnumSource.Mode.EXCLUDE)
    void deleteFailingAtAnyStepChangesNothing(Step failAt) {
        IndexChanges changes = new DeletionVectorWriter(table.store).deleteRows(base, List.of(4L));
        assertFailureChangesNothing(
                CommitRequest.delete("job", 1, base.id(), changes), failAt, changes.added());
        assertThat(table.vectors())
                .isEqualTo(
                        Map.of(anchor, DeletionVector.of(0, 4), otherAnchor, DeletionVector.of(2)));
    }

    @ParameterizedTest
    @EnumSource(
            value = Step.class,
            names = {"STAGED_FILES_REBASED", "SNAPSHOT_PUBLISHED"},
            mode = EnumSource.Mode.EXCLUDE)
    void columnUpdateFailingAtAnyStepChangesNothing(Step failAt) {
        ManifestEntry partial = table.writePartial("x", List.of("b"), 0, 6);
        assertFailureChangesNothing(
                CommitRequest.columnUpdate("job", 1, base.id(), List.of(partial)),
                failAt,
                List.of());
        assertThat(table.liveAt(0)).hasSize(2);
    }

    @ParameterizedTest
    @EnumSource(
            value = Step.class,
            names = {"STAGED_FILES_REBASED", "SNAPSHOT_PUBLISHED"},
            mode = EnumSource.Mode.EXCLUDE)
    void overwriteRewritingIndexFilesFailingAtAnyStepChangesNothing(Step failAt) {
        ManifestEntry added = table.writeAppend("x", 2);
        assertFailureChangesNothing(
                CommitRequest.overwrite("job", 1, table.liveAt(0), List.of(added)),
                failAt,
                List.of());
        assertThat(table.live()).hasSize(2).noneMatch(e -> e.file().firstRowId() == 0);
        assertThat(table.vectors()).isEqualTo(Map.of(otherAnchor, DeletionVector.of(2)));
    }

    @ParameterizedTest
    @EnumSource(value = Step.class, names = "SNAPSHOT_PUBLISHED", mode = EnumSource.Mode.EXCLUDE)
    void columnUpdateRebasedAfterACompactionFailingAtAnyStepChangesNothing(Step failAt) {
        ManifestEntry partial = table.writePartial("x", List.of("b"), 0, 6);
        table.commit(
                TestCompaction.rewrite(
                        table.store, "compactor-1", base, new RowRange(0, 5), new RowRange(6, 8)));
        table.commit(
                TestCompaction.rewrite(
                        table.store, "compactor-2", table.latest(), new RowRange(0, 8)));
        String compacted = table.liveAt(0).get(0).file().fileName();
        TreeSet<String> dataFiles = table.filesIn("dt=x/bucket-0");

        assertFailureChangesNothing(
                CommitRequest.columnUpdate("job", 1, base.id(), List.of(partial)),
                failAt,
                List.of());
        assertThat(table.filesIn("dt=x/bucket-0"))
                .as("the rebased file is added and the staged file it replaced deleted")
                .hasSize(dataFiles.size())
                .doesNotContain(partial.file().fileName());
        assertThat(table.liveAt(0))
                .extracting(e -> e.file().rowCount() + ":" + e.file().writeCols())
                .containsExactly("9:null", "9:[b]");
        assertThat(table.vectors()).isEqualTo(Map.of(compacted, DeletionVector.of(0, 8)));
    }

    @ParameterizedTest
    @EnumSource(value = Step.class, names = "SNAPSHOT_PUBLISHED")
    void failureAfterTheSnapshotLandedIsASuccessfulCommit(Step failAt) {
        IndexChanges changes = new DeletionVectorWriter(table.store).deleteRows(base, List.of(4L));
        CommitRequest request = CommitRequest.delete("job", 1, base.id(), changes);
        Snapshot committed = new TableCommit(table.store, failingAt(failAt)).commit(request);

        assertThat(committed.id()).isEqualTo(base.id() + 1);
        assertThat(table.latest()).isEqualTo(committed);
        assertThat(table.vectors())
                .isEqualTo(
                        Map.of(anchor, DeletionVector.of(0, 4), otherAnchor, DeletionVector.of(2)));
        assertThat(table.commit(request)).isEqualTo(committed);
        assertThat(table.latest()).isEqualTo(committed);
    }

    /**
     * Commits {@code request} failing at {@code step}: the table must be unchanged, readable, and
     * reference none of {@code staged}; the same request then commits as the next snapshot.
     */
    private void assertFailureChangesNothing(
            CommitRequest request, Step step, List<IndexManifestEntry> staged) {
        long[] snapshots = table.snapshotIds();
        TreeSet<String> manifests = table.filesIn("manifest");
        TreeSet<String> indexFiles = table.filesIn("index");
        Map<String, DeletionVector> vectors = table.vectors();
        List<ManifestEntry> live = table.live();

        assertThatThrownBy(() -> new TableCommit(table.store, failingAt(step)).commit(request))
                .hasMessageContaining("injected failure at " + step);

        assertThat(table.snapshotIds()).isEqualTo(snapshots);
        assertThat(table.filesIn("manifest")).isEqualTo(manifests);
        assertThat(table.filesIn("index")).isEqualTo(indexFiles);
        assertThat(table.live()).isEqualTo(live);
        assertThat(table.vectors()).isEqualTo(vectors);
        table.files().verifyLiveFiles();
        List<String> referenced =
                table.files().indexFiles().stream().map(e -> e.indexFile().fileName()).toList();
        for (IndexManifestEntry entry : staged) {
            assertThat(referenced).doesNotContain(entry.indexFile().fileName());
        }

        Snapshot retried = table.commit(request);
        assertThat(retried.id()).isEqualTo(snapshots[snapshots.length - 1] + 1);
    }

    private static CommitHook failingAt(Step failAt) {
        return step -> {
            if (step == failAt) {
                throw new IllegalStateException("injected failure at " + step);
            }
        };
    }
}
