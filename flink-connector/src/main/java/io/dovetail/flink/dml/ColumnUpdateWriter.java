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
import io.dovetail.table.update.ColumnUpdater;

import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Writes the partial-column files of a batch UPDATE for the row-range groups routed to it ({@link
 * GroupPartitioner}): rows are {@code _ROW_ID} followed by the new values of the updated columns,
 * sorted by {@code _ROW_ID} ({@link SortedChanges}). Each is written as it arrives ({@link
 * ColumnUpdater.Writer}): a touched group's file is finished when the input moves past the group,
 * with the rows the statement did not change backfilled from the group's current values (only the
 * updated columns are read). The writer holds one open file and no change. With {@code lastWins} (a
 * batch {@code t$column_updates}, sorted by row id and then arrival) a row id may come more than
 * once and its last change is written: the writer holds the previous change until the next row id.
 */
final class ColumnUpdateWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long baseSnapshotId;
    private final List<String> columns;
    private final boolean lastWins;

    private transient ColumnUpdater.Writer files;
    private transient ProjectedRowData values;
    private transient UpdatedValues copies;
    private transient Counter rowsUpdated;
    private transient long heldRowId;
    @Nullable private transient BinaryRowData held;

    ColumnUpdateWriter(
            TablePaths table, long baseSnapshotId, List<String> columns, boolean lastWins) {
        this.table = TableLoader.of(table);
        this.baseSnapshotId = baseSnapshotId;
        this.columns = List.copyOf(columns);
        this.lastWins = lastWins;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TableStore store = table.open();
        if (baseSnapshotId >= 1) { // else the table was empty: every row id is stale
            files =
                    ColumnUpdater.on(store, store.snapshots().snapshot(baseSnapshotId), columns)
                            .writer();
        }
        values = ProjectedRowData.from(IntStream.rangeClosed(1, columns.size()).toArray());
        copies = new UpdatedValues(store, columns, 1);
        rowsUpdated = getMetricGroup().counter(SinkMetrics.ROWS_UPDATED);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        if (row.isNullAt(0)) {
            throw Errors.staleRowId(
                    null,
                    baseSnapshotId,
                    " (an update of the columns " + columns + " has no _ROW_ID)",
                    "Nothing was committed. Give every update the _ROW_ID of its row.");
        }
        if (files == null) {
            throw Errors.staleRowId(
                    row.getLong(0),
                    baseSnapshotId,
                    "; the table had no rows when the update started",
                    "Nothing was committed. Take the row ids from a read of the table.");
        }
        rowsUpdated.inc();
        if (!lastWins) {
            files.add(row.getLong(0), values.replaceRow(row));
            return;
        }
        if (held != null && heldRowId != row.getLong(0)) {
            files.add(heldRowId, held);
        }
        heldRowId = row.getLong(0);
        held = copies.of(row).copy();
    }

    @Override
    public void endInput() {
        if (files == null) {
            return;
        }
        if (held != null) {
            files.add(heldRowId, held);
            held = null;
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
}
