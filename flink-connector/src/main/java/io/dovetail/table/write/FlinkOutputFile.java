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

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.Path;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;

/**
 * A Parquet {@link OutputFile} over Flink's file system: the file is created once (never
 * overwritten) and remembers how many bytes were written, which is the exact file size after close.
 */
final class FlinkOutputFile implements OutputFile {

    private final Path path;
    private long bytesWritten = -1;

    FlinkOutputFile(Path path) {
        this.path = path;
    }

    /** Bytes in the file once its stream was closed; -1 before. */
    long closedLength() {
        return bytesWritten;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        FileIO.mkdirs(path.getParent());
        return new Stream(FileIO.createNew(path));
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        throw new IOException("Data files are never overwritten: " + path);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return path.toString();
    }

    private final class Stream extends PositionOutputStream {
        private final FSDataOutputStream out;
        private boolean closed;

        Stream(FSDataOutputStream out) {
            this.out = out;
        }

        @Override
        public long getPos() throws IOException {
            return out.getPos();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            long length = out.getPos();
            out.close();
            bytesWritten = length;
        }
    }
}
