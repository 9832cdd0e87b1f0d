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

import io.dovetail.table.data.BinaryRowCodec;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The partition of a row-range group as readers return it: the value of every partition column,
 * decoded from the manifest entry's partition row. As in Paimon, partition columns come from here
 * and never from the data files, whose stored values may differ (ORC stores a timestamp in the last
 * second before 1970 with a fraction one second later). Partition keys cannot be renamed, retyped
 * or dropped, so the partition row of any schema decodes under the snapshot's schema.
 */
public final class PartitionValues {

    private final GenericRowData row;
    private final Map<Integer, Integer> positions; // field id -> position in row

    private PartitionValues(GenericRowData row, Map<Integer, Integer> positions) {
        this.row = row;
        this.positions = positions;
    }

    /** Decodes the serialized partition rows of a table with {@code schema}'s partition keys. */
    public static Function<byte[], PartitionValues> decoder(TableSchema schema) {
        List<DataField> keys =
                schema.partitionKeys().stream().map(k -> schema.field(k).orElseThrow()).toList();
        BinaryRowCodec codec =
                BinaryRowCodec.of(keys.stream().map(f -> FlinkTypes.toFlink(f.type())).toList());
        Map<Integer, Integer> positions = new HashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            positions.put(keys.get(i).id(), i);
        }
        return partition ->
                new PartitionValues(
                        codec.deserialize(partition, "the partition of a manifest entry"),
                        positions);
    }

    /** The partition values as a row of the partition columns, in partition-key order. */
    public RowData row() {
        return row;
    }

    /** Whether {@code field} is a partition column. */
    boolean contains(DataField field) {
        return positions.containsKey(field.id());
    }

    /** The value of partition column {@code field} (a Flink internal value), or null. */
    @Nullable
    Object value(DataField field) {
        return row.getField(positions.get(field.id()));
    }
}
