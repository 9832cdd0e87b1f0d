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
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataTypes;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once reading across a failure: a streaming job at parallelism 2 reads a table of four
 * splits of 5,000 rows (three batches each) through {@link DovetailSource}, fails once after a
 * checkpoint caught a reader at least one batch in (typically mid-split), restarts from that
 * checkpoint and finishes. A transactional sink publishes rows only with completed checkpoints, so
 * every row must be published exactly once: a restored reader that re-read its split from the start
 * would publish the checkpointed rows twice, one that skipped too far would lose rows.
 */
class DovetailSourceFailoverITCase {

    private static final int APPENDS = 4;
    private static final int ROWS_PER_APPEND = 5_000;
    private static final int ROWS = APPENDS * ROWS_PER_APPEND;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir java.nio.file.Path dir;

    @Test
    void everyRowIsDeliveredExactlyOnceAcrossAFailure() throws Exception {
        ReadSpec spec = writeTable();
        assertThat(spec.plan(2).splits()).hasSize(APPENDS);
        FailOnceAfterCheckpoint.FAILED.set(false);
        CommittedRecordsSink.clear();

        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(config());
        env.setParallelism(2);
        env.fromSource(
                        new DovetailSource(spec),
                        WatermarkStrategy.noWatermarks(),
                        "dovetail",
                        InternalTypeInfo.of(FlinkTypes.toFlinkRowType(spec.fields())))
                .map(
                        new FailOnceAfterCheckpoint<>(
                                SplitReader.DEFAULT_BATCH_SIZE,
                                row -> row.getLong(row.getArity() - 1)))
                .returns(Long.class)
                .sinkTo(new CommittedRecordsSink<>(LongSerializer.INSTANCE));
        JobClient job = env.executeAsync("dovetail-source-failover");
        job.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        assertThat(FailOnceAfterCheckpoint.FAILED).as("the injected failure happened").isTrue();
        List<Long> committed = CommittedRecordsSink.published();
        Map<Long, Long> timesCommitted =
                committed.stream().collect(Collectors.groupingBy(id -> id, Collectors.counting()));
        assertThat(
                        LongStream.range(0, ROWS)
                                .filter(id -> timesCommitted.getOrDefault(id, 0L) != 1)
                                .boxed()
                                .toList())
                .as("row ids not committed exactly once")
                .isEmpty();
        assertThat(committed.size()).as("rows committed").isEqualTo(ROWS);
    }

    private static Configuration config() {
        Configuration config = new Configuration();
        config.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        config.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(100));
        config.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        config.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        config.set(
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        return config;
    }

    /** Appends {@link #APPENDS} files of ids continuing each other, so row ids equal ids. */
    private ReadSpec writeTable() {
        TableStore store = TableStore.at(new TablePaths(new Path(dir.toUri())));
        List<DataField> columns =
                List.of(
                        new DataField(0, "id", DataTypes.BIGINT()),
                        new DataField(1, "payload", DataTypes.STRING()));
        TableSchema schema =
                store.schemas()
                        .createTable(
                                columns,
                                List.of(),
                                List.of(),
                                Map.of(
                                        "row-tracking.enabled",
                                        "true",
                                        "data-evolution.enabled",
                                        "true"),
                                null);
        for (int append = 0; append < APPENDS; append++) {
            List<ManifestEntry> files;
            try (DataFileWriter writer =
                    DataFileWriter.forAppend(store.paths(), schema, GenericRowData.of())) {
                for (long id = (long) append * ROWS_PER_APPEND;
                        id < (long) (append + 1) * ROWS_PER_APPEND;
                        id++) {
                    writer.write(GenericRowData.of(id, StringData.fromString("row-" + id)));
                }
                files = writer.finish();
            }
            new TableCommit(store).commit(CommitRequest.append("test", append + 1, files));
        }
        List<DataField> fields = new ArrayList<>(columns);
        fields.add(SystemFields.ROW_ID);
        long snapshot = store.latestSnapshot().orElseThrow().id();
        return new ReadSpec(store.paths(), schema, snapshot, fields, null, 1, 1, false, true);
    }
}
