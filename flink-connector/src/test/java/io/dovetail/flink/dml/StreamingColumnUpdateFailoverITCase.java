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

import io.dovetail.flink.sink.FaultyFileSystem;
import io.dovetail.table.TableStore;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once streaming column updates under failures: a checkpointed job (checkpoints every 100
 * ms, fixed-delay restarts) streams 6,000 updates of the caption of 2,000 rows (four appended
 * groups; every row updated three times, far apart in the stream) into two writers, while the
 * update source fails after a number of updates and the committer crashes right before and right
 * after publishing snapshots. The final captions must be exactly each row's last update, every
 * snapshot one commit of one checkpoint, and the ids untouched.
 */
class StreamingColumnUpdateFailoverITCase {

    private static final int ROWS = 2_000;
    private static final int UPDATES = 3 * ROWS;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path dir;

    @Test
    void everyUpdateAppliesExactlyOnceInOrderDespiteFailures() throws Exception {
        TablePaths table = new TablePaths(new Path(FaultyFileSystem.SCHEME + "://" + dir));
        TableStore store = TableStore.at(table);
        CaptionTables.create(store, ROWS, 4, null);

        int published = FaultyFileSystem.publications.get();
        FaultyFileSystem.crashBefore.addAll(List.of(published + 2, published + 5));
        FaultyFileSystem.crashAfter.addAll(List.of(published + 3, published + 7));
        int crashes = FaultyFileSystem.crashes.get();
        FailingUpdates.failuresLeft.set(3);

        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 50);
        config.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        RowType type = RowType.of(new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH));
        RowLevelSink.forStreamingColumnUpdates(table, List.of("caption"))
                .boundedInput(true)
                .build(
                        env.fromSequence(0, UPDATES - 1)
                                .setParallelism(1) // one ordered stream of updates
                                .map(new FailingUpdates())
                                .setParallelism(1)
                                .returns(InternalTypeInfo.of(type)));
        env.execute("streaming column updates");

        assertThat(FaultyFileSystem.crashes.get() - crashes).isEqualTo(4);
        assertThat(FailingUpdates.failuresLeft.get()).isZero();
        Map<Long, String> model = new HashMap<>();
        for (long i = 0; i < UPDATES; i++) {
            model.put(i % ROWS, caption(i)); // the last update of each row wins
        }
        assertThat(CaptionTables.captions(store)).isEqualTo(model);

        Set<Long> identifiers = new HashSet<>();
        for (long id = 5; id <= store.snapshots().latestId().orElseThrow(); id++) {
            Snapshot snapshot = store.snapshots().snapshot(id);
            assertThat(snapshot.commitKind()).isNotEqualTo(CommitKind.COMPACT);
            assertThat(identifiers.add(snapshot.commitIdentifier()))
                    .as("checkpoint %s committed once", snapshot.commitIdentifier())
                    .isTrue();
        }
        assertThat(identifiers).as("updates spanned many checkpoints").hasSizeGreaterThan(3);
    }

    private static String caption(long update) {
        return "row " + update % ROWS + " v" + update / ROWS;
    }

    /**
     * Turns update numbers into updates of row {@code n % ROWS}, slowly enough for the job to span
     * many checkpoints, and fails the task after 1,500 updates while failures are left.
     */
    static final class FailingUpdates extends RichMapFunction<Long, RowData> {

        static final AtomicInteger failuresLeft = new AtomicInteger();

        private transient int updates;

        @Override
        public void open(OpenContext context) {
            updates = 0;
        }

        @Override
        public RowData map(Long n) throws InterruptedException {
            if (++updates % 10 == 0) {
                Thread.sleep(1);
            }
            if (updates == 1_500 && failuresLeft.getAndUpdate(f -> Math.max(0, f - 1)) > 0) {
                throw new IllegalStateException("Injected failure after " + updates + " updates");
            }
            return GenericRowData.of(n % ROWS, StringData.fromString(caption(n)));
        }
    }
}
