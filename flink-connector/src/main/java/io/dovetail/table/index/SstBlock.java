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
package io.dovetail.table.index;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Comparator;

/**
 * One decoded block of a Paimon SST file (the data and index blocks of a B-tree global index file).
 * Entries are {@code varint key length, key, varint value length, value}, back to back, sorted by
 * key; after them either one little-endian int, the size of every entry, and the byte 0 (an aligned
 * block), or each entry's start as a little-endian int, their count as one, and the byte 1
 * (unaligned). Varints are LEB128: 7 bits per byte, least significant first.
 */
final class SstBlock {

    private static final byte ALIGNED = 0;
    private static final byte UNALIGNED = 1;

    private final byte[] bytes;
    private final int count;
    private final int recordSize;
    private final int positions;

    private SstBlock(byte[] bytes, int count, int recordSize, int positions) {
        this.bytes = bytes;
        this.count = count;
        this.recordSize = recordSize;
        this.positions = positions;
    }

    /** The block in {@code bytes} (uncompressed, without its trailer). */
    static SstBlock of(byte[] bytes) {
        if (bytes.length < 5) {
            throw new IllegalArgumentException("a block of " + bytes.length + " bytes");
        }
        byte type = bytes[bytes.length - 1];
        int value = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(bytes.length - 5);
        if (type == ALIGNED && value > 0) {
            return new SstBlock(bytes, (bytes.length - 5) / value, value, -1);
        }
        if (type == UNALIGNED && value >= 0 && 5 + 4L * value <= bytes.length) {
            return new SstBlock(bytes, value, -1, bytes.length - 5 - 4 * value);
        }
        throw new IllegalArgumentException("block type " + type + " with trailer value " + value);
    }

    int size() {
        return count;
    }

    /** The first entry whose key is not below {@code key}, or {@link #size()}. */
    int lowerBound(byte[] key, Comparator<byte[]> order) {
        int low = 0;
        int high = count;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (order.compare(key(mid), key) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    byte[] key(int entry) {
        Cursor cursor = new Cursor(bytes, start(entry));
        return cursor.bytes(cursor.varInt());
    }

    /** A cursor at the value of {@code entry}. */
    Cursor value(int entry) {
        Cursor cursor = new Cursor(bytes, start(entry));
        cursor.skip(cursor.varInt());
        cursor.varInt();
        return cursor;
    }

    private int start(int entry) {
        if (recordSize > 0) {
            return entry * recordSize;
        }
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(positions + 4 * entry);
    }

    /** Reads varints and bytes of a block from a position on. */
    static final class Cursor {

        private final byte[] bytes;
        private int position;

        Cursor(byte[] bytes, int position) {
            this.bytes = bytes;
            this.position = position;
        }

        int varInt() {
            long value = varLong();
            if (value > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("varint " + value + " exceeds an int");
            }
            return (int) value;
        }

        long varLong() {
            long value = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = bytes[position++] & 0xFF;
                value |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return value;
                }
            }
            throw new IllegalArgumentException("a varint longer than 10 bytes");
        }

        byte[] bytes(int length) {
            byte[] out = new byte[length];
            System.arraycopy(bytes, position, out, 0, length);
            position += length;
            return out;
        }

        void skip(int length) {
            position += length;
        }
    }
}
