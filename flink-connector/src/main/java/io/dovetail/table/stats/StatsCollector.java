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
package io.dovetail.table.stats;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects exact ("full" mode) statistics over rows: per column the minimum, maximum and null
 * count. Strings and binaries compare as unsigned bytes, floating point values by {@link
 * Double#compare}. Used for the partition statistics of a manifest.
 */
public final class StatsCollector {

    private final List<LogicalType> types;
    private final RowData.FieldGetter[] getters;
    private final Comparator<Object>[] comparators;
    private final Object[] mins;
    private final Object[] maxs;
    private final long[] nullCounts;

    @SuppressWarnings("unchecked")
    public StatsCollector(List<LogicalType> types) {
        this.types = List.copyOf(types);
        int arity = this.types.size();
        this.getters = new RowData.FieldGetter[arity];
        this.comparators = new Comparator[arity];
        for (int i = 0; i < arity; i++) {
            getters[i] = RowData.createFieldGetter(this.types.get(i), i);
            comparators[i] = ValueOrder.of(this.types.get(i));
        }
        this.mins = new Object[arity];
        this.maxs = new Object[arity];
        this.nullCounts = new long[arity];
    }

    /** Adds one row; its values are copied where they could be reused by the caller. */
    public void add(RowData row) {
        for (int i = 0; i < getters.length; i++) {
            Object value = getters[i].getFieldOrNull(row);
            if (value == null) {
                nullCounts[i]++;
                continue;
            }
            if (mins[i] == null || comparators[i].compare(value, mins[i]) < 0) {
                mins[i] = copy(value);
            }
            if (maxs[i] == null || comparators[i].compare(value, maxs[i]) > 0) {
                maxs[i] = copy(value);
            }
        }
    }

    /** The statistics collected so far, one per column. */
    public List<ColumnStats> result() {
        List<ColumnStats> result = new ArrayList<>(getters.length);
        for (int i = 0; i < getters.length; i++) {
            result.add(new ColumnStats(mins[i], maxs[i], nullCounts[i]));
        }
        return result;
    }

    /** The statistics collected so far, encoded over the column types. */
    public SimpleStats toSimpleStats() {
        return new SimpleStatsConverter(types).toStats(result());
    }

    private static Object copy(Object value) {
        if (value instanceof StringData) {
            return StringData.fromBytes(((StringData) value).toBytes());
        }
        if (value instanceof byte[]) {
            return ((byte[]) value).clone();
        }
        return value;
    }
}
