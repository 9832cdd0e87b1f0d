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

import com.github.luben.zstd.Zstd;
import org.roaringbitmap.longlong.Roaring64NavigableMap;

import javax.annotation.Nullable;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.zip.CRC32;

/**
 * Looks keys up in a B-tree global index file ({@code index_type} {@code btree}), as Apache Paimon
 * 1.4.2's {@code create_global_index} writes them. The format facts:
 *
 * <ul>
 *   <li>The file indexes one column of the rows {@code [_ROW_RANGE_START, _ROW_RANGE_END]} of one
 *       partition (its {@code _GLOBAL_INDEX} record in the index manifest); a partition's range of
 *       contiguous row ids may be split over several files by key (at most {@code
 *       btree-index.records-per-range}, 1,000,000 by default, times 1.2 rows each), all with the
 *       same range.
 *   <li>Layout: data blocks, the null bitmap (a 64-bit roaring bitmap of the rows whose value is
 *       NULL, then its CRC32), the bloom filter (none in 1.4.2), the index block, and a 52-byte
 *       footer: bloom filter handle (offset long, size int, expected entries long; all 0 when
 *       absent), index block handle (offset long, size int), null bitmap handle (offset long, size
 *       int; 0 and 0 when no value is NULL), the footer version 1 and the magic number 1346524233,
 *       both ints. Every number of the footer is little-endian.
 *   <li>A block on disk is followed by a 5-byte trailer: its compression (0 none, the default of
 *       {@code btree-index.compression}; 1 zstd; 2 lz4; 3 lzo) and the CRC32 of the block bytes and
 *       that byte, as a little-endian int. A compressed block starts with the varint length of its
 *       uncompressed form. A handle's size excludes the trailer.
 *   <li>Blocks hold sorted key-value entries ({@link SstBlock}); blocks are about 64 KiB ({@code
 *       btree-index.block-size}). The index block has one entry per data block: the block's last
 *       key, and its handle as a varint offset and a varint size.
 *   <li>A data block entry is one distinct non-null key ({@link BTreeKeys}) and its rows: a varint
 *       count, then that many varint row ids, each relative to the file's {@code _ROW_RANGE_START}.
 *   <li>{@code _INDEX_META} holds the first key and the last key (each an int length, -1 for none,
 *       and the bytes) and a byte 1 when some value is NULL.
 * </ul>
 */
public final class BTreeIndexFile {

    public static final String INDEX_TYPE = "btree";

    static final int FOOTER_LENGTH = 52;
    static final int FOOTER_VERSION = 1;
    static final int FOOTER_MAGIC = 1346524233;
    private static final int INDEX_HANDLE_POSITION = 20;
    private static final int NULLS_HANDLE_POSITION = 32;
    private static final int TRAILER_LENGTH = 5;
    private static final byte NONE = 0;
    private static final byte ZSTD = 1;

    private BTreeIndexFile() {}

    /**
     * Passes the row ids (relative to the file's row range start) of the rows whose key is one of
     * {@code keys} to {@code rowIds}; {@code keys} must be sorted by {@code order} without
     * duplicates. A block compressed by a codec other than zstd is unsupported.
     */
    public static void lookup(
            Path path, long fileSize, BTreeKeys order, List<byte[]> keys, LongConsumer rowIds) {
        readFile(
                path,
                fileSize,
                (in, footer) -> {
                    SstBlock index =
                            block(
                                    in,
                                    path,
                                    footer.getLong(INDEX_HANDLE_POSITION),
                                    footer.getInt(INDEX_HANDLE_POSITION + 8));
                    int current = -1;
                    SstBlock data = null;
                    for (byte[] key : keys) {
                        int block = index.lowerBound(key, order);
                        if (block == index.size()) {
                            return;
                        }
                        if (block != current) {
                            SstBlock.Cursor handle = index.value(block);
                            data = block(in, path, handle.varLong(), handle.varInt());
                            current = block;
                        }
                        int entry = data.lowerBound(key, order);
                        if (entry < data.size() && order.compare(data.key(entry), key) == 0) {
                            SstBlock.Cursor ids = data.value(entry);
                            for (int n = ids.varInt(); n > 0; n--) {
                                rowIds.accept(ids.varLong());
                            }
                        }
                    }
                });
    }

    /**
     * Passes the row ids (relative to the file's row range start) of the rows whose key is NULL to
     * {@code rowIds}.
     */
    public static void lookUpNulls(Path path, long fileSize, LongConsumer rowIds) {
        readFile(
                path,
                fileSize,
                (in, footer) -> {
                    long offset = footer.getLong(NULLS_HANDLE_POSITION);
                    int size = footer.getInt(NULLS_HANDLE_POSITION + 8);
                    if (size == 0) {
                        return;
                    }
                    byte[] bytes = read(in, offset, size + 4);
                    CRC32 crc = new CRC32();
                    crc.update(bytes, 0, size);
                    if ((int) crc.getValue()
                            != ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(size)) {
                        throw Errors.corruptFile(
                                path, "the null bitmap at " + offset + " fails its CRC32 check");
                    }
                    Roaring64NavigableMap nulls = new Roaring64NavigableMap();
                    nulls.deserializePortable(
                            new DataInputStream(new ByteArrayInputStream(bytes, 0, size)));
                    nulls.forEach(rowIds::accept);
                });
    }

