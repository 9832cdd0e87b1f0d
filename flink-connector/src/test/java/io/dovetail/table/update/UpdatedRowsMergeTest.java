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
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.testing.TestCompaction;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Partial-column files merged row by row onto the latest snapshot: each write contributes exactly
 * the rows it updated, a later write wins a row both updated, and every other position keeps its
 * value in the latest snapshot, even one a commit of the same column wrote after the write was
 * planned (which a whole-range commit of the write would revert). The table read back is checked
 * against the model.
 */
class UpdatedRowsMergeTest {

    @TempDir Path dir;

    @Test
    void writesOfRangesACompactionMergedBecomeOneFileKeepingOtherCommitsRows() {
        UpdateTable table = new UpdateTable(dir, true);
        table.append("x", 5); // rows 0-4
        table.append("x", 4); // rows 5-8
        table.append("x", 3); // rows 9-11, not compacted, not written
        Snapshot base = table.latest();
        UpdatedRowsMerge.Write one = write(table, base, Map.of(1L, row("one")));
        UpdatedRowsMerge.Write six = write(table, base, Map.of(6L, row("six")));
        table.update(List.of("a"), Map.of(3L, row("three"))); // same column, same range
        table.delete(4L);
        compact(table, new RowRange(0, 8));
        UpdatedRowsMerge.Write uno = write(table, table.latest(), Map.of(1L, row("uno")));

        Snapshot latest = table.latest();
        List<ManifestEntry> merged =
                UpdatedRowsMerge.onto(table.store, latest, List.of("a"))
                        .write(List.of(one, six, uno));
        Snapshot committed =
                new TableCommit(table.store)
                        .commit(CommitRequest.columnUpdate("merger", 1, latest.id(), merged));
        table.updateModel(List.of("a"), Map.of(1L, row("uno"), 6L, row("six")));

        assertThat(table.read()).isEqualTo(table.model).doesNotContainKey(4L);
        assertThat(table.read().get(3L)).as("the other commit's row").contains("three");
        assertThat(table.delta(committed))
                .extracting(e -> e.file().firstRowId() + "+" + e.file().rowCount())
                .containsExactly("0+9");
    }

    @Test
    void aWriteOverARangeThatStillExistsIsRewrittenWithItsRowsOnly() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        Snapshot base = table.latest();
        UpdatedRowsMerge.Write early = write(table, base, Map.of(0L, row("zero"), 2L, row("two")));
        table.update(List.of("a"), Map.of(2L, row("TWO"), 4L, row("FOUR")));

        List<ManifestEntry> merged =
                UpdatedRowsMerge.onto(table.store, table.latest(), List.of("a"))
                        .write(List.of(early));
        new TableCommit(table.store)
                .commit(CommitRequest.columnUpdate("merger", 1, table.latest().id(), merged));
        table.updateModel(List.of("a"), Map.of(0L, row("zero"), 2L, row("two")));

        assertThat(table.read()).isEqualTo(table.model);
        assertThat(table.read().get(4L)).contains("FOUR");
        assertThat(table.read().get(2L))
                .as("the write came later: it wins its row")
                .contains("two");
    }

    @Test
    void rowsNoLongerInTheTableAreAStaleRowIdError() {
        UpdateTable table = new UpdateTable(dir, false);
        table.append("x", 5);
        UpdatedRowsMerge.Write write = write(table, table.latest(), Map.of(1L, row("one")));
        List<ManifestEntry> live = table.store.files(table.latest()).liveFiles();
        new TableCommit(table.store)
                .commit(CommitRequest.overwrite("overwriter", 1, live, List.of()));

        assertThatThrownBy(
                        () ->
                                UpdatedRowsMerge.onto(table.store, table.latest(), List.of("a"))
                                        .write(List.of(write)))
                .isInstanceOf(DovetailException.class)
                .hasMessageContaining("Stale row id 1");
    }

    /** The staged files of an update of {@code values} on {@code base}, with its row ids. */
    private static UpdatedRowsMerge.Write write(
            UpdateTable table, Snapshot base, Map<Long, Object[]> values) {
        List<ManifestEntry> files =
                ColumnUpdater.on(table.store, base, List.of("a"))
                        .write(UpdateTable.updates(values).iterator());
        assertThat(files).hasSize(1);
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        new ArrayList<>(values.keySet()).forEach(rows::addLong);
        return new UpdatedRowsMerge.Write(files, rows);
    }

    private static void compact(UpdateTable table, RowRange... outputs) {
        new TableCommit(table.store)
                .commit(TestCompaction.rewrite(table.store, "compactor", table.latest(), outputs));
    }

    private static Object[] row(Object... values) {
        return values;
    }
}
