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

import io.dovetail.flink.sink.FaultyFileSystem;
import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.ChangelogScope;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once streaming SELECT under failures: a checkpointed job (every 100 ms, fixed-delay
 * restarts, parallelism 2) reads the changelog of a table with deletion vectors into a sink that
 * publishes only on checkpoint completion, while the table receives appends, partial-column updates
 * and deletes. The job fails four times: after a checkpoint in the middle of the full read, in the
 * reader opening the first update's new file (between snapshots), in the reader opening the second
 * update's file, and between the {@code -U} and {@code +U} of one row of that update. Published
 * must be each (kind, {@code _ROW_ID}, values) change exactly once, each row's changes in the order
 * of the snapshots.
 *
 * <p>Each append writes one partition, so row ids equal ids.
 */
class ChangelogSourceFailoverITCase {

    private static final String USER = "test";

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path dir;

    private TableStore store;

    /** The values ("id,name,dt") of every live row, by row id. */
    private final Map<Long, String> model = new TreeMap<>();

    /** The changes each row must go through, in order, by row id. */
    private final Map<Long, List<String>> expected = new TreeMap<>();

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void everyChangeIsPublishedOnceInRowOrderAcrossFailures() throws Exception {
        createTable();
        append(0, 10_000, "a"); // 1
        append(10_000, 10_000, "b"); // 2
        FailOnceAfterCheckpoint.FAILED.set(false);
        FailAtChange.AT.set(null);
        CommittedRecordsSink.clear();
        int failedOpenings = FaultyFileSystem.failedOpenings();

        JobClient job = startReading(2);
        try {
            append(20_000, 1_000, "a"); // 3
            String firstUpdateFile = update(rowId -> rowId % 16 == 0, "u1-"); // 4
            waitFor(() -> FaultyFileSystem.failedOpenings() == failedOpenings + 1);
            assertThat(firstUpdateFile).isNotEmpty();
            delete(rowId -> rowId % 50 == 1); // 5
            FailAtChange.AT.set("+U 9996 9996,u2-9996,a"); // late in its split
            update(rowId -> rowId % 4 == 0, "u2-"); // 6: 5,000 changes per group
            append(21_000, 10, "b"); // 7
            int changes = expected.values().stream().mapToInt(List::size).sum();
            waitFor(() -> CommittedRecordsSink.published().size() >= changes);
            Thread.sleep(500); // a change published twice would show by now
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }

        Map<Long, List<String>> published = new TreeMap<>();
        for (String change : CommittedRecordsSink.<String>published()) {
            long rowId = Long.parseLong(change.split(" ")[1]);
            published.computeIfAbsent(rowId, id -> new ArrayList<>()).add(change);
        }
        assertThat(
                        expected.keySet().stream()
                                .filter(id -> !expected.get(id).equals(published.get(id)))
                                .map(id -> id + ": " + published.get(id))
                                .limit(10)
                                .toList())
                .as("rows whose published changes are not their changes once, in order")
                .isEmpty();
        assertThat(published.keySet()).isEqualTo(expected.keySet());
        assertThat(FailOnceAfterCheckpoint.FAILED).as("failed in the full read").isTrue();
        assertThat(FaultyFileSystem.failedOpenings() - failedOpenings)
                .as("failed opening both updates' files")
                .isEqualTo(2);
        assertThat(FailAtChange.AT.get()).as("failed between -U and +U").isNull();
    }

