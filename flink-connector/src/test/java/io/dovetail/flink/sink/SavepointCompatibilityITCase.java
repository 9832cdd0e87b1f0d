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
package io.dovetail.flink.sink;

import io.dovetail.flink.dml.RowLevelSink;
import io.dovetail.table.TableStore;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upgrades keep running jobs: savepoints of a checkpointed streaming INSERT and of a streaming
 * column update, taken by an earlier build (commit 9d9eb28, before the sink's classes moved into
 * rooms of their own) and stored under {@code src/test/resources/savepoints/} with the table each
 * job wrote, restore on this build with every operator's state claimed (none may be dropped); the
 * restored committer keeps the job's commit user, and the job goes on exactly once from where the
 * savepoint left it. The column update, taken with two writers, restores with three (its writers
 * held their updates in state then; they have none now). The fixtures are written again with {@code
 * -Ddovetail.savepoints.write=true}: only when the state format changes on purpose, since a build
 * that cannot restore them breaks its users' upgrades.
 */
class SavepointCompatibilityITCase {

    private static final java.nio.file.Path FIXTURES =
            java.nio.file.Path.of("src", "test", "resources", "savepoints");
    private static final boolean WRITE = Boolean.getBoolean("dovetail.savepoints.write");
    private static final Function<String, String> UIDS = role -> "dovetail-" + role;
    private static final RowType INSERTED =
            RowType.of(new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH));
    private static final int UPDATED_ROWS = 10;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(3)
                            .build());

    @TempDir java.nio.file.Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aStreamingInsertRestoresFromASavepointOfAnEarlierBuild() throws Exception {
        Fixture fixture = fixture("streaming-insert", this::createInsertTable);
        TableStore store = TableStore.open(fixture.table());
        String commitUser = store.snapshots().snapshot(1).commitUser();
        long snapshotsBefore = store.snapshots().listIds().length;
        List<Long> idsBefore = ids(store);

        runUntilMoreSnapshots(fixture, this::insertJob, 2);

        List<Long> ids = ids(store);
        assertThat(ids)
                .as("the rows the job had emitted, each once, in order")
                .isEqualTo(LongStream.range(0, ids.size()).boxed().toList());
        assertThat(ids.size()).isGreaterThan(idsBefore.size());
        assertCommittedByTheRestoredUser(store, commitUser, snapshotsBefore);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aStreamingColumnUpdateRestoresFromASavepointOfAnEarlierBuild() throws Exception {
        Fixture fixture = fixture("streaming-column-update", this::createUpdatedTable);
        TableStore store = TableStore.open(fixture.table());
        String commitUser = store.snapshots().snapshot(2).commitUser();
        long snapshotsBefore = store.snapshots().listIds().length;

        runUntilMoreSnapshots(fixture, this::columnUpdateJob, 2, 3);

        Map<Long, Long> updates = captionUpdates(store);
        long emitted = 1 + updates.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        Map<Long, Long> expected = new HashMap<>();
        for (long i = 0; i < emitted; i++) {
            expected.put(i % UPDATED_ROWS, i); // the last update of each row wins
        }
        assertThat(updates).as("every update the job emitted, exactly once").isEqualTo(expected);
        assertCommittedByTheRestoredUser(store, commitUser, snapshotsBefore);
    }

    // ------------------------------------------------------------------ the jobs

    private void insertJob(StreamExecutionEnvironment env, TablePaths table) {
        DataStream<RowData> rows =
                source(env, i -> GenericRowData.of(i, StringData.fromString("row " + i)), INSERTED);
        DovetailSink.forRows(table, TableStore.open(table).latestSchema(), Map.of())
                .uids(UIDS)
                .build(rows);
    }

    private void columnUpdateJob(StreamExecutionEnvironment env, TablePaths table) {
        DataStream<RowData> updates =
                source(
                        env,
                        i -> GenericRowData.of(i % UPDATED_ROWS, StringData.fromString("u" + i)),
                        INSERTED);
        RowLevelSink.forStreamingColumnUpdates(table, List.of("caption")).uids(UIDS).build(updates);
    }

    /** An endless, slow, single-reader sequence whose position is in the savepoint. */
    private static DataStream<RowData> source(
            StreamExecutionEnvironment env, GeneratorFunction<Long, RowData> rows, RowType type) {
        return env.fromSource(
                        new DataGeneratorSource<>(
                                rows,
                                Long.MAX_VALUE,
                                RateLimiterStrategy.perSecond(40),
                                InternalTypeInfo.of(type)),
                        WatermarkStrategy.noWatermarks(),
                        "sequence")
                .uid("sequence")
                .setParallelism(1);
    }

    private interface Job {
        void build(StreamExecutionEnvironment env, TablePaths table);
    }

    // ------------------------------------------------------------------ fixtures

    private record Fixture(TablePaths table, String savepoint) {}

    /**
     * The stored fixture {@code name}, copied to a temporary warehouse; in writing mode, one made
     * now by running the job from scratch until it committed twice.
     */
    private Fixture fixture(String name, Function<Warehouse, TablePaths> create) throws Exception {
        java.nio.file.Path stored = FIXTURES.resolve(name);
        if (WRITE) {
            deleteRecursively(stored);
            Warehouse scratch = new Warehouse(new Path(dir.resolve("scratch").toUri()));
            TablePaths table = create.apply(scratch);
            String savepoint =
                    runUntilMoreSnapshots(
                            new Fixture(table, null),
                            name.equals("streaming-insert")
                                    ? this::insertJob
                                    : this::columnUpdateJob,
                            2);
            copyRecursively(
                    java.nio.file.Path.of(new Path(savepoint).toUri()),
                    stored.resolve("savepoint"));
            copyRecursively(java.nio.file.Path.of(table.root().toUri()), stored.resolve("table"));
        }
        java.nio.file.Path copy = dir.resolve("restored").resolve(name);
        copyRecursively(stored.resolve("table"), copy.resolve("default.db").resolve("t"));
        copyRecursively(stored.resolve("savepoint"), dir.resolve("savepoint-" + name));
        return new Fixture(
                new Warehouse(new Path(copy.toUri())).table("default", "t"),
                dir.resolve("savepoint-" + name).toUri().toString());
    }

    private TablePaths createInsertTable(Warehouse warehouse) {
        sql(warehouse, "CREATE TABLE w.`default`.t (id BIGINT, note STRING)");
        return warehouse.table("default", "t");
    }

    private TablePaths createUpdatedTable(Warehouse warehouse) {
        sql(warehouse, "CREATE TABLE w.`default`.t (id BIGINT, caption STRING)");
        StringBuilder values = new StringBuilder();
        for (int i = 0; i < UPDATED_ROWS; i++) {
            values.append(i == 0 ? "" : ", ").append("(").append(i).append(", 'none')");
        }
        sql(warehouse, "INSERT INTO w.`default`.t VALUES " + values);
        return warehouse.table("default", "t");
    }

    private static void sql(Warehouse warehouse, String statement) {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "1");
        sql.executeSql(
                "CREATE CATALOG w WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.root()
                        + "')");
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Runs {@code job} on {@code fixture}'s table (restored from its savepoint, if any) until it
     * committed {@code more} snapshots, then stops it with a savepoint (committing what it emitted)
     * and returns that savepoint.
     */
    private String runUntilMoreSnapshots(Fixture fixture, Job job, int more) throws Exception {
        return runUntilMoreSnapshots(fixture, job, more, 2);
    }

    /** {@link #runUntilMoreSnapshots(Fixture, Job, int)} at parallelism {@code parallelism}. */
    private String runUntilMoreSnapshots(Fixture fixture, Job job, int more, int parallelism)
            throws Exception {
        TableStore store = TableStore.open(fixture.table());
        long target = store.snapshots().latestId().orElse(0) + more;
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
        if (fixture.savepoint() != null) {
            config.set(StateRecoveryOptions.SAVEPOINT_PATH, fixture.savepoint());
            config.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(parallelism);
        job.build(env, fixture.table());
        JobClient client = env.executeAsync("savepoint compatibility");
        while (store.snapshots().latestId().orElse(0) < target) {
            assertThat(client.getJobStatus().get().isGloballyTerminalState())
                    .as("the job is running")
                    .isFalse();
            Thread.sleep(100);
        }
        return client.stopWithSavepoint(
                        false,
                        dir.resolve("savepoints").toUri().toString(),
                        SavepointFormatType.CANONICAL)
                .get();
    }

    // ------------------------------------------------------------------ checks

    private static void assertCommittedByTheRestoredUser(
            TableStore store, String commitUser, long snapshotsBefore) {
        long[] ids = store.snapshots().listIds();
        assertThat(ids.length).isGreaterThan((int) snapshotsBefore + 1);
        for (int i = (int) snapshotsBefore; i < ids.length; i++) {
            Snapshot snapshot = store.snapshots().snapshot(ids[i]);
            assertThat(snapshot.commitUser())
                    .as("snapshot %s is the restored job's (its committer's state)", ids[i])
                    .isEqualTo(commitUser);
        }
    }

    private static List<Long> ids(TableStore store) {
        List<Long> ids = new ArrayList<>();
        read(store, "note", row -> ids.add(row.getLong(0)));
        ids.sort(Comparator.naturalOrder());
        return ids;
    }

    /** Row id -> n of the caption {@code u<n>} it holds. */
    private static Map<Long, Long> captionUpdates(TableStore store) {
        Map<Long, Long> updates = new HashMap<>();
        read(
                store,
                "caption",
                row -> {
                    String caption = row.getString(1).toString();
                    assertThat(caption).startsWith("u");
                    updates.put(row.getLong(0), Long.parseLong(caption.substring(1)));
                });
        return updates;
    }

    private static void read(
            TableStore store, String column, java.util.function.Consumer<RowData> rows) {
        ReadRequest request =
                ReadRequest.allColumns(store.latestSchema()).withColumns("id", column);
        ReadPlan plan = new ReadPlanner(store).planLatest(request);
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch batch = reader.nextBatch();
                        batch != null;
                        batch = reader.nextBatch()) {
                    for (int i = 0; i < batch.size(); i++) {
                        rows.accept(batch.row(i));
                    }
                }
            }
        }
    }

    private static void copyRecursively(java.nio.file.Path from, java.nio.file.Path to) {
        try (Stream<java.nio.file.Path> files = Files.walk(from)) {
            for (java.nio.file.Path file : files.toList()) {
                java.nio.file.Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!file.getFileName().toString().startsWith(".")) {
                    Files.copy(file, target);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(java.nio.file.Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<java.nio.file.Path> files = Files.walk(root)) {
                for (java.nio.file.Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
