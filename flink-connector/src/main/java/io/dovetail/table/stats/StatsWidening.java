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

import io.dovetail.table.types.AtomicType;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.TypeRoot;

import org.apache.flink.table.data.DecimalData;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Which statistics stay true bounds after a column's type changed: those of a file whose stored
 * type casts to the read type exactly and in order, so every value, the minimum and the maximum map
 * to themselves. These widenings qualify: TINYINT → SMALLINT → INT → BIGINT, an integer to a
 * DECIMAL with enough integer digits, FLOAT → DOUBLE, DECIMAL to more integer digits and scale,
 * CHAR/VARCHAR to a VARCHAR at least as long, TIMESTAMP to a higher precision. Every other change
 * (narrowing, wrapping, rounding, parsing, padding) may reorder values or turn them into NULL, so
 * such a file's statistics say nothing about the column as it is read.
 */
public final class StatsWidening {

    private static final List<TypeRoot> INTEGERS =
            List.of(TypeRoot.TINYINT, TypeRoot.SMALLINT, TypeRoot.INT, TypeRoot.BIGINT);

    /** Decimal digits of the largest value of each of {@link #INTEGERS}. */
    private static final int[] INTEGER_DIGITS = {3, 5, 10, 19};

    private StatsWidening() {}

    /**
     * The exact, order-preserving conversion of internal values of {@code stored} to internal
     * values of {@code read} (nullability ignored), or empty when the cast is not one.
     */
    public static Optional<UnaryOperator<Object>> exact(DataType stored, DataType read) {
        if (stored.withNullable(true).equals(read.withNullable(true))) {
            return Optional.of(UnaryOperator.identity());
        }
        if (!(stored instanceof AtomicType from) || !(read instanceof AtomicType to)) {
            return Optional.empty();
        }
        int fromInteger = INTEGERS.indexOf(from.root());
        switch (to.root()) {
            case SMALLINT:
            case INT:
            case BIGINT:
                return fromInteger >= 0 && fromInteger < INTEGERS.indexOf(to.root())
                        ? Optional.of(v -> integer(((Number) v).longValue(), to.root()))
                        : Optional.empty();
            case DOUBLE:
                return from.root() == TypeRoot.FLOAT
                        ? Optional.of(v -> (double) (Float) v)
                        : Optional.empty();
            case DECIMAL:
                int integerDigits = to.precision() - to.scale();
                if (fromInteger >= 0 && INTEGER_DIGITS[fromInteger] <= integerDigits) {
                    return Optional.of(
                            v ->
                                    DecimalData.fromBigDecimal(
                                            BigDecimal.valueOf(((Number) v).longValue()),
                                            to.precision(),
                                            to.scale()));
                }
                boolean wider =
                        from.root() == TypeRoot.DECIMAL
                                && from.scale() <= to.scale()
                                && from.precision() - from.scale() <= integerDigits;
                return wider
                        ? Optional.of(
                                v ->
                                        DecimalData.fromBigDecimal(
                                                ((DecimalData) v).toBigDecimal(),
                                                to.precision(),
                                                to.scale()))
                        : Optional.empty();
            case VARCHAR:
                boolean text = from.root() == TypeRoot.CHAR || from.root() == TypeRoot.VARCHAR;
                return text && from.length() <= to.length()
                        ? Optional.of(UnaryOperator.identity())
                        : Optional.empty();
            case TIMESTAMP:
                return from.root() == TypeRoot.TIMESTAMP && from.precision() <= to.precision()
                        ? Optional.of(UnaryOperator.identity())
                        : Optional.empty();
            default:
                return Optional.empty();
        }
    }

    private static Object integer(long value, TypeRoot to) {
        switch (to) {
            case SMALLINT:
                return (short) value;
            case INT:
                return (int) value;
            default:
                return value;
        }
    }
}
