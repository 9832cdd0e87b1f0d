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
package io.dovetail.flink.dml;

import io.dovetail.flink.memory.RowArena;
import io.dovetail.table.error.Errors;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;

import org.roaringbitmap.longlong.Roaring64NavigableMap;

import javax.annotation.Nullable;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

/**
 * The changes a row-level writer holds until the end of its input, placed by position in the
 * row-range groups of the base snapshot: a change costs one group lookup, a row changed twice is
 * found as its second change arrives, and the changes come out in row-id order without a sort.
 * Memory: the new values in a {@link RowArena} (no object per change), and one int per row of every
 * touched group (which its partial-column file rewrites in full anyway).
 */
public final class ChangesByGroup {

    /** Builds the error for a row id changed twice; a null value is a delete. */
    public interface DuplicateChange {
        RuntimeException of(long rowId, @Nullable RowData first, @Nullable RowData second);
    }

    private final TreeMap<Long, Group> groups = new TreeMap<>();
    private final RowArena values = new RowArena();
    private final DuplicateChange duplicate;

    /**
     * @param ranges the base snapshot's groups, {first row id, last row id} each
     */
    public ChangesByGroup(List<long[]> ranges, DuplicateChange duplicate) {
        for (long[] range : ranges) {
            groups.put(range[0], new Group(range[0], range[1]));
        }
        this.duplicate = duplicate;
    }

    /**
     * Adds the change of {@code rowId}: its new values, or null to delete it. Returns false, adding
     * nothing, if the row id is in no group (stale); fails if the row id was changed before.
     */
    public boolean add(long rowId, @Nullable BinaryRowData newValues) {
        Map.Entry<Long, Group> floor = groups.floorEntry(rowId);
        if (floor == null || rowId > floor.getValue().last) {
            return false;
        }
        Group group = floor.getValue();
        int position = (int) (rowId - group.first);
        int earlier = group.changeAt(position);
        if (earlier >= 0) {
            throw duplicate.of(rowId, values.get(earlier), newValues);
        }
        group.place(position, values.add(newValues));
        return true;
    }

    public boolean isEmpty() {
        return values.size() == 0;
    }

    /** The updates (changes with new values), in ascending row-id order. */
    public Iterator<RowUpdate> updates() {
        return new Iterator<>() {
            private final Iterator<Group> touched = touchedGroups().iterator();
            @Nullable private Group group;
            private int position;
            @Nullable private RowUpdate next = advance();

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public RowUpdate next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                RowUpdate current = next;
                next = advance();
                return current;
            }

            @Nullable
            private RowUpdate advance() {
                while (true) {
                    if (group == null || position == group.slots.length) {
                        if (!touched.hasNext()) {
                            return null;
                        }
                        group = touched.next();
                        position = 0;
                    }
                    int change = group.changeAt(position++);
                    if (change >= 0 && !values.isNull(change)) {
                        return new RowUpdate(group.first + position - 1, values.get(change));
                    }
                }
            }
        };
    }

    /** The deleted row ids. */
    public Roaring64NavigableMap deletes() {
        Roaring64NavigableMap deletes = new Roaring64NavigableMap();
        for (Group group : touchedGroups()) {
            for (int position = 0; position < group.slots.length; position++) {
                int change = group.changeAt(position);
                if (change >= 0 && values.isNull(change)) {
                    deletes.addLong(group.first + position);
                }
            }
        }
        deletes.runOptimize();
        return deletes;
    }

    private List<Group> touchedGroups() {
        return groups.values().stream().filter(g -> g.slots != null).toList();
    }

    /** One group of the base: the change at each position (index + 1; 0 = none), once touched. */
    private static final class Group {

        final long first;
        final long last;
        @Nullable int[] slots;

        Group(long first, long last) {
            this.first = first;
            this.last = last;
        }

        int changeAt(int position) {
            return slots == null ? -1 : slots[position] - 1;
        }

        void place(int position, int change) {
            if (slots == null) {
                long rows = last - first + 1;
                if (rows > Integer.MAX_VALUE - 8) {
                    throw Errors.unsupported(
                            "changing rows of a row-range group of " + rows + " rows",
                            "A merge rewrites groups of up to "
                                    + (Integer.MAX_VALUE - 8)
                                    + " rows");
                }
                slots = new int[(int) rows];
            }
            slots[position] = change + 1;
        }
    }
}
