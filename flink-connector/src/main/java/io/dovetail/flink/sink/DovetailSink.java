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
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * Builds the write topology of a Dovetail table. Appends take full rows (all columns of the table's
 * schema, in order):
 *
 * <pre>
 *   rows ──▶ [append writer × p] ──committables, global──▶ [committer × 1] ──▶ (discarding sink)
 *              files per partition,                        one snapshot per checkpoint
 *              handed over before each                     (or per batch job), then
 *              barrier and at end of input                 snapshot expiry
 * </pre>
 *
 * A batch column update takes {@code _ROW_ID} followed by the new values of the updated columns,
 * and a batch delete takes {@code _ROW_ID}s, both of rows of a pinned base snapshot:
 *
 * <pre>
 *   updates ──by group (balanced)──▶ [column-update writer × p] ──global──▶ [committer × 1]
 *                                     sort by _ROW_ID, one partial-     column update on the
 *                                     column file per touched group     base (conflict checks,
 *                                                                       rebase onto compactions)
 *   deletes ──▶ [row-id collector × p] ──bitmaps, global──▶ [committer × 1]
 *                                                          deletion vectors by the anchor rule
 * </pre>
 *
 * A stream of column updates ({@link #forStreamingColumnUpdates}) takes the same rows, of any
 * snapshot: each writer buffers its groups' updates (last one per row id wins) and flushes them
 * before each checkpoint barrier against the latest snapshot, one column update per checkpoint
 * ({@link StreamingColumnUpdateWriter}):
 *
 * <pre>
 *   updates ──by group, following appends──▶ [streaming column-update writer × p] ──global──▶
 *             [committer × 1] column update on the oldest base of the checkpoint's files
 * </pre>
 *
 * The writers run at {@code parallelism} (default: the input's); the committer always at
 * parallelism 1. A streaming job commits on checkpoint completion, its final data included when its
 * input is bounded; a batch job, and a bounded job without checkpointing, commits at the end of
 * input. An unbounded job without checkpointing would never commit and is refused. Each job gets
 * its own commit user, kept in the committer's state across restarts.
 */
public final class DovetailSink {

    private enum Kind {
        APPEND,
        COLUMN_UPDATE,
        STREAMING_COLUMN_UPDATE,
        DELETE
    }

    private final Kind kind;
    private final TablePaths table;
    private final TableSchema schema;
    private final Map<String, String> writeOptions;
    private final long baseSnapshotId;
    private final List<String> updatedColumns;
    @Nullable private Integer parallelism;
    private int maxOpenPartitions = SinkOptions.MAX_OPEN_PARTITIONS.defaultValue();
    @Nullable private OverwriteScope overwrite;
    private boolean boundedInput;
    private Function<String, String> uids = name -> null;

    private DovetailSink(
            Kind kind,
            TablePaths table,
            TableSchema schema,
            Map<String, String> writeOptions,
            long baseSnapshotId,
            List<String> updatedColumns) {
        this.kind = kind;
        this.table = table;
        this.schema = schema;
        this.writeOptions = Map.copyOf(writeOptions);
        this.baseSnapshotId = baseSnapshotId;
        this.updatedColumns = List.copyOf(updatedColumns);
    }

    /**
     * A sink appending rows of {@code schema} to the table at {@code table}; {@code writeOptions}
     * override the table's options for the files written (e.g. {@code target-file-size}).
     */
    public static DovetailSink forRows(
            TablePaths table, TableSchema schema, Map<String, String> writeOptions) {
        return new DovetailSink(Kind.APPEND, table, schema, writeOptions, -1, List.of());
    }

    /**
     * A sink of batch updates of {@code columns} of rows of snapshot {@code baseSnapshotId}: rows
     * are {@code _ROW_ID} followed by the new values, in the order of {@code columns}.
     */
    public static DovetailSink forColumnUpdate(
            TablePaths table, TableSchema schema, long baseSnapshotId, List<String> columns) {
        return new DovetailSink(
                Kind.COLUMN_UPDATE, table, schema, Map.of(), baseSnapshotId, columns);
    }

    /**
     * A sink of a stream of updates of {@code columns}: rows are {@code _ROW_ID} followed by the
     * new values, in the order of {@code columns}, of rows of whatever snapshot is the latest when
     * they arrive (row ids appended meanwhile included). Each checkpoint commits the updates
     * received before it, exactly once; of two updates of one row id the one reaching its writer
     * later wins, in one checkpoint or across checkpoints (Flink keeps the order of one upstream
     * path only: updates of a row that take different paths, e.g. after a rebalance, have none). A
     * row id the table does not hold fails the job (nothing of that checkpoint is committed).
     */
    public static DovetailSink forStreamingColumnUpdates(
            TablePaths table, TableSchema schema, List<String> columns) {
        long latest = TableStore.open(table).snapshots().latestId().orElse(0);
        return new DovetailSink(
                Kind.STREAMING_COLUMN_UPDATE, table, schema, Map.of(), latest, columns);
    }

    /**
     * A sink of batch deletes of rows of snapshot {@code baseSnapshotId}, given by {@code _ROW_ID}.
     */
    public static DovetailSink forDelete(
            TablePaths table, TableSchema schema, long baseSnapshotId) {
        return new DovetailSink(Kind.DELETE, table, schema, Map.of(), baseSnapshotId, List.of());
    }

    /** Writer parallelism; null keeps the input's. */
    public DovetailSink parallelism(@Nullable Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    public DovetailSink maxOpenPartitions(int maxOpenPartitions) {
        this.maxOpenPartitions = maxOpenPartitions;
        return this;
    }

    /** Replaces what {@code scope} selects instead of appending (batch jobs only). */
    public DovetailSink overwrite(@Nullable OverwriteScope scope) {
        this.overwrite = scope;
        return this;
    }

    /** Whether the input ends (a bounded streaming job then commits its last data at the end). */
    public DovetailSink boundedInput(boolean bounded) {
        this.boundedInput = bounded;
        return this;
    }

    /** Stable operator uids by operator name (for savepoint compatibility); null for none. */
    public DovetailSink uids(Function<String, String> uids) {
        this.uids = uids;
        return this;
    }

    public DataStreamSink<?> build(DataStream<RowData> rows) {
        StreamExecutionEnvironment env = rows.getExecutionEnvironment();
        boolean batch =
                env.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        == RuntimeExecutionMode.BATCH;
        boolean checkpointing = env.getCheckpointConfig().isCheckpointingEnabled();
        if (!batch && !checkpointing && !boundedInput) {
            throw Errors.invalidArgument(
                    "A streaming write to the Dovetail table at "
                            + table.root()
                            + " commits when checkpoints complete, but checkpointing is off;"
                            + " set 'execution.checkpointing.interval' (e.g. '10 s').");
        }
        if (overwrite != null && !batch) {
            throw Errors.unsupported(
                    "INSERT OVERWRITE in streaming mode", "Run the overwrite as a batch job");
        }
        if (kind != Kind.APPEND && kind != Kind.STREAMING_COLUMN_UPDATE && !batch) {
            throw Errors.unsupported(
                    "row-level updates and deletes in streaming mode",
                    "Run them as batch jobs ('execution.runtime-mode' = 'batch')");
        }
        int writers = parallelism != null ? parallelism : rows.getParallelism();
        String commitUser = "dovetail-" + UUID.randomUUID();
        SingleOutputStreamOperator<Committable> committables = writers(rows, commitUser);
        committables.setParallelism(writers);
        uid(committables, "writer");
        SingleOutputStreamOperator<Void> committed =
                committables
                        .global()
                        .transform(
                                "Dovetail committer: " + table.root().getName(),
                                Types.VOID,
                                new CommitterOperator(
                                        table, commitUser, overwrite, batch || !checkpointing))
                        .setParallelism(1)
                        .setMaxParallelism(1);
        uid(committed, "committer");
        DataStreamSink<Void> end =
                committed.sinkTo(new DiscardingSink<>()).name("end").setParallelism(1);
        String endUid = uids.apply("end");
        if (endUid != null) {
            end.uid(endUid);
        }
        return end;
    }

    private SingleOutputStreamOperator<Committable> writers(
            DataStream<RowData> rows, String commitUser) {
        String name = table.root().getName();
        switch (kind) {
            case COLUMN_UPDATE:
                return rows.partitionCustom(
                                new GroupPartitioner(table, baseSnapshotId),
                                new GroupPartitioner.RowIdOfUpdate())
                        .transform(
                                "Dovetail column-update writer: " + name,
                                new CommittableTypeInfo(),
                                new ColumnUpdateWriter(table, baseSnapshotId, updatedColumns));
            case STREAMING_COLUMN_UPDATE:
                return rows.partitionCustom(
                                GroupPartitioner.followingAppends(table, baseSnapshotId),
                                new GroupPartitioner.RowIdOfUpdate())
                        .transform(
                                "Dovetail streaming column-update writer: " + name,
                                new CommittableTypeInfo(),
                                new StreamingColumnUpdateWriter(table, updatedColumns, commitUser));
            case DELETE:
                return rows.transform(
                        "Dovetail deleted-rows collector: " + name,
                        new CommittableTypeInfo(),
                        new DeletedRowsCollector(baseSnapshotId));
            default:
                return rows.transform(
                        "Dovetail writer: " + name,
                        new CommittableTypeInfo(),
                        new AppendWriterOperator(
                                table, schema.id(), writeOptions, maxOpenPartitions));
        }
    }

    private void uid(SingleOutputStreamOperator<?> operator, String name) {
        String uid = uids.apply(name);
        if (uid != null) {
            operator.uid(uid);
        }
    }
}
