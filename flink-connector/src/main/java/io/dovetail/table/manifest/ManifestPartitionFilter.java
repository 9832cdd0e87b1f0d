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
package io.dovetail.table.manifest;

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.stats.ColumnStats;
import io.dovetail.table.stats.SimpleStatsConverter;
import io.dovetail.table.stats.ValueOrder;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.types.logical.LogicalType;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Which manifests may hold entries of some given partitions, told from the partition statistics of
 * the manifest list (the rule Paimon uses to skip manifests): a manifest is skipped only when, for
 * every wanted partition, some partition column's value lies outside the manifest's bounds (or is
 * null where the manifest counts no nulls, or not null where it holds nulls only). Unknown bounds
 * never skip.
 */
public final class ManifestPartitionFilter {

    private final List<LogicalType> partitionTypes;
    private final SimpleStatsConverter stats;
    private final List<Comparator<Object>> orders = new ArrayList<>();
    private final List<GenericRowData> wanted = new ArrayList<>();

    /**
     * @param partitions serialized partition rows (BinaryRow bytes) whose entries are wanted
     */
    public ManifestPartitionFilter(
            List<LogicalType> partitionTypes, Collection<ByteBuffer> partitions) {
        this.partitionTypes = List.copyOf(partitionTypes);
        this.stats = new SimpleStatsConverter(partitionTypes);
        partitionTypes.forEach(type -> orders.add(ValueOrder.of(type)));
        BinaryRowCodec codec = BinaryRowCodec.of(partitionTypes);
        for (ByteBuffer partition : partitions) {
            byte[] bytes = new byte[partition.remaining()];
            partition.duplicate().get(bytes);
            wanted.add(codec.deserialize(bytes));
        }
    }

    /** Whether {@code manifest} may hold an entry of one of the wanted partitions. */
    public boolean mayHold(ManifestFileMeta manifest) {
        if (wanted.isEmpty()) {
            return false;
        }
        if (partitionTypes.isEmpty() || manifest.partitionStats().isEmpty()) {
            return true;
        }
        List<ColumnStats> columns = stats.fromStats(manifest.partitionStats(), manifest.fileName());
        for (GenericRowData partition : wanted) {
            if (mayHold(columns, partition)) {
                return true;
            }
        }
        return false;
    }

    private boolean mayHold(List<ColumnStats> columns, GenericRowData partition) {
        for (int i = 0; i < columns.size(); i++) {
            if (!mayHold(columns.get(i), partition.getField(i), orders.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean mayHold(ColumnStats column, Object value, Comparator<Object> order) {
        if (value == null) {
            return column.nullCount() == null || column.nullCount() > 0;
        }
        if (column.min() == null || column.max() == null) {
            // no bounds: unknown, or only nulls where the null count says so
            return column.nullCount() == null || column.min() != null || column.max() != null;
        }
        return order.compare(value, column.min()) >= 0 && order.compare(value, column.max()) <= 0;
    }
}
