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
import io.dovetail.table.maintenance.DeletionVectorMaterialization;
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
 * Deletion-vector materialization ({@link DeletionVectorMaterialization}, semantics §8.4) as a
 * distributed Flink batch job. Planning runs where the job is built: the latest snapshot is pinned
 * and every group of the selected partitions with a deletion vector becomes one task; the plan
 * travels with the rewriters and the committer ({@link MaintenancePlanBytes}), the tasks as group
 * indexes:
 *
 * <pre>
 *   [groups × 1] ──rebalance──▶ [rewriter × min(groups, p)] ──global──▶ [committer × 1] ──▶ result row
 *    the planned groups'        plans the groups' read on the pinned    one COMPACT snapshot: the
 *    indexes                    snapshot once, then writes one non-     groups' files and vectors
 *                               rolling file of each group's surviving  removed, survivors added
 *                               rows (all columns, vectors applied)     with new row ids in row order
 * </pre>
 *
 * The rewriters count the groups and rows they have written ({@code groupsRewritten}, {@code
 * rowsKept} metrics): the job's progress. A concurrent delete or column update of a rewritten group
 * fails the commit and leaves the table as it was; a job that fails before its commit leaves the
 * files already written unreferenced in the table directory ({@code remove_orphan_files} deletes
 * them).
 */
public final class MaterializationJob {

    /** The result row: what the job did; {@code snapshot_id} is null when no group qualified. */
    public static final String OUTPUT =
            "ROW<groups_rewritten BIGINT, rows_kept BIGINT, rows_removed BIGINT, files_written"
                    + " BIGINT, files_removed BIGINT, snapshot_id BIGINT>";

    static final long COMMIT_IDENTIFIER = CommitRequest.BATCH_IDENTIFIER;

    private static final TypeInformation<Row> ROW_TYPE =
            Types.ROW(Types.LONG, Types.LONG, Types.LONG, Types.LONG, Types.LONG, Types.LONG);

    private final TableStore store;
    private final Predicate<RowData> partitions;
    private final int parallelism;

    /**
     * A job materializing the deletion vectors of the partitions of {@code store} that pass {@code
     * partitions}, with at most {@code parallelism} rewriters.
     */
    public MaterializationJob(TableStore store, Predicate<RowData> partitions, int parallelism) {
        if (parallelism < 1) {
            throw Errors.invalidArgument(
                    "A materialization job needs a parallelism of at least 1, got "
                            + parallelism
                            + ".");
        }
        this.store = store;
        this.partitions = partitions;
        this.parallelism = parallelism;
    }

    /** Plans, and unless no group qualifies runs the job in {@code env}; returns its result row. */
    public Row run(StreamExecutionEnvironment env) throws Exception {
        Optional<DeletionVectorMaterialization.Plan> plan =
                new DeletionVectorMaterialization(store).plan(partitions);
        if (plan.isEmpty()) {
            return row(DeletionVectorMaterialization.Result.NOTHING);
        }
        DataStream<Row> result = build(env, plan.get());
        try (SnapshotPins.Pin pin =
                        new SnapshotPins(store.paths())
                                .pinBase(
                                        plan.get().snapshotId(),
                                        store.latestSchema().options(),
                                        "the materialization of "
                                                + store.paths().root().getName());
                CloseableIterator<Row> rows =
                        result.executeAndCollect(
                                "Dovetail materialize deletion vectors "
                                        + store.paths().root().getName())) {
            return rows.next();
        }
    }

    private DataStream<Row> build(
            StreamExecutionEnvironment env, DeletionVectorMaterialization.Plan plan) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        MaintenancePlanBytes planned =
                new MaintenancePlanBytes(plan.snapshotId(), plan.schemaId(), plan.groups());
        List<Integer> groups = IntStream.range(0, planned.taskCount()).boxed().toList();
        String name = store.paths().root().getName();
        return env.fromData(groups, Types.INT)
                .name("Dovetail groups with deletion vectors: " + name)
                .setParallelism(1)
                .rebalance()
                .map(new MaterializationRewriter(store.paths(), planned))
                .returns(MaterializationRewriter.OUTPUT)
                .name("Dovetail materialization rewriter: " + name)
                .setParallelism(Math.min(plan.groups().size(), parallelism))
                .global()
                .transform(
                        "Dovetail materialization committer: " + name,
                        ROW_TYPE,
                        new MaterializationCommitter(
                                store.paths(),
                                "dovetail-materialize-" + UUID.randomUUID(),
                                planned))
                .setParallelism(1)
                .setMaxParallelism(1);
    }

    static Row row(DeletionVectorMaterialization.Result result) {
        return Row.of(
                (long) result.groupsRewritten(),
                result.rowsKept(),
                result.rowsRemoved(),
                (long) result.filesWritten(),
                (long) result.filesRemoved(),
                result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    }
}
