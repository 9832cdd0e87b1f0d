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

import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet {@link InputFile} over Flink's file system, for a file of known length. */
final class FlinkInputFile implements InputFile {

    private final Path path;
    private final long length;

    FlinkInputFile(Path path, long length) {
        this.path = path;
        this.length = length;
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() {
        FSDataInputStream in = FileIO.open(path, "a Parquet reader");
        return new DelegatingSeekableInputStream(in) {
            @Override
            public long getPos() throws java.io.IOException {
                return in.getPos();
            }

            @Override
            public void seek(long newPos) throws java.io.IOException {
                in.seek(newPos);
            }
        };
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
