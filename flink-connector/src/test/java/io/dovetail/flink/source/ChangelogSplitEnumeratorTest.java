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
package io.dovetail.flink.source;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.manifest.RowRange;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ChangePlanner;
import io.dovetail.table.read.ChangeRead;
import io.dovetail.table.read.ChangelogScope;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Split assignment of the changelog enumerator over two readers, driven by hand. Snapshot 1 appends
 * row 0 to partition a and row 1 to partition b; snapshot 2 updates both rows: a full read of
 * snapshot 1 and the changes of snapshot 2 are two splits each, one per row ({@code 1-0}, {@code
 * 1-1}, {@code 2-0}, {@code 2-1}). The splits of one snapshot go to both readers; a later split of
 * a row goes to the reader that read the row while that reader's records may still be on their way,
 * and to any reader once a checkpoint taken after its report completed.
 */
class ChangelogSplitEnumeratorTest {

    @TempDir java.nio.file.Path dir;

    private final Context context = new Context();
    private TableStore store;
    private ReadSpec spec;
    private ChangelogSplitEnumerator enumerator;

    @BeforeEach
    void twoRowsAppendedThenUpdated() {
        store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        TableSchema schema =
                store.schemas()
                        .createTable(
                                List.of(
                                        new DataField(0, "id", DataTypes.BIGINT()),
                                        new DataField(1, "dt", DataTypes.STRING())),
                                List.of("dt"),
                                List.of(),
                                Map.of(
                                        "row-tracking.enabled", "true",
                                        "data-evolution.enabled", "true"),
                                null);
        List<ManifestEntry> files = new ArrayList<>();
        for (String dt : List.of("a", "b")) {
            try (DataFileWriter writer =
                    DataFileWriter.forAppend(store.paths(), schema, GenericRowData.of(str(dt)))) {
                writer.write(GenericRowData.of(dt.equals("a") ? 0L : 1L, str(dt)));
                files.addAll(writer.finish());
            }
        }
        new TableCommit(store).commit(CommitRequest.append("test", 1, files));
        Snapshot first = store.latestSnapshot().orElseThrow();
        List<ManifestEntry> updates =
                ColumnUpdater.on(store, first, List.of("id"))
                        .write(
                                List.of(
                                                new RowUpdate(0, GenericRowData.of(10L)),
                                                new RowUpdate(1, GenericRowData.of(11L)))
                                        .iterator());
        new TableCommit(store).commit(CommitRequest.columnUpdate("test", 2, first.id(), updates));
        List<DataField> fields = new ArrayList<>(schema.fields());
        fields.add(SystemFields.ROW_ID);
        spec = new ReadSpec(store.paths(), schema, 1L, fields, null, 1, 1, false, true);
    }

    /** Starts an enumerator from {@code state}; readers 1 and then 0 ask for a split. */
    private void start(ChangeEnumeratorState state) {
        ChangelogStart start =
                new ChangelogStart(1L, 2, Duration.ofMillis(50), null, ChangelogScope.FULL, false);
        enumerator =
                new ChangelogSplitEnumerator(context, store, spec.request(store), start, state);
        enumerator.start();
        enumerator.handleSplitRequest(1, null);
        enumerator.handleSplitRequest(0, null);
    }

    private void startFresh() {
        start(new ChangeEnumeratorState(1L, 2, List.of(), List.of()));
    }

    @Test
    void oneSnapshotsSplitsGoToBothReadersAndARowStaysWithItsReader() {
        startFresh();
        assertThat(context.take()).containsExactly("1:1-0", "0:1-1");
        finish(0, "1-1");
        assertThat(context.take())
                .as("row 0 is reader 1's: reader 0 takes the update of row 1")
                .containsExactly("0:2-1");
        finish(0, "2-1");
        assertThat(context.take()).as("nothing for reader 0: row 0 is reader 1's").isEmpty();
        finish(1, "1-0");
        assertThat(context.take()).containsExactly("1:2-0");
    }

    @Test
    void withoutCheckpointsARowNeverChangesReader() {
        startFresh();
        context.take();
        enumerator.handleSourceEvent(1, new SplitProgress.Finished("1-0"));
        finish(0, "1-1");
        assertThat(context.take()).containsExactly("0:2-1");
        finish(0, "2-1");
        assertThat(context.take())
                .as("reader 1 reported row 0, but nothing says its records arrived")
                .isEmpty();
    }

