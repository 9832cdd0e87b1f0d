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
import io.dovetail.table.TableStore;
import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.update.ColumnUpdater;

import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import java.util.List;

/**
 * Writes the partial-column files of a batch UPDATE for the row-range groups routed to it ({@link
 * GroupPartitioner}): rows are {@code _ROW_ID} followed by the new values of the updated columns;
 * they are held by position in their groups ({@link ChangesByGroup}) until the end of input, then
 * each touched group gets one non-rolling file of exactly the updated columns ({@link
 * ColumnUpdater}: only the updated columns of touched groups are read, to backfill the rows the
 * statement did not change).
 */
final class ColumnUpdateWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final long baseSnapshotId;
    private final List<String> columns;

    private transient ChangesByGroup updates;
    private transient UpdatedValues values;
    private transient Counter rowsUpdated;

    ColumnUpdateWriter(TablePaths table, long baseSnapshotId, List<String> columns) {
        this.table = table.root().toString();
        this.baseSnapshotId = baseSnapshotId;
        this.columns = List.copyOf(columns);
    }

    @Override
    public void open() throws Exception {
        super.open();
        values = new UpdatedValues(TableStore.open(new TablePaths(new Path(table))), columns, 1);
        updates =
                new ChangesByGroup(
                        GroupPartitioner.groupRanges(table, baseSnapshotId),
                        (rowId, first, second) ->
                                Errors.invalidArgument(
                                        "Row id "
                                                + rowId
                                                + " is updated twice; give each row at most one"
                                                + " new value."));
        rowsUpdated = getMetricGroup().counter(SinkMetrics.ROWS_UPDATED);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        long rowId = row.getLong(0);
        if (!updates.add(rowId, values.of(row))) {
            TableStore store = TableStore.open(new TablePaths(new Path(table)));
            throw ColumnUpdater.staleRowId(store.snapshots().snapshot(baseSnapshotId), rowId);
        }
        rowsUpdated.inc();
    }

    @Override
    public void endInput() {
        if (updates.isEmpty()) {
            return;
        }
        TableStore store = TableStore.open(new TablePaths(new Path(table)));
        List<ManifestEntry> files =
                ColumnUpdater.on(store, store.snapshots().snapshot(baseSnapshotId), columns)
                        .write(updates.updates());
        output.collect(new StreamRecord<>(new Committable.ColumnFiles(baseSnapshotId, files)));
    }
}
