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

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Paimon's SimpleStats: per-column minimums and maximums as two serialized BinaryRows (over the
 * column types made nullable) plus one null count per column, where a null element means unknown.
 * Used for partition statistics of manifests and for key and value statistics of data files. Build
 * and read the rows with {@link SimpleStatsConverter}.
 */
public final class SimpleStats {

    /** "No statistics": arity-0 minimum and maximum rows and an empty null-count list. */
    public static final SimpleStats EMPTY =
            new SimpleStats(BinaryRowCodec.emptyRow(), BinaryRowCodec.emptyRow(), List.of());

    private final byte[] minValues;
    private final byte[] maxValues;
    @Nullable private final List<Long> nullCounts;

    /**
     * @param nullCounts per-column null counts (elements may be null); the whole list is null only
     *     when a file stores no array, which Paimon never writes
     */
    public SimpleStats(byte[] minValues, byte[] maxValues, @Nullable List<Long> nullCounts) {
        if (minValues == null || maxValues == null) {
            throw Errors.invalidArgument("SimpleStats needs minimum and maximum rows");
        }
        this.minValues = minValues.clone();
        this.maxValues = maxValues.clone();
        this.nullCounts =
                nullCounts == null
                        ? null
                        : Collections.unmodifiableList(new ArrayList<>(nullCounts));
    }

    /** Serialized BinaryRow of the minimums (a copy). */
    public byte[] minValues() {
        return minValues.clone();
    }

    /** Serialized BinaryRow of the maximums (a copy). */
    public byte[] maxValues() {
        return maxValues.clone();
    }

    /** Per-column null counts, null elements meaning unknown; null if the file stored none. */
    @Nullable
    public List<Long> nullCounts() {
        return nullCounts;
    }

    /** Whether these are Paimon's "no statistics" value. */
    public boolean isEmpty() {
        return equals(EMPTY);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SimpleStats)) {
            return false;
        }
        SimpleStats that = (SimpleStats) o;
        return Arrays.equals(minValues, that.minValues)
                && Arrays.equals(maxValues, that.maxValues)
                && Objects.equals(nullCounts, that.nullCounts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(minValues) + Arrays.hashCode(maxValues))
                + Objects.hashCode(nullCounts);
    }

    @Override
    public String toString() {
        return "SimpleStats{min="
                + HexFormat.of().formatHex(minValues)
                + ", max="
                + HexFormat.of().formatHex(maxValues)
                + ", nullCounts="
                + nullCounts
                + '}';
    }
}
