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
package io.dovetail.table.write;

import io.dovetail.table.format.DataFileFormat;
import io.dovetail.table.format.OrcSchemas;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import java.util.List;

/**
 * One data file being written in the format of {@link DataFileWriterOptions#format()}; {@link
 * #create} is the one place that picks the format's writer.
 */
interface OpenDataFile {

    /** A new file at {@code path} holding {@code columns}, in that order. */
    static OpenDataFile create(Path path, List<DataField> columns, DataFileWriterOptions options) {
        switch (options.format()) {
            case ORC:
                return new OpenOrcFile(path, columns, options);
            default:
                return new OpenParquetFile(path, columns, options);
        }
    }

    /** Fails unless {@code compression} (lower case) names a codec of {@code format}. */
    static void checkCompression(DataFileFormat format, String compression) {
        switch (format) {
            case ORC:
                OpenOrcFile.codec(compression);
                break;
            default:
                OpenParquetFile.codec(compression);
        }
    }

    /** Fails unless {@code format} can hold columns of the types of {@code columns}. */
    static void checkColumns(DataFileFormat format, List<DataField> columns) {
        switch (format) {
            case ORC:
                OrcSchemas.struct(columns);
                break;
            default:
                ParquetSchemas.messageType(columns);
        }
    }

    Path path();

    long rowCount();

    void write(RowData row);

    /** Bytes written so far plus what the format library buffers. */
    long estimatedSize();

    /**
     * Closes the file and reads back what a reader of the table sees: its exact size and the exact
     * statistics of each column, taken from the file as Paimon takes them (before stats modes).
     */
    Closed close();

    /** Closes the file without caring whether its content is complete. */
    void closeQuietly();

    /** A closed file: its size in bytes and one {@link ColumnStats} per column. */
    record Closed(long size, List<ColumnStats> stats) {}
}
