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

import io.dovetail.table.TableLoader;
import io.dovetail.table.TableStore;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes full rows into new data files and hands them to the committer: before every checkpoint
 * barrier (so the committer's checkpoint holds every file written before it) and at the end of
 * input. It keeps no state of its own: files it wrote after the last checkpoint are not referenced
 * by anything if it fails, and the restored job writes those rows again.
 */
final class AppendWriterOperator extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<RowData, Committable>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final TableLoader table;
    private final long schemaId;
    private final Map<String, String> writeOptions;
    private final int maxOpenPartitions;

    private transient PartitionWriters writers;
    private transient Counter recordsWritten;
    private transient Counter bytesWritten;
    private transient Counter filesWritten;

    AppendWriterOperator(
            TablePaths table,
            long schemaId,
            Map<String, String> writeOptions,
            int maxOpenPartitions) {
        this.table = TableLoader.of(table);
        this.schemaId = schemaId;
        this.writeOptions = new HashMap<>(writeOptions);
        this.maxOpenPartitions = maxOpenPartitions;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TableStore store = table.open();
        TableSchema schema = store.schemas().schema(schemaId);
        Map<String, String> options = new HashMap<>(schema.options());
        options.putAll(writeOptions);
        writers =
                new PartitionWriters(
                        store.paths(),
                        schema,
                        DataFileWriterOptions.fromTableOptions(options),
                        maxOpenPartitions);
        recordsWritten = getMetricGroup().counter(SinkMetrics.RECORDS_WRITTEN);
        bytesWritten = getMetricGroup().counter(SinkMetrics.BYTES_WRITTEN);
        filesWritten = getMetricGroup().counter(SinkMetrics.FILES_WRITTEN);
    }

    @Override
    public void processElement(StreamRecord<RowData> element) {
        writers.write(element.getValue());
        recordsWritten.inc();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) {
        emitFinishedFiles();
    }

    @Override
    public void endInput() {
        emitFinishedFiles();
    }

    @Override
    public void close() throws Exception {
        if (writers != null) {
            writers.abort();
        }
        super.close();
    }

    private void emitFinishedFiles() {
        List<ManifestEntry> files = writers.finishAll();
        if (files.isEmpty()) {
            return;
        }
        filesWritten.inc(files.size());
        bytesWritten.inc(files.stream().mapToLong(e -> e.file().fileSize()).sum());
        output.collect(new StreamRecord<>(new Committable.NewFiles(files)));
    }
}
