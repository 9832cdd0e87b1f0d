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
package io.dovetail.flink.source;

import io.dovetail.table.predicate.BoundsCheck;
import io.dovetail.table.predicate.ColumnBounds;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The partition filter a row filter implies: its top-level conjuncts over partition columns only,
 * tested on each partition's values (a partition is one row, so its bounds are exact).
 */
final class PartitionPruning {

    private PartitionPruning() {}

    static java.util.function.Predicate<RowData> of(
            TableSchema schema, @Nullable Predicate filter) {
        Map<DataField, RowData.FieldGetter> getters = new HashMap<>();
        List<String> keys = schema.partitionKeys();
        for (int i = 0; i < keys.size(); i++) {
            DataField key = schema.field(keys.get(i)).orElseThrow();
            getters.put(key, RowData.createFieldGetter(FlinkTypes.toFlink(key.type()), i));
        }
        List<Predicate> onPartitions = new ArrayList<>();
        for (Predicate conjunct : conjuncts(filter)) {
            if (getters.keySet().containsAll(conjunct.fields())) {
                onPartitions.add(conjunct);
            }
        }
        if (onPartitions.isEmpty()) {
            return partition -> true;
        }
        Predicate test = new Predicate.And(onPartitions);
        return partition ->
                BoundsCheck.mayMatch(
                        test, field -> bounds(getters.get(field).getFieldOrNull(partition)));
    }

    private static List<Predicate> conjuncts(@Nullable Predicate filter) {
        if (filter == null) {
            return List.of();
        }
        return filter instanceof Predicate.And and ? and.children() : List.of(filter);
    }

    private static ColumnBounds bounds(@Nullable Object value) {
        return value == null ? ColumnBounds.allNull(1) : new ColumnBounds(value, value, 0L, 1);
    }
}
