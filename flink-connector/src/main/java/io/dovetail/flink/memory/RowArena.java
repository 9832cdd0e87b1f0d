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
package io.dovetail.flink.memory;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Copies of binary rows, back to back in large byte chunks and addressed by index (the order they
 * were added in): millions of buffered rows cost the garbage collector a few arrays, not an object
 * each. A record is one row or a pair of rows (a key and its row), each stored after its size, so a
 * lookup touches one 8-byte address and then the record's bytes. A null row (a delete, for writers)
 * has no bytes.
 */
public final class RowArena {

    /** Under half of G1's smallest region: a chunk is never a humongous object, which wastes. */
    private static final int CHUNK = 1 << 18;

    private final List<MemorySegment> chunks = new ArrayList<>();
    private long[] addressOf = new long[1024]; // chunk << 32 | offset; -1: null
    private int count;
    private int used; // bytes of the last chunk
    private long chunkBytes;
    private int arity;

    /** Stores a copy of {@code row} (may be null); returns its index. */
    public int add(@Nullable BinaryRowData row) {
        if (row == null) {
            return place(-1L);
        }
        arity = row.getArity();
        long address = reserve(4 + row.getSizeInBytes());
        copy(row, chunks.get(chunk(address)), offset(address));
        return place(address);
    }

    /** Stores copies of {@code first} and {@code second} as one record; returns its index. */
    public int add(BinaryRowData first, BinaryRowData second) {
        arity = first.getArity();
        long address = reserve(8 + first.getSizeInBytes() + second.getSizeInBytes());
        MemorySegment chunk = chunks.get(chunk(address));
        copy(second, chunk, copy(first, chunk, offset(address)));
        return place(address);
    }

    public boolean isNull(int index) {
        return addressOf[index] < 0;
    }

    /** The (first) row at {@code index} as a new view on the arena, or null. */
    @Nullable
    public BinaryRowData get(int index) {
        return isNull(index) ? null : pointTo(index, new BinaryRowData(arity));
    }

    /** Points {@code view} at the (first) row at {@code index}, which is not null. */
    public BinaryRowData pointTo(int index, BinaryRowData view) {
        long address = addressOf[index];
        return pointTo(chunks.get(chunk(address)), offset(address), view);
    }

    /** Points {@code view} at the second row of the pair at {@code index}. */
    public BinaryRowData pointToSecond(int index, BinaryRowData view) {
        long address = addressOf[index];
        MemorySegment chunk = chunks.get(chunk(address));
        int offset = offset(address);
        return pointTo(chunk, offset + 4 + chunk.getInt(offset), view);
    }

    public int size() {
        return count;
    }

    /** The heap the arena's records and index take (the last chunk counted as far as used). */
    public long heapBytes() {
        int unused = chunks.isEmpty() ? 0 : chunks.get(chunks.size() - 1).size() - used;
        return chunkBytes - unused + 8L * addressOf.length;
    }

    private long reserve(int bytes) {
        if (chunks.isEmpty() || used + bytes > chunks.get(chunks.size() - 1).size()) {
            int size = Math.max(CHUNK, bytes);
            chunks.add(MemorySegmentFactory.wrap(new byte[size]));
            chunkBytes += size;
            used = 0;
        }
        long address = (long) (chunks.size() - 1) << 32 | used;
        used += bytes;
        return address;
    }

    private int place(long address) {
        if (count == addressOf.length) {
            addressOf = Arrays.copyOf(addressOf, count * 2);
        }
        addressOf[count] = address;
        return count++;
    }

    /** Writes {@code row} after its size at {@code offset}; returns the offset after it. */
    private static int copy(BinaryRowData row, MemorySegment chunk, int offset) {
        int size = row.getSizeInBytes();
        chunk.putInt(offset, size);
        BinarySegmentUtils.copyToBytes(
                row.getSegments(), row.getOffset(), chunk.getHeapMemory(), offset + 4, size);
        return offset + 4 + size;
    }

    private static BinaryRowData pointTo(MemorySegment chunk, int offset, BinaryRowData view) {
        view.pointTo(chunk, offset + 4, chunk.getInt(offset));
        return view;
    }

    private static int chunk(long address) {
        return (int) (address >>> 32);
    }

    private static int offset(long address) {
        return (int) address;
    }
}
