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
import io.dovetail.flink.dml.UpdatedValues;
import io.dovetail.flink.sink.Committable;
import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.update.ColumnUpdater;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import javax.annotation.Nullable;

import java.util.List;
import java.util.function.LongPredicate;

/**
 * Writes the changes a merge makes to existing rows of its base snapshot, for the row-range groups
 * routed to it ({@link GroupPartitioner}): rows are {@code _ROW_ID}, the action ({@link
 * MergeSink#UPDATE} or {@link MergeSink#DELETE}) and the new values of the updated columns, sorted
 * by {@code _ROW_ID} ({@link SortedChanges}). Updates are written as they arrive ({@link
 * ColumnUpdater.Writer}: one non-rolling partial-column file per touched group, finished when the
 * input moves past the group); deleted row ids go on to the deletion-vector writers ({@link
 * DeletionVectorsWriter#DELETED_ROW_IDS}), which write them as deletion vectors (a merge that
 * updates no column only sends them on, and writes no file). A row id named twice in a row (a
 * target row matched by two source rows) fails the job naming both matches; a row id in no live
 * group of the base (stale) fails it or, with {@link StaleRowIds#SKIP}, is counted and dropped.
 * Besides one open file, the writer holds only the previous change (to name it in a duplicate's
 * error).
 */
final class MergeWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long baseSnapshotId;
    private final List<String> columns;
    private final StaleRowIds onStale;

    private transient LongPredicate live;
    @Nullable private transient ColumnUpdater.Writer files; // null: no column updated
    private transient UpdatedValues values;
    private transient LongCounter skippedUpdates;
    private transient LongCounter skippedDeletes;
    private transient long previousRowId;
    @Nullable private transient BinaryRowData previousUpdate; // null: the previous change deleted
    private transient GenericRowData deletedRowId;

    MergeWriter(TablePaths table, long baseSnapshotId, List<String> columns, StaleRowIds onStale) {
        this.table = TableLoader.of(table);
        this.baseSnapshotId = baseSnapshotId;
        this.columns = List.copyOf(columns);
        this.onStale = onStale;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TableStore store = table.open();
        Snapshot base = store.snapshots().snapshot(baseSnapshotId);
        if (columns.isEmpty()) {
            live = ColumnUpdater.liveRowIds(store, base);
        } else {
            ColumnUpdater updater = ColumnUpdater.on(store, base, columns);
            live = updater::isLive;
            files = updater.writer();
            values = new UpdatedValues(store, columns, 2);
        }
        deletedRowId = new GenericRowData(1);
        previousRowId = Long.MIN_VALUE;
        skippedUpdates = new LongCounter();
        skippedDeletes = new LongCounter();
        getRuntimeContext().addAccumulator(MergeContract.SKIPPED_UPDATES, skippedUpdates);
        getRuntimeContext().addAccumulator(MergeContract.SKIPPED_DELETES, skippedDeletes);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        boolean update = row.getByte(1) == MergeContract.UPDATE;
        if (row.isNullAt(0)) {
            skipStale(update, null);
            return;
        }
        long rowId = row.getLong(0);
        BinaryRowData newValues = update ? values.of(row) : null;
        if (rowId == previousRowId) {
            throw Errors.duplicateMatch(rowId, describe(previousUpdate), describe(newValues));
        }
        if (!live.test(rowId)) {
            skipStale(update, rowId);
            return;
        }
        previousRowId = rowId;
        if (update) {
            files.add(rowId, newValues);
            previousUpdate = newValues.copy();
        } else {
            deletedRowId.setField(0, rowId);
            output.collect(DeletionVectorsWriter.DELETED_ROW_IDS, new StreamRecord<>(deletedRowId));
            previousUpdate = null;
        }
    }

    private void skipStale(boolean update, @Nullable Long rowId) {
        if (onStale != StaleRowIds.SKIP) {
            throw Errors.staleRowId(
                    rowId,
                    baseSnapshotId,
                    " (a stale or foreign _ROW_ID of a merge source row)",
                    "Nothing was committed. Pass on_stale_row_id => 'skip' to ignore such rows.");
        }
        (update ? skippedUpdates : skippedDeletes).add(1L);
    }

    @Override
    public void endInput() {
        if (files == null) {
            return;
        }
        List<ManifestEntry> written = files.finish();
        if (!written.isEmpty()) {
            output.collect(
                    new StreamRecord<>(new Committable.ColumnFiles(baseSnapshotId, written)));
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (files != null) {
                files.close(); // deletes the files of an unfinished write
            }
        } finally {
            super.close();
        }
    }

    /** The error for a target row matched by two source rows, each described by what it does. */
    private String describe(@Nullable RowData change) {
        return change == null ? "deletes it" : "sets " + columns + " to " + values.describe(change);
    }
}
