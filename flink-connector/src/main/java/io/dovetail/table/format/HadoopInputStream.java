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

import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import org.apache.hadoop.fs.BufferedFSInputStream;
import org.apache.hadoop.fs.FSInputStream;

import java.io.IOException;

/**
 * A Flink input stream as a seekable Hadoop stream, for format libraries that read through Hadoop's
 * streams (positioned reads seek and come back).
 */
final class HadoopInputStream extends FSInputStream {

    private final FSDataInputStream in;

    private HadoopInputStream(FSDataInputStream in) {
        this.in = in;
    }

    /** Opens {@code path} unbuffered: the reader reads in large pieces. */
    static FSInputStream open(Path path, String what) {
        return new HadoopInputStream(FileIO.open(path, what));
    }

    /**
     * Opens {@code path} through a buffer of {@code bufferSize} bytes (larger reads pass by it):
     * for readers that also make many small reads, each of which would otherwise be a call to the
     * file system (a system call locally, a request on an object store).
     */
    static BufferedFSInputStream openBuffered(Path path, String what, int bufferSize) {
        return new BufferedFSInputStream(open(path, what), bufferSize);
    }

    @Override
    public void seek(long position) throws IOException {
        in.seek(position);
    }

    @Override
    public long getPos() throws IOException {
        return in.getPos();
    }

    @Override
    public boolean seekToNewSource(long targetPosition) {
        return false;
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        return in.read(buffer, offset, length);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
