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
package io.dovetail.flink.maintenance;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.error.Errors;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.snapshot.SnapshotPins;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/**
 * Data-evolution compaction as a distributed Flink batch job. Planning runs where the job is built
 * (the client, or the JobManager for an application): the latest snapshot is pinned and its live
 * files of the selected partitions are packed into bins ({@code CompactionPlanner}); each bin is
 * one task. The plan travels with the rewriters and the committer ({@link MaintenancePlanBytes}),
 * the tasks as bin indexes:
 *
 * <pre>
 *   [tasks × 1] ──rebalance──▶ [rewriter × min(bins, p)] ──global──▶ [committer × 1] ──▶ result row
 *    the planned bins'          plans the bins' read on the pinned    one COMPACT snapshot: inputs
 *    indexes                    snapshot once, then writes one        deleted, compacted files
 *                               compacted file per bin                added, deletion vectors
 *                               (RangeRewriter: every position, all   moved (DataEvolutionCompaction)
 *                               columns, row ids and sequence
 *                               bounds kept)
 * </pre>
 *
 * The commit checks every snapshot committed after the pinned one (see {@code TableCommit}), so a
 * concurrent update or delete of a compacted range fails the job and leaves the table as it was. A
 * job that fails after some rewriters finished leaves their files unreferenced in the table
 * directory ({@code remove_orphan_files} deletes them); a failed commit deletes what it wrote.
 */
public final class CompactionJob {

    /** The result row: what the job did; {@code snapshot_id} is null when nothing qualified. */
    public static final String OUTPUT =
            "ROW<files_written BIGINT, files_rewritten BIGINT, bytes_rewritten BIGINT,"
                    + " bytes_written BIGINT, snapshot_id BIGINT, rewrite_subtasks BIGINT>";

    /** Paimon's identifier for a one-off batch commit; each job has its own commit user. */
    static final long COMMIT_IDENTIFIER = CommitRequest.BATCH_IDENTIFIER;

    private static final TypeInformation<Row> ROW_TYPE =
            Types.ROW(Types.LONG, Types.LONG, Types.LONG, Types.LONG, Types.LONG, Types.LONG);

    private final TableStore store;
    private final Predicate<RowData> partitions;
    private final CompactionConfig config;
    private final int parallelism;

    /**
     * A job compacting the partitions of {@code store} that pass {@code partitions}, packed by
     * {@code config}, with at most {@code parallelism} rewriters.
     */
    public CompactionJob(
            TableStore store,
            Predicate<RowData> partitions,
            CompactionConfig config,
            int parallelism) {
        if (parallelism < 1) {
            throw Errors.invalidArgument(
                    "A compaction job needs a parallelism of at least 1, got " + parallelism + ".");
        }
        this.store = store;
        this.partitions = partitions;
        this.config = config;
        this.parallelism = parallelism;
    }

    /** Plans, and unless no bin qualifies runs the job in {@code env}; returns its result row. */
    public Row run(StreamExecutionEnvironment env) throws Exception {
        Optional<DataEvolutionCompaction.Plan> plan =
                new DataEvolutionCompaction(store).plan(partitions, config);
        if (plan.isEmpty()) {
            return Row.of(0L, 0L, 0L, 0L, null, 0L);
        }
        DataStream<Row> result = build(env, plan.get());
        try (SnapshotPins.Pin pin =
                        new SnapshotPins(store.paths())
                                .pinBase(
                                        plan.get().snapshotId(),
                                        store.latestSchema().options(),
                                        "the compaction of " + store.paths().root().getName());
                CloseableIterator<Row> rows =
                        result.executeAndCollect(
                                "Dovetail compact " + store.paths().root().getName())) {
            return rows.next();
        }
    }

    /**
     * Adds the job of {@code plan} to {@code env} (in batch mode); its one output is the result.
     */
    DataStream<Row> build(StreamExecutionEnvironment env, DataEvolutionCompaction.Plan plan) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        MaintenancePlanBytes planned =
                new MaintenancePlanBytes(plan.snapshotId(), plan.schemaId(), plan.tasks());
        List<Integer> tasks = IntStream.range(0, planned.taskCount()).boxed().toList();
        String name = store.paths().root().getName();
        return env.fromData(tasks, Types.INT)
                .name("Dovetail compaction tasks: " + name)
                .setParallelism(1)
                .rebalance()
                .map(new CompactionRewriter(store.paths(), planned))
                .returns(CompactionRewriter.OUTPUT)
                .name("Dovetail compaction rewriter: " + name)
                .setParallelism(Math.min(plan.tasks().size(), parallelism))
                .global()
                .transform(
                        "Dovetail compaction committer: " + name,
                        ROW_TYPE,
                        new CompactionCommitter(
                                store.paths(), "dovetail-compact-" + UUID.randomUUID(), planned))
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    static Row row(DataEvolutionCompaction.Result result, int rewriteSubtasks) {
        return Row.of(
                (long) result.tasks(),
                (long) result.filesRewritten(),
                result.bytesRewritten(),
                result.bytesWritten(),
                result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null,
                (long) rewriteSubtasks);
    }
}
