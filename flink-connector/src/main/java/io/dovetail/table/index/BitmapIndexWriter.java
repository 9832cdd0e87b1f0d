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

import org.apache.flink.core.fs.Path;

import org.roaringbitmap.RoaringBitmap;

import javax.annotation.Nullable;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes one bitmap global index file in the format {@link BitmapIndexFile} describes (version 2,
 * as Paimon 1.4.2 writes it). It holds a bitmap per distinct value of the file's rows (at most
 * {@code global-index.row-count-per-shard} of them) and writes the file when it finishes. Rows
 * hidden by deletion vectors are in no bitmap.
 */
public final class BitmapIndexWriter implements GlobalIndexWriter {

    private final Path path;
    private final BTreeKeys order;
    private final TreeMap<byte[], RoaringBitmap> bitmaps;
    private final RoaringBitmap nulls = new RoaringBitmap();
    private long rowCount;

    /** A writer of a new file {@code bitmap-global-index-<uuid>.index} in {@code indexDir}. */
    public BitmapIndexWriter(Path indexDir, BTreeKeys order) {
        this.path = GlobalIndexFiles.newFile(indexDir, BitmapIndexFile.INDEX_TYPE);
        this.order = order;
        this.bitmaps = new TreeMap<>(order);
    }

    @Override
    public void add(@Nullable byte[] rowKey, long rowId) {
        if (rowId < 0 || rowId > Integer.MAX_VALUE) {
            throw Errors.invalidArgument(
                    "A bitmap index file holds row positions 0 to "
                            + Integer.MAX_VALUE
                            + ", got "
                            + rowId);
        }
        rowCount++;
        (rowKey == null ? nulls : bitmaps.computeIfAbsent(rowKey, k -> new RoaringBitmap()))
                .add((int) rowId);
    }

    @Override
    public long rowCount() {
        return rowCount;
    }

    /** The file's row count is its range's: a row deleted before the build is in no bitmap. */
    @Override
    public IndexFileMeta finish(long rowRangeStart, long rowRangeEnd, int fieldId) {
        long rows = rowRangeEnd - rowRangeStart + 1;
        byte[] bytes;
        try {
            bytes = serialize((int) rows);
        } catch (IOException e) {
            throw Errors.io("write", path, e);
        }
        FileIO.writeNew(path, bytes);
        return new IndexFileMeta(
                BitmapIndexFile.INDEX_TYPE,
                path.getName(),
                bytes.length,
                rows,
                null,
                null,
                new GlobalIndexMeta(rowRangeStart, rowRangeEnd, fieldId, null, null));
    }

    @Override
    public void abort() {
        FileIO.deleteQuietly(path);
    }

    private byte[] serialize(int rows) throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(file);
        out.writeByte(BitmapIndexFile.VERSION);
        out.writeInt(rows);
        out.writeInt(bitmaps.size());
        out.writeBoolean(!nulls.isEmpty());
        List<byte[]> body = new ArrayList<>();
        int next = 0;
        if (!nulls.isEmpty()) {
            byte[] serialized = serialized(nulls);
            out.writeInt(offset(nulls, 0));
            out.writeInt(serialized.length);
            if (nulls.getCardinality() > 1) {
                body.add(serialized);
                next = serialized.length;
            }
        }
        List<List<Entry>> blocks = new ArrayList<>();
        List<Integer> blockSizes = new ArrayList<>();
        int blockSize = BitmapIndexFile.BLOCK_SIZE;
        for (Map.Entry<byte[], RoaringBitmap> value : bitmaps.entrySet()) {
            RoaringBitmap bitmap = value.getValue();
            int length = -1;
            if (bitmap.getCardinality() > 1) {
                byte[] serialized = serialized(bitmap);
                body.add(serialized);
                length = serialized.length;
            }
            Entry entry = new Entry(value.getKey(), offset(bitmap, next), length);
            next += Math.max(length, 0);
            int entrySize = 8 + BitmapIndexFile.size(entry.key, order);
            if (blocks.isEmpty() || blockSize + entrySize > BitmapIndexFile.BLOCK_SIZE) {
                blocks.add(new ArrayList<>());
                blockSizes.add(4);
                blockSize = 4;
            }
            blocks.get(blocks.size() - 1).add(entry);
            blockSize += entrySize;
            blockSizes.set(blocks.size() - 1, blockSize);
        }
        out.writeInt(blocks.size());
        int blockOffset = 0;
        for (int i = 0; i < blocks.size(); i++) {
            BitmapIndexFile.writeKey(out, blocks.get(i).get(0).key, order);
            out.writeInt(blockOffset);
            blockOffset += blockSizes.get(i);
        }
        out.writeInt(blockOffset);
        for (List<Entry> block : blocks) {
            out.writeInt(block.size());
            for (Entry entry : block) {
                BitmapIndexFile.writeKey(out, entry.key, order);
                out.writeInt(entry.offset);
                out.writeInt(entry.length);
            }
        }
        for (byte[] bitmap : body) {
            out.write(bitmap);
        }
        out.flush();
        return file.toByteArray();
    }

    /** A bitmap's offset: {@code next}, or {@code -1 - row} for a single row. */
    private static int offset(RoaringBitmap bitmap, int next) {
        return bitmap.getCardinality() == 1 ? -1 - bitmap.first() : next;
    }

    private static byte[] serialized(RoaringBitmap bitmap) throws IOException {
        bitmap.runOptimize();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(bitmap.serializedSizeInBytes());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            bitmap.serialize(out);
        }
        return bytes.toByteArray();
    }

    private record Entry(byte[] key, int offset, int length) {}
}
