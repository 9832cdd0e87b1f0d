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

import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;

/**
 * The keys of a B-tree global index file of one column type, as Apache Paimon 1.4.2's B-tree key
 * serializer writes them: a {@code VARCHAR} / {@code STRING} value as its UTF-8 bytes, ordered as
 * unsigned bytes; {@code BIGINT} as 8 bytes, {@code INT} and {@code DATE} (days) as 4, {@code
 * SMALLINT} as 2, all little-endian and ordered as signed numbers; {@code TINYINT} as 1 byte
 * (signed) and {@code BOOLEAN} as 1 byte, 0 or 1. Other types (floating point, decimal, timestamp,
 * CHAR) are not looked up by Dovetail: their columns are scanned. Bitmap global index files hold
 * the same values, in this order, in their own encoding ({@link BitmapIndexFile}).
 */
public final class BTreeKeys implements Comparator<byte[]> {

    private final int width;
    private final boolean unsignedBytes;

    private BTreeKeys(int width, boolean unsignedBytes) {
        this.width = width;
        this.unsignedBytes = unsignedBytes;
    }

    /** The keys of a column of {@code type}, or empty when Dovetail does not look them up. */
    public static Optional<BTreeKeys> of(LogicalType type) {
        switch (type.getTypeRoot()) {
            case VARCHAR:
                return Optional.of(new BTreeKeys(-1, true));
            case BIGINT:
                return Optional.of(new BTreeKeys(8, false));
            case INTEGER:
            case DATE:
                return Optional.of(new BTreeKeys(4, false));
            case SMALLINT:
                return Optional.of(new BTreeKeys(2, false));
            case TINYINT:
            case BOOLEAN:
                return Optional.of(new BTreeKeys(1, false));
            default:
                return Optional.empty();
        }
    }

    /** The byte width of a key; -1 for strings (their UTF-8 bytes). */
    int width() {
        return width;
    }

    /** The key of {@code value}, a Flink internal value of the column's type. */
    public byte[] encode(Object value) {
        if (width < 0) {
            return ((StringData) value).toBytes();
        }
        ByteBuffer out = ByteBuffer.allocate(width).order(ByteOrder.LITTLE_ENDIAN);
        if (value instanceof Long l) {
            out.putLong(l);
        } else if (value instanceof Integer i) {
            out.putInt(i);
        } else if (value instanceof Short s) {
            out.putShort(s);
        } else if (value instanceof Byte b) {
            out.put(b);
        } else {
            out.put((byte) (((Boolean) value) ? 1 : 0));
        }
        return out.array();
    }

    /**
     * {@code key} in a form whose unsigned lexicographic byte order is the key order (numbers
     * big-endian with the sign bit flipped), for sorting by bytes; {@link #fromSortable} inverts
     * it.
     */
    public byte[] sortable(byte[] key) {
        if (width < 0) {
            return key;
        }
        byte[] out = new byte[key.length];
        for (int i = 0; i < key.length; i++) {
            out[i] = key[key.length - 1 - i];
        }
        out[0] ^= (byte) 0x80;
        return out;
    }

    public byte[] fromSortable(byte[] sortable) {
        if (width < 0) {
            return sortable;
        }
        byte[] copy = sortable.clone();
        copy[0] ^= (byte) 0x80;
        byte[] out = new byte[copy.length];
        for (int i = 0; i < copy.length; i++) {
            out[i] = copy[copy.length - 1 - i];
        }
        return out;
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        if (unsignedBytes) {
            return Arrays.compareUnsigned(a, b);
        }
        return Long.compare(signed(a), signed(b));
    }

    private long signed(byte[] key) {
        if (key.length != width) {
            throw new IllegalArgumentException(
                    "A " + width + "-byte B-tree key has " + key.length + " bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN);
        switch (width) {
            case 8:
                return in.getLong();
            case 4:
                return in.getInt();
            case 2:
                return in.getShort();
            default:
                return in.get();
        }
    }
}
