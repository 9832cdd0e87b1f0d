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
import io.dovetail.flink.merge.keyjoin.MatchedSourceRows;
import io.dovetail.flink.merge.keyjoin.SourceRowsByKey;
import io.dovetail.flink.sink.Committable;
import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.read.FileGroup;
import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * A writer of a broadcast key join merge ({@link MergeSink#buildBroadcastKeyJoin}). Every writer
 * takes every source row (join key, action, new values, source row number) and holds them by key
 * ({@link SourceRowsByKey}). At the end of input it reads the join key columns of the base
 * snapshot's row-range groups it owns ({@link GroupPartitioner#groupsOf}: balanced by row counts),
 * rows hidden by deletion vectors left out, and looks each key up: the matches stream in row-id
 * order straight into {@link ColumnUpdater} (one non-rolling partial-column file per touched group,
 * nothing buffered), matched deletes go on to the deletion-vector writers ({@link
 * DeletionVectorsWriter#DELETED_ROW_IDS}) as they are found. A target row whose key two source rows
 * have fails the job naming both. The target is never shuffled.
 *
 * <p>The planner only estimates the source's size. A writer whose copy of the source outgrows twice
 * the planned limit, or half its slot's share of the heap, stops the job before anything is written
 * ({@link io.dovetail.table.error.SourceTooLargeToBroadcast}), and the merge reruns as a SQL join.
 */
final class BroadcastKeyJoinWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long baseSnapshotId;
    private final List<String> keyColumns;
    private final LogicalType[] keyTypes;
    private final List<String> columns;
    private final LogicalType[] rowTypes; // the keys, action, new values, source row number
    private final long maxSourceBytes;

    private transient SourceRowsByKey rows;
    private transient RowDataSerializer rowSerializer;
    private transient long heapBudget;
    private transient LongCounter[] counts;
    private transient MatchedSourceRows matchedSourceRows;

    BroadcastKeyJoinWriter(
            TablePaths table,
            long baseSnapshotId,
            List<String> keyColumns,
            List<LogicalType> keyTypes,
            List<String> columns,
            List<LogicalType> rowTypes,
            long maxSourceBytes) {
        this.table = TableLoader.of(table);
        this.baseSnapshotId = baseSnapshotId;
        this.keyColumns = List.copyOf(keyColumns);
        this.keyTypes = keyTypes.toArray(LogicalType[]::new);
        this.columns = List.copyOf(columns);
        this.rowTypes = rowTypes.toArray(LogicalType[]::new);
        this.maxSourceBytes = maxSourceBytes;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rows = SourceRowsByKey.of(List.of(keyTypes));
        rowSerializer = new RowDataSerializer(rowTypes);
        int slots =
                getContainingTask()
                        .getEnvironment()
                        .getTaskManagerInfo()
                        .getConfiguration()
                        .get(TaskManagerOptions.NUM_TASK_SLOTS);
        heapBudget =
                BroadcastBudget.writerBudget(
                        maxSourceBytes, Runtime.getRuntime().maxMemory(), slots);
        counts = new LongCounter[MergeContract.ACCUMULATORS.size()];
        for (byte action :
                new byte[] {
                    MergeContract.UPDATE, MergeContract.DELETE, MergeContract.MATCHED_NO_ACTION
                }) {
            counts[action] = new LongCounter();
            getRuntimeContext()
                    .addAccumulator(MergeContract.ACCUMULATORS.get(action), counts[action]);
        }
        matchedSourceRows = new MatchedSourceRows();
        getRuntimeContext().addAccumulator(MergeContract.MATCHED_SOURCE_ROWS, matchedSourceRows);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        for (int i = 0; i < keyTypes.length; i++) {
            if (row.isNullAt(i)) {
                return; // a NULL key equals nothing
            }
        }
        rows.add(rowSerializer.toBinaryRow(row)); // the row as it came, if binary
        if (rows.heapBytes() > heapBudget) {
            // no restarts: every attempt would fail the same way; MergeJob reruns as a SQL join
            throw new SuppressRestartsException(
                    Errors.sourceTooLargeToBroadcast(rows.size(), rows.heapBytes(), heapBudget));
        }
    }

    @Override
    public void endInput() {
        if (rows.size() == 0) {
            return;
        }
        TableStore store = table.open();
        Snapshot base = store.snapshots().snapshot(baseSnapshotId);
        Matches matches = new Matches(store, base);
        try (matches) {
            if (columns.isEmpty()) {
                matches.forEachRemaining(update -> {});
            } else {
                List<ManifestEntry> files = ColumnUpdater.on(store, base, columns).write(matches);
                if (!files.isEmpty()) {
                    output.collect(
                            new StreamRecord<>(new Committable.ColumnFiles(baseSnapshotId, files)));
                }
            }
        }
        matches.addMatchedSourceRows(matchedSourceRows);
    }

    /**
     * The updates of this writer's groups, in row-id order, found as their join keys are read;
     * matched deletes are sent on the side. An update's values are a view, valid until the next one
     * is pulled.
     */
    private final class Matches implements Iterator<RowUpdate>, AutoCloseable {

        private final GenericRowData deleted = new GenericRowData(1);
        private final long[] matched = new long[(rows.size() + 63) / 64]; // by entry
        private final ReadPlan plan;
        private final Iterator<FileGroup> groups;
        private final BinaryRowData sourceRow = new BinaryRowData(rowTypes.length);
        private final ProjectedRowData newValues =
                ProjectedRowData.from(
                        IntStream.rangeClosed(1, columns.size())
                                .map(i -> keyTypes.length + i)
                                .toArray());
        @Nullable private SplitReader reader;
        @Nullable private ReadBatch batch;
        private int next;
        @Nullable private RowUpdate pending;

        Matches(TableStore store, Snapshot base) {
            List<String> read = new ArrayList<>(keyColumns);
            read.add(SystemFields.ROW_ID.name());
            plan =
                    new ReadPlanner(store)
                            .plan(
                                    base,
                                    ReadRequest.allColumns(store.latestSchema())
                                            .withColumns(read.toArray(String[]::new)));
            List<FileGroup> all =
                    plan.splits().stream().flatMap(split -> split.groups().stream()).toList();
            Set<Long> owned = // balanced over the writers, from the plan: no second manifest read
                    GroupPartitioner.groupsOf(
                            getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                            getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks(),
                            all.stream()
                                    .map(g -> new long[] {g.range().first(), g.range().last()})
                                    .toList());
            groups =
                    all.stream()
                            .filter(group -> owned.contains(group.range().first()))
                            .sorted(Comparator.comparingLong(group -> group.range().first()))
                            .iterator();
        }

        @Override
        public boolean hasNext() {
            if (pending == null) {
                pending = advance();
            }
            return pending != null;
        }

        @Override
        public RowUpdate next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            RowUpdate update = pending;
            pending = null;
            return update;
        }

        @Nullable
        private RowUpdate advance() {
            int rowIdField = keyTypes.length;
            for (RowData target = nextTargetRow(); target != null; target = nextTargetRow()) {
                int entry = match(target);
                if (entry < 0) {
                    continue;
                }
                long rowId = target.getLong(rowIdField);
                int other = rows.duplicateOf(entry);
                if (other >= 0) {
                    throw Errors.duplicateMatch(rowId, describe(entry), describe(other));
                }
                rows.row(entry, sourceRow);
                matched[entry >>> 6] |= 1L << entry;
                byte action = sourceRow.getByte(keyTypes.length);
                counts[action].add(1L);
                if (action == MergeContract.UPDATE) {
                    return new RowUpdate(rowId, newValues.replaceRow(sourceRow));
                } else if (action == MergeContract.DELETE) {
                    deleted.setField(0, rowId);
                    output.collect(
                            DeletionVectorsWriter.DELETED_ROW_IDS, new StreamRecord<>(deleted));
                }
            }
            return null;
        }

        /** The entry of the source row whose key {@code target}'s is, or -1. */
        private int match(RowData target) {
            for (int i = 0; i < keyTypes.length; i++) {
                if (target.isNullAt(i)) {
                    return -1;
                }
            }
            return rows.find(target);
        }

        @Nullable
        private RowData nextTargetRow() {
            while (batch == null || next == batch.size()) {
                batch = reader == null ? null : reader.nextBatch();
                next = 0;
                if (batch == null) {
                    if (reader != null) {
                        reader.close();
                        reader = null;
                    }
                    if (!groups.hasNext()) {
                        return null;
                    }
                    reader =
                            SplitReader.open(
                                    plan.fields(),
                                    new ReadSplit(List.of(groups.next())),
                                    SplitReader.DEFAULT_BATCH_SIZE);
                }
            }
            return batch.row(next++);
        }

        private String describe(int entry) {
            BinaryRowData row = rows.row(entry, new BinaryRowData(rowTypes.length));
            int action = keyTypes.length;
            if (row.getByte(action) != MergeContract.UPDATE) {
                return row.getByte(action) == MergeContract.DELETE
                        ? "deletes it"
                        : "leaves it unchanged";
            }
            StringBuilder values = new StringBuilder("sets " + columns + " to [");
            for (int i = 0; i < columns.size(); i++) {
                int field = action + 1 + i;
                Object value =
                        RowData.createFieldGetter(rowTypes[field], field).getFieldOrNull(row);
                values.append(i == 0 ? "" : ", ").append(value);
            }
            return values.append(']').toString();
        }

        /** Adds the numbers of the source rows matched to {@code numbers}. */
        void addMatchedSourceRows(MatchedSourceRows numbers) {
            BinaryRowData row = new BinaryRowData(rowTypes.length);
            for (int word = 0; word < matched.length; word++) {
                for (long bits = matched[word]; bits != 0; bits &= bits - 1) {
                    int entry = word << 6 | Long.numberOfTrailingZeros(bits);
                    numbers.add(rows.row(entry, row).getLong(rowTypes.length - 1));
                }
            }
        }

        @Override
        public void close() {
            if (reader != null) {
                reader.close();
            }
        }
    }
}
