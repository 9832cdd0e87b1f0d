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

import io.dovetail.table.types.DataField;

import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.metrics.Counter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;

import javax.annotation.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * Reads the change splits of a changelog read one after the other in the task thread, at most one
 * batch of change rows per {@link #pollNext} call, and asks the enumerator for the next split when
 * it has none. When a split is read to the end the reader reports it ({@link SplitProgress}) and
 * keeps the report in its state until the enumerator acknowledges it. The checkpointed state is the
 * current split with the change rows emitted so far, the splits not started and the unacknowledged
 * reports.
 *
 * <p>Metrics: {@code rowsRead} counts the rows read from files, compared ones included (the change
 * rows emitted are Flink's {@code numRecordsIn}).
 */
final class ChangeSourceReader implements SourceReader<RowData, ChangeSplit> {

    private final SourceReaderContext context;
    private final List<DataField> fields;
    private final int rowIdField;
    @Nullable private final ProjectedRowData output;
    private final int batchSize;
    private final Counter rowsRead;
    @Nullable private final DereferencedRow dereferenced;
    private final Deque<ChangeSplit> pending = new ArrayDeque<>();
    private final Map<String, ChangeSplit> unacknowledged = new LinkedHashMap<>();
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean started;
    private boolean splitRequested;

    @Nullable private ChangeSplit current;
    @Nullable private ChangeRows rows;
    private long position; // change rows of the current split produced so far, skipped included

    /**
     * @param fields the columns read, {@code _ROW_ID} at {@code rowIdField}
     * @param outputArity the leading columns emitted: all, or all but a trailing {@code _ROW_ID}
     *     that only the comparison needs
     * @param dereferenced per emitted column, the name of a BLOB column stored inline as
     *     descriptors whose referenced bytes are emitted, or null; null when there is none
     */
    ChangeSourceReader(
            SourceReaderContext context,
            List<DataField> fields,
            int rowIdField,
            int outputArity,
            @Nullable String[] dereferenced,
            int batchSize) {
        this.context = context;
        this.fields = List.copyOf(fields);
        this.rowIdField = rowIdField;
        this.output =
                outputArity == fields.size()
                        ? null
                        : ProjectedRowData.from(IntStream.range(0, outputArity).toArray());
        this.dereferenced = dereferenced == null ? null : new DereferencedRow(dereferenced);
        this.batchSize = batchSize;
        this.rowsRead = context.metricGroup().counter(SourceMetrics.ROWS_READ);
    }

    @Override
    public void start() {
        started = true;
        unacknowledged.keySet().forEach(this::reportFinished);
        requestSplit();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> out) {
        if (rows == null && !openNextSplit()) {
            requestSplit();
            return InputStatus.NOTHING_AVAILABLE;
        }
        long readBefore = rows.rowsRead();
        for (int i = 0; i < batchSize; i++) {
            RowData row = rows.next();
            if (row == null) {
                rowsRead.inc(rows.rowsRead() - readBefore);
                finishSplit();
                return InputStatus.MORE_AVAILABLE;
            }
            if (position++ >= current.emitted()) {
                RowData emitted = output == null ? row : output.replaceRow(row);
                out.collect(dereferenced == null ? emitted : dereferenced.replace(emitted));
            }
        }
        rowsRead.inc(rows.rowsRead() - readBefore);
        return InputStatus.MORE_AVAILABLE;
    }

    private boolean openNextSplit() {
        current = pending.poll();
        if (current == null) {
            return false;
        }
        rows = new ChangeRows(fields, rowIdField, current.read(), batchSize);
        position = 0;
        return true;
    }

    private void finishSplit() {
        rows.close();
        rows = null;
        ChangeSplit done = current.asFinished();
        current = null;
        unacknowledged.put(done.splitId(), done);
        reportFinished(done.splitId());
        requestSplit();
    }

    private void reportFinished(String splitId) {
        context.sendSourceEventToCoordinator(new SplitProgress.Finished(splitId));
    }

    private void requestSplit() {
        if (started && !splitRequested && pending.isEmpty() && current == null) {
            splitRequested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public List<ChangeSplit> snapshotState(long checkpointId) {
        List<ChangeSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current.afterEmitting(Math.max(position, current.emitted())));
        }
        state.addAll(pending);
        state.addAll(unacknowledged.values());
        return state;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (rows != null || !pending.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (available.isDone()) {
            available = new CompletableFuture<>();
        }
        return available;
    }

    @Override
    public void addSplits(List<ChangeSplit> splits) {
        for (ChangeSplit split : splits) {
            if (split.finished()) {
                unacknowledged.put(split.splitId(), split);
                if (started) {
                    reportFinished(split.splitId());
                }
            } else {
                pending.add(split);
                splitRequested = false;
            }
        }
        available.complete(null);
    }

    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof SplitProgress.Acknowledged ack) {
            unacknowledged.remove(ack.splitId());
        }
    }

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void close() {
        if (rows != null) {
            rows.close();
        }
    }
}
