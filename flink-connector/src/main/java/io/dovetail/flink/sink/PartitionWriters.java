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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.write.DataFileWriter;
import io.dovetail.table.write.DataFileWriterOptions;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The open data-file writers of one writer subtask, one per partition it writes to (files roll by
 * {@code target-file-size} inside each). At most {@code maxOpen} partitions are open at once: the
 * least recently written one is finished when another would exceed it, which bounds the memory of
 * buffered row groups however many partitions the input spreads over. Not thread-safe.
 */
final class PartitionWriters {

    private static final ByteBuffer UNPARTITIONED = ByteBuffer.wrap(BinaryRowCodec.emptyRow());

    private final TablePaths paths;
    private final TableSchema schema;
    private final DataFileWriterOptions options;
    private final int maxOpen;
    private final RowData.FieldGetter[] partitionGetters;
    private final BinaryRowCodec partitionCodec;
    private final LinkedHashMap<ByteBuffer, DataFileWriter> open =
            new LinkedHashMap<>(16, 0.75f, true);
    private final List<ManifestEntry> finished = new ArrayList<>();

    PartitionWriters(
            TablePaths paths, TableSchema schema, DataFileWriterOptions options, int maxOpen) {
        this.paths = paths;
        this.schema = schema;
        this.options = options;
        this.maxOpen = maxOpen;
        List<String> keys = schema.partitionKeys();
        int[] partitionFields = keys.stream().mapToInt(schema.fieldNames()::indexOf).toArray();
        this.partitionGetters = new RowData.FieldGetter[partitionFields.length];
        for (int i = 0; i < partitionFields.length; i++) {
            partitionGetters[i] =
                    RowData.createFieldGetter(
                            FlinkTypes.toFlink(schema.fields().get(partitionFields[i]).type()),
                            partitionFields[i]);
        }
        this.partitionCodec =
                BinaryRowCodec.of(
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList());
    }

    /** Writes one row (all columns of the schema, in order) to its partition's file. */
    void write(RowData row) {
        ByteBuffer partition =
                partitionGetters.length == 0
                        ? UNPARTITIONED
                        : ByteBuffer.wrap(partitionCodec.serialize(partitionOf(row)));
        DataFileWriter writer = open.get(partition);
        if (writer == null) {
            writer = openWriter(partition);
        }
        writer.write(row);
    }

    /** Finishes every open file; returns the entries of all files finished since the last call. */
    List<ManifestEntry> finishAll() {
        for (Iterator<DataFileWriter> it = open.values().iterator(); it.hasNext(); ) {
            finished.addAll(it.next().finish());
            it.remove();
        }
        List<ManifestEntry> files = List.copyOf(finished);
        finished.clear();
        return files;
    }

    /** Deletes the files of open writers (finished files belong to the committer). */
    void abort() {
        open.values().forEach(DataFileWriter::abort);
        open.clear();
    }

    private DataFileWriter openWriter(ByteBuffer partition) {
        if (open.size() >= maxOpen) {
            Iterator<Map.Entry<ByteBuffer, DataFileWriter>> eldest = open.entrySet().iterator();
            finished.addAll(eldest.next().getValue().finish());
            eldest.remove();
        }
        DataFileWriter writer =
                DataFileWriter.open(
                        paths,
                        schema,
                        null,
                        partitionCodec.deserialize(partition.array()),
                        options);
        open.put(partition, writer);
        return writer;
    }

    private RowData partitionOf(RowData row) {
        GenericRowData partition = new GenericRowData(partitionGetters.length);
        for (int i = 0; i < partitionGetters.length; i++) {
            partition.setField(i, partitionGetters[i].getFieldOrNull(row));
        }
        return partition;
    }
}
