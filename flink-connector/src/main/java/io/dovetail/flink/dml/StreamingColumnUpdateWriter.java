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
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.IntStream;

/**
 * Writes the partial-column files of a stream of column updates for the row-range groups routed to
 * it ({@link GroupPartitioner} following appends): rows are {@code _ROW_ID} followed by the new
 * values of the updated columns. Updates are buffered by row id (a later update of a row within the
 * buffer replaces the earlier one: last wins) and flushed before a checkpoint barrier as one file
 * per touched group ({@link ColumnUpdater}), backfilled from and based on the table's latest
 * snapshot at flush time; the committer commits them when the checkpoint completes.
 *
 * <p>Order across checkpoints: a flush must see this writer's previous files committed, or its
 * backfill would revert them. While the table holds no commit of the job's commit user for the
 * checkpoint of this writer's previous flush, the buffer is carried into the next checkpoint
 * instead (never waiting: the commit may only come with a later checkpoint). The buffer, the
 * checkpoint of the last flush and the commit user are operator state, so a restored writer
 * continues exactly where its checkpoint left off.
 */
final class StreamingColumnUpdateWriter extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    /** How long the end of input waits for the previous flush to be committed. */
    static final Duration END_WAIT = Duration.ofSeconds(30);

    private final TableLoader table;
    private final List<String> columns;
    private final String initialCommitUser;

    private transient TableStore store;
    private transient TreeMap<Long, RowData> buffer;
    private transient RowDataSerializer rowCopier;
    private transient int[] valueFields; // the updated columns' fields of a buffered row
    private transient ListState<RowData> bufferState;
    private transient ListState<String> progressState; // {commit user, last flush checkpoint}
    private transient String commitUser;
    private transient long lastFlush;
    private transient Counter rowsUpdated;

    StreamingColumnUpdateWriter(TablePaths table, List<String> columns, String commitUser) {
        this.table = TableLoader.of(table);
        this.columns = List.copyOf(columns);
        this.initialCommitUser = commitUser;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        store = table.open();
        List<LogicalType> types = new ArrayList<>();
        types.add(new BigIntType(false));
        for (String column : columns) {
            types.add(FlinkTypes.toFlink(store.latestSchema().field(column).orElseThrow().type()));
        }
        valueFields = IntStream.rangeClosed(1, columns.size()).toArray();
        RowType rowType = RowType.of(types.toArray(LogicalType[]::new));
        rowCopier = new RowDataSerializer(rowType);
        bufferState =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "dovetail-column-updates", InternalTypeInfo.of(rowType)));
        progressState =
                context.getOperatorStateStore()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "dovetail-update-progress", Types.STRING));
        buffer = new TreeMap<>();
        commitUser = initialCommitUser;
        lastFlush = -1;
        for (RowData row : bufferState.get()) {
            buffer.put(row.getLong(0), row);
        }
        List<String> progress = new ArrayList<>();
        progressState.get().forEach(progress::add);
        if (progress.size() == 2) {
            commitUser = progress.get(0);
            lastFlush = Long.parseLong(progress.get(1));
        }
        rowsUpdated = getMetricGroup().counter(SinkMetrics.ROWS_UPDATED);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        RowData row = element.getValue();
        buffer.put(row.getLong(0), rowCopier.copy(row));
        rowsUpdated.inc();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) {
        if (!buffer.isEmpty() && previousFlushCommitted()) {
            flush();
            lastFlush = checkpointId;
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        bufferState.update(new ArrayList<>(buffer.values()));
        progressState.update(List.of(commitUser, Long.toString(lastFlush)));
    }

    /**
     * The end of a bounded input: what is left must go now (nothing may follow the end of input).
     * It waits up to {@link #END_WAIT} for the previous flush to be committed (it normally is, soon
     * after its checkpoint completed); after that the commit fails as a conflict and the job fails
     * over rather than revert anything.
     */
    @Override
    public void endInput() throws InterruptedException {
        long deadline = System.nanoTime() + END_WAIT.toNanos();
        while (!buffer.isEmpty() && !previousFlushCommitted() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (!buffer.isEmpty()) {
            flush();
        }
    }

    private boolean previousFlushCommitted() {
        if (lastFlush < 0) {
            return true;
        }
        long committed =
                store.snapshots()
                        .latestCommitOf(commitUser)
                        .map(Snapshot::commitIdentifier)
                        .orElse(-1L);
        return committed >= lastFlush;
    }

    /** One partial-column file per touched group, based on the latest snapshot. */
    private void flush() {
        Snapshot base = store.latestSnapshot().orElseThrow();
        List<RowUpdate> updates = new ArrayList<>(buffer.size());
        for (RowData row : buffer.values()) {
            updates.add(
                    new RowUpdate(
                            row.getLong(0), ProjectedRowData.from(valueFields).replaceRow(row)));
        }
        List<ManifestEntry> files =
                ColumnUpdater.on(store, base, columns).write(updates.iterator());
        buffer.clear();
        output.collect(new StreamRecord<>(new Committable.ColumnFiles(base.id(), files)));
    }
}