    @Test
    void aCompletedCheckpointAfterTheReportFreesTheRows() {
        startFresh();
        context.take();
        enumerator.handleSourceEvent(1, new SplitProgress.Finished("1-0"));
        finish(0, "1-1");
        finish(0, "2-1");
        assertThat(context.take()).containsExactly("0:2-1");
        enumerator.snapshotState(1);
        assertThat(context.take()).isEmpty();
        enumerator.notifyCheckpointComplete(1);
        assertThat(context.take())
                .as("row 0's records passed checkpoint 1's barrier: any reader")
                .containsExactly("0:2-0");
    }

    @Test
    void aReportAfterTheCheckpointsSnapshotWaitsForTheNextCheckpoint() {
        startFresh();
        context.take();
        finish(0, "1-1");
        finish(0, "2-1");
        context.take();
        enumerator.snapshotState(1);
        enumerator.handleSourceEvent(1, new SplitProgress.Finished("1-0"));
        enumerator.notifyCheckpointComplete(1);
        assertThat(context.take()).as("the report came after checkpoint 1's snapshot").isEmpty();
        enumerator.snapshotState(2);
        enumerator.notifyCheckpointComplete(2);
        assertThat(context.take()).containsExactly("0:2-0");
    }

    @Test
    void aSplitRestoredInFlightHoldsItsRowsUntilItsReaderReports() {
        start(
                new ChangeEnumeratorState(
                        null,
                        2,
                        List.of(),
                        List.of(
                                new ChangeEnumeratorState.AssignedSplit(
                                        "1-0", 1, List.of(new RowRange(0, 0))))));
        assertThat(context.take())
                .as("row 0 is with a reader unknown since the restore")
                .containsExactly("1:2-1");
        enumerator.handleSourceEvent(0, new SplitProgress.Finished("1-0"));
        enumerator.handleSplitRequest(0, null);
        assertThat(context.take()).as("reader 0 held it").containsExactly("0:2-0");
    }

    @Test
    void aSplitRestoredFromVersion1StateHoldsEveryRow() {
        start(
                new ChangeEnumeratorState(
                        null,
                        2,
                        List.of(),
                        List.of(new ChangeEnumeratorState.AssignedSplit("1-0", 1, null))));
        assertThat(context.take()).isEmpty();
        enumerator.handleSourceEvent(1, new SplitProgress.Finished("1-0"));
        assertThat(context.take()).containsExactly("1:2-0");
        finish(1, "2-0");
        assertThat(context.take()).containsExactly("1:2-1");
    }

    @Test
    void aSplitNeverOvertakesAnEarlierPendingSplitOfItsRows() {
        startFresh();
        context.take();
        finish(0, "1-1");
        finish(0, "2-1");
        assertThat(context.take()).containsExactly("0:2-1");
        enumerator.addSplitsBack(List.of(split("1-0")), 1); // reader 1 failed
        assertThat(context.take())
                .as("1-0 is back, ahead of 2-0 of the same row")
                .containsExactly("0:1-0");
        finish(0, "1-0");
        assertThat(context.take()).containsExactly("0:2-0");
    }

    @Test
    void aSplitOfRowsTwoReadersClaimIsCutIntoOnePerReader() {
        ChangeSplit update0 = planned(2, 0);
        ChangeSplit update1 = planned(2, 1);
        ChangeSplit both =
                new ChangeSplit(
                        "2-0",
                        new ChangeRead(
                                2,
                                new ReadSplit(
                                        concat(update0.read().before(), update1.read().before())),
                                new ReadSplit(
                                        concat(update0.read().after(), update1.read().after()))),
                        0,
                        false);
        start(
                new ChangeEnumeratorState(
                        null,
                        3,
                        List.of(both),
                        List.of(
                                new ChangeEnumeratorState.AssignedSplit(
                                        "1-0", 1, List.of(new RowRange(0, 0))),
                                new ChangeEnumeratorState.AssignedSplit(
                                        "1-1", 1, List.of(new RowRange(1, 1))))));
        assertThat(context.take()).as("both rows are with readers unknown").isEmpty();
        enumerator.handleSourceEvent(1, new SplitProgress.Finished("1-0"));
        assertThat(context.take()).isEmpty();
        enumerator.handleSourceEvent(0, new SplitProgress.Finished("1-1"));
        assertThat(context.take()).containsExactly("0:2-0-0", "1:2-0-1");
        ChangeSplit row1 = context.assigned.get("2-0-0");
        assertThat(row1.read().before().groups())
                .singleElement()
                .satisfies(g -> assertThat(g.selection()).containsExactly(new RowRange(1, 1)));
        assertThat(row1.read().after().groups())
                .extracting(FileGroup::selection)
                .containsExactly(List.of(new RowRange(1, 1)));
        assertThat(context.assigned.get("2-0-1").read().after().groups())
                .extracting(FileGroup::selection)
                .containsExactly(List.of(new RowRange(0, 0)));
    }

