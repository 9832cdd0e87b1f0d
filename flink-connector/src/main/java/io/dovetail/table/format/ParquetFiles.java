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
package io.dovetail.table.format;

import org.apache.flink.core.fs.Path;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.HadoopParquetConfiguration;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** What every reader of Parquet data files shares. */
public final class ParquetFiles {

    /**
     * Parquet reads a column's page indexes with a call per few bytes (Thrift over the stream): a
     * row-selective read of a large file spent most of its time in those calls unbuffered.
     */
    private static final int BUFFER_SIZE = 32 * 1024;

    private ParquetFiles() {}

    /** The Parquet file at {@code path}, of {@code length} bytes, read through a buffer. */
    public static InputFile inputFile(Path path, long length, String what) {
        return new InputFile() {
            @Override
            public long getLength() {
                return length;
            }

            @Override
            public SeekableInputStream newStream() {
                return HadoopStreams.wrap(
                        new FSDataInputStream(
                                HadoopInputStream.openBuffered(path, what, BUFFER_SIZE)));
            }

            @Override
            public String toString() {
                return path.toString();
            }
        };
    }

    /**
     * Parquet's default read options over an empty Hadoop configuration: {@code
     * ParquetReadOptions.builder()} loads a new one from Hadoop's default XML resources, which
     * costs more than reading a point lookup's page.
     */
    public static ParquetReadOptions readOptions() {
        return ParquetReadOptions.builder(new HadoopParquetConfiguration(new Configuration(false)))
                .build();
    }
}
