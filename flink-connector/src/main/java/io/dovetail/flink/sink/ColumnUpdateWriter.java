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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.core.fs.Path;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes the partial-column files of a batch UPDATE for the row-range groups routed to it ({@link
 * GroupPartitioner}): rows are {@code _ROW_ID} followed by the new values of the updated columns;
 * at the end of input they are sorted by row id and each touched group gets one non-rolling file of
 * exactly the updated columns ({@link ColumnUpdater}: only the updated columns of touched groups
 * are read, to backfill the rows the statement did not change). The updates of this writer are held
 * in memory until then.
 */
final class ColumnUpdateWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final String table;
    private final long baseSnapshotId;
    private final List<String> columns;

    private transient List<RowUpdate> updates;
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
        updates = new ArrayList<>();
        rowsUpdated = getMetricGroup().counter(SinkMetrics.ROWS_UPDATED);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        updates.add(new RowUpdate(row.getLong(0), values.copyOf(row)));
        rowsUpdated.inc();
    }

    @Override
    public void endInput() {
        if (updates.isEmpty()) {
            return;
        }
        updates.sort(Comparator.comparingLong(RowUpdate::rowId));
        TableStore store = TableStore.open(new TablePaths(new Path(table)));
        List<ManifestEntry> files =
                ColumnUpdater.on(store, store.snapshots().snapshot(baseSnapshotId), columns)
                        .write(updates.iterator());
        updates = new ArrayList<>();
        output.collect(new StreamRecord<>(new Committable.ColumnFiles(baseSnapshotId, files)));
    }
}
