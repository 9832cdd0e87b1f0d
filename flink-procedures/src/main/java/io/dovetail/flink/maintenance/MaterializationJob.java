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
import io.dovetail.table.maintenance.CompactionTaskCodec;
import io.dovetail.table.maintenance.DeletionVectorMaterialization;
import io.dovetail.table.manifest.ManifestEntry;

import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.Row;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Deletion-vector materialization ({@link DeletionVectorMaterialization}, semantics §8.4) as a
 * distributed Flink batch job ({@link RewriteJob}): every group of the selected partitions with a
 * deletion vector is one task; a rewriter writes one non-rolling file of each group's surviving
 * rows (all columns, vectors applied) and counts the groups and rows done ({@code groupsRewritten},
 * {@code rowsKept} metrics: the job's progress); the committer removes the groups' files and
 * vectors and adds the survivors with new row ids in row order, as one COMPACT snapshot.
 *
 * <p>A concurrent delete or column update of a rewritten group fails the commit and leaves the
 * table as it was; a job that fails before its commit leaves the files already written unreferenced
 * in the table directory ({@code remove_orphan_files} deletes them).
 */
public final class MaterializationJob {

    /** The result row: what the job did; {@code snapshot_id} is null when no group qualified. */
    public static final String OUTPUT =
            "ROW<groups_rewritten BIGINT, rows_kept BIGINT, rows_removed BIGINT, files_written"
                    + " BIGINT, files_removed BIGINT, snapshot_id BIGINT>";

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
        return new RewriteJob<>(store, new Materialization(), "materialization")
                .run(
                        env,
                        new MaintenancePlanBytes(
                                plan.get().snapshotId(),
                                plan.get().schemaId(),
                                plan.get().groups()),
                        parallelism);
    }

    private static Row row(DeletionVectorMaterialization.Result result) {
        return Row.of(
                (long) result.groupsRewritten(),
                result.rowsKept(),
                result.rowsRemoved(),
                (long) result.filesWritten(),
                (long) result.filesRemoved(),
                result.snapshotId().isPresent() ? result.snapshotId().getAsLong() : null);
    }

    /** A group's payload is its rows kept and its written files' entries. */
    private static final class Materialization
            implements Rewrite<DeletionVectorMaterialization.Plan> {

        private static final long serialVersionUID = 1L;

        @Override
        public DeletionVectorMaterialization.Plan plan(MaintenancePlanBytes bytes) {
            return bytes.plan(DeletionVectorMaterialization.Plan::new);
        }

        @Override
        public TaskRewriter open(
                TableStore store, DeletionVectorMaterialization.Plan plan, MetricGroup metrics) {
            DeletionVectorMaterialization.Rewriter rewriter =
                    new DeletionVectorMaterialization(store).rewriter(plan);
            Counter groupsRewritten = metrics.counter("groupsRewritten");
            Counter rowsKept = metrics.counter("rowsKept");
            return group -> {
                DeletionVectorMaterialization.Rewritten rewritten =
                        rewriter.rewrite(plan.groups().get(group));
                groupsRewritten.inc();
                rowsKept.inc(rewritten.rowsKept());
                return toBytes(rewritten);
            };
        }

        @Override
        public Row commit(
                TableStore store,
                String commitUser,
                DeletionVectorMaterialization.Plan plan,
                List<byte[]> payloads,
                int rewriteSubtasks) {
            List<DeletionVectorMaterialization.Rewritten> done = new ArrayList<>();
            for (byte[] group : payloads) {
                if (group != null) {
                    done.add(fromBytes(group));
                }
            }
            return row(
                    new DeletionVectorMaterialization(store)
                            .commit(commitUser, RewriteJob.COMMIT_IDENTIFIER, plan, done));
        }

        private static byte[] toBytes(DeletionVectorMaterialization.Rewritten rewritten) {
            DataOutputSerializer out = new DataOutputSerializer(256);
            try {
                out.writeLong(rewritten.rowsKept());
                out.writeInt(rewritten.files().size());
                for (ManifestEntry file : rewritten.files()) {
                    byte[] entry = CompactionTaskCodec.toBytes(file);
                    out.writeInt(entry.length);
                    out.write(entry);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.getCopyOfBuffer();
        }

        private static DeletionVectorMaterialization.Rewritten fromBytes(byte[] bytes) {
            DataInputDeserializer in = new DataInputDeserializer(bytes);
            try {
                long rowsKept = in.readLong();
                List<ManifestEntry> files = new ArrayList<>();
                for (int n = in.readInt(); n > 0; n--) {
                    byte[] entry = new byte[in.readInt()];
                    in.readFully(entry);
                    files.add(CompactionTaskCodec.entryFromBytes(entry));
                }
                return new DeletionVectorMaterialization.Rewritten(files, rowsKept);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
