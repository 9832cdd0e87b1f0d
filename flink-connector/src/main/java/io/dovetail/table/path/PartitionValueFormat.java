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
package io.dovetail.table.path;

import io.dovetail.table.error.Errors;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.TimestampType;

import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * The string a partition value contributes to its directory name, before the default-name
 * substitution and escaping.
 *
 * <ul>
 *   <li>Legacy names ({@code partition.legacy-name = true}, Paimon's default): the Java {@code
 *       toString()} of Paimon's internal value. DATE is the day number since 1970-01-01, TIME the
 *       millisecond of the day, TIMESTAMP {@link LocalDateTime#toString()}, DECIMAL the plain
 *       string with the column's scale, FLOAT/DOUBLE Java's {@code toString}.
 *   <li>Non-legacy names: Paimon's {@code CAST(value AS STRING)}. Identical to legacy for strings,
 *       booleans and numbers; DATE is {@code yyyy-MM-dd}, TIMESTAMP(p) is {@code yyyy-MM-dd
 *       HH:mm:ss} plus the nanosecond fraction with trailing zeros removed down to p digits. TIME
 *       and TIMESTAMP_LTZ are not supported (Paimon formats LTZ in the JVM's time zone).
 * </ul>
 *
 * Binary and composite types never name a partition.
 */
final class PartitionValueFormat {

    /** Formats the non-null field at a position. */
    interface Formatter {
        String format(RowData row, int pos);
    }

    private PartitionValueFormat() {}

    static Formatter forType(String key, LogicalType type, boolean legacy) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return (row, pos) -> row.getString(pos).toString();
            case BOOLEAN:
                return (row, pos) -> Boolean.toString(row.getBoolean(pos));
            case TINYINT:
                return (row, pos) -> Byte.toString(row.getByte(pos));
            case SMALLINT:
                return (row, pos) -> Short.toString(row.getShort(pos));
            case INTEGER:
                return (row, pos) -> Integer.toString(row.getInt(pos));
            case BIGINT:
                return (row, pos) -> Long.toString(row.getLong(pos));
            case FLOAT:
                return (row, pos) -> Float.toString(row.getFloat(pos));
            case DOUBLE:
                return (row, pos) -> Double.toString(row.getDouble(pos));
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return (row, pos) ->
                        row.getDecimal(pos, decimal.getPrecision(), decimal.getScale())
                                .toBigDecimal()
                                .toPlainString();
            case DATE:
                return legacy
                        ? (row, pos) -> Integer.toString(row.getInt(pos))
                        : (row, pos) -> isoDate(key, LocalDate.ofEpochDay(row.getInt(pos)));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                int precision = ((TimestampType) type).getPrecision();
                return legacy
                        ? (row, pos) ->
                                row.getTimestamp(pos, precision).toLocalDateTime().toString()
                        : (row, pos) ->
                                sqlTimestamp(
                                        key,
                                        row.getTimestamp(pos, precision).toLocalDateTime(),
                                        precision);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int ltzPrecision = ((LocalZonedTimestampType) type).getPrecision();
                if (legacy) {
                    return (row, pos) ->
                            row.getTimestamp(pos, ltzPrecision).toLocalDateTime().toString();
                }
                throw unsupported(key, type, "with partition.legacy-name = false");
            case TIME_WITHOUT_TIME_ZONE:
                if (legacy) {
                    return (row, pos) -> Integer.toString(row.getInt(pos));
                }
                throw unsupported(key, type, "with partition.legacy-name = false");
            default:
                throw unsupported(key, type, "");
        }
    }

    private static RuntimeException unsupported(String key, LogicalType type, String condition) {
        return Errors.unsupported(
                "partition key '" + key + "' of type " + type + " " + condition,
                "Partition by a string, boolean, numeric, date or timestamp column");
    }

    private static String isoDate(String key, LocalDate date) {
        StringBuilder out = new StringBuilder(10);
        appendDate(out, key, date);
        return out.toString();
    }

    private static String sqlTimestamp(String key, LocalDateTime value, int precision) {
        StringBuilder out = new StringBuilder(29);
        appendDate(out, key, value.toLocalDate());
        out.append(' ');
        pad(out, value.getHour(), 2).append(':');
        pad(out, value.getMinute(), 2).append(':');
        pad(out, value.getSecond(), 2);
        String fraction = pad(new StringBuilder(9), value.getNano(), 9).toString();
        int end = fraction.length();
        while (end > precision && fraction.charAt(end - 1) == '0') {
            end--;
        }
        if (end > 0) {
            out.append('.').append(fraction, 0, end);
        }
        return out.toString();
    }

    private static void appendDate(StringBuilder out, String key, LocalDate date) {
        if (date.getYear() < 0 || date.getYear() > 9999) {
            throw Errors.unsupported(
                    "partition value " + date + " of key '" + key + "' outside years 0000-9999",
                    "Paimon's date format has four year digits");
        }
        pad(out, date.getYear(), 4).append('-');
        pad(out, date.getMonthValue(), 2).append('-');
        pad(out, date.getDayOfMonth(), 2);
    }

    private static StringBuilder pad(StringBuilder out, int value, int width) {
        String digits = Integer.toString(value);
        for (int i = digits.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(digits);
    }
}
