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
package io.dovetail.flink.procedure;

import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.data.RowData;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The partitions a {@code partitions} argument selects: a partition matches a spec when it has
 * every value the spec names (values as partition directories spell them, the default partition
 * name for null), and is selected when it matches any spec; no spec selects every partition.
 */
final class PartitionSelection {

    private PartitionSelection() {}

    static Predicate<RowData> of(TableSchema schema, List<Map<String, String>> specs) {
        if (specs.isEmpty()) {
            return partition -> true;
        }
        List<String> keys = schema.partitionKeys();
        for (Map<String, String> spec : specs) {
            if (!keys.containsAll(spec.keySet())) {
                throw new ValidationException(
                        "partitions names "
                                + spec.keySet()
                                + ", but the table's partition keys are "
                                + keys
                                + ".");
            }
        }
        PartitionPaths paths =
                PartitionPaths.fromOptions(
                        keys,
                        schema.partitionTypes().stream().map(FlinkTypes::toFlink).toList(),
                        schema.options());
        return partition -> {
            Map<String, String> values = paths.values(partition);
            return specs.stream().anyMatch(s -> values.entrySet().containsAll(s.entrySet()));
        };
    }
}
