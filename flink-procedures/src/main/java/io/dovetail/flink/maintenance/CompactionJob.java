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
import io.dovetail.table.error.Errors;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.RangeRewriter;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Data-evolution compaction as a distributed Flink batch job ({@link RewriteJob}): the latest
 * snapshot's live files of the selected partitions are packed into bins ({@code
 * CompactionPlanner}), each bin one task; a rewriter writes one compacted file per bin ({@link
 * RangeRewriter}: every position, all columns, row ids and sequence bounds kept), the committer
 * commits them as one COMPACT snapshot ({@link DataEvolutionCompaction#commit}: inputs deleted,
 * compacted files added, deletion vectors moved).
 *
 * <p>The commit checks every snapshot committed after the pinned one (see {@code TableCommit}), so
 * a concurrent update or delete of a compacted range fails the job and leaves the table as it was.
 * A job that fails after some rewriters finished leaves their files unreferenced in the table
 * directory ({@code remove_orphan_files} deletes them); a failed commit deletes what it wrote.
 */
public final class CompactionJob {

    /** The result row: what the job did; {@code snapshot_id} is null when nothing qualified. */
    public static final String OUTPUT =
            "ROW<files_written BIGINT, files_rewritten BIGINT, bytes_rewritten BIGINT,"
                    + " bytes_written BIGINT, snapshot_id BIGINT, rewrite_subtasks BIGINT>";

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
        return job().run(env, bytes(plan.get()), parallelism);
    }

    /** Adds the job of {@code plan} to {@code env}; its one output is the result. */
    DataStream<Row> build(StreamExecutionEnvironment env, DataEvolutionCompaction.Plan plan) {
        return job().build(env, bytes(plan), parallelism);
    }

    private RewriteJob<DataEvolutionCompaction.Plan> job() {
        return new RewriteJob<>(store, new Compaction(), "compaction");
    }

    private static MaintenancePlanBytes bytes(DataEvolutionCompaction.Plan plan) {
        return new MaintenancePlanBytes(plan.snapshotId(), plan.schemaId(), plan.tasks());
    }

    /** A bin's payload is its compacted file's entry. */
    private static final class Compaction implements Rewrite<DataEvolutionCompaction.Plan> {

        private static final long serialVersionUID = 1L;

        @Override
        public DataEvolutionCompaction.Plan plan(MaintenancePlanBytes bytes) {
            return bytes.plan(DataEvolutionCompaction.Plan::new);
        }

        @Override
        public TaskRewriter open(
                TableStore store, DataEvolutionCompaction.Plan plan, MetricGroup metrics) {
            RangeRewriter rewriter = RangeRewriter.of(store, plan);
            return task -> CompactionTaskCodec.toBytes(rewriter.rewrite(plan.tasks().get(task)));
        }

        @Override
        public Row commit(
                TableStore store,
                String commitUser,
                DataEvolutionCompaction.Plan plan,
                List<byte[]> payloads,
                int rewriteSubtasks) {
            List<ManifestEntry> files = new ArrayList<>();
            for (byte[] file : payloads) {
                if (file != null) {
                    files.add(CompactionTaskCodec.entryFromBytes(file));
                }
            }
            DataEvolutionCompaction.Result result =
                    new DataEvolutionCompaction(store)
                            .commit(commitUser, RewriteJob.COMMIT_IDENTIFIER, plan, files);
            return Row.of(
                    (long) result.tasks(),
                    (long) result.filesRewritten(),
                    result.bytesRewritten(),
                    result.bytesWritten(),
                    result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null,
                    (long) rewriteSubtasks);
        }
    }
}
