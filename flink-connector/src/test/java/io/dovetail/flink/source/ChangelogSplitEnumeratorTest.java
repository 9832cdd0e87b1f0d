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
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ChangelogScope;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Split assignment of the changelog enumerator over two readers, driven by hand: while reports have
 * no checkpoint barrier behind them every split goes to reader 0, so one snapshot's rows cannot be
 * overtaken downstream by the next snapshot's from another reader; once a checkpoint taken after
 * the reports completes, any reader gets splits.
 */
class ChangelogSplitEnumeratorTest {

    @TempDir java.nio.file.Path dir;

    private final Context context = new Context();
    private ChangelogSplitEnumerator enumerator;

    /** Snapshots 1 and 2 each append one file to partitions a and b: two splits each. */
    @BeforeEach
    void twoSnapshotsOfTwoSplits() {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
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
        for (long snapshot = 1; snapshot <= 2; snapshot++) {
            List<ManifestEntry> files = new ArrayList<>();
            for (String dt : List.of("a", "b")) {
                try (DataFileWriter writer =
                        DataFileWriter.forAppend(
                                store.paths(), schema, GenericRowData.of(str(dt)))) {
                    writer.write(GenericRowData.of(snapshot, str(dt)));
                    files.addAll(writer.finish());
                }
            }
            new TableCommit(store).commit(CommitRequest.append("test", snapshot, files));
        }
        List<DataField> fields = new ArrayList<>(schema.fields());
        fields.add(SystemFields.ROW_ID);
        ReadSpec spec = new ReadSpec(store.paths(), schema, 1L, fields, null, 1, 1, false, true);
        ChangelogStart start =
                new ChangelogStart(1L, 2, Duration.ofMillis(50), null, ChangelogScope.FULL, false);
        enumerator =
                new ChangelogSplitEnumerator(
                        context,
                        store,
                        spec.request(store),
                        start,
                        new ChangeEnumeratorState(1L, 2, List.of(), Set.of()));
        enumerator.start();
        enumerator.handleSplitRequest(1, null);
        enumerator.handleSplitRequest(0, null);
    }

    @Test
    void withoutCheckpointsEverySplitGoesToReaderZero() {
        for (String split : List.of("1-0", "1-1", "2-0", "2-1")) {
            assertThat(context.take()).containsExactly("0:" + split);
            finish(0, split);
        }
        assertThat(context.take()).isEmpty();
    }

    @Test
    void aCompletedCheckpointAfterTheReportsLetsEveryReaderRead() {
        assertThat(context.take()).containsExactly("0:1-0");
        finish(0, "1-0");
        assertThat(context.take()).containsExactly("0:1-1");
        finish(0, "1-1");
        assertThat(context.take()).as("1's reports count at once").containsExactly("0:2-0");

        enumerator.snapshotState(1);
        assertThat(context.take()).isEmpty();
        enumerator.notifyCheckpointComplete(1);
        assertThat(context.take())
                .as("reader 1, waiting since the start, gets the next split")
                .containsExactly("1:2-1");
    }

    /** Reader {@code reader} reads {@code split} to the end and asks for the next. */
    private void finish(int reader, String split) {
        enumerator.handleSourceEvent(reader, new SplitProgress.Finished(split));
        enumerator.handleSplitRequest(reader, null);
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }

    /**
     * Two registered readers; asynchronous calls run at once, the periodic discovery once at start.
     * Assignments read as {@code reader:split}.
     */
    private static final class Context implements SplitEnumeratorContext<ChangeSplit> {

        private final List<String> assigned = new ArrayList<>();

        /** The assignments made since the last call. */
        List<String> take() {
            List<String> taken = List.copyOf(assigned);
            assigned.clear();
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
                                    splits.forEach(s -> assigned.add(reader + ":" + s.splitId())));
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
