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
package io.dovetail.flink.merge.keyjoin;

import io.dovetail.flink.memory.RowArena;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Source rows by a key of any columns, as a binary row: each key and its row as one record of the
 * arena, under slots holding the key's hash beside the record index, so a probe reads one slot and
 * then one record. Keys compare by their binary form, which is equality for the key types the join
 * is planned for.
 */
final class BinaryKeyedRows implements SourceRowsByKey {

    private final RowArena records = new RowArena();
    private final BinaryRowData keyView;
    private final ProjectedRowData keyOfRow;
    private final RowDataSerializer keySerializer;
    private final Map<Integer, Integer> duplicates = new HashMap<>(); // entry -> a later one
    private long[] slots = new long[1024]; // hash << 32 | entry + 1; 0: free
    private int distinctKeys;

    BinaryKeyedRows(List<LogicalType> keyTypes) {
        this.keyView = new BinaryRowData(keyTypes.size());
        this.keyOfRow = ProjectedRowData.from(IntStream.range(0, keyTypes.size()).toArray());
        this.keySerializer = new RowDataSerializer(keyTypes.toArray(LogicalType[]::new));
    }

    @Override
    public void add(BinaryRowData row) {
        BinaryRowData key = keyOf(row);
        int hash = spread(key.hashCode());
        int slot = slotOf(key, hash);
        int entry = records.add(key, row);
        if (slots[slot] != 0) {
            duplicates.putIfAbsent((int) slots[slot] - 1, entry);
            return;
        }
        slots[slot] = (long) hash << 32 | (entry + 1);
        if (++distinctKeys * 2 > slots.length) {
            grow();
        }
    }

    @Override
    public int find(RowData target) {
        BinaryRowData key = keyOf(target);
        return (int) slots[slotOf(key, spread(key.hashCode()))] - 1;
    }

    @Override
    public int duplicateOf(int entry) {
        return duplicates.isEmpty() ? -1 : duplicates.getOrDefault(entry, -1);
    }

    @Override
    public BinaryRowData row(int entry, BinaryRowData view) {
        return records.pointToSecond(entry, view);
    }

    @Override
    public int size() {
        return records.size();
    }

    @Override
    public long heapBytes() {
        return records.heapBytes() + 8L * slots.length + 64L * duplicates.size();
    }

    private BinaryRowData keyOf(RowData row) {
        return keySerializer.toBinaryRow(keyOfRow.replaceRow(row));
    }

    /** The slot holding {@code key}, or the free slot where it belongs. */
    private int slotOf(BinaryRowData key, int hash) {
        int mask = slots.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            long held = slots[slot];
            if (held == 0
                    || ((int) (held >>> 32) == hash
                            && records.pointTo((int) held - 1, keyView).equals(key))) {
                return slot;
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        int mask = slots.length - 1;
        for (long held : old) {
            if (held != 0) {
                int slot = (int) (held >>> 32) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = held;
            }
        }
    }

    private static int spread(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
