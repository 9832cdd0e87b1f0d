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

import io.dovetail.flink.sink.Committable;
import io.dovetail.flink.sink.SinkMetrics;
import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Writes the partial-column files of a stream of column updates for the row-range groups routed to
 * it ({@link ColumnUpdateRouter}, {@link GroupPartitioner#byGroupKey}): rows are {@code _ROW_ID}
 * followed by the new values of the updated columns. Updates are held by row id (a later update of
 * a row replaces the earlier one: last wins) and written before every checkpoint barrier, and
 * earlier whenever they take more than {@code bufferBytes} of heap, as one file per touched group
 * of the table's latest snapshot ({@link ColumnUpdater}), with the row ids they updated ({@link
 * Committable.RowUpdateFiles}); the committer commits them when the checkpoint completes, merging
 * row by row what other commits overtook.
 *
 * <p>No update is held across a barrier, so the writer has no state: a job restores at any
 * parallelism. (The state of earlier versions, updates held back until the previous checkpoint's
 * commit, is read once and written at the first barrier.)
 */
final class StreamingColumnUpdateWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<Tuple2<Long, RowData>, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    /** What a held update costs besides its bytes: a map entry, its boxed key, the row object. */
    static final long ENTRY_OVERHEAD = 96;

    private final TableLoader table;
    private final List<String> columns;
    private final long bufferBytes;

    private transient TableStore store;
    private transient TreeMap<Long, BinaryRowData> buffer;
    private transient long bytes;
    private transient RowDataSerializer rowCopier;
    private transient int[] valueFields; // the updated columns' fields of a held row
    private transient Counter rowsUpdated;

    StreamingColumnUpdateWriter(TablePaths table, List<String> columns, long bufferBytes) {
        this.table = TableLoader.of(table);
        this.columns = List.copyOf(columns);
        this.bufferBytes = bufferBytes;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        store = table.open();
        List<LogicalType> types = new ArrayList<>();
        types.add(new BigIntType(false));
        for (String column : columns) {
            types.add(FlinkTypes.toFlink(store.latestSchema().field(column).orElseThrow().type()));
        }
        valueFields = IntStream.rangeClosed(1, columns.size()).toArray();
        RowType rowType = RowType.of(types.toArray(LogicalType[]::new));
        rowCopier = new RowDataSerializer(rowType);
        buffer = new TreeMap<>();
        bytes = 0;
        if (context.isRestored()) {
            restoreEarlierState(context, rowType);
        }
        rowsUpdated = getMetricGroup().counter(SinkMetrics.ROWS_UPDATED);
    }

    /** The updates an earlier version held in its state: they are written at the first barrier. */
    private void restoreEarlierState(StateInitializationContext context, RowType rowType)
            throws Exception {
        ListState<RowData> held =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "dovetail-column-updates", InternalTypeInfo.of(rowType)));
        for (RowData row : held.get()) {
            hold(row);
        }
        held.clear();
        context.getOperatorStateStore()
                .getListState(new ListStateDescriptor<>("dovetail-update-progress", Types.STRING))
                .clear();
    }

    @Override
    public void processElement(StreamRecord<Tuple2<Long, RowData>> element) {
        RowData row = element.getValue().f1;
        if (row.isNullAt(0)) {
            throw Errors.staleRowId(
                    null,
                    store.snapshots().latestId().orElse(0),
                    " (an update of the columns " + columns + " has no _ROW_ID)",
                    "Nothing of this checkpoint was committed. Give every update the _ROW_ID"
                            + " of its row.");
        }
        hold(row);
        rowsUpdated.inc();
        if (bytes > bufferBytes) {
            flush();
        }
    }

    private void hold(RowData row) {
        BinaryRowData copy = rowCopier.toBinaryRow(row).copy();
        BinaryRowData replaced = buffer.put(copy.getLong(0), copy);
        bytes += copy.getSizeInBytes() + ENTRY_OVERHEAD;
        if (replaced != null) {
            bytes -= replaced.getSizeInBytes() + ENTRY_OVERHEAD;
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) {
        flush();
    }

    /** The end of a bounded input: what is left goes now. */
    @Override
    public void endInput() {
        flush();
    }

    /** One partial-column file per touched group, based on the latest snapshot. */
    private void flush() {
        if (buffer.isEmpty()) {
            return;
        }
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<RowUpdate> updates = new ArrayList<>(buffer.size());
        Roaring64NavigableMap rows = new Roaring64NavigableMap();
        for (BinaryRowData row : buffer.values()) {
            long rowId = row.getLong(0);
            rows.addLong(rowId);
            updates.add(new RowUpdate(rowId, ProjectedRowData.from(valueFields).replaceRow(row)));
        }
        List<ManifestEntry> files =
                ColumnUpdater.on(store, base, columns).write(updates.iterator());
        buffer.clear();
        bytes = 0;
        output.collect(new StreamRecord<>(new Committable.RowUpdateFiles(base.id(), files, rows)));
    }
}
