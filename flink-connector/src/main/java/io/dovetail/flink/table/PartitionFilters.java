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
package io.dovetail.flink.table;

import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The partitions a {@code DELETE}'s conjuncts select when every conjunct is {@code partition_key =
 * literal}: then the delete drops whole partitions (no conjunct drops them all). Anything else is
 * not a partition delete and runs as a row-level delete.
 */
final class PartitionFilters {

    private PartitionFilters() {}

    static Optional<Predicate<RowData>> of(List<ResolvedExpression> conjuncts, TableSchema schema) {
        Map<Integer, Object> values = new LinkedHashMap<>();
        for (ResolvedExpression conjunct : conjuncts) {
            if (!(conjunct instanceof CallExpression call)
                    || call.getFunctionDefinition() != BuiltInFunctionDefinitions.EQUALS) {
                return Optional.empty();
            }
            List<ResolvedExpression> args = call.getResolvedChildren();
            Optional<Map.Entry<Integer, Object>> equality =
                    equality(args.get(0), args.get(1), schema)
                            .or(() -> equality(args.get(1), args.get(0), schema));
            if (equality.isEmpty()
                    || values.putIfAbsent(equality.get().getKey(), equality.get().getValue())
                            != null) {
                return Optional.empty(); // not key = literal, or a key named twice
            }
        }
        List<RowData.FieldGetter> getters = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        values.forEach(
                (position, value) -> {
                    getters.add(RowData.createFieldGetter(type(schema, position), position));
                    expected.add(value);
                });
        return Optional.of(
                partition -> {
                    for (int i = 0; i < getters.size(); i++) {
                        if (!expected.get(i).equals(getters.get(i).getFieldOrNull(partition))) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** Position of the partition key and the literal's value, if {@code key = literal}. */
    private static Optional<Map.Entry<Integer, Object>> equality(
            ResolvedExpression key, ResolvedExpression literal, TableSchema schema) {
        if (!(key instanceof FieldReferenceExpression ref)
                || !(literal instanceof ValueLiteralExpression value)) {
            return Optional.empty();
        }
        int position = schema.partitionKeys().indexOf(ref.getName());
        if (position < 0) {
            return Optional.empty();
        }
        return FlinkLiterals.toInternal(value, type(schema, position))
                .map(v -> Map.entry(position, v));
    }

    private static LogicalType type(TableSchema schema, int partitionPosition) {
        return FlinkTypes.toFlink(schema.partitionTypes().get(partitionPosition));
    }
}