    /** Reads snapshot {@code full} in full, then the changes of every later snapshot. */
    private JobClient startReading(long full) throws Exception {
        TableSchema schema = store.latestSchema();
        List<DataField> fields = new ArrayList<>(schema.fields());
        fields.add(SystemFields.ROW_ID);
        ReadSpec spec = new ReadSpec(store.paths(), schema, full, fields, null, 1, 1, false, true);
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 20);
        config.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        env.fromSource(
                        new DovetailChangelogSource(
                                spec,
                                new ChangelogStart(
                                        full,
                                        full + 1,
                                        Duration.ofMillis(50),
                                        null,
                                        ChangelogScope.FULL,
                                        false)),
                        WatermarkStrategy.noWatermarks(),
                        "changelog",
                        InternalTypeInfo.of(FlinkTypes.toFlinkRowType(fields)))
                .map(
                        new FailOnceAfterCheckpoint<>(
                                2L * SplitReader.DEFAULT_BATCH_SIZE,
                                ChangelogSourceFailoverITCase::render))
                .returns(String.class)
                .map(new FailAtChange())
                .sinkTo(new CommittedRecordsSink<>(StringSerializer.INSTANCE));
        return env.executeAsync("changelog-failover");
    }

    /** {@code kind rowId id,name,dt}. */
    private static String render(RowData row) {
        return row.getRowKind().shortString()
                + " "
                + row.getLong(3)
                + " "
                + values(
                        row.getLong(0),
                        row.isNullAt(1) ? null : row.getString(1).toString(),
                        row.getString(2).toString());
    }

    private static String values(long id, String name, String dt) {
        return id + "," + name + "," + dt;
    }

    /**
     * Fails the job once, at the change {@link #AT} (static: the MiniCluster shares the JVM). Takes
     * a millisecond per 8 update and delete changes, so checkpoints land between the batches of a
     * split.
     */
    static final class FailAtChange implements MapFunction<String, String> {

        static final AtomicReference<String> AT = new AtomicReference<>();

        private transient int changes;

        @Override
        public String map(String change) throws InterruptedException {
            if (!change.startsWith("+I") && ++changes % 8 == 0) {
                Thread.sleep(1);
            }
            String at = AT.get();
            if (change.equals(at) && AT.compareAndSet(at, null)) {
                throw new IllegalStateException("Injected failure at " + change);
            }
            return change;
        }
    }

    // ---------------------------------------------------------------- writes through the core

    private void createTable() {
        store = TableStore.at(new TablePaths(new Path(FaultyFileSystem.SCHEME + "://" + dir)));
        store.schemas()
                .createTable(
                        List.of(
                                new DataField(0, "id", DataTypes.BIGINT()),
                                new DataField(1, "name", DataTypes.STRING()),
                                new DataField(2, "dt", DataTypes.STRING())),
                        List.of("dt"),
                        List.of(),
                        Map.of(
                                "row-tracking.enabled", "true",
                                "data-evolution.enabled", "true",
                                "deletion-vectors.enabled", "true"),
                        null);
    }

    private void append(long first, int count, String dt) {
        List<ManifestEntry> files;
        try (DataFileWriter writer =
                DataFileWriter.forAppend(
                        store.paths(), store.latestSchema(), GenericRowData.of(str(dt)))) {
            for (long id = first; id < first + count; id++) {
                writer.write(GenericRowData.of(id, str("name-" + id), str(dt)));
                change(id, "+I", values(id, "name-" + id, dt));
            }
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append(USER, nextIdentifier(), files));
    }

    /**
     * Renames the live rows {@code which} selects; the next opening of the update's first new file
     * fails. Returns that file's name.
     */
    private String update(LongPredicate which, String prefix) {
        Snapshot base = latest();
        List<RowUpdate> updates = new ArrayList<>();
        for (long rowId : List.copyOf(model.keySet())) {
            if (which.test(rowId)) {
                String[] old = model.get(rowId).split(",");
                String name = prefix + rowId;
                updates.add(new RowUpdate(rowId, GenericRowData.of(str(name))));
                change(rowId, "-U", model.get(rowId));
                change(rowId, "+U", values(rowId, name, old[2]));
            }
        }
        List<ManifestEntry> files =
                ColumnUpdater.on(store, base, List.of("name")).write(updates.iterator());
        String failing = files.get(0).file().fileName();
        FaultyFileSystem.failOpening(failing);
        new TableCommit(store)
                .commit(CommitRequest.columnUpdate(USER, nextIdentifier(), base.id(), files));
        return failing;
    }

    private void delete(LongPredicate which) {
        Snapshot base = latest();
        List<Long> rowIds = model.keySet().stream().filter(which::test).toList();
        rowIds.forEach(rowId -> change(rowId, "-D", model.get(rowId)));
        new TableCommit(store)
                .commit(
                        CommitRequest.delete(
                                USER,
                                nextIdentifier(),
                                base.id(),
                                new DeletionVectorWriter(store).deleteRows(base, rowIds)));
    }

    /** Records the change of a row in the expectation and applies it to the model. */
    private void change(long rowId, String kind, String values) {
        expected.computeIfAbsent(rowId, id -> new ArrayList<>())
                .add(kind + " " + rowId + " " + values);
        if (kind.equals("-D")) {
            model.remove(rowId);
        } else if (!kind.equals("-U")) {
            model.put(rowId, values);
        }
    }

    private long nextIdentifier() {
        return store.latestSnapshot().map(Snapshot::id).orElse(0L) + 1;
    }

    private Snapshot latest() {
        return store.latestSnapshot().orElseThrow();
    }

    private static void waitFor(BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(20);
        }
    }

    private static StringData str(String value) {
        return StringData.fromString(value);
    }
}
