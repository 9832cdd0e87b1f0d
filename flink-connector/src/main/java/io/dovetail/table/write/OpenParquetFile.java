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
import io.dovetail.table.format.ParquetFiles;
import io.dovetail.table.fs.FileIO;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.data.RowData;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.codec.ZstandardCodec;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

import java.io.IOException;
import java.util.List;

/**
 * One Parquet data file being written by parquet-mr's {@link ParquetWriter} with Paimon's settings
 * (metadata format section 7.3): writer version 1, dictionary encoding, column statistics, the
 * table's codec, 128 MB row groups and 1 MB pages unless {@code parquet.*} options say otherwise.
 * Statistics come from the footer ({@link FooterStats}).
 */
final class OpenParquetFile implements OpenDataFile {

    static final String BLOCK_SIZE = "parquet.block.size";
    static final String PAGE_SIZE = "parquet.page.size";
    static final String ENABLE_DICTIONARY = "parquet.enable.dictionary";

    private static final long DEFAULT_BLOCK_SIZE = 128L * 1024 * 1024;
    private static final int DEFAULT_PAGE_SIZE = 1024 * 1024;

    private final Path path;
    private final List<DataField> columns;
    private final FlinkOutputFile output;
    private final ParquetWriter<RowData> writer;
    private long rowCount;

    OpenParquetFile(Path path, List<DataField> columns, DataFileWriterOptions options) {
        this.path = path;
        this.columns = columns;
        this.output = new FlinkOutputFile(path);
        Configuration conf = new Configuration(false);
        conf.setInt(ZstandardCodec.PARQUET_COMPRESS_ZSTD_LEVEL, options.zstdLevel());
        options.formatOptions().forEach(conf::set);
        try {
            this.writer =
                    new Builder(output, new RowDataWriteSupport(columns))
                            .withConf(conf)
                            .withCompressionCodec(codec(options.compression()))
                            .withRowGroupSize(conf.getLong(BLOCK_SIZE, DEFAULT_BLOCK_SIZE))
                            .withPageSize(conf.getInt(PAGE_SIZE, DEFAULT_PAGE_SIZE))
                            .withDictionaryEncoding(conf.getBoolean(ENABLE_DICTIONARY, true))
                            .build();
        } catch (IOException e) {
            FileIO.deleteQuietly(path);
            throw Errors.io("create data file", path, e);
        }
    }

    /** The parquet-mr codec of a {@code file.compression} value (lower case). */
    static CompressionCodecName codec(String compression) {
        switch (compression) {
            case "none":
            case "uncompressed":
                return CompressionCodecName.UNCOMPRESSED;
            case "zstd":
                return CompressionCodecName.ZSTD;
            case "snappy":
                return CompressionCodecName.SNAPPY;
            case "gzip":
                return CompressionCodecName.GZIP;
            case "lz4_raw":
                return CompressionCodecName.LZ4_RAW;
            default:
                throw Errors.unsupported(
                        "Parquet compression '"
                                + compression
                                + "' (option "
                                + DataFileWriterOptions.FILE_COMPRESSION
                                + ")",
                        "Use zstd, snappy, gzip, lz4_raw or none");
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
        try {
            writer.write(row);
        } catch (IOException e) {
            throw Errors.io("write to data file", path, e);
        }
        rowCount++;
    }

    @Override
    public long estimatedSize() {
        return writer.getDataSize();
    }

    @Override
    public Closed close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw Errors.io("close data file", path, e);
        }
        long size = output.closedLength();
        ParquetMetadata footer = readFooter(size);
        long footerRows = footer.getBlocks().stream().mapToLong(b -> b.getRowCount()).sum();
        if (footerRows != rowCount) {
            throw Errors.corruptFile(
                    path, "the written file holds " + footerRows + " rows, not " + rowCount);
        }
        List<ColumnStats> stats = FooterStats.of(footer, columns);
        return new Closed(size, stats);
    }

    @Override
    public void closeQuietly() {
        try {
            writer.close();
        } catch (IOException | RuntimeException e) {
            // the file is deleted by the caller
        }
    }

    /** Reads the footer back from the closed file, as a reader of the table would see it. */
    private ParquetMetadata readFooter(long size) {
        try (ParquetFileReader reader =
                ParquetFileReader.open(
                        ParquetFiles.inputFile(path, size, "a Parquet file written"),
                        ParquetFiles.readOptions())) {
            return reader.getFooter();
        } catch (IOException e) {
            throw Errors.io("read the footer of", path, e);
        }
    }

    private static final class Builder extends ParquetWriter.Builder<RowData, Builder> {
        private final WriteSupport<RowData> writeSupport;

        Builder(FlinkOutputFile file, WriteSupport<RowData> writeSupport) {
            super(file);
            this.writeSupport = writeSupport;
        }

        @Override
        protected Builder self() {
            return this;
        }

        @Override
        protected WriteSupport<RowData> getWriteSupport(Configuration conf) {
            return writeSupport;
        }
    }
}
