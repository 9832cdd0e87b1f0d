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

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.OrcFiles;
import io.dovetail.table.format.OrcSchemas;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.orc.vector.RowDataVectorizer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hive.ql.exec.vector.VectorizedRowBatch;
import org.apache.orc.CompressionKind;
import org.apache.orc.OrcConf;
import org.apache.orc.OrcFile;
import org.apache.orc.Reader;
import org.apache.orc.TypeDescription;
import org.apache.orc.Writer;
import org.apache.orc.impl.PhysicalFsWriter;
import org.apache.orc.impl.WriterImpl;
import org.apache.orc.impl.writer.WriterEncryptionVariant;

import java.io.IOException;
import java.util.List;
import java.util.Properties;

/**
 * One ORC data file being written by ORC's writer with Paimon's settings: the schema of {@link
 * OrcSchemas}, the table's codec ({@code file.compression}) unless {@code orc.compress} says
 * otherwise, ORC's defaults for everything else unless {@code orc.*} options say otherwise, rows
 * handed over in batches of 1024. Statistics come from the file's column statistics ({@link
 * OrcStats}).
 */
final class OpenOrcFile implements OpenDataFile {

    /** Rows collected before they are handed to the ORC writer (Paimon's write batch size). */
    private static final int BATCH_ROWS = 1024;

    private final Path path;
    private final List<DataField> columns;
    private final FSDataOutputStream output;
    private final Writer writer;
    private final VectorizedRowBatch batch;
    private final RowDataVectorizer vectorizer;
    private long rowCount;

    OpenOrcFile(Path path, List<DataField> columns, DataFileWriterOptions options) {
        this.path = path;
        this.columns = columns;
        TypeDescription schema = OrcSchemas.struct(columns);
        Properties properties = new Properties();
        properties.putAll(options.formatOptions());
        OrcFile.WriterOptions writerOptions =
                OrcFile.writerOptions(properties, new Configuration(false)).setSchema(schema);
        if (!properties.containsKey(OrcConf.COMPRESS.getAttribute())) {
            writerOptions.compress(codec(options.compression()));
        }
        FileIO.mkdirs(path.getParent());
        this.output = new FSDataOutputStream(FileIO.createNew(path), null);
        try {
            writerOptions.physicalWriter(
                    new PhysicalFsWriter(output, writerOptions, new WriterEncryptionVariant[0]));
            this.writer =
                    new WriterImpl(
                            null, new org.apache.hadoop.fs.Path(path.toUri()), writerOptions);
        } catch (IOException e) {
            closeOutputQuietly();
            FileIO.deleteQuietly(path);
            throw Errors.io("create data file", path, e);
        }
        this.batch = schema.createRowBatch(BATCH_ROWS);
        this.vectorizer =
                new RowDataVectorizer(
                        schema.toString(),
                        columns.stream()
                                .map(c -> OrcSchemas.vectorType(c.type()))
                                .toArray(LogicalType[]::new));
    }

    /** The ORC codec of a {@code file.compression} value (lower case), as Paimon maps it. */
    static CompressionKind codec(String compression) {
        switch (compression) {
            case "none":
                return CompressionKind.NONE;
            case "zstd":
                return CompressionKind.ZSTD;
            case "zlib":
                return CompressionKind.ZLIB;
            case "snappy":
                return CompressionKind.SNAPPY;
            case "lz4":
                return CompressionKind.LZ4;
            default:
                throw Errors.unsupported(
                        "ORC compression '"
                                + compression
                                + "' (option "
                                + DataFileWriterOptions.FILE_COMPRESSION
                                + ")",
                        "Use zstd, zlib, snappy, lz4 or none");
        }
    }

    @Override
    public Path path() {
        return path;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public void write(RowData row) {
        vectorizer.vectorize(row, batch);
        rowCount++;
        if (batch.size == batch.getMaxSize()) {
            flushBatch();
        }
    }

    private void flushBatch() {
        try {
            writer.addRowBatch(batch);
        } catch (IOException e) {
            throw Errors.io("write to data file", path, e);
        }
        batch.reset();
    }

    @Override
    public long estimatedSize() {
        return output.getPos() + writer.estimateMemory();
    }

    @Override
    public Closed close() {
        if (batch.size > 0) {
            flushBatch();
        }
        try {
            writer.close();
        } catch (IOException e) {
            throw Errors.io("close data file", path, e);
        }
        long size = output.getPos();
        try (Reader reader = OrcFiles.open(path, size)) {
            if (reader.getNumberOfRows() != rowCount) {
                throw Errors.corruptFile(
                        path,
                        "the written file holds "
                                + reader.getNumberOfRows()
                                + " rows, not "
                                + rowCount);
            }
            List<ColumnStats> stats = OrcStats.of(reader, columns);
            return new Closed(size, stats);
        } catch (IOException e) {
            throw Errors.io("read the statistics of", path, e);
        }
    }

    @Override
    public void closeQuietly() {
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            closeOutputQuietly();
        }
    }

    private void closeOutputQuietly() {
        try {
            output.close();
        } catch (IOException | RuntimeException e) {
            // the file is deleted by the caller
        }
    }
}