    @Test
    void theStateHoldsThePendingSplitsAndTheRowsOfThoseInFlight() {
        startFresh();
        context.take();
        ChangeEnumeratorState first = enumerator.snapshotState(1);
        assertThat(first.inFlight())
                .containsExactlyInAnyOrder(
                        new ChangeEnumeratorState.AssignedSplit(
                                "1-0", 1, List.of(new RowRange(0, 0))),
                        new ChangeEnumeratorState.AssignedSplit(
                                "1-1", 1, List.of(new RowRange(1, 1))));
        finish(0, "1-1");
        ChangeEnumeratorState second = enumerator.snapshotState(2);
        assertThat(second.pending()).extracting(ChangeSplit::splitId).containsExactly("2-0");
        assertThat(second.inFlight())
                .extracting(ChangeEnumeratorState.AssignedSplit::splitId)
                .containsExactlyInAnyOrder("1-0", "2-1");
        assertThat(second.nextSnapshot()).isEqualTo(3);
    }

    /** Reader {@code reader} reads {@code split} to the end and asks for the next. */
    private void finish(int reader, String split) {
        enumerator.handleSourceEvent(reader, new SplitProgress.Finished(split));
        enumerator.handleSplitRequest(reader, null);
    }

    /** The full-read split of snapshot 1 with id {@code id}, as planned. */
    private ChangeSplit split(String id) {
        return new ChangeSplit(
                id,
                new ChangePlanner(store)
                        .planFull(1, spec.request(store), 2)
                        .get(Integer.parseInt(id.substring(2))),
                0,
                false);
    }

    /** Split {@code index} of the changes of snapshot {@code snapshot}, as planned. */
    private ChangeSplit planned(long snapshot, int index) {
        return new ChangeSplit(
                snapshot + "-" + index,
                new ChangePlanner(store)
                        .planChanges(snapshot, spec.request(store), ChangelogScope.FULL, false, 2)
                        .get(index),
                0,
                false);
    }

    private static List<FileGroup> concat(ReadSplit a, ReadSplit b) {
        List<FileGroup> groups = new ArrayList<>(a.groups());
        groups.addAll(b.groups());
        return groups;
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }

    /**
     * Two registered readers; asynchronous calls run at once, the periodic discovery once at start.
     * Assignments read as {@code reader:split}.
     */
    private static final class Context implements SplitEnumeratorContext<ChangeSplit> {

        private final List<String> made = new ArrayList<>();

        /** Every split assigned, by id. */
        final Map<String, ChangeSplit> assigned = new HashMap<>();

        /** The assignments made since the last call. */
        List<String> take() {
            List<String> taken = List.copyOf(made);
            made.clear();
            return taken;
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {}

        @Override
        public int currentParallelism() {
            return 2;
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            return Map.of(0, new ReaderInfo(0, "localhost"), 1, new ReaderInfo(1, "localhost"));
        }

        @Override
        public void assignSplits(SplitsAssignment<ChangeSplit> assignment) {
            assignment
                    .assignment()
                    .forEach(
                            (reader, splits) ->
                                    splits.forEach(
                                            s -> {
                                                made.add(reader + ":" + s.splitId());
                                                assigned.put(s.splitId(), s);
                                            }));
        }

        @Override
        public void signalNoMoreSplits(int subtask) {}

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            try {
                handler.accept(callable.call(), null);
            } catch (Exception e) {
                handler.accept(null, e);
            }
        }

        @Override
        public <T> void callAsync(
                Callable<T> callable, BiConsumer<T, Throwable> handler, long delay, long period) {
            callAsync(callable, handler);
        }

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            runnable.run();
        }
    }
}
