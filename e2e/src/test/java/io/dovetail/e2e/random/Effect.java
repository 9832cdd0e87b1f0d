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
package io.dovetail.e2e.random;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a write did to the rows, computed on the snapshot it read (its base): cells written (row id,
 * field id, stored value), rows deleted, rows inserted (by key; the table tells their new row ids)
 * and rows moved to new row ids (materialization). Applied to a model in commit order.
 */
final class Effect {

    /** A new row: its key and stored values. */
    record NewRow(long k, Map<Integer, Object> values) {}

    final TreeMap<Long, Map<Integer, Object>> writes = new TreeMap<>();
    final Set<Long> deletes = new TreeSet<>();
    final List<NewRow> inserts = new ArrayList<>();
    final Set<Long> moves = new TreeSet<>();

    static final Effect NONE = new Effect();

    void write(long rowId, int fieldId, Object value) {
        writes.computeIfAbsent(rowId, id -> new HashMap<>()).put(fieldId, value);
    }

    /** Whether both effects write a cell (row id and field id) in common. */
    boolean writesACellOf(Effect other) {
        for (Map.Entry<Long, Map<Integer, Object>> row : writes.entrySet()) {
            Map<Integer, Object> theirs = other.writes.get(row.getKey());
            if (theirs != null && row.getValue().keySet().stream().anyMatch(theirs::containsKey)) {
                return true;
            }
        }
        return false;
    }

    /** How many new row ids applying it hands out. */
    int newRowIds() {
        return inserts.size() + moves.size();
    }

    /**
     * Applies the effect to {@code model}: rows already gone are left gone, inserted and moved rows
     * get the row ids the table gave their keys ({@code rowIdOfKey}), which must be new ones: at or
     * above {@code floor}, the next row id before the step, and unused.
     */
    void apply(ModelTable model, Map<Long, Long> rowIdOfKey, long floor) throws Divergence {
        int key = model.schema.key().id();
        for (Map.Entry<Long, Map<Integer, Object>> w : writes.entrySet()) {
            Map<Integer, Object> row = model.rows.get(w.getKey());
            if (row != null) {
                Map<Integer, Object> updated = new HashMap<>(row);
                updated.putAll(w.getValue());
                model.rows.put(w.getKey(), updated);
            }
        }
        for (long rowId : deletes) {
            model.rows.remove(rowId);
        }
        long handedOut = model.nextRowId;
        List<Long> movedFrom = new ArrayList<>(moves);
        movedFrom.removeIf(id -> !model.rows.containsKey(id));
        // survivors keep their order within a partition (a commit assigns row ids partition by
        // partition)
        Map<Object, List<Long>> movedToByPartition = new HashMap<>();
        Field partition = model.schema.partition();
        for (long from : movedFrom) {
            Map<Integer, Object> row = model.rows.remove(from);
            long k = (Long) row.get(key);
            long to = newRowId(model, rowIdOfKey, floor, k, "moved from row id " + from);
            model.rows.put(to, row);
            movedToByPartition
                    .computeIfAbsent(
                            partition == null ? "" : String.valueOf(row.get(partition.id())),
                            p -> new ArrayList<>())
                    .add(to);
            handedOut = Math.max(handedOut, to + 1);
        }
        for (NewRow row : inserts) {
            long to = newRowId(model, rowIdOfKey, floor, row.k(), "inserted");
            model.rows.put(to, row.values());
            handedOut = Math.max(handedOut, to + 1);
        }
        model.nextRowId = handedOut;
        for (List<Long> movedTo : movedToByPartition.values()) {
            if (!movedTo.stream().sorted().toList().equals(movedTo)) {
                throw new Divergence(
                        "materialized survivors of a partition did not keep their order: old row"
                                + " ids "
                                + movedFrom
                                + " got "
                                + movedTo);
            }
        }
    }

    private static long newRowId(
            ModelTable model, Map<Long, Long> rowIdOfKey, long floor, long k, String what)
            throws Divergence {
        Long to = rowIdOfKey.get(k);
        if (to == null) {
            throw new Divergence("the row with k = " + k + " (" + what + ") is not in the table");
        }
        if (to < floor || model.rows.containsKey(to)) {
            throw new Divergence(
                    "the row with k = "
                            + k
                            + " ("
                            + what
                            + ") got row id "
                            + to
                            + ", not a new one (next row id before: "
                            + floor
                            + ")");
        }
        return to;
    }
}
