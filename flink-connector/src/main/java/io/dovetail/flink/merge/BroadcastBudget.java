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
package io.dovetail.flink.merge;

import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.List;

/**
 * The one size model of a broadcast key join: the planner's estimate of the heap every writer's
 * copy of the source takes ({@link #fits}), and the budget a writer holds it to ({@link
 * #writerBudget}), after which it fails the job with {@link
 * io.dovetail.table.error.SourceTooLargeToBroadcast}.
 */
final class BroadcastBudget {

    // measured: ~64 bytes of index, hash slots and row header per row, 8 per field (and the row
    // number), and the variable-width values, guessed at 24 bytes each
    private static final long ROW_OVERHEAD = 64 + 8;
    private static final long FIELD = 8;
    private static final long VARIABLE_WIDTH_VALUE = 24;

    private BroadcastBudget() {}

    /**
     * Whether {@code rows} source rows of {@code types} (the keys, the action, the new values) are
     * estimated to take at most {@code limit} bytes of a writer's heap; a limit of 0 or less turns
     * the broadcast key join off.
     */
    static boolean fits(long rows, List<LogicalType> types, long limit) {
        return limit > 0 && rows <= limit / rowBytes(types);
    }

    /** The estimated heap of one held source row of {@code types}. */
    static long rowBytes(List<LogicalType> types) {
        long bytes = ROW_OVERHEAD;
        for (LogicalType type : types) {
            bytes += fixedWidth(type) ? FIELD : FIELD + VARIABLE_WIDTH_VALUE;
        }
        return bytes;
    }

    /**
     * The heap a writer's copy of the source may take: twice the planned limit (the estimate is a
     * guess), at most half of its slot's share of the heap.
     */
    static long writerBudget(long limit, long maxHeap, int slots) {
        return Math.min(2 * Math.min(limit, Long.MAX_VALUE / 2), maxHeap / Math.max(1, slots) / 2);
    }

    private static boolean fixedWidth(LogicalType type) {
        return BinaryRowData.isInFixedLengthPart(type)
                && !(type instanceof DecimalType d && !DecimalData.isCompact(d.getPrecision()));
    }
}
