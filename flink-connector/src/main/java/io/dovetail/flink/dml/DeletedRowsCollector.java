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

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

/**
 * Collects the {@code _ROW_ID}s of deleted rows (field 0 of each row) into a compressed bitmap and
 * hands them to the committer at the end of input, which writes the deletion vectors against the
 * base snapshot (batch DELETE).
 */
final class DeletedRowsCollector extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final long baseSnapshotId;

    private transient Roaring64NavigableMap rowIds;

    DeletedRowsCollector(long baseSnapshotId) {
        this.baseSnapshotId = baseSnapshotId;
    }

    @Override
    public void open() throws Exception {
        super.open();
        rowIds = new Roaring64NavigableMap();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        rowIds.addLong(element.getValue().getLong(0));
    }

    @Override
    public void endInput() {
        if (!rowIds.isEmpty()) {
            rowIds.runOptimize();
            output.collect(new StreamRecord<>(new Committable.DeletedRows(baseSnapshotId, rowIds)));
        }
    }
}
