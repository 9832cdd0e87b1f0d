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
package io.dovetail.table.format.blob;

import org.apache.flink.core.fs.FSDataOutputStream;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Writes a {@code .blob} file: per non-NULL value a record (magic {@code CF 11 4E 58}, the payload
 * streamed in chunks, the record length = payload + 16 as int64 LE, a CRC32 of the three as int32
 * LE); NULL writes no bytes; {@link #finish} appends the {@link BlobFooter}. Only the footer and a
 * chunk buffer are held in memory, whatever the size of a value.
 */
public final class BlobFileWriter {

    private static final int MAGIC = 0x584E11CF;
    private static final int CHUNK = 4096;

    private final FSDataOutputStream out;
    private final byte[] chunk = new byte[CHUNK];
    private final ByteBuffer scratch = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32 crc = new CRC32();
    private long[] lengths = new long[64];
    private int count;
    private long position;

    public BlobFileWriter(FSDataOutputStream out) throws IOException {
        this.out = out;
        this.position = out.getPos();
    }

    /** Appends a NULL value. */
    public void writeNull() {
        add(BlobFooter.NULL);
    }

    /** Appends {@code payload}. */
    public void write(byte[] payload) throws IOException {
        long start = startRecord();
        update(payload, 0, payload.length);
        finishRecord(start, payload.length);
    }

    /**
     * Appends the bytes of {@code payload} up to its end, or {@code length} of them when not -1
     * (fewer is an error); returns their number.
     */
    public long write(InputStream payload, long length) throws IOException {
        long start = startRecord();
        long copied = 0;
        while (length < 0 || copied < length) {
            int want = length < 0 ? CHUNK : (int) Math.min(CHUNK, length - copied);
            int n = payload.read(chunk, 0, want);
            if (n < 0) {
                if (length >= 0) {
                    throw new IOException(
                            "the BLOB's source ended after " + copied + " of " + length + " bytes");
                }
                break;
            }
            update(chunk, 0, n);
            copied += n;
        }
        finishRecord(start, copied);
        return copied;
    }

    /** The values written so far. */
    public int count() {
        return count;
    }

    /** The bytes written so far (without the footer). */
    public long length() {
        return position;
    }

    /** Writes the footer; the caller closes the stream. */
    public void finish() throws IOException {
        byte[] footer = BlobFooter.encode(lengths, count);
        out.write(footer);
        position += footer.length;
    }

    private long startRecord() throws IOException {
        crc.reset();
        scratch.clear();
        scratch.putInt(MAGIC);
        update(scratch.array(), 0, 4);
        return position - 4;
    }

    private void finishRecord(long start, long payloadLength) throws IOException {
        long recordLength = payloadLength + BlobFooter.RECORD_OVERHEAD;
        scratch.clear();
        scratch.putLong(recordLength);
        update(scratch.array(), 0, 8);
        scratch.clear();
        scratch.putInt((int) crc.getValue());
        out.write(scratch.array(), 0, 4);
        position += 4;
        if (position - start != recordLength) {
            throw new IllegalStateException("a BLOB record of unexpected length");
        }
        add(recordLength);
    }

    private void update(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        crc.update(bytes, offset, length);
        position += length;
    }

    private void add(long length) {
        if (count == lengths.length) {
            lengths = Arrays.copyOf(lengths, count * 2);
        }
        lengths[count++] = length;
    }
}
