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

import io.dovetail.table.error.Errors;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.Arrays;
import java.util.Comparator;

/**
 * The order of Flink internal values of the atomic types that have statistics, as Paimon compares
 * them: numbers, dates, times and timestamps by value, strings and binaries by their bytes
 * (unsigned, i.e. code-point order for UTF-8), FLOAT and DOUBLE by {@code Float/Double.compare}.
 * Also names the Java class of each type's internal values.
 */
public final class ValueOrder {

    private ValueOrder() {}

    /** The order of values of {@code type}; an error for types without statistics. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Comparator<Object> of(LogicalType type) {
        Comparator<?> comparator;
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
            case BIGINT:
                comparator = Comparator.<Comparable>naturalOrder();
                break;
            case FLOAT:
                comparator = (Comparator<Float>) Float::compare;
                break;
            case DOUBLE:
                comparator = (Comparator<Double>) Double::compare;
                break;
            case DECIMAL:
                comparator = Comparator.<DecimalData>naturalOrder();
                break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                comparator = Comparator.<TimestampData>naturalOrder();
                break;
            case CHAR:
            case VARCHAR:
                comparator =
                        (Comparator<StringData>)
                                (a, b) -> Arrays.compareUnsigned(a.toBytes(), b.toBytes());
                break;
            case BINARY:
            case VARBINARY:
                comparator = (Comparator<byte[]>) Arrays::compareUnsigned;
                break;
            default:
                throw Errors.unsupported(
                        "statistics over type " + type,
                        "Statistics are collected only for atomic types");
        }
        return (Comparator<Object>) comparator;
    }

    /** The Java class of internal values of {@code type}; an error for types without order. */
    public static Class<?> valueClass(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return Boolean.class;
            case TINYINT:
                return Byte.class;
            case SMALLINT:
                return Short.class;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return Integer.class;
            case BIGINT:
                return Long.class;
            case FLOAT:
                return Float.class;
            case DOUBLE:
                return Double.class;
            case DECIMAL:
                return DecimalData.class;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.class;
            case CHAR:
            case VARCHAR:
                return StringData.class;
            case BINARY:
            case VARBINARY:
                return byte[].class;
            default:
                throw Errors.unsupported(
                        "comparing values of type " + type,
                        "Only atomic types other than VARIANT and BLOB have an order");
        }
    }
}
