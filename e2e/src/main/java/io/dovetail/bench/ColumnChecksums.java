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
package io.dovetail.bench;

import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.Map;
import java.util.TreeMap;

/**
 * Order-independent checksums of the columns a benchmark read, by column name: the same value per
 * column whichever reader decoded it and in whichever order. Both readers spend the same work per
 * value here, so the comparison measures the decoding and stitching, not this loop.
 */
final class ColumnChecksums {

    private static final long NULL = 7919;

    private final Map<String, Long> sums = new TreeMap<>();

    /** Adds {@code n} values of {@code vector} at positions {@code 0..n-1}. */
    void addDense(String column, LogicalType type, ColumnVector vector, int n) {
        long sum = 0;
        switch (type.getTypeRoot()) {
            case DOUBLE:
                DoubleColumnVector doubles = (DoubleColumnVector) vector;
                for (int i = 0; i < n; i++) {
                    sum +=
                            doubles.isNullAt(i)
                                    ? NULL
                                    : Double.doubleToLongBits(doubles.getDouble(i));
                }
                break;
            case BIGINT:
                LongColumnVector longs = (LongColumnVector) vector;
                for (int i = 0; i < n; i++) {
                    sum += longs.isNullAt(i) ? NULL : longs.getLong(i);
                }
                break;
            case VARCHAR:
                BytesColumnVector strings = (BytesColumnVector) vector;
                for (int i = 0; i < n; i++) {
                    sum += strings.isNullAt(i) ? NULL : strings.getBytes(i).len;
                }
                break;
            default:
                throw new IllegalArgumentException("no checksum for " + type);
        }
        sums.merge(column, sum, Long::sum);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnChecksums other && sums.equals(other.sums);
    }

    @Override
    public int hashCode() {
        return sums.hashCode();
    }

    @Override
    public String toString() {
        return sums.toString();
    }
}
