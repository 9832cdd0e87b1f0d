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

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once streaming writes under failures: a checkpointed streaming job (checkpoints every 150
 * ms, fixed-delay restarts) writes 40,000 rows of a replayable sequence into a partitioned table
 * while writers fail after a number of rows and the committer crashes right before and right after
 * publishing snapshots. However the failures fall, the table must end with every row exactly once,
 * and every snapshot must be one commit of one checkpoint.
 */
class StreamingWriteFailoverITCase {

    private static final int ROWS = 40_000;
    private static final int WRITER_FAILURES = 5;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path dir;

    @Test
    void everyRowLandsExactlyOnceDespiteWriterAndCommitterFailures() throws Exception {
        Warehouse warehouse = new Warehouse(new Path(FaultyFileSystem.SCHEME + "://" + dir));
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG f WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.root()
                        + "')");
        sql.executeSql(
                "CREATE TABLE f.`default`.t (id BIGINT, parity STRING) PARTITIONED BY (parity)");
        TablePaths table = warehouse.table("default", "t");
        TableStore store = TableStore.open(table);

        FaultyFileSystem.crashBefore.addAll(List.of(2, 5, 9));
        FaultyFileSystem.crashAfter.addAll(List.of(3, 7, 12));
        ThrottledFailingRows.failuresLeft.set(WRITER_FAILURES);

        Configuration config = new Configuration();
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(150));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 50);
        config.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
        env.setParallelism(2);
        RowType type = RowType.of(new BigIntType(), new VarCharType(VarCharType.MAX_LENGTH));
        DovetailSink.forRows(table, store.latestSchema(), java.util.Map.of())
                .boundedInput(true)
                .build(
                        env.fromSequence(0, ROWS - 1)
                                .map(new ThrottledFailingRows())
                                .returns(InternalTypeInfo.of(type)));
        env.execute("failover");

        assertThat(FaultyFileSystem.crashes.get()).isEqualTo(6);
        assertThat(ThrottledFailingRows.failuresLeft.get()).isZero();
        List<Long> ids = readIds(store);
        assertThat(ids).hasSize(ROWS);
        assertThat(new HashSet<>(ids)).hasSize(ROWS);
        assertThat(ids.stream().mapToLong(Long::longValue).max().orElseThrow()).isEqualTo(ROWS - 1);

        long[] snapshotIds = store.snapshots().listIds();
        assertThat(snapshotIds).hasSize((int) snapshotIds[snapshotIds.length - 1]);
        Set<Long> identifiers = new HashSet<>();
        for (long id : snapshotIds) {
            Snapshot snapshot = store.snapshots().snapshot(id);
            assertThat(identifiers.add(snapshot.commitIdentifier()))
                    .as("checkpoint %s committed once", snapshot.commitIdentifier())
                    .isTrue();
        }
        assertThat(Arrays.stream(snapshotIds).mapToObj(store.snapshots()::snapshot))
                .extracting(Snapshot::commitUser)
                .containsOnly(store.snapshots().snapshot(1).commitUser());
    }

    private static List<Long> readIds(TableStore store) {
        ReadRequest request = ReadRequest.allColumns(store.latestSchema()).withColumns("id");
        List<Long> ids = new ArrayList<>();
        ReadPlan plan = new ReadPlanner(store).planLatest(request);
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (ReadBatch batch = reader.nextBatch();
                        batch != null;
                        batch = reader.nextBatch()) {
                    for (int i = 0; i < batch.size(); i++) {
                        ids.add(batch.row(i).getLong(0));
                    }
                }
            }
        }
        return ids;
    }

    /**
     * Turns ids into rows, slowly enough for the job to span many checkpoints, and fails the task
     * after a few thousand rows while failures are left.
     */
    static final class ThrottledFailingRows extends RichMapFunction<Long, RowData> {

        static final AtomicInteger failuresLeft = new AtomicInteger();

        private transient int rows;
        private transient int failAfter;

        @Override
        public void open(OpenContext context) {
            rows = 0;
            failAfter = 2_000 + 1_500 * getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        }

        @Override
        public RowData map(Long id) throws InterruptedException {
            boolean crashesPending =
                    !FaultyFileSystem.crashBefore.isEmpty()
                            || !FaultyFileSystem.crashAfter.isEmpty();
            if (++rows % (crashesPending ? 10 : 100) == 0) {
                Thread.sleep(1); // slower while crashes are due, so the input does not end first
            }
            if (rows == failAfter && failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("Injected writer failure after " + rows + " rows");
            }
            return GenericRowData.of(id, StringData.fromString(id % 2 == 0 ? "even" : "odd"));
        }
    }
}
