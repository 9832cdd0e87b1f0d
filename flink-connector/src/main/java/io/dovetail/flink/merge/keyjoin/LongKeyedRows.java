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
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Source rows by a key of one integral column (BOOLEAN to BIGINT, DATE, TIME), held as a long: the
 * table's slots are {key, entry} pairs side by side, so a probe reads one slot and then the row.
 */
final class LongKeyedRows implements SourceRowsByKey {

    private static final Set<LogicalTypeRoot> INTEGRAL =
            EnumSet.of(
                    LogicalTypeRoot.BOOLEAN,
                    LogicalTypeRoot.TINYINT,
                    LogicalTypeRoot.SMALLINT,
                    LogicalTypeRoot.INTEGER,
                    LogicalTypeRoot.BIGINT,
                    LogicalTypeRoot.DATE,
                    LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE);

    private final LogicalTypeRoot type;
    private final RowArena rows = new RowArena();
    private final Map<Integer, Integer> duplicates = new HashMap<>(); // entry -> a later one
    private long[] slots = new long[2048]; // key, entry + 1 (0: free)
    private int shift = 64 - 10;
    private int distinctKeys;

    LongKeyedRows(LogicalType keyType) {
        this.type = keyType.getTypeRoot();
    }

    static boolean holds(LogicalType type) {
        return INTEGRAL.contains(type.getTypeRoot());
    }

    @Override
    public void add(BinaryRowData row) {
        long key = keyOf(row);
        int slot = slotOf(key);
        int entry = rows.add(row);
        if (slots[slot + 1] != 0) {
            duplicates.putIfAbsent((int) slots[slot + 1] - 1, entry);
            return;
        }
        slots[slot] = key;
        slots[slot + 1] = entry + 1;
        if (++distinctKeys * 4 > slots.length) { // half the slots
            grow();
        }
    }

    @Override
    public int find(RowData target) {
        return (int) slots[slotOf(keyOf(target)) + 1] - 1;
    }

    @Override
    public int duplicateOf(int entry) {
        return duplicates.isEmpty() ? -1 : duplicates.getOrDefault(entry, -1);
    }

    @Override
    public BinaryRowData row(int entry, BinaryRowData view) {
        return rows.pointTo(entry, view);
    }

    @Override
    public int size() {
        return rows.size();
    }

    @Override
    public long heapBytes() {
        return rows.heapBytes() + 8L * slots.length + 64L * duplicates.size();
    }

    private long keyOf(RowData row) {
        switch (type) {
            case BOOLEAN:
                return row.getBoolean(0) ? 1 : 0;
            case TINYINT:
                return row.getByte(0);
            case SMALLINT:
                return row.getShort(0);
            case BIGINT:
                return row.getLong(0);
            default:
                return row.getInt(0);
        }
    }

    /** The index of the slot holding {@code key}, or of the free slot where it belongs. */
    private int slotOf(long key) {
        int mask = slots.length - 1;
        for (int slot = home(key); ; slot = (slot + 2) & mask) {
            if (slots[slot + 1] == 0 || slots[slot] == key) {
                return slot;
            }
        }
    }

    /** Fibonacci hashing: the high bits of the key times the golden ratio, as a slot index. */
    private int home(long key) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> shift) << 1;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        shift--;
        int mask = slots.length - 1;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                int slot = home(old[i]);
                while (slots[slot + 1] != 0) {
                    slot = (slot + 2) & mask;
                }
                slots[slot] = old[i];
                slots[slot + 1] = old[i + 1];
            }
        }
    }
}
