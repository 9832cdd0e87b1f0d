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
package io.dovetail.table.format.vector;

import org.apache.flink.core.fs.FSDataInputStream;

import org.apache.avro.file.SeekableInput;

import java.io.IOException;

/** A Flink file stream as Avro's {@link SeekableInput}, so Avro reads it block by block. */
final class FlinkSeekableInput implements SeekableInput {

    private final FSDataInputStream in;
    private final long length;

    FlinkSeekableInput(FSDataInputStream in, long length) {
        this.in = in;
        this.length = length;
    }

    @Override
    public void seek(long position) throws IOException {
        in.seek(position);
    }

    @Override
    public long tell() throws IOException {
        return in.getPos();
    }

    @Override
    public long length() {
        return length;
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
