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
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Writes the deletion vectors of a batch DELETE for the table partitions routed to it ({@link
 * GroupPartitioner#byTablePartition}): the {@code _ROW_ID}s of deleted rows (field 0 of each row)
 * are gathered in a compressed bitmap; at the end of input they are merged into the anchors'
 * vectors of the base snapshot and written as the partitions' new index files ({@link
 * DeletionVectorWriter}), which the committer only commits. A partition's vectors are written by
 * one writer, so no two writers replace the same index file.
 */
final class DeletionVectorsWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long baseSnapshotId;

    private transient Roaring64NavigableMap rowIds;
    private transient Counter rowsDeleted;

    DeletionVectorsWriter(TablePaths table, long baseSnapshotId) {
        this.table = TableLoader.of(table);
        this.baseSnapshotId = baseSnapshotId;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rowIds = new Roaring64NavigableMap();
        rowsDeleted = getMetricGroup().counter(SinkMetrics.ROWS_DELETED);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        rowIds.addLong(element.getValue().getLong(0));
        rowsDeleted.inc();
    }

    @Override
    public void endInput() {
        if (rowIds.isEmpty()) {
            return;
        }
        TableStore store = table.open();
        IndexChanges vectors =
                new DeletionVectorWriter(store)
                        .deleteRows(store.snapshots().snapshot(baseSnapshotId), rowIds);
        output.collect(
                new StreamRecord<>(new Committable.DeletionVectors(baseSnapshotId, vectors)));
    }
}
