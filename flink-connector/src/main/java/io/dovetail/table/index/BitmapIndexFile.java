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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;
import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

import org.roaringbitmap.RoaringBitmap;

import java.io.BufferedInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Looks keys up in a bitmap global index file ({@code index_type} {@code bitmap}), as Apache Paimon
 * 1.4.2's {@code create_global_index} writes them: Paimon's bitmap file index of one column over
 * the rows {@code [_ROW_RANGE_START, _ROW_RANGE_END]} of one partition, one file per range (at most
 * {@code global-index.row-count-per-shard}, 100,000 by default, rows), no {@code _INDEX_META}. The
 * format facts:
 *
 * <ul>
 *   <li>Every number is big-endian ({@link java.io.DataOutput}). A row is its position: its row id
 *       minus the file's {@code _ROW_RANGE_START}.
 *   <li>Head: the version (a byte, 1 or 2; Paimon writes 2), the row count (int), the number of
 *       distinct non-null values (int), a byte 1 if some value is NULL, then, if so, the NULL
 *       bitmap's offset (int) and, in version 2 only, its serialized length (int).
 *   <li>A value is written as the column's Java {@code DataOutput} form: a string as its UTF-8
 *       length (int) and bytes, a BIGINT as a long, an INT or DATE (days) as an int, a SMALLINT as
 *       a short, a TINYINT as a byte, a BOOLEAN as a byte 0 or 1; values are ordered as {@link
 *       BTreeKeys} orders them (strings by unsigned bytes).
 *   <li>Version 1: each value and its bitmap offset (int), in no order; the bitmaps start right
 *       after.
 *   <li>Version 2: the number of index blocks (int), each block's first value and its offset (int)
 *       from the start of the blocks, the blocks' total length (int), then the blocks (of at most
 *       16 KiB: an int entry count, then entries sorted by value: value, bitmap offset, bitmap
 *       length, both ints), then the bitmaps.
 *   <li>A bitmap offset counts from the start of the bitmaps. A negative offset {@code o} is a
 *       value (or NULL) with a single row, at position {@code -1 - o}, and no serialized bitmap
 *       (its length is -1); otherwise the bitmap is a 32-bit roaring bitmap in the portable
 *       serialization. The NULL bitmap, if it has several rows, comes first (offset 0).
 * </ul>
 */
public final class BitmapIndexFile {

    public static final String INDEX_TYPE = "bitmap";

    static final int VERSION = 2;
    static final int BLOCK_SIZE = 16 * 1024;
    private static final int VERSION_1 = 1;
    private static final int HEAD = 1 + 4 + 4 + 1;

    private BitmapIndexFile() {}

    /**
     * Passes the positions (row ids relative to the file's row range start) of the rows whose key
     * is one of {@code keys} to {@code rowIds}; {@code keys} must be sorted by {@code order}
     * without duplicates. A version other than 1 and 2 is unsupported.
     */
    public static void lookup(Path path, BTreeKeys order, List<byte[]> keys, LongConsumer rowIds) {
        lookup(path, order, keys, false, rowIds);
    }

