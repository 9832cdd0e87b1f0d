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

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.function.SerializableFunction;

import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Maps a row by {@code output} and fails the job once: on the first row after a completed
 * checkpoint that caught this subtask at least {@code failAfter} rows in. Until then it slows the
 * job down (about 4 rows per millisecond), so checkpoints land while splits are half read. The flag
 * is static: the MiniCluster runs in the test's JVM.
 */
final class FailOnceAfterCheckpoint<T> extends RichMapFunction<RowData, T>
        implements CheckpointedFunction, CheckpointListener {

    static final AtomicBoolean FAILED = new AtomicBoolean();

    private final long failAfter;
    private final SerializableFunction<RowData, T> output;
    private transient long rows;
    private transient TreeMap<Long, Long> rowsAtCheckpoint;
    private transient boolean armed;

    FailOnceAfterCheckpoint(long failAfter, SerializableFunction<RowData, T> output) {
        this.failAfter = failAfter;
        this.output = output;
    }

    @Override
    public void open(OpenContext context) {
        rowsAtCheckpoint = new TreeMap<>();
    }

    @Override
    public T map(RowData row) throws InterruptedException {
        if (!FAILED.get()) {
            if (armed && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("Injected failure after " + rows + " rows");
            }
            if (++rows % 4 == 0) {
                Thread.sleep(1);
            }
        }
        return output.apply(row);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        rowsAtCheckpoint.put(context.getCheckpointId(), rows);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        Long rowsThen = rowsAtCheckpoint.get(checkpointId);
        armed |= rowsThen != null && rowsThen >= failAfter;
        rowsAtCheckpoint.headMap(checkpointId, true).clear();
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}
}
