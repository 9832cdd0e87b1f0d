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

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The footer of a {@code .blob} file: the index of record lengths, then its byte length (int32 LE)
 * and the format version byte {@code 1}. The index lists each record's length (magic + payload +
 * length field = payload + 16; {@link #NULL} for a NULL value, {@link #PLACEHOLDER} for "unchanged"
 * in files of Paimon 2.0+) as the delta from the previous one, ZigZag-encoded, as unsigned LEB128
 * varints; the record count is the number of varints. Malformed bytes are an {@link
 * IllegalArgumentException} naming the problem.
 */
public final class BlobFooter {

    public static final byte VERSION = 1;

    /** The index length of a NULL value (no record bytes). */
    public static final long NULL = -1;

    /** The index length of an unchanged value (Paimon 2.0+; no record bytes). */
    public static final long PLACEHOLDER = -2;

    /** Bytes after the index: its length (4) and the version (1). */
    public static final int TRAILER_SIZE = 5;

    /** A record's bytes around its payload: magic (4), length (8), CRC32 (4). */
    public static final int RECORD_OVERHEAD = 16;

    /** The payload's offset inside its record (after the magic). */
    public static final int PAYLOAD_OFFSET = 4;

    private BlobFooter() {}

    /** The footer bytes of a file whose records have {@code lengths}, in order. */
    public static byte[] encode(long[] lengths, int count) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(count + TRAILER_SIZE);
        long previous = 0;
        for (int i = 0; i < count; i++) {
            long delta = lengths[i] - previous;
            previous = lengths[i];
            long zigzag = (delta << 1) ^ (delta >> 63);
            while ((zigzag & ~0x7FL) != 0) {
                out.write((int) ((zigzag & 0x7F) | 0x80));
                zigzag >>>= 7;
            }
            out.write((int) zigzag);
        }
        int indexLength = out.size();
        ByteBuffer trailer = ByteBuffer.allocate(TRAILER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        trailer.putInt(indexLength).put(VERSION);
        out.write(trailer.array(), 0, TRAILER_SIZE);
        return out.toByteArray();
    }

    /** The index length the trailer (the file's last {@link #TRAILER_SIZE} bytes) declares. */
    public static int indexLength(byte[] trailer) {
        if (trailer[4] != VERSION) {
            throw new IllegalArgumentException(
                    "its footer declares .blob format version "
                            + trailer[4]
                            + "; Dovetail reads version "
                            + VERSION);
        }
        return ByteBuffer.wrap(trailer, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /** The record lengths of an index. */
    public static long[] decode(byte[] index) {
        long[] lengths = new long[Math.max(4, index.length)];
        int count = 0;
        long previous = 0;
        int i = 0;
        while (i < index.length) {
            long zigzag = 0;
            int shift = 0;
            while (true) {
                if (i == index.length) {
                    throw new IllegalArgumentException("its footer index ends inside a varint");
                }
                if (shift > 63) {
                    throw new IllegalArgumentException(
                            "its footer index holds a varint longer than 64 bits");
                }
                byte b = index[i++];
                zigzag |= (long) (b & 0x7F) << shift;
                shift += 7;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            previous += (zigzag >>> 1) ^ -(zigzag & 1);
            lengths[count++] = previous;
        }
        long[] out = new long[count];
        System.arraycopy(lengths, 0, out, 0, count);
        return out;
    }
}
