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

import org.apache.flink.api.common.operators.Order;
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
