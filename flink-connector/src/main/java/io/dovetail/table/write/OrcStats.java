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
import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataField;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

import org.apache.orc.BooleanColumnStatistics;
import org.apache.orc.ColumnStatistics;
import org.apache.orc.DateColumnStatistics;
import org.apache.orc.DecimalColumnStatistics;
import org.apache.orc.DoubleColumnStatistics;
import org.apache.orc.IntegerColumnStatistics;
import org.apache.orc.Reader;
import org.apache.orc.StringColumnStatistics;
import org.apache.orc.TimestampColumnStatistics;
import org.apache.orc.TypeDescription;

import java.math.BigDecimal;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact column statistics of a written ORC file taken from its file-level column statistics, as
 * Paimon takes them ({@code OrcSimpleStatsExtractor}): the null count is the row count minus the
 * column's value count, for every column including ROW, ARRAY and MAP ones; a column of nulls only
 * has no bounds; bounds are kept for booleans (min = no false value, max = some true value),
 * integers, floating point numbers, decimals, strings, dates and timestamps, not for binary and
 * nested columns.
 */
final class OrcStats {

    private OrcStats() {}

    /** The statistics of {@code columns} (the file's columns, found by name). */
    static List<ColumnStats> of(Reader reader, List<DataField> columns) {
        long rowCount = reader.getNumberOfRows();
        ColumnStatistics[] statistics = reader.getStatistics();
        TypeDescription schema = reader.getSchema();
        List<ColumnStats> result = new ArrayList<>(columns.size());
        for (DataField column : columns) {
            int index = schema.getFieldNames().indexOf(column.name());
            if (index < 0) {
                result.add(ColumnStats.NONE);
                continue;
            }
            ColumnStatistics stats = statistics[schema.getChildren().get(index).getId()];
            result.add(of(column, stats, rowCount));
        }
        return result;
    }

    private static ColumnStats of(DataField column, ColumnStatistics stats, long rowCount) {
        long nullCount = rowCount - stats.getNumberOfValues();
        if (nullCount == rowCount || !(column.type() instanceof AtomicType type)) {
            return new ColumnStats(null, null, nullCount);
        }
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                StringColumnStatistics strings = (StringColumnStatistics) stats;
                return new ColumnStats(
                        string(strings.getMinimum()), string(strings.getMaximum()), nullCount);
            case BOOLEAN:
                BooleanColumnStatistics booleans = (BooleanColumnStatistics) stats;
                return new ColumnStats(
                        booleans.getFalseCount() == 0, booleans.getTrueCount() != 0, nullCount);
            case DECIMAL:
                DecimalColumnStatistics decimals = (DecimalColumnStatistics) stats;
                return new ColumnStats(
                        decimal(type, decimals.getMinimum().bigDecimalValue()),
                        decimal(type, decimals.getMaximum().bigDecimalValue()),
                        nullCount);
            case TINYINT:
                IntegerColumnStatistics bytes = (IntegerColumnStatistics) stats;
                return new ColumnStats(
                        (byte) bytes.getMinimum(), (byte) bytes.getMaximum(), nullCount);
            case SMALLINT:
                IntegerColumnStatistics shorts = (IntegerColumnStatistics) stats;
                return new ColumnStats(
                        (short) shorts.getMinimum(), (short) shorts.getMaximum(), nullCount);
            case INT:
            case TIME:
                IntegerColumnStatistics ints = (IntegerColumnStatistics) stats;
                return new ColumnStats((int) ints.getMinimum(), (int) ints.getMaximum(), nullCount);
            case BIGINT:
                IntegerColumnStatistics longs = (IntegerColumnStatistics) stats;
                return new ColumnStats(longs.getMinimum(), longs.getMaximum(), nullCount);
            case FLOAT:
                DoubleColumnStatistics floats = (DoubleColumnStatistics) stats;
                return new ColumnStats(
                        (float) floats.getMinimum(), (float) floats.getMaximum(), nullCount);
            case DOUBLE:
                DoubleColumnStatistics doubles = (DoubleColumnStatistics) stats;
                return new ColumnStats(doubles.getMinimum(), doubles.getMaximum(), nullCount);
            case DATE:
                DateColumnStatistics dates = (DateColumnStatistics) stats;
                return new ColumnStats(
                        (int) dates.getMinimumDayOfEpoch(),
                        (int) dates.getMaximumDayOfEpoch(),
                        nullCount);
            case TIMESTAMP:
            case TIMESTAMP_LTZ:
                TimestampColumnStatistics timestamps = (TimestampColumnStatistics) stats;
                return new ColumnStats(
                        timestamp(timestamps.getMinimum()),
                        timestamp(timestamps.getMaximum()),
                        nullCount);
            default:
                return new ColumnStats(null, null, nullCount);
        }
    }

    private static StringData string(String value) {
        return value == null ? null : StringData.fromString(value);
    }

    private static DecimalData decimal(AtomicType type, BigDecimal value) {
        return DecimalData.fromBigDecimal(value, type.precision(), type.scale());
    }

    /** The wall-clock value of an ORC timestamp, as the data itself is read. */
    private static TimestampData timestamp(Timestamp value) {
        return TimestampData.fromTimestamp(value);
    }
}
