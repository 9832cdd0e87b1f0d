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

import io.dovetail.flink.sink.CommitTopology;
import io.dovetail.flink.sink.Committable;
import io.dovetail.flink.sink.SinkOptions;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.SnapshotPins;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Builds the topology of a row-level write by {@code _ROW_ID}, committed by {@link CommitTopology}.
 * A batch column update takes {@code _ROW_ID} followed by the new values of the updated columns,
 * and a batch delete takes {@code _ROW_ID}s, both of rows of a pinned base snapshot:
 *
 * <pre>
 *   updates ──by group (balanced)──▶ [sort by _ROW_ID × p] ──▶ [column-update writer × p]
 *             managed memory, spills     one partial-column file per touched group, written
 *                                        as the sorted updates stream past it
 *     ──global──▶ [committer × 1] column update on the base (conflict checks, rebase onto
 *                                 compactions)
 *   deletes ──by table partition──▶ [deletion-vector writer × p] ──index files, global──▶
 *                                    the anchor rule; one writer      [committer × 1]
 *                                    per partition's index files
 * </pre>
 *
 * A stream of column updates ({@link #forStreamingColumnUpdates}) takes the same rows, of any
 * snapshot: a router keys each by its group in the table's current layout (learning appends as they
 * come, a compaction's merged groups at the next barrier), each writer holds its groups' updates
 * (last one per row id wins) and writes them before each checkpoint barrier, or earlier when they
 * outgrow its buffer, against the latest snapshot; one column update per checkpoint ({@link
 * StreamingColumnUpdateWriter}), merged row by row where other commits overtook it:
 *
 * <pre>
 *   updates ──▶ [router: group key] ──by group key──▶ [streaming column-update writer × p]
 *     ──global──▶ [committer × 1] column update on the latest snapshot
 * </pre>
 *
 * In a batch job the same sink runs like the batch column update, on the latest snapshot when the
 * job is built (pinned): sorted by {@code _ROW_ID} and then by arrival in front of each writer,
 * which keeps the last update of a row id.
 */
public final class RowLevelSink {

    /** The operator uid role of the router of streaming column updates. */
    static final String ROUTER = "router";

    private enum Kind {
        COLUMN_UPDATE,
        COLUMN_UPDATE_STREAM,
        DELETE
    }

    private final Kind kind;
    private final TablePaths table;
    private final long baseSnapshotId;
    private final List<String> updatedColumns;
    @Nullable private Integer parallelism;
    private boolean boundedInput;
    private long bufferBytes = SinkOptions.COLUMN_UPDATES_BUFFER_SIZE.defaultValue().getBytes();
    private Function<String, String> uids = name -> null;

    private RowLevelSink(
            Kind kind, TablePaths table, long baseSnapshotId, List<String> updatedColumns) {
        this.kind = kind;
        this.table = table;
        this.baseSnapshotId = baseSnapshotId;
        this.updatedColumns = List.copyOf(updatedColumns);
    }

    /**
     * A sink of batch updates of {@code columns} of rows of snapshot {@code baseSnapshotId}: rows
     * are {@code _ROW_ID} followed by the new values, in the order of {@code columns}.
     */
    public static RowLevelSink forColumnUpdate(
            TablePaths table, long baseSnapshotId, List<String> columns) {
        return new RowLevelSink(Kind.COLUMN_UPDATE, table, baseSnapshotId, columns);
    }

    /**
     * A sink of a stream of updates of {@code columns}: rows are {@code _ROW_ID} followed by the
     * new values, in the order of {@code columns}, of rows of whatever snapshot is the latest when
     * they arrive (row ids appended meanwhile included). Each checkpoint commits the updates
     * received before it, exactly once; of two updates of one row id the one reaching its writer
     * later wins, in one checkpoint or across checkpoints (Flink keeps the order of one upstream
     * path only: updates of a row that take different paths, e.g. after a rebalance, have none). A
     * row id the table does not hold fails the job (nothing of that checkpoint is committed). In a
     * batch job, rows of the latest snapshot when the job is built.
     */
    public static RowLevelSink forStreamingColumnUpdates(TablePaths table, List<String> columns) {
        long latest = TableStore.open(table).snapshots().latestId().orElse(0);
        return new RowLevelSink(Kind.COLUMN_UPDATE_STREAM, table, latest, columns);
    }

    /**
     * A sink of batch deletes of rows of snapshot {@code baseSnapshotId}, given by {@code _ROW_ID}.
     */
    public static RowLevelSink forDelete(TablePaths table, long baseSnapshotId) {
        return new RowLevelSink(Kind.DELETE, table, baseSnapshotId, List.of());
    }

    /** Writer parallelism; null keeps the input's. */
    public RowLevelSink parallelism(@Nullable Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    /** Whether the input ends (a bounded streaming job then commits its last data at the end). */
    public RowLevelSink boundedInput(boolean bounded) {
        this.boundedInput = bounded;
        return this;
    }

    /**
     * Heap a streaming column-update writer holds updates in before it writes them out ahead of the
     * next checkpoint.
     */
    public RowLevelSink bufferBytes(long bytes) {
        this.bufferBytes = bytes;
        return this;
    }

    /** Stable operator uids by role (for savepoint compatibility); null for none. */
    public RowLevelSink uids(Function<String, String> uids) {
        this.uids = uids;
        return this;
    }

    public DataStreamSink<?> build(DataStream<RowData> rows) {
        boolean atEnd =
                CommitTopology.commitsAtEndOfInput(
                        rows.getExecutionEnvironment(), boundedInput, table);
        boolean batch = CommitTopology.isBatch(rows.getExecutionEnvironment());
        if (kind != Kind.COLUMN_UPDATE_STREAM && !batch) {
            throw Errors.unsupported(
                    "row-level updates and deletes in streaming mode",
                    "Run them as batch jobs ('execution.runtime-mode' = 'batch')");
        }
        SingleOutputStreamOperator<Committable> writers = writers(rows, batch);
        writers.setParallelism(writers(rows));
        CommitTopology.uid(writers, CommitTopology.WRITER, uids);
        String commitUser = "dovetail-" + UUID.randomUUID();
        boolean pinned = baseSnapshotId >= 1 && (batch || kind != Kind.COLUMN_UPDATE_STREAM);
        String pin = pinned ? pinBase() : null;
        return CommitTopology.commit(writers, table, commitUser, null, atEnd, pin, uids);
    }

    /**
     * Pins the base of a batch update or delete against expiry while the job runs (the committer
     * releases it, also when its commit is refused; a job that fails otherwise holds it until its
     * lease ends). Streaming updates plan on the latest snapshot as they go and pin nothing; nor
     * does a job on an empty table.
     */
    private String pinBase() {
        return new SnapshotPins(table)
                .pinBase(
                        baseSnapshotId,
                        TableStore.open(table).latestSchema().options(),
                        "the "
                                + (kind == Kind.DELETE ? "delete" : "update")
                                + " of "
                                + table.root().getName())
                .id();
    }

    private int writers(DataStream<RowData> rows) {
        return parallelism != null ? parallelism : rows.getParallelism();
    }

    /** Batch column-update writers of {@code sorted} changes (a row id's last wins if told so). */
    private SingleOutputStreamOperator<Committable> columnUpdateWriters(
            DataStream<RowData> sorted, boolean lastWins) {
        return sorted.transform(
                "Dovetail column-update writer: " + table.root().getName(),
                CommitTopology.committables(),
                new ColumnUpdateWriter(table, baseSnapshotId, updatedColumns, lastWins));
    }

    private SingleOutputStreamOperator<Committable> writers(
            DataStream<RowData> rows, boolean batch) {
        String name = table.root().getName();
        switch (kind) {
            case COLUMN_UPDATE:
                return columnUpdateWriters(
                        SortedChanges.byGroup(
                                rows,
                                new GroupPartitioner(table, baseSnapshotId),
                                writers(rows),
                                name),
                        false);
            case COLUMN_UPDATE_STREAM:
                if (batch) {
                    return columnUpdateWriters(
                            SortedChanges.byGroupInArrivalOrder(
                                    rows,
                                    new GroupPartitioner(table, baseSnapshotId),
                                    writers(rows),
                                    name),
                            true);
                }
                SingleOutputStreamOperator<Tuple2<Long, RowData>> keyed =
                        rows.transform(
                                        "Dovetail column-update router: " + name,
                                        new TupleTypeInfo<>(Types.LONG, rows.getType()),
                                        new ColumnUpdateRouter(table))
                                .setParallelism(rows.getParallelism());
                CommitTopology.uid(keyed, ROUTER, uids);
                return keyed.partitionCustom(
                                GroupPartitioner.byGroupKey(table, baseSnapshotId),
                                new GroupPartitioner.GroupKeyOfUpdate())
                        .transform(
                                "Dovetail streaming column-update writer: " + name,
                                CommitTopology.committables(),
                                new StreamingColumnUpdateWriter(
                                        table, updatedColumns, bufferBytes));
            default:
                return DeletionVectorsWriter.deletes(
                        rows, table, baseSnapshotId, rows.getParallelism());
        }
    }
}
