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
import io.dovetail.flink.sink.SinkMetrics;
import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.delete.DeletionVectorWriter;
import io.dovetail.table.index.IndexChanges;
import io.dovetail.table.path.TablePaths;

import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.util.OutputTag;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Writes the deletion vectors of a batch DELETE, or of a merge's deletes, for the table partitions
 * routed to it ({@link GroupPartitioner#byTablePartition}): the {@code _ROW_ID}s of deleted rows
 * (field 0 of each row) are gathered in a compressed bitmap; at the end of input they are merged
 * into the anchors' vectors of the base snapshot and written as the partitions' new index files
 * ({@link DeletionVectorWriter}), which the committer only commits. A partition's vectors are
 * written by one writer, so no two writers replace the same index file.
 */
public final class DeletionVectorsWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    /**
     * The side output of row-level writers that find rows to delete (a merge's writers): the
     * deleted row's {@code _ROW_ID}, for {@link #deletes}.
     */
    public static final OutputTag<RowData> DELETED_ROW_IDS =
            new OutputTag<>(
                    "dovetail-deleted-row-ids", InternalTypeInfo.ofFields(new BigIntType()));

    /**
     * The deletion vectors of {@code deletedRowIds} (rows of {@code _ROW_ID}s of base snapshot
     * {@code baseSnapshotId}), written by {@code parallelism} writers, each owning whole table
     * partitions.
     */
    public static SingleOutputStreamOperator<Committable> deletes(
            DataStream<RowData> deletedRowIds,
            TablePaths table,
            long baseSnapshotId,
            int parallelism) {
        return deletedRowIds
                .partitionCustom(
                        GroupPartitioner.byTablePartition(table, baseSnapshotId),
                        new GroupPartitioner.RowIdOfUpdate())
                .transform(
                        "Dovetail deletion-vector writer: " + table.root().getName(),
                        CommitTopology.committables(),
                        new DeletionVectorsWriter(table, baseSnapshotId))
                .setParallelism(parallelism);
    }

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
