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
import io.dovetail.table.fs.FileIO;

import org.apache.flink.core.fs.FSDataOutputStream;
import org.apache.flink.core.fs.Path;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import javax.annotation.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32;

/**
 * Writes one B-tree global index file in the format {@link BTreeIndexFile} describes, uncompressed
 * (Paimon's default), streaming: it holds one data block (about 64 KiB), the row ids of the current
 * key, the index block (one entry per data block) and the null bitmap.
 */
public final class BTreeIndexWriter implements GlobalIndexWriter {

    static final int BLOCK_SIZE = 64 * 1024;

    private final Path path;
    private final BTreeKeys order;
    private final FSDataOutputStream out;
    private final BlockBuilder data = new BlockBuilder();
    private final BlockBuilder index = new BlockBuilder();
    private final Roaring64NavigableMap nulls = new Roaring64NavigableMap();
    private final Varints rowIds = new Varints();
    private long position;
    private long rowCount;
    private int keyRows;
    @Nullable private byte[] key;
    @Nullable private byte[] firstKey;
    @Nullable private byte[] lastBlockKey;

    /** A writer of a new file {@code btree-global-index-<uuid>.index} in {@code indexDir}. */
    public BTreeIndexWriter(Path indexDir, BTreeKeys order) {
        this.path = GlobalIndexFiles.newFile(indexDir, BTreeIndexFile.INDEX_TYPE);
        this.order = order;
        this.out = FileIO.createNew(path);
    }

