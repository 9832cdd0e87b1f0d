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
package io.dovetail.flink.source;

import io.dovetail.table.read.ReadBatch;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.types.DataField;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads its assigned splits one after the other in the task thread, one batch per {@link #pollNext}
 * call, asking the enumerator for the next split when it runs out. Rows are emitted as the batch's
 * reused columnar view, as Flink's own vectorized formats do: a row is valid while it is being
 * collected, and Flink copies it where it keeps rows (the batch is only reused after every row of
 * it was collected). The checkpointed state is the current split with the number of rows emitted so
 * far, followed by the splits not started.
 */
final class DovetailSourceReader implements SourceReader<RowData, DovetailSplit> {

    private final SourceReaderContext context;
    private final List<DataField> fields;
    private final int batchSize;
    private final Deque<DovetailSplit> pending = new ArrayDeque<>();
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean splitRequested;
    private boolean noMoreSplits;

    @Nullable private DovetailSplit current;
    @Nullable private SplitReader reader;
    private long position; // rows of the current split read so far, skipped ones included
    @Nullable private final DereferencedRow dereferenced;
    private final Counter rowsRead;
    private final Counter splitsRead;

    /**
     * @param dereferenced per column, the name of a BLOB column stored inline as descriptors whose
     *     referenced bytes are returned, or null; null when there is none
     */
    DovetailSourceReader(
            SourceReaderContext context,
            List<DataField> fields,
            @Nullable String[] dereferenced,
            int batchSize) {
        this.context = context;
        this.fields = List.copyOf(fields);
        this.dereferenced = dereferenced == null ? null : new DereferencedRow(dereferenced);
        this.batchSize = batchSize;
        this.rowsRead = context.metricGroup().counter(SourceMetrics.ROWS_READ);
        this.splitsRead = context.metricGroup().counter(SourceMetrics.SPLITS_READ);
    }

    @Override
    public void start() {
        requestSplit();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> output) {
        if (reader == null && !openNextSplit()) {
            if (noMoreSplits) {
                return InputStatus.END_OF_INPUT;
            }
            requestSplit();
            return InputStatus.NOTHING_AVAILABLE;
        }
        ReadBatch batch = reader.nextBatch();
        if (batch == null) {
            closeSplit();
            return InputStatus.MORE_AVAILABLE;
        }
        int first = (int) Math.max(0, Math.min(batch.size(), current.recordsToSkip() - position));
        for (int i = first; i < batch.size(); i++) {
            RowData row = batch.row(i);
            output.collect(dereferenced == null ? row : dereferenced.replace(row));
        }
        rowsRead.inc(batch.size() - first);
        position += batch.size();
        return InputStatus.MORE_AVAILABLE;
    }

    private boolean openNextSplit() {
        current = pending.poll();
        if (current == null) {
            return false;
        }
        reader = SplitReader.open(fields, current.split(), batchSize);
        position = 0;
        return true;
    }

    private void closeSplit() {
        splitsRead.inc();
        reader.close();
        reader = null;
        current = null;
    }

    private void requestSplit() {
        if (!splitRequested && !noMoreSplits && pending.isEmpty()) {
            splitRequested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public List<DovetailSplit> snapshotState(long checkpointId) {
        List<DovetailSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current.afterEmitting(Math.max(position, current.recordsToSkip())));
        }
        state.addAll(pending);
        return state;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (reader != null || !pending.isEmpty() || noMoreSplits) {
            return CompletableFuture.completedFuture(null);
        }
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return available;
    }

    @Override
    public void addSplits(List<DovetailSplit> splits) {
        pending.addAll(splits);
        splitRequested = false;
        available.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        available.complete(null);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void close() {
        if (reader != null) {
            closeSplit();
        }
    }
}
