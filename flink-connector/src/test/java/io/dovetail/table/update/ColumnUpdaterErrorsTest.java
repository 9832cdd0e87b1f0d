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
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Updates that must be refused: each fails with a clear error and leaves the table as it was, with
 * no data file left behind.
 */
class ColumnUpdaterErrorsTest {

    @TempDir Path dir;

    private UpdateTable table;
    private TreeSet<String> filesBefore;
    private long snapshotBefore;

    @BeforeEach
    void twoGroups() {
        table = new UpdateTable(dir, false);
        table.append("x", 4); // rows 0-3
        table.append("x", 4); // rows 4-7
        filesBefore = table.dataFiles("x");
        snapshotBefore = table.latest().id();
    }

    @Test
    void refusesColumnsThatCannotBeUpdated() {
        Snapshot base = table.latest();
        assertRefused(
                () -> ColumnUpdater.on(table.store, base, List.of("nope")),
                "'nope'",
                "[id, a, b, dt]");
        assertRefused(
                () -> ColumnUpdater.on(table.store, base, List.of("dt")), "partition column 'dt'");
        assertRefused(
                () -> ColumnUpdater.on(table.store, base, List.of("_ROW_ID")), "System column");
        assertRefused(() -> ColumnUpdater.on(table.store, base, List.of("a", "a")), "listed twice");
        assertRefused(() -> ColumnUpdater.on(table.store, base, List.of()), "at least one column");
    }

    @Test
    void refusesRowIdsNeverAssignedByTheBaseSnapshot() {
        Snapshot first = table.store.snapshots().snapshot(1);
        assertRefused(
                () -> commit(first, Map.of(1L, "ok", 5L, "stale")),
                DovetailException.Kind.STALE_ROW_ID,
                "Stale row id 5",
                "base snapshot 1",
                "row ids below 4");
        assertRefused(() -> commit(table.latest(), Map.of(-1L, "neg")), "Stale row id -1");
        assertUnchanged();
    }

    @Test
    void refusesRowIdsOfARangeRemovedBeforeTheBaseSnapshot() {
        List<ManifestEntry> firstGroup = table.delta(table.store.snapshots().snapshot(1));
        new TableCommit(table.store)
                .commit(CommitRequest.overwrite(UpdateTable.USER, 100, firstGroup, List.of()));
        table.model.keySet().removeIf(rowId -> rowId < 4);
        filesBefore = table.dataFiles("x");
        snapshotBefore = table.latest().id();

        assertRefused(
                () -> commit(table.latest(), Map.of(2L, "gone", 6L, "live")),
                "Stale row id 2",
                "removed");
        assertUnchanged();
    }

    @Test
    void refusesTheSameRowIdTwiceAndUnsortedRowIds() {
        ColumnUpdater updater = ColumnUpdater.on(table.store, table.latest(), List.of("a"));
        List<RowUpdate> twice = List.of(update(1, "x"), update(5, "y"), update(5, "z"));
        assertRefused(
                () -> updater.commit("u", 1, twice.iterator()),
                DovetailException.Kind.DUPLICATE_MATCH,
                "Row id 5 is updated twice");
        List<RowUpdate> unsorted = List.of(update(6, "x"), update(2, "y"));
        assertRefused(
                () -> updater.commit("u", 1, unsorted.iterator()), "ascending", "2 follows 6");
        assertUnchanged();
    }

    @Test
    void refusesAnUpdateWithTheWrongNumberOfValues() {
        ColumnUpdater updater = ColumnUpdater.on(table.store, table.latest(), List.of("a", "b"));
        List<RowUpdate> narrow = List.of(update(1, "only a"));
        assertRefused(() -> updater.commit("u", 1, narrow.iterator()), "has 1 values", "2 columns");
        assertUnchanged();
    }

    @Test
    void aConflictingConcurrentUpdateIsRefusedAndLeavesNoFile() {
        Snapshot base = table.latest();
        ColumnUpdater first = ColumnUpdater.on(table.store, base, List.of("a"));
        ColumnUpdater second = ColumnUpdater.on(table.store, base, List.of("a"));
        first.commit("one", 1, List.of(update(1, "first")).iterator()).orElseThrow();
        TreeSet<String> afterFirst = table.dataFiles("x");

        assertThatThrownBy(() -> second.commit("two", 1, List.of(update(2, "second")).iterator()))
                .isInstanceOf(DovetailException.class)
                .extracting(e -> ((DovetailException) e).kind())
                .isEqualTo(DovetailException.Kind.CONFLICT);
        assertThat(table.dataFiles("x")).isEqualTo(afterFirst);
        assertThat(table.latest().id()).isEqualTo(base.id() + 1);
    }

    @Test
    void noUpdatesCommitNothing() {
        ColumnUpdater updater = ColumnUpdater.on(table.store, table.latest(), List.of("a"));
        assertThat(updater.commit("u", 1, List.<RowUpdate>of().iterator())).isEmpty();
        assertUnchanged();
    }

    private void commit(Snapshot base, Map<Long, String> values) {
        List<RowUpdate> updates = new ArrayList<>();
        new TreeMap<>(values).forEach((rowId, a) -> updates.add(update(rowId, a)));
        ColumnUpdater.on(table.store, base, List.of("a")).commit("u", 1, updates.iterator());
    }

    private static RowUpdate update(long rowId, String a) {
        return new RowUpdate(rowId, GenericRowData.of(StringData.fromString(a)));
    }

    private void assertUnchanged() {
        assertThat(table.latest().id()).isEqualTo(snapshotBefore);
        assertThat(table.dataFiles("x")).isEqualTo(filesBefore);
        assertThat(table.read()).isEqualTo(table.model);
    }

    private static void assertRefused(
            Runnable action, DovetailException.Kind kind, String... messageParts) {
        assertThatThrownBy(action::run)
                .isInstanceOf(DovetailException.class)
                .hasMessageContainingAll(messageParts)
                .extracting(e -> ((DovetailException) e).kind())
                .isEqualTo(kind);
    }

    private static void assertRefused(Runnable action, String... messageParts) {
        assertThatThrownBy(action::run)
                .isInstanceOf(DovetailException.class)
                .hasMessageContainingAll(messageParts);
    }
}
