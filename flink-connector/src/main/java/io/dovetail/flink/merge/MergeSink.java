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
package io.dovetail.flink.merge;

import io.dovetail.flink.dml.DeletionVectorsWriter;
import io.dovetail.flink.dml.GroupPartitioner;
import io.dovetail.flink.dml.SortedChanges;
import io.dovetail.flink.dml.StaleRowIds;
import io.dovetail.flink.sink.CommitTopology;
import io.dovetail.flink.sink.Committable;
import io.dovetail.flink.sink.SinkOptions;
import io.dovetail.table.error.Errors;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the outcome of a merge into a Dovetail table as one atomic commit. Input rows are {@code
 * _ROW_ID} (BIGINT, of the base snapshot's rows; NULL for inserts), an action (TINYINT, an action
 * code of {@link MergeContract}), the new values of the updated columns (in the order given), then,
 * if the merge inserts, the values of a new row (every column of the schema, in order):
 *
 * <pre>
 *                 ┌─ UPDATE / DELETE ─by group─▶ [sort by _ROW_ID × p] ─▶ [merge writer × p] ─────┐
 *   rows ─▶ [router]  (balanced)       spilling sort,         duplicates and stale ids     │
 *                 │                    managed memory         checked; one partial-column  │
 *                 │                                           file per touched group       │
 *                 │                       deleted row ids ─by table partition─▶ [DV writer × p]
 *                 │                                           index files ─────────────────┤
 *                 └─ INSERT ─rebalance─▶ [append writer × p] ── new files ──────────────────┤
 *                                                                                          ▼
 *                            (CommitTopology) [committer × 1] one snapshot on the base: column
 *                                              update + appends + deletion vectors, conflict-
 *                                              checked and rebased onto concurrent compactions
 * </pre>
 *
 * The router counts every action in accumulators ({@link MergeContract#ACCUMULATORS}); rows whose
 * action is {@link MergeContract#MATCHED_NO_ACTION} or {@link MergeContract#NOT_MATCHED_NO_ACTION}
 * are only counted. Batch jobs only.
 */
public final class MergeSink {

    private final TablePaths table;
    private final TableSchema schema;
    private final long baseSnapshotId;
    private final List<String> updatedColumns;
    private final boolean inserts;
    private StaleRowIds onStale = StaleRowIds.ERROR;
    private boolean deletes = true;
    @Nullable private Integer parallelism;
    private final String commitUser;

    /**
     * A merge into {@code table} planned on snapshot {@code baseSnapshotId} (-1 for an empty table,
     * which can only get inserts), updating {@code updatedColumns}; {@code inserts} says whether
     * the rows carry new rows' values.
     */
    public MergeSink(
            TablePaths table,
            TableSchema schema,
            long baseSnapshotId,
            List<String> updatedColumns,
            boolean inserts,
            String commitUser) {
        this.table = table;
        this.schema = schema;
        this.baseSnapshotId = baseSnapshotId;
        this.updatedColumns = List.copyOf(updatedColumns);
        this.inserts = inserts;
        this.commitUser = commitUser;
    }

    public MergeSink onStaleRowIds(StaleRowIds onStale) {
        this.onStale = onStale;
        return this;
    }

    /**
     * Whether the merge may delete rows; without deletes the job has no deletion-vector writers.
     */
    public MergeSink deletes(boolean deletes) {
        this.deletes = deletes;
        return this;
    }

    /** Writer parallelism; null keeps the input's. */
    public MergeSink parallelism(@Nullable Integer parallelism) {
        this.parallelism = parallelism;
        return this;
    }

    public DataStreamSink<?> build(DataStream<RowData> rows) {
        requireBatch(rows);
        String name = table.root().getName();
        int writers = parallelism != null ? parallelism : rows.getParallelism();
        List<LogicalType> rowTypes =
                schema.fields().stream().map(f -> FlinkTypes.toFlink(f.type())).toList();
        OutputTag<RowData> newRows =
                new OutputTag<>(
                        "dovetail-merge-inserts",
                        InternalTypeInfo.ofFields(rowTypes.toArray(LogicalType[]::new)));
        SingleOutputStreamOperator<RowData> routed =
                rows.process(new Router(newRows, 2 + updatedColumns.size(), rowTypes))
                        .returns(rows.getType())
                        .name("Dovetail merge router: " + name)
                        .setParallelism(rows.getParallelism());
        DataStream<Committable> committables = null;
        if (baseSnapshotId > 0) {
            committables =
                    withDeletionVectors(
                            SortedChanges.byGroup(
                                            routed,
                                            new GroupPartitioner(table, baseSnapshotId),
                                            writers,
                                            name)
                                    .transform(
                                            "Dovetail merge writer: " + name,
                                            CommitTopology.committables(),
                                            new MergeWriter(
                                                    table, baseSnapshotId, updatedColumns, onStale))
                                    .setParallelism(writers));
        }
        if (inserts) {
            DataStream<Committable> appended =
                    CommitTopology.appendWriters(
                                    routed.getSideOutput(newRows).rebalance(),
                                    table,
                                    schema.id(),
                                    Map.of(),
                                    SinkOptions.MAX_OPEN_PARTITIONS.defaultValue())
                            .setParallelism(writers);
            committables = committables == null ? appended : committables.union(appended);
        }
        if (committables == null) { // an empty target and no inserts: only counting
            return routed.sinkTo(new DiscardingSink<>()).name("end");
        }
        return committed(committables);
    }

    /**
     * Builds the sink of a merge that only changes matched rows and joins on equal columns, as a
     * broadcast key join: {@code sourceRows} are the join key (the values of the target's {@code
     * keyColumns}, of their types), the action ({@link MergeContract#UPDATE}, {@link
     * MergeContract#DELETE} or {@link MergeContract#MATCHED_NO_ACTION}) and the new values of the
     * updated columns. Every writer holds the whole source by key and joins the target rows of its
     * own groups as it reads their key columns, so neither the target nor the matches are shuffled:
     *
     * <pre>
     *   source rows ─▶ [number] ─broadcast─▶ [key join writer × p] ─ partial-column files, ─▶ [committer × 1]
     *                                         reads the keys of       deleted rows
     *                                         its groups @ base
     * </pre>
     *
     * Each writer holds every source row in memory: for sources small next to a writer's heap. A
     * writer whose copy outgrows twice {@code maxSourceSize} fails the job without restarts, before
     * anything is written ({@link io.dovetail.table.error.SourceTooLargeToBroadcast}). The job runs
     * with object reuse (the rows are copied where they are held).
     */
    public DataStreamSink<?> buildBroadcastKeyJoin(
            DataStream<RowData> sourceRows, List<String> keyColumns, MemorySize maxSourceSize) {
        requireBatch(sourceRows);
        if (baseSnapshotId <= 0 || inserts) {
            throw new IllegalStateException("A broadcast key join changes existing rows only.");
        }
        String name = table.root().getName();
        // every writer deserializes every source row: into one reused row, not one object each
        sourceRows.getExecutionEnvironment().getConfig().enableObjectReuse();
        List<LogicalType> keyTypes = columnTypes(schema, keyColumns);
        List<LogicalType> numberedTypes = new ArrayList<>(keyTypes);
        numberedTypes.add(new TinyIntType());
        numberedTypes.addAll(columnTypes(schema, updatedColumns));
        numberedTypes.add(new BigIntType(false));
        SingleOutputStreamOperator<Committable> writers =
                sourceRows
                        .map(new SourceRowNumbers())
                        .returns(
                                InternalTypeInfo.ofFields(
                                        numberedTypes.toArray(LogicalType[]::new)))
                        .name("Dovetail merge source rows: " + name)
                        .setParallelism(sourceRows.getParallelism())
                        .broadcast()
                        .transform(
                                "Dovetail merge key join writer: " + name,
                                CommitTopology.committables(),
                                new BroadcastKeyJoinWriter(
                                        table,
                                        baseSnapshotId,
                                        keyColumns,
                                        keyTypes,
                                        updatedColumns,
                                        numberedTypes,
                                        maxSourceSize.getBytes()))
                        .setParallelism(
                                parallelism != null ? parallelism : sourceRows.getParallelism());
        return committed(withDeletionVectors(writers));
    }

    /**
     * The committables of {@code writers} and, if the merge deletes, the deletion vectors of the
     * rows they delete ({@link DeletionVectorsWriter#DELETED_ROW_IDS}), written by as many
     * deletion-vector writers, each owning whole table partitions.
     */
    private DataStream<Committable> withDeletionVectors(
            SingleOutputStreamOperator<Committable> writers) {
        if (!deletes) {
            return writers;
        }
        return writers.union(
                DeletionVectorsWriter.deletes(
                        writers.getSideOutput(DeletionVectorsWriter.DELETED_ROW_IDS),
                        table,
                        baseSnapshotId,
                        writers.getParallelism()));
    }

    private static void requireBatch(DataStream<RowData> rows) {
        if (!CommitTopology.isBatch(rows.getExecutionEnvironment())) {
            throw Errors.unsupported("a merge in streaming mode", "Run it as a batch job");
        }
    }

    /** The types of {@code columns} of {@code schema}, nullable, in the order given. */
    static List<LogicalType> columnTypes(TableSchema schema, List<String> columns) {
        return columns.stream()
                .map(c -> FlinkTypes.toFlink(schema.field(c).orElseThrow().type()).copy(true))
                .toList();
    }

    private DataStreamSink<?> committed(DataStream<Committable> committables) {
        return CommitTopology.commit(
                committables,
                table,
                commitUser,
                null,
                true,
                null, // MergeJob holds the pin of the base
                role -> "dovetail-merge-" + role);
    }

    /**
     * Counts the source rows and appends to each a number unique in the job (the subtask index in
     * the high bits), by which the writers tell which source rows matched.
     */
    private static final class SourceRowNumbers extends RichMapFunction<RowData, RowData> {

        private static final long serialVersionUID = 1L;

        private transient LongCounter rows;
        private transient long next;

        @Override
        public void open(OpenContext context) {
            rows = new LongCounter();
            getRuntimeContext().addAccumulator(MergeContract.SOURCE_ROWS, rows);
            next = (long) getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() << 40;
        }

        @Override
        public RowData map(RowData row) {
            rows.add(1L);
            return new JoinedRowData(row, GenericRowData.of(next++));
        }
    }

    /** Counts each row's action; sends changes of existing rows on and new rows to the side. */
    private static final class Router extends ProcessFunction<RowData, RowData> {

        private static final long serialVersionUID = 1L;

        private final OutputTag<RowData> newRows;
        private final int newRowOffset;
        private final List<LogicalType> rowTypes;

        private transient LongCounter[] counts;
        private transient RowData.FieldGetter[] newRowGetters;

        Router(OutputTag<RowData> newRows, int newRowOffset, List<LogicalType> rowTypes) {
            this.newRows = newRows;
            this.newRowOffset = newRowOffset;
            this.rowTypes = rowTypes;
        }

        @Override
        public void open(OpenContext context) {
            counts = new LongCounter[MergeContract.ACCUMULATORS.size()];
            for (int action = 1; action < counts.length; action++) {
                counts[action] = new LongCounter();
                getRuntimeContext()
                        .addAccumulator(MergeContract.ACCUMULATORS.get(action), counts[action]);
            }
            newRowGetters = new RowData.FieldGetter[rowTypes.size()];
            for (int i = 0; i < newRowGetters.length; i++) {
                newRowGetters[i] = RowData.createFieldGetter(rowTypes.get(i), newRowOffset + i);
            }
        }

        @Override
        public void processElement(RowData row, Context context, Collector<RowData> out) {
            byte action = row.getByte(1);
            if (action < 1 || action >= counts.length) {
                throw Errors.invalidArgument("Unknown merge action " + action + ".");
            }
            counts[action].add(1L);
            if (action == MergeContract.UPDATE
                    || action == MergeContract.DELETE
                    || action == MergeContract.DELETE_NOT_MATCHED_BY_SOURCE) {
                out.collect(row);
            } else if (action == MergeContract.INSERT) {
                GenericRowData newRow = new GenericRowData(newRowGetters.length);
                for (int i = 0; i < newRowGetters.length; i++) {
                    newRow.setField(i, newRowGetters[i].getFieldOrNull(row));
                }
                context.output(newRows, newRow);
            }
        }
    }
}
