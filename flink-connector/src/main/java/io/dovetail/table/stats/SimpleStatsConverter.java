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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.error.Errors;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Converts between per-column {@link ColumnStats} and {@link SimpleStats} for a fixed list of
 * column types. The minimum and maximum rows are encoded over the types made nullable, as Paimon
 * does, with a null field where a bound is unknown.
 */
public final class SimpleStatsConverter {

    private final List<LogicalType> columnTypes;
    private final BinaryRowCodec codec;

    public SimpleStatsConverter(List<LogicalType> columnTypes) {
        this.columnTypes = List.copyOf(columnTypes);
        List<LogicalType> nullable = new ArrayList<>(columnTypes.size());
        for (LogicalType type : columnTypes) {
            nullable.add(type.copy(true));
        }
        this.codec = BinaryRowCodec.of(nullable);
    }

    public List<LogicalType> columnTypes() {
        return columnTypes;
    }

    /** Encodes one {@link ColumnStats} per column, in column order. */
    public SimpleStats toStats(List<ColumnStats> columns) {
        if (columns.size() != columnTypes.size()) {
            throw Errors.invalidArgument(
                    "Got statistics for "
                            + columns.size()
                            + " columns but the stats cover "
                            + columnTypes.size()
                            + " columns "
                            + columnTypes);
        }
        GenericRowData min = new GenericRowData(columns.size());
        GenericRowData max = new GenericRowData(columns.size());
        List<Long> nullCounts = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ColumnStats column = columns.get(i);
            min.setField(i, column.min());
            max.setField(i, column.max());
            nullCounts.add(column.nullCount());
        }
        return new SimpleStats(codec.serialize(min), codec.serialize(max), nullCounts);
    }

    /**
     * Decodes the statistics of every column. {@link SimpleStats#EMPTY} decodes to {@link
     * ColumnStats#NONE} for each column; any other arity mismatch is an error naming {@code
     * source}.
     */
    public List<ColumnStats> fromStats(SimpleStats stats, Object source) {
        int arity = columnTypes.size();
        if (stats.isEmpty()) {
            return Collections.nCopies(arity, ColumnStats.NONE);
        }
        GenericRowData min = codec.deserialize(stats.minValues(), source + " (minimum values)");
        GenericRowData max = codec.deserialize(stats.maxValues(), source + " (maximum values)");
        List<Long> nullCounts = stats.nullCounts();
        if (nullCounts != null && nullCounts.size() != arity) {
            throw Errors.corruptFile(
                    source,
                    "the statistics have "
                            + nullCounts.size()
                            + " null counts for "
                            + arity
                            + " columns");
        }
        List<ColumnStats> columns = new ArrayList<>(arity);
        for (int i = 0; i < arity; i++) {
            columns.add(
                    new ColumnStats(
                            min.getField(i),
                            max.getField(i),
                            nullCounts == null ? null : nullCounts.get(i)));
        }
        return columns;
    }

    /** Decodes the statistics of column {@code index}. */
    public ColumnStats column(SimpleStats stats, int index, Object source) {
        if (index < 0 || index >= columnTypes.size()) {
            throw Errors.invalidArgument(
                    "Column " + index + " is out of range for stats of " + columnTypes);
        }
        return fromStats(stats, source).get(index);
    }
}
