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

import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.operators.Order;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import java.util.ArrayList;
import java.util.List;

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
     * As {@link #byGroup}, for changes that may name a row id more than once: each change gets a
     * trailing BIGINT, its position in its upstream subtask's output, and the sort orders the
     * changes of one row id by it, so a writer sees a row id's changes from one upstream path in
     * the order they were made (and keeps the last).
     */
    public static DataStream<RowData> byGroupInArrivalOrder(
            DataStream<RowData> changes,
            GroupPartitioner partitioner,
            int parallelism,
            String tableName) {
        RowType type = (RowType) ((InternalTypeInfo<RowData>) changes.getType()).toLogicalType();
        List<LogicalType> fields = new ArrayList<>(type.getChildren());
        fields.add(new BigIntType(false));
        DataStream<RowData> numbered =
                changes.map(new Numbered())
                        .returns(
                                InternalTypeInfo.of(RowType.of(fields.toArray(LogicalType[]::new))))
                        .name("Dovetail arrival order: " + tableName)
                        .setParallelism(changes.getParallelism());
        return numbered.partitionCustom(partitioner, new GroupPartitioner.RowIdOfUpdate())
                .fullWindowPartition()
                .sortPartition(new RowIdThenArrival(), Order.ASCENDING)
                .name("Dovetail sort by _ROW_ID: " + tableName)
                .setParallelism(parallelism);
    }

    /** Appends each row's position in this subtask's output. */
    private static final class Numbered implements MapFunction<RowData, RowData> {
        private static final long serialVersionUID = 1L;
        private long next;

        @Override
        public RowData map(RowData row) {
            return new JoinedRowData(row.getRowKind(), row, GenericRowData.of(next++));
        }
    }

    /** {@code _ROW_ID}, then the arrival number in the last field. */
    private static final class RowIdThenArrival
            implements KeySelector<RowData, Tuple2<Long, Long>>,
                    ResultTypeQueryable<Tuple2<Long, Long>> {
        private static final long serialVersionUID = 1L;

        @Override
        public Tuple2<Long, Long> getKey(RowData row) {
            return Tuple2.of(
                    row.isNullAt(0) ? -1L : row.getLong(0), row.getLong(row.getArity() - 1));
        }

        @Override
        public TypeInformation<Tuple2<Long, Long>> getProducedType() {
            return Types.TUPLE(Types.LONG, Types.LONG);
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