    @Override
    public void add(@Nullable byte[] rowKey, long rowId) {
        rowCount++;
        if (rowKey == null) {
            nulls.addLong(rowId);
            return;
        }
        if (key != null && !Arrays.equals(key, rowKey)) {
            if (order.compare(key, rowKey) > 0) {
                throw Errors.invalidArgument("B-tree index keys must come in ascending order");
            }
            try {
                flushKey();
            } catch (IOException e) {
                throw Errors.io("write", path, e);
            }
        }
        if (firstKey == null) {
            firstKey = rowKey;
        }
        key = rowKey;
        rowIds.putLong(rowId);
        keyRows++;
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    @Override
    public IndexFileMeta finish(long rowRangeStart, long rowRangeEnd, int fieldId) {
        try {
            flushKey();
            flushBlock();
            long[] nullHandle = nulls.isEmpty() ? new long[] {0, 0} : writeNulls();
            long[] indexHandle = writeBlock(index);
            ByteBuffer footer =
                    ByteBuffer.allocate(BTreeIndexFile.FOOTER_LENGTH)
                            .order(ByteOrder.LITTLE_ENDIAN);
            footer.putLong(0).putInt(0).putLong(0); // no bloom filter
            footer.putLong(indexHandle[0]).putInt((int) indexHandle[1]);
            footer.putLong(nullHandle[0]).putInt((int) nullHandle[1]);
            footer.putInt(BTreeIndexFile.FOOTER_VERSION).putInt(BTreeIndexFile.FOOTER_MAGIC);
            write(footer.array());
            out.close();
        } catch (IOException e) {
            throw Errors.io("write", path, e);
        }
        return new IndexFileMeta(
                BTreeIndexFile.INDEX_TYPE,
                path.getName(),
                position,
                rowCount,
                null,
                null,
                new GlobalIndexMeta(rowRangeStart, rowRangeEnd, fieldId, null, meta()));
    }

    @Override
    public void abort() {
        try {
            out.close();
        } catch (IOException ignored) {
            // deleted below
        }
        FileIO.deleteQuietly(path);
    }

    private void flushKey() throws IOException {
        if (keyRows == 0) {
            return;
        }
        Varints value = new Varints();
        value.putLong(keyRows);
        value.append(rowIds);
        data.add(key, value.toBytes());
        lastBlockKey = key;
        rowIds.reset();
        keyRows = 0;
        if (data.memory() > BLOCK_SIZE) {
            flushBlock();
        }
    }

    private void flushBlock() throws IOException {
        if (data.isEmpty()) {
            return;
        }
        long[] handle = writeBlock(data);
        Varints value = new Varints();
        value.putLong(handle[0]);
        value.putLong(handle[1]);
        index.add(lastBlockKey, value.toBytes());
    }

    /** Writes a block and its trailer; returns its offset and size. */
    private long[] writeBlock(BlockBuilder block) throws IOException {
        byte[] bytes = block.finish();
        long offset = position;
        CRC32 crc = new CRC32();
        crc.update(bytes);
        crc.update(0); // no compression
        write(bytes);
        write(
                ByteBuffer.allocate(5)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .put((byte) 0)
                        .putInt((int) crc.getValue())
                        .array());
        return new long[] {offset, bytes.length};
    }

    private long[] writeNulls() throws IOException {
        nulls.runOptimize();
        ByteArrayOutputStream bitmap = new ByteArrayOutputStream();
        try (DataOutputStream stream = new DataOutputStream(bitmap)) {
            nulls.serializePortable(stream);
        }
        byte[] bytes = bitmap.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(bytes);
        long offset = position;
        write(bytes);
        write(
                ByteBuffer.allocate(4)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putInt((int) crc.getValue())
                        .array());
        return new long[] {offset, bytes.length};
    }

    private byte[] meta() {
        ByteBuffer meta =
                ByteBuffer.allocate(
                                9
                                        + (firstKey == null ? 0 : firstKey.length)
                                        + (key == null ? 0 : key.length))
                        .order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] k : new byte[][] {firstKey, key}) {
            meta.putInt(k == null ? -1 : k.length);
            if (k != null) {
                meta.put(k);
            }
        }
        meta.put((byte) (nulls.isEmpty() ? 0 : 1));
        return meta.array();
    }

    private void write(byte[] bytes) throws IOException {
        out.write(bytes);
        position += bytes.length;
    }

    /** Builds an unaligned block: entries, their start positions, their count, the byte 1. */
    private static final class BlockBuilder {

        private final Varints entries = new Varints();
        private int[] starts = new int[64];
        private int count;

        void add(byte[] key, byte[] value) {
            if (count == starts.length) {
                starts = Arrays.copyOf(starts, count * 2);
            }
            starts[count++] = entries.size();
            entries.putLong(key.length);
            entries.put(key);
            entries.putLong(value.length);
            entries.put(value);
        }

        boolean isEmpty() {
            return count == 0;
        }

        int memory() {
            return entries.size() + 5 + 4 * count;
        }

        byte[] finish() {
            ByteBuffer block = ByteBuffer.allocate(memory()).order(ByteOrder.LITTLE_ENDIAN);
            block.put(entries.toBytes());
            for (int i = 0; i < count; i++) {
                block.putInt(starts[i]);
            }
            block.putInt(count);
            block.put((byte) 1);
            entries.reset();
            count = 0;
            return block.array();
        }
    }

    /** A growing byte buffer with LEB128 varints. */
    private static final class Varints {

        private byte[] bytes = new byte[256];
        private int size;

        void putLong(long value) {
            while ((value & ~0x7FL) != 0) {
                put((byte) ((value & 0x7F) | 0x80));
                value >>>= 7;
            }
            put((byte) value);
        }

        void put(byte b) {
            if (size == bytes.length) {
                bytes = Arrays.copyOf(bytes, size * 2);
            }
            bytes[size++] = b;
        }

        void put(byte[] more) {
            if (size + more.length > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(size * 2, size + more.length));
            }
            System.arraycopy(more, 0, bytes, size, more.length);
            size += more.length;
        }

        void append(Varints other) {
            put(other.toBytes());
        }

        int size() {
            return size;
        }

        byte[] toBytes() {
            return Arrays.copyOf(bytes, size);
        }

        void reset() {
            size = 0;
        }
    }
}
