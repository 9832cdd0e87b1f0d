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
package io.dovetail.flink.dml;

import io.dovetail.flink.memory.TupleSort;

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.operators.Order;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.api.java.typeutils.TupleTypeInfo;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.RowData;

/**
 * Row-level changes (rows starting with {@code _ROW_ID}) routed to the writer of their row-range
 * group and sorted by {@code _ROW_ID} within each writer, with Flink's spilling sort on managed
 * memory, so a writer streams them group after group and holds none of them:
 *
 * <pre>
 *   changes ──by group (balanced)──▶ [sort by _ROW_ID × p] ──forward──▶ [writer × p]
 *                                     managed memory, spills
 * </pre>
 *
 * Batch jobs only: a writer's input is emitted once its whole input is sorted.
 */
public final class SortedChanges {

    private SortedChanges() {}

    /**
     * As {@link #byGroup}, for changes that may name a row id more than once: each change is
     * numbered by its position in its upstream subtask's output and the sort orders the changes of
     * one row id by it ({@link TupleSort}: {@code sortPartition} orders by one field), so a writer
     * sees a row id's changes from one upstream path in the order they were made (and keeps the
     * last).
     */
    public static DataStream<RowData> byGroupInArrivalOrder(
            DataStream<RowData> changes,
            GroupPartitioner partitioner,
            int parallelism,
            String tableName) {
        TypeInformation<RowData> type = changes.getType();
        DataStream<Tuple3<Long, Long, RowData>> numbered =
                changes.map(new Numbered())
                        .returns(new TupleTypeInfo<>(Types.LONG, Types.LONG, type))
                        .name("Dovetail arrival order: " + tableName)
                        .setParallelism(changes.getParallelism());
        return TupleSort.sort(
                        numbered.partitionCustom(partitioner, new RowIdOfNumbered()),
                        "Dovetail sort by _ROW_ID: " + tableName,
                        parallelism,
                        0,
                        1)
                .map(numberedChange -> numberedChange.f2)
                .returns(type)
                .name("Dovetail sorted changes: " + tableName)
                .setParallelism(parallelism);
    }

    /** (row id or -1, position in this subtask's output, change). */
    private static final class Numbered
            implements MapFunction<RowData, Tuple3<Long, Long, RowData>> {
        private static final long serialVersionUID = 1L;
        private final GroupPartitioner.RowIdOfUpdate rowId = new GroupPartitioner.RowIdOfUpdate();
        private long next;

        @Override
        public Tuple3<Long, Long, RowData> map(RowData row) {
            return Tuple3.of(rowId.getKey(row), next++, row);
        }
    }

    private static final class RowIdOfNumbered
            implements KeySelector<Tuple3<Long, Long, RowData>, Long> {
        private static final long serialVersionUID = 1L;

        @Override
        public Long getKey(Tuple3<Long, Long, RowData> numbered) {
            return numbered.f0;
        }
    }

    public static DataStream<RowData> byGroup(
            DataStream<RowData> changes,
            GroupPartitioner partitioner,
            int parallelism,
            String tableName) {
        GroupPartitioner.RowIdOfUpdate rowId = new GroupPartitioner.RowIdOfUpdate();
        return changes.partitionCustom(partitioner, rowId)
                .fullWindowPartition()
                .sortPartition(rowId, Order.ASCENDING)
                .name("Dovetail sort by _ROW_ID: " + tableName)
                .setParallelism(parallelism);
    }
}