    /**
     * As {@link #lookup(Path, BTreeKeys, List, LongConsumer)}, and when {@code nulls} also the
     * positions of the rows whose value is NULL.
     */
    public static void lookup(
            Path path, BTreeKeys order, List<byte[]> keys, boolean nulls, LongConsumer rowIds) {
        try (FSDataInputStream in = FileIO.open(path, "the index manifest")) {
            DataInputStream head = new DataInputStream(new BufferedInputStream(in));
            int version = head.readUnsignedByte();
            if (version != VERSION_1 && version != VERSION) {
                throw Errors.unsupported(
                        "bitmap index version " + version + " (" + path + ")",
                        "Dovetail reads versions 1 and 2, Paimon 1.4.2's; the read scans instead");
            }
            head.readInt(); // row count
            int values = head.readInt();
            long position = HEAD;
            List<Integer> offsets = new ArrayList<>();
            if (head.readBoolean()) {
                int nullOffset = head.readInt();
                if (nulls) {
                    offsets.add(nullOffset);
                }
                position += 4;
                if (version == VERSION) {
                    head.readInt();
                    position += 4;
                }
            }
            long bitmapsStart;
            if (version == VERSION_1) {
                for (int i = 0; i < values; i++) {
                    byte[] value = readKey(head, order);
                    int offset = head.readInt();
                    position += size(value, order) + 4;
                    if (Collections.binarySearch(keys, value, order) >= 0) {
                        offsets.add(offset);
                    }
                }
                bitmapsStart = position;
            } else {
                int blocks = head.readInt();
                position += 4;
                List<byte[]> firstKeys = new ArrayList<>(blocks);
                int[] blockOffsets = new int[blocks];
                for (int i = 0; i < blocks; i++) {
                    byte[] first = readKey(head, order);
                    firstKeys.add(first);
                    blockOffsets[i] = head.readInt();
                    position += size(first, order) + 4;
                }
                int blocksLength = head.readInt();
                long blocksStart = position + 4;
                bitmapsStart = blocksStart + blocksLength;
                Map<Integer, Map<ByteBuffer, Integer>> read = new HashMap<>();
                for (byte[] key : keys) {
                    int block = Collections.binarySearch(firstKeys, key, order);
                    block = block < 0 ? -2 - block : block;
                    if (block < 0) {
                        continue;
                    }
                    Map<ByteBuffer, Integer> entries =
                            read.computeIfAbsent(
                                    block,
                                    b -> readBlock(in, path, blocksStart + blockOffsets[b], order));
                    Integer offset = entries.get(ByteBuffer.wrap(key));
                    if (offset != null) {
                        offsets.add(offset);
                    }
                }
            }
            for (int offset : offsets) {
                if (offset < 0) {
                    rowIds.accept(-1L - offset);
                    continue;
                }
                in.seek(bitmapsStart + offset);
                RoaringBitmap bitmap = new RoaringBitmap();
                bitmap.deserialize(new DataInputStream(new BufferedInputStream(in)));
                bitmap.forEach((int row) -> rowIds.accept(Integer.toUnsignedLong(row)));
            }
        } catch (IOException | RuntimeException e) {
            if (e instanceof DovetailException dovetail) {
                throw dovetail;
            }
            throw Errors.corruptFile(path, "cannot read it as a bitmap global index", e);
        }
    }

    /** A version 2 index block: each value's bitmap offset. */
    private static Map<ByteBuffer, Integer> readBlock(
            FSDataInputStream in, Path path, long offset, BTreeKeys order) {
        try {
            in.seek(offset);
            DataInputStream block = new DataInputStream(new BufferedInputStream(in));
            Map<ByteBuffer, Integer> entries = new HashMap<>();
            for (int n = block.readInt(); n > 0; n--) {
                byte[] value = readKey(block, order);
                entries.put(ByteBuffer.wrap(value), block.readInt());
                block.readInt(); // length
            }
            return entries;
        } catch (IOException e) {
            throw Errors.io("read", path, e);
        }
    }

    /** Reads a value in its on-disk form as a {@link BTreeKeys} key. */
    static byte[] readKey(DataInput in, BTreeKeys order) throws IOException {
        int width = order.width();
        byte[] key = new byte[width < 0 ? in.readInt() : width];
        in.readFully(key);
        if (width > 0) {
            reverse(key);
        }
        return key;
    }

    /** Writes a {@link BTreeKeys} key in its on-disk form. */
    static void writeKey(DataOutput out, byte[] key, BTreeKeys order) throws IOException {
        if (order.width() < 0) {
            out.writeInt(key.length);
            out.write(key);
        } else {
            byte[] bigEndian = key.clone();
            reverse(bigEndian);
            out.write(bigEndian);
        }
    }

    /** The on-disk size of a value. */
    static int size(byte[] key, BTreeKeys order) {
        return order.width() < 0 ? 4 + key.length : order.width();
    }

    private static void reverse(byte[] bytes) {
        for (int i = 0, j = bytes.length - 1; i < j; i++, j--) {
            byte b = bytes[i];
            bytes[i] = bytes[j];
            bytes[j] = b;
        }
    }
}
