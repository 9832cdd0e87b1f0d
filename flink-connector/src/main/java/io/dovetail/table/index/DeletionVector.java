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

import io.dovetail.table.error.Errors;

import org.roaringbitmap.RoaringBitmap;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The deleted row positions of one data file, as Paimon's 32-bit deletion vector: a RoaringBitmap
 * of 0-based positions up to {@link Integer#MAX_VALUE}. Its serialized payload is the big-endian
 * magic {@value #MAGIC} followed by the bitmap's portable serialization after {@code runOptimize}.
 * 64-bit vectors (little-endian magic {@value #MAGIC_64}) are recognised and rejected.
 */
public final class DeletionVector {

    public static final int MAGIC = 1581511376;
    public static final int MAGIC_64 = 1681511377;
    private static final int MAGIC_BYTES = 4;

    private final RoaringBitmap bitmap;

    public DeletionVector() {
        this(new RoaringBitmap());
    }

    private DeletionVector(RoaringBitmap bitmap) {
        this.bitmap = bitmap;
    }

    public static DeletionVector of(long... positions) {
        DeletionVector vector = new DeletionVector();
        for (long position : positions) {
            vector.add(position);
        }
        return vector;
    }

    /** Marks {@code position} deleted; it must be in [0, 2^31 - 1]. */
    public void add(long position) {
        if (position < 0 || position > Integer.MAX_VALUE) {
            throw Errors.unsupported(
                    "deleting row position " + position + " with a 32-bit deletion vector",
                    "Positions must lie in [0, 2147483647]");
        }
        bitmap.add((int) position);
    }

    public boolean contains(long position) {
        return position >= 0 && position <= Integer.MAX_VALUE && bitmap.contains((int) position);
    }

    /** Number of deleted positions. */
    public long cardinality() {
        return bitmap.getLongCardinality();
    }

    public boolean isEmpty() {
        return bitmap.isEmpty();
    }

    /** The positions deleted in exactly one of this vector and {@code other}, ascending. */
    public long[] positionsDifferentFrom(DeletionVector other) {
        return RoaringBitmap.xor(bitmap, other.bitmap).stream()
                .mapToLong(Integer::toUnsignedLong)
                .toArray();
    }

    /** Adds all positions of {@code other} (bitwise OR). */
    public void merge(DeletionVector other) {
        bitmap.or(other.bitmap);
    }

    /**
     * This vector with every position moved up by {@code offset} (rows of a range that now starts
     * {@code offset} rows earlier); a position beyond 2^31 - 1 is refused like in {@link #add}.
     */
    public DeletionVector shifted(long offset) {
        if (offset < 0) {
            throw Errors.invalidArgument(
                    "Deletion-vector positions can only move up, got offset " + offset + ".");
        }
        if (bitmap.isEmpty()) {
            return new DeletionVector();
        }
        long last = Integer.toUnsignedLong(bitmap.last());
        if (last + offset > Integer.MAX_VALUE) {
            throw Errors.unsupported(
                    "moving deleted row position " + last + " by " + offset + " rows",
                    "A 32-bit deletion vector addresses positions up to 2147483647 only; compact"
                            + " smaller row ranges");
        }
        return new DeletionVector(RoaringBitmap.addOffset(bitmap, offset));
    }

    /** The payload stored in an index file: big-endian magic, then the portable bitmap. */
    public byte[] serialize() {
        RoaringBitmap optimized = bitmap.clone();
        optimized.runOptimize();
        ByteBuffer payload =
                ByteBuffer.allocate(MAGIC_BYTES + optimized.serializedSizeInBytes())
                        .order(ByteOrder.BIG_ENDIAN);
        payload.putInt(MAGIC);
        optimized.serialize(payload.slice().order(ByteOrder.LITTLE_ENDIAN));
        return payload.array();
    }

    /**
     * Decodes a payload; {@code source} names the index and data file for errors. A 64-bit vector
     * is reported as not supported, anything else unexpected as corruption.
     */
    public static DeletionVector deserialize(byte[] payload, Object source) {
        if (payload.length < MAGIC_BYTES) {
            throw Errors.corruptFile(source, "deletion vector of " + payload.length + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(payload);
        int magic = buffer.order(ByteOrder.BIG_ENDIAN).getInt(0);
        if (magic != MAGIC) {
            if (buffer.order(ByteOrder.LITTLE_ENDIAN).getInt(0) == MAGIC_64) {
                throw Errors.unsupported(
                        "64-bit deletion vector in " + source,
                        "Dovetail reads only 32-bit deletion vectors; the table was written with"
                                + " deletion-vectors.bitmap64 = true");
            }
            throw Errors.corruptFile(
                    source, "deletion vector has magic number " + magic + ", expected " + MAGIC);
        }
        RoaringBitmap bitmap = new RoaringBitmap();
        ByteBuffer serialized =
                ByteBuffer.wrap(payload, MAGIC_BYTES, payload.length - MAGIC_BYTES)
                        .slice()
                        .order(ByteOrder.LITTLE_ENDIAN);
        try {
            bitmap.deserialize(serialized);
        } catch (IOException | RuntimeException e) {
            throw Errors.corruptFile(source, "invalid RoaringBitmap in deletion vector", e);
        }
        if (bitmap.serializedSizeInBytes() != payload.length - MAGIC_BYTES) {
            throw Errors.corruptFile(
                    source,
                    "deletion vector bitmap takes "
                            + bitmap.serializedSizeInBytes()
                            + " bytes but its payload holds "
                            + (payload.length - MAGIC_BYTES));
        }
        if (!bitmap.isEmpty() && bitmap.last() < 0) {
            throw Errors.corruptFile(source, "deletion vector holds a position above 2^31 - 1");
        }
        return new DeletionVector(bitmap);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeletionVector && bitmap.equals(((DeletionVector) o).bitmap);
    }

    @Override
    public int hashCode() {
        return bitmap.hashCode();
    }

    @Override
    public String toString() {
        return "DeletionVector" + bitmap;
    }
}
