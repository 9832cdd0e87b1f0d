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
package io.dovetail.flink.table;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;

import javax.annotation.Nullable;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Optional;

/**
 * Converts a SQL literal to the Flink internal value a column of type {@code column} holds, when
 * the literal has that type (strings: any character type). Other literals are not converted: the
 * planner casts the column in such comparisons, and filters over casts are not pushed down.
 */
final class FlinkLiterals {

    private FlinkLiterals() {}

    /** The internal value, empty when the literal does not have the column's type or is NULL. */
    static Optional<Object> toInternal(ValueLiteralExpression literal, LogicalType column) {
        LogicalType type = literal.getOutputDataType().getLogicalType();
        if (literal.isNull()) {
            return Optional.empty();
        }
        if (type.is(LogicalTypeFamily.INTEGER_NUMERIC)
                && column.is(LogicalTypeFamily.INTEGER_NUMERIC)) {
            return widenedInteger(literal, column);
        }
        boolean strings =
                type.is(LogicalTypeFamily.CHARACTER_STRING)
                        && column.is(LogicalTypeFamily.CHARACTER_STRING);
        if (!(strings || type.copy(true).equals(column.copy(true)))) {
            return Optional.empty();
        }
        return Optional.ofNullable(convert(literal, column));
    }

    /**
     * An integer literal as a value of an integer column ({@code id > 5} on a BIGINT column keeps
     * the INT literal 5), when the column's type holds it.
     */
    private static Optional<Object> widenedInteger(
            ValueLiteralExpression literal, LogicalType column) {
        Optional<BigDecimal> value = literal.getValueAs(BigDecimal.class);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        long v;
        try {
            v = value.get().longValueExact();
        } catch (ArithmeticException e) {
            return Optional.empty();
        }
        switch (column.getTypeRoot()) {
            case TINYINT:
                return v == (byte) v ? Optional.of((byte) v) : Optional.empty();
            case SMALLINT:
                return v == (short) v ? Optional.of((short) v) : Optional.empty();
            case INTEGER:
                return v == (int) v ? Optional.of((int) v) : Optional.empty();
            default:
                return Optional.of(v);
        }
    }

    @Nullable
    private static Object convert(ValueLiteralExpression literal, LogicalType column) {
        switch (column.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return literal.getValueAs(String.class).map(StringData::fromString).orElse(null);
            case BOOLEAN:
                return literal.getValueAs(Boolean.class).orElse(null);
            case TINYINT:
                return literal.getValueAs(Byte.class).orElse(null);
            case SMALLINT:
                return literal.getValueAs(Short.class).orElse(null);
            case INTEGER:
                return literal.getValueAs(Integer.class).orElse(null);
            case BIGINT:
                return literal.getValueAs(Long.class).orElse(null);
            case FLOAT:
                return literal.getValueAs(Float.class).orElse(null);
            case DOUBLE:
                return literal.getValueAs(Double.class).orElse(null);
            case DECIMAL:
                DecimalType decimal = (DecimalType) column;
                return literal.getValueAs(BigDecimal.class)
                        .map(
                                v ->
                                        DecimalData.fromBigDecimal(
                                                v, decimal.getPrecision(), decimal.getScale()))
                        .orElse(null);
            case DATE:
                return literal.getValueAs(LocalDate.class)
                        .map(d -> (int) d.toEpochDay())
                        .orElse(null);
            case TIME_WITHOUT_TIME_ZONE:
                return literal.getValueAs(LocalTime.class)
                        .map(t -> (int) (t.toNanoOfDay() / 1_000_000))
                        .orElse(null);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return literal.getValueAs(LocalDateTime.class)
                        .map(TimestampData::fromLocalDateTime)
                        .orElse(null);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return literal.getValueAs(Instant.class)
                        .map(TimestampData::fromInstant)
                        .orElse(null);
            case BINARY:
            case VARBINARY:
                return literal.getValueAs(byte[].class).orElse(null);
            default:
                return null;
        }
    }
}
