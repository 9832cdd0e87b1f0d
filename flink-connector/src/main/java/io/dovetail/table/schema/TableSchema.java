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
package io.dovetail.table.schema;

import io.dovetail.table.error.Errors;
import io.dovetail.table.path.PartitionPaths;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.FieldIds;
import io.dovetail.table.types.FlinkTypes;
import io.dovetail.table.types.RowType;

import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One version of a table's schema, as stored in {@code schema/schema-<id>}: columns with their
 * field ids, the largest field id ever handed out, partition and primary keys, options, comment and
 * creation time. Construction checks the structural rules every Paimon schema obeys (unique names
 * per ROW, unique ids across the tree, {@code highestFieldId} covering every id, keys naming
 * existing columns); the data-evolution rules are in {@link DataEvolutionTableValidator}.
 *
 * @param comment the table comment, or null (distinct from the empty string)
 * @param options kept in the order given, so files re-serialise byte for byte
 */
public record TableSchema(
        long id,
        List<DataField> fields,
        int highestFieldId,
        List<String> partitionKeys,
        List<String> primaryKeys,
        Map<String, String> options,
        String comment,
        long timeMillis) {

    /** The schema file format version Dovetail writes. */
    public static final int CURRENT_VERSION = 3;

    public TableSchema {
        fields = List.copyOf(fields);
        partitionKeys = List.copyOf(partitionKeys);
        primaryKeys = List.copyOf(primaryKeys);
        options = Collections.unmodifiableMap(new LinkedHashMap<>(options));
        String problem = structuralProblem(id, fields, highestFieldId, partitionKeys, primaryKeys);
        if (problem != null) {
            throw Errors.invalidSchema("Invalid table schema: " + problem);
        }
    }

    /** Schema 0 of a new table; the fields must already carry their ids. */
    public static TableSchema initial(
            List<DataField> fields,
            List<String> partitionKeys,
            List<String> primaryKeys,
            Map<String, String> options,
            String comment,
            long timeMillis) {
        return new TableSchema(
                0,
                fields,
                FieldIds.highest(fields),
                partitionKeys,
                primaryKeys,
                options,
                comment,
                timeMillis);
    }

    /** Why the values cannot form a schema, or null when they can. */
    static String structuralProblem(
            long id,
            List<DataField> fields,
            int highestFieldId,
            List<String> partitionKeys,
            List<String> primaryKeys) {
        if (id < 0) {
            return "schema id " + id + " is negative";
        }
        String names = duplicateNameProblem(fields, "the table");
        if (names != null) {
            return names;
        }
        Set<Integer> seen = new HashSet<>();
        for (int fieldId : FieldIds.all(fields)) {
            if (!seen.add(fieldId)) {
                return "field id " + fieldId + " is used by more than one field";
            }
        }
        int highest = FieldIds.highest(fields);
        if (highestFieldId < highest) {
            return "highestFieldId " + highestFieldId + " is below the largest field id " + highest;
        }
        String partition = keyProblem(partitionKeys, fields, "partition key");
        return partition != null ? partition : keyProblem(primaryKeys, fields, "primary key");
    }

    private static String duplicateNameProblem(List<DataField> fields, String owner) {
        Set<String> names = new HashSet<>();
        for (DataField field : fields) {
            if (!names.add(field.name())) {
                return "column name '" + field.name() + "' appears twice in " + owner;
            }
            if (field.type() instanceof RowType row) {
                String nested =
                        duplicateNameProblem(row.fields(), "ROW column '" + field.name() + "'");
                if (nested != null) {
                    return nested;
                }
            }
        }
        return null;
    }

    private static String keyProblem(List<String> keys, List<DataField> fields, String what) {
        Set<String> seen = new HashSet<>();
        for (String key : keys) {
            if (fields.stream().noneMatch(f -> f.name().equals(key))) {
                return what + " '" + key + "' is not a column";
            }
            if (!seen.add(key)) {
                return what + " '" + key + "' is listed twice";
            }
        }
        return null;
    }

    public Optional<DataField> field(String name) {
        return fields.stream().filter(f -> f.name().equals(name)).findFirst();
    }

    public List<String> fieldNames() {
        return fields.stream().map(DataField::name).collect(Collectors.toList());
    }

    /** The columns as a NOT NULL row type (the shape of a table row). */
    public RowType rowType() {
        return new RowType(false, fields);
    }

    public Optional<String> option(String key) {
        return Optional.ofNullable(options.get(key));
    }

    /** The types of the partition columns, in partition order. */
    public List<DataType> partitionTypes() {
        return partitionKeys.stream()
                .map(k -> field(k).orElseThrow().type())
                .collect(Collectors.toList());
    }

    /** A copy with other values for the evolving parts; used by schema evolution. */
    TableSchema next(
            List<DataField> newFields,
            int newHighestFieldId,
            Map<String, String> newOptions,
            String newComment,
            long newTimeMillis) {
        return new TableSchema(
                id + 1,
                newFields,
                newHighestFieldId,
                partitionKeys,
                primaryKeys,
                newOptions,
                newComment,
                newTimeMillis);
    }

    @Override
    public String toString() {
        return "schema "
                + id
                + " "
                + fields.stream()
                        .map(DataField::toString)
                        .collect(Collectors.joining(", ", "[", "]"))
                + " partitioned by "
                + partitionKeys
                + " options "
                + options;
    }

    /** The partition paths of this schema: its keys and types, its path options. */
    public PartitionPaths partitionPaths() {
        return PartitionPaths.fromOptions(
                partitionKeys(),
                partitionTypes().stream().map(FlinkTypes::toFlink).toList(),
                options());
    }
}