    /** What a lookup reads of an open index file, given its checked footer. */
    private interface FileRead {
        void read(FSDataInputStream in, ByteBuffer footer) throws IOException;
    }

    /** Opens the file, checks its footer and runs {@code body}; a bad file is a clear error. */
    private static void readFile(Path path, long fileSize, FileRead body) {
        if (fileSize < FOOTER_LENGTH) {
            throw Errors.corruptFile(path, "a B-tree index file of " + fileSize + " bytes");
        }
        try (FSDataInputStream in = FileIO.open(path, "the index manifest")) {
            body.read(in, footer(in, path, fileSize));
        } catch (IOException | RuntimeException e) {
            if (e instanceof DovetailException dovetail) {
                throw dovetail;
            }
            throw Errors.corruptFile(path, "cannot read it as a B-tree global index", e);
        }
    }

    /** Whether the file's {@code _INDEX_META} says some row's key is NULL (true without one). */
    public static boolean mayHoldNulls(@Nullable byte[] indexMeta) {
        return indexMeta == null || indexMeta[indexMeta.length - 1] == 1;
    }

    private static ByteBuffer footer(FSDataInputStream in, Path path, long fileSize)
            throws IOException {
        ByteBuffer footer =
                ByteBuffer.wrap(read(in, fileSize - FOOTER_LENGTH, FOOTER_LENGTH))
                        .order(ByteOrder.LITTLE_ENDIAN);
        if (footer.getInt(FOOTER_LENGTH - 4) != FOOTER_MAGIC) {
            throw Errors.corruptFile(path, "no B-tree index footer (bad magic number)");
        }
        if (footer.getInt(FOOTER_LENGTH - 8) != FOOTER_VERSION) {
            throw Errors.unsupported(
                    "B-tree index footer version " + footer.getInt(FOOTER_LENGTH - 8),
                    "Dovetail reads version " + FOOTER_VERSION + ", Paimon 1.4.2's");
        }
        return footer;
    }

    /**
     * The keys of sorted {@code keys} between the first and the last key that {@code indexMeta}
     * (the file's {@code _INDEX_META}) names; all of them when it names none.
     */
    public static List<byte[]> keysInRange(
            @Nullable byte[] indexMeta, BTreeKeys order, List<byte[]> keys) {
        if (indexMeta == null) {
            return keys;
        }
        ByteBuffer meta = ByteBuffer.wrap(indexMeta).order(ByteOrder.LITTLE_ENDIAN);
        byte[] first = metaKey(meta);
        byte[] last = metaKey(meta);
        if (first == null || last == null) {
            return first == null && last == null ? List.of() : keys;
        }
        List<byte[]> inside = new ArrayList<>();
        for (byte[] key : keys) {
            if (order.compare(key, first) >= 0 && order.compare(key, last) <= 0) {
                inside.add(key);
            }
        }
        return inside;
    }

    @Nullable
    private static byte[] metaKey(ByteBuffer meta) {
        int length = meta.getInt();
        if (length < 0) {
            return null;
        }
        byte[] key = new byte[length];
        meta.get(key);
        return key;
    }

    private static SstBlock block(FSDataInputStream in, Path path, long offset, int size)
            throws IOException {
        byte[] bytes = read(in, offset, size + TRAILER_LENGTH);
        byte compression = bytes[size];
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, size + 1);
        int stored = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(size + 1);
        if ((int) crc.getValue() != stored) {
            throw Errors.corruptFile(path, "the block at " + offset + " fails its CRC32 check");
        }
        if (compression == NONE) {
            byte[] block = new byte[size];
            System.arraycopy(bytes, 0, block, 0, size);
            return SstBlock.of(block);
        }
        if (compression == ZSTD) {
            SstBlock.Cursor cursor = new SstBlock.Cursor(bytes, 0);
            int length = cursor.varInt();
            int header = varIntLength(length);
            byte[] block = new byte[length];
            long written = Zstd.decompressByteArray(block, 0, length, bytes, header, size - header);
            if (Zstd.isError(written) || written != length) {
                throw Errors.corruptFile(path, "the zstd block at " + offset + " does not inflate");
            }
            return SstBlock.of(block);
        }
        throw Errors.unsupported(
                "B-tree index blocks compressed with codec " + compression + " (" + path + ")",
                "Dovetail reads uncompressed and zstd blocks; the read scans instead");
    }

    private static int varIntLength(int value) {
        int length = 1;
        while ((value >>>= 7) != 0) {
            length++;
        }
        return length;
    }

    private static byte[] read(FSDataInputStream in, long offset, int length) throws IOException {
        byte[] out = new byte[length];
        in.seek(offset);
        int done = 0;
        while (done < length) {
            int n = in.read(out, done, length - done);
            if (n < 0) {
                throw new EOFException("end of file at " + (offset + done));
            }
            done += n;
        }
        return out;
    }
}
