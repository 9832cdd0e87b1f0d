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
package io.dovetail.table.read;

import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.heap.HeapLongVector;

import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * A TIMESTAMP column stored as Parquet INT64 (millis, micros or nanos since the epoch), read as
 * plain longs and converted on access with floor division, so values before 1970 with a fractional
 * second decode correctly (flink-parquet's own INT64 timestamp decoder fails on them).
 */
final class Int64TimestampVector implements TimestampColumnVector {

    private final HeapLongVector values;
    private final TimeUnit unit;

    Int64TimestampVector(HeapLongVector values, TimeUnit unit) {
        this.values = values;
        this.unit = unit;
    }

    /** The time unit of an INT64 timestamp column, or null if {@code type} is not one. */
    static TimeUnit int64TimestampUnit(Type type) {
        if (type.isPrimitive()
                && type.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.INT64
                && type.getLogicalTypeAnnotation()
                        instanceof TimestampLogicalTypeAnnotation timestamp) {
            return timestamp.getUnit();
        }
        return null;
    }

    @Override
    public TimestampData getTimestamp(int i, int precision) {
        long v = values.getLong(i);
        switch (unit) {
            case MILLIS:
                return TimestampData.fromEpochMillis(v);
            case MICROS:
                return TimestampData.fromEpochMillis(
                        Math.floorDiv(v, 1_000L), (int) Math.floorMod(v, 1_000L) * 1_000);
            default:
                return TimestampData.fromEpochMillis(
                        Math.floorDiv(v, 1_000_000L), (int) Math.floorMod(v, 1_000_000L));
        }
    }

    @Override
    public boolean isNullAt(int i) {
        return values.isNullAt(i);
    }
}
