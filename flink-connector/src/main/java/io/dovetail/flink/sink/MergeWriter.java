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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.core.fs.Path;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes the changes a merge makes to existing rows of its base snapshot, for the row-range groups
 * routed to it ({@link GroupPartitioner}): rows are {@code _ROW_ID}, the action ({@link
 * MergeSink#UPDATE} or {@link MergeSink#DELETE}) and the new values of the updated columns. At the
 * end of input they are sorted by row id; a row id named twice (a target row matched by two source
 * rows) fails the job naming both matches; a row id in no live group of the base (stale) fails it
 * or, with {@link StaleRowIds#SKIP}, is counted and dropped. Updated rows become one non-rolling
 * partial-column file per touched group ({@link ColumnUpdater}); deleted rows go to the committer,
 * which writes them as deletion vectors.
 */
final class MergeWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final long baseSnapshotId;
    private final List<String> columns;
    private final StaleRowIds onStale;

    private transient List<Change> changes;
    private transient UpdatedValues values;
    private transient LongCounter skippedUpdates;
    private transient LongCounter skippedDeletes;

    MergeWriter(TablePaths table, long baseSnapshotId, List<String> columns, StaleRowIds onStale) {
        this.table = table.root().toString();
        this.baseSnapshotId = baseSnapshotId;
        this.columns = List.copyOf(columns);
        this.onStale = onStale;
    }

    @Override
    public void open() throws Exception {
        super.open();
        values = new UpdatedValues(TableStore.open(new TablePaths(new Path(table))), columns, 2);
        changes = new ArrayList<>();
        skippedUpdates = new LongCounter();
        skippedDeletes = new LongCounter();
        getRuntimeContext().addAccumulator(MergeSink.SKIPPED_UPDATES, skippedUpdates);
        getRuntimeContext().addAccumulator(MergeSink.SKIPPED_DELETES, skippedDeletes);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        if (row.isNullAt(0)) {
            if (onStale == StaleRowIds.SKIP) {
                (row.getByte(1) == MergeSink.UPDATE ? skippedUpdates : skippedDeletes).add(1L);
                return;
            }
            throw Errors.invalidArgument(
                    "A merge source row has a NULL _ROW_ID; nothing was committed. Pass"
                            + " on_stale_row_id => 'skip' to ignore such rows.");
        }
        changes.add(
                new Change(
                        row.getLong(0),
                        row.getByte(1) == MergeSink.UPDATE ? values.copyOf(row) : null));
    }

    @Override
    public void endInput() {
        if (changes.isEmpty()) {
            return;
        }
        changes.sort(Comparator.comparingLong(Change::rowId));
        TreeMap<Long, Long> groups = new TreeMap<>();
        for (long[] range : GroupPartitioner.groupRanges(table, baseSnapshotId)) {
            groups.put(range[0], range[1]);
        }
        List<RowUpdate> updates = new ArrayList<>();
        Roaring64NavigableMap deletes = new Roaring64NavigableMap();
        Change previous = null;
        for (Change change : changes) {
            if (previous != null && previous.rowId() == change.rowId()) {
                throw duplicateMatch(previous, change);
            }
            previous = change;
            if (!inGroup(groups, change.rowId())) {
                if (onStale == StaleRowIds.SKIP) {
                    (change.values() == null ? skippedDeletes : skippedUpdates).add(1L);
                    continue;
                }
                throw Errors.invalidArgument(
                        "Row id "
                                + change.rowId()
                                + " is in no live row range of the base snapshot "
                                + baseSnapshotId
                                + " (a stale or foreign _ROW_ID); nothing was committed. Pass"
                                + " on_stale_row_id => 'skip' to ignore such rows.");
            }
            if (change.values() == null) {
                deletes.addLong(change.rowId());
            } else {
                updates.add(new RowUpdate(change.rowId(), change.values()));
            }
        }
        changes = new ArrayList<>();
        if (!updates.isEmpty()) {
            TableStore store = TableStore.open(new TablePaths(new Path(table)));
            List<ManifestEntry> files =
                    ColumnUpdater.on(store, store.snapshots().snapshot(baseSnapshotId), columns)
                            .write(updates.iterator());
            output.collect(new StreamRecord<>(new Committable.ColumnFiles(baseSnapshotId, files)));
        }
        if (!deletes.isEmpty()) {
            deletes.runOptimize();
            output.collect(
                    new StreamRecord<>(new Committable.DeletedRows(baseSnapshotId, deletes)));
        }
    }

    /** A row's change: its new values, or null when the row is deleted. */
    private record Change(long rowId, RowData values) {}

    private static boolean inGroup(TreeMap<Long, Long> groups, long rowId) {
        Map.Entry<Long, Long> floor = groups.floorEntry(rowId);
        return floor != null && rowId <= floor.getValue();
    }

    private RuntimeException duplicateMatch(Change first, Change second) {
        return Errors.invalidArgument(
                "Target row with _ROW_ID "
                        + first.rowId()
                        + " is matched by more than one source row: one "
                        + describe(first)
                        + ", another "
                        + describe(second)
                        + ". Make the merge condition match at most one source row per target"
                        + " row; nothing was committed.");
    }

    private String describe(Change change) {
        if (change.values() == null) {
            return "deletes it";
        }
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = ((GenericRowData) change.values()).getField(i);
        }
        return "sets " + columns + " to " + Arrays.toString(values);
    }
}
