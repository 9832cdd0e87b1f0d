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
package io.dovetail.table.write;

import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.stats.SimpleStats;
import io.dovetail.table.stats.SimpleStatsConverter;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.types.logical.LogicalType;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code _VALUE_STATS} and {@code _VALUE_STATS_COLS} of a data file (metadata format section
 * 5.5): each column's exact statistics reduced by its stats mode, then, in dense store, columns
 * without any statistics dropped. {@code columns} is null when every written column is kept. Nested
 * columns never have bounds; they keep a slot when they have a null count (ORC files) or when the
 * store is not dense.
 */
record ValueStats(SimpleStats stats, @Nullable List<String> columns) {

    static ValueStats of(
            List<DataField> written,
            List<ColumnStats> exact,
            List<StatsMode> modes,
            boolean denseStore) {
        List<String> keptNames = new ArrayList<>();
        List<LogicalType> keptTypes = new ArrayList<>();
        List<ColumnStats> kept = new ArrayList<>();
        for (int i = 0; i < written.size(); i++) {
            ColumnStats column = modes.get(i).apply(exact.get(i));
            if (denseStore && column.equals(ColumnStats.NONE)) {
                continue;
            }
            DataField field = written.get(i);
            keptNames.add(field.name());
            keptTypes.add(FlinkTypes.toFlink(field.type()));
            kept.add(column);
        }
        SimpleStats stats = new SimpleStatsConverter(keptTypes).toStats(kept);
        return new ValueStats(stats, kept.size() == written.size() ? null : keptNames);
    }
}
