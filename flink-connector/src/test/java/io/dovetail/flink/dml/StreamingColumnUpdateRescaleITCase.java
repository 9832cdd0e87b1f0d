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
package io.dovetail.flink.dml;

import io.dovetail.table.TableStore;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
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

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming column update restores at other parallelisms: a job of two writers is stopped with a
 * savepoint, restored with three writers, stopped again and restored with one, each run committing
 * a few checkpoints while an endless, slow stream of updates (its position in the savepoints) keeps
 * updating the caption of 60 rows in four groups. In the end every update the three runs emitted
 * applied exactly once (each row holds the last one), all by the first run's commit user.
 */
class StreamingColumnUpdateRescaleITCase {

    private static final int ROWS = 60;
    private static final RowType UPDATES =
            RowType.of(new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH));

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
    void twoThenThreeThenOneWritersApplyEveryUpdateOnce() throws Exception {
        TablePaths table = new TablePaths(new Path(dir.resolve("t").toUri()));
        TableStore store = TableStore.at(table);
        CaptionTables.create(store, ROWS, 4, "none");
        long appended = store.snapshots().latestId().orElseThrow();

        String savepoint = run(table, null, 2);
        String user = store.snapshots().snapshot(appended + 1).commitUser();
        savepoint = run(table, savepoint, 3);
        run(table, savepoint, 1);

        Map<Long, Long> updates = captionUpdates(store);
        long emitted = 1 + updates.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        Map<Long, Long> expected = new HashMap<>();
        for (long i = 0; i < emitted; i++) {
            expected.put(i % ROWS, i); // the last update of each row wins
        }
        assertThat(updates).as("every update the runs emitted, exactly once").isEqualTo(expected);
        assertThat(emitted).as("each run got updates through").isGreaterThan(3L * ROWS / 2);
        for (long id = appended + 1; id <= store.snapshots().latestId().orElseThrow(); id++) {
            Snapshot snapshot = store.snapshots().snapshot(id);
            assertThat(snapshot.commitUser()).as("snapshot %s", id).isEqualTo(user);
        }
    }

    /**
     * Runs the update job with {@code writers} writers (restored from {@code savepoint}, if any)
     * until it committed three snapshots, then stops it with a savepoint and returns that.
     */
    private String run(TablePaths table, String savepoint, int writers) throws Exception {
        TableStore store = TableStore.open(table);
        long target = store.snapshots().latestId().orElse(0) + 3;
        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(300));
        if (savepoint != null) {
            config.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
            config.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, false);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(writers);
        RowLevelSink.forStreamingColumnUpdates(table, List.of("caption"))
                .uids(role -> "dovetail-" + role)
                .build(
                        env.fromSource(
                                        new DataGeneratorSource<>(
                                                i ->
                                                        GenericRowData.of(
                                                                i % ROWS,
                                                                StringData.fromString("u" + i)),
                                                Long.MAX_VALUE,
                                                RateLimiterStrategy.perSecond(60),
                                                InternalTypeInfo.of(UPDATES)),
                                        WatermarkStrategy.noWatermarks(),
                                        "updates")
                                .uid("updates")
                                .setParallelism(1));
        JobClient client = env.executeAsync("rescaled column updates at " + writers);
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

    /** Row id -> n of the caption {@code u<n>} it holds. */
    private static Map<Long, Long> captionUpdates(TableStore store) {
        Map<Long, Long> updates = new HashMap<>();
        CaptionTables.captions(store)
                .forEach(
                        (rowId, caption) -> {
                            assertThat(caption).as("row %s", rowId).startsWith("u");
                            updates.put(rowId, Long.parseLong(caption.substring(1)));
                        });
        return updates;
    }
}
