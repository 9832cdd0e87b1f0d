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
import io.dovetail.table.types.ArrayType;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.DataType;
import io.dovetail.table.types.MapType;
import io.dovetail.table.types.TypeRoot;

import java.util.Map;
import java.util.Set;

/**
 * The rules a data-evolution table's schema must satisfy at CREATE TABLE and after every change
 * (data-evolution semantics section 1.2):
 *
 * <ol>
 *   <li>{@code row-tracking.enabled} and {@code data-evolution.enabled} are both true;
 *   <li>no primary key;
 *   <li>{@code bucket} is absent or -1;
 *   <li>{@code clustering.incremental} is not true;
 *   <li>at least one column, and none named {@code _ROW_ID} or {@code _SEQUENCE_NUMBER};
 *   <li>a table with BLOB columns (BLOB, ARRAY&lt;BLOB&gt;, MAP&lt;K, BLOB&gt;) also has a non-BLOB
 *       column, and no BLOB column is a partition key;
 *   <li>a table with VECTOR columns sets {@code vector.file.format}, and no VECTOR column is a
 *       partition key.
 * </ol>
 *
 * <p>{@code deletion-vectors.enabled = true} is allowed: Dovetail follows Paimon master here (which
 * supports deletes on data-evolution tables through deletion vectors), not 1.4.2, which rejects it.
 */
public final class DataEvolutionTableValidator {

    /** System columns of row-tracking tables; user columns may not take these names. */
    public static final Set<String> RESERVED_COLUMN_NAMES = Set.of("_ROW_ID", "_SEQUENCE_NUMBER");

    private DataEvolutionTableValidator() {}

    public static void validate(TableSchema schema) {
        Map<String, String> options = schema.options();
        requireTrue(options, TableOptions.ROW_TRACKING_ENABLED);
        requireTrue(options, TableOptions.DATA_EVOLUTION_ENABLED);
        if (!schema.primaryKeys().isEmpty()) {
            throw Errors.invalidSchema(
                    "A data-evolution table cannot have a primary key (declared: "
                            + schema.primaryKeys()
                            + "). Remove the PRIMARY KEY clause; rows are identified by _ROW_ID.");
        }
        String bucket = options.get(TableOptions.BUCKET);
        if (bucket != null && !bucket.trim().equals("-1")) {
            throw Errors.invalidSchema(
                    "A data-evolution table must be bucket-unaware, but option 'bucket' is '"
                            + bucket
                            + "'. Remove the option or set it to -1.");
        }
        if (TableOptions.isTrue(options, TableOptions.CLUSTERING_INCREMENTAL)) {
            throw Errors.invalidSchema(
                    "A data-evolution table cannot use 'clustering.incremental' = 'true'. Remove the"
                            + " option.");
        }
        validateColumns(schema);
    }

    private static void requireTrue(Map<String, String> options, String key) {
        if (!TableOptions.isTrue(options, key)) {
            throw Errors.invalidSchema(
                    "A data-evolution table needs option '"
                            + key
                            + "' = 'true', but it is "
                            + (options.containsKey(key) ? "'" + options.get(key) + "'" : "absent")
                            + ". Set both 'row-tracking.enabled' and 'data-evolution.enabled' to"
                            + " 'true' when creating the table.");
        }
    }

    private static void validateColumns(TableSchema schema) {
        if (schema.fields().isEmpty()) {
            throw Errors.invalidSchema("A table needs at least one column.");
        }
        boolean vectorStore = schema.options().containsKey(TableOptions.VECTOR_FILE_FORMAT);
        boolean hasBlob = false;
        boolean hasNonBlob = false;
        for (DataField field : schema.fields()) {
            if (RESERVED_COLUMN_NAMES.contains(field.name())) {
                throw Errors.invalidSchema(
                        "Column name '"
                                + field.name()
                                + "' is reserved for the row-tracking system column. Choose"
                                + " another name.");
            }
            boolean blob = isBlobColumn(field.type());
            hasBlob |= blob;
            hasNonBlob |= !blob;
            boolean partitionKey = schema.partitionKeys().contains(field.name());
            if (partitionKey && blob) {
                throw Errors.invalidSchema(
                        "BLOB column '" + field.name() + "' cannot be a partition key.");
            }
            if (field.type().root() == TypeRoot.VECTOR && !vectorStore) {
                throw Errors.invalidSchema(
                        "VECTOR column '"
                                + field.name()
                                + "' needs vector-store files: set '"
                                + TableOptions.VECTOR_FILE_FORMAT
                                + "' to 'avro' or 'json' (Parquet and ORC files cannot hold"
                                + " VECTOR columns that Apache Paimon 1.4.2 reads).");
            }
            if (partitionKey && vectorStore && field.type().root() == TypeRoot.VECTOR) {
                throw Errors.invalidSchema(
                        "VECTOR column '"
                                + field.name()
                                + "' is stored in vector-store files ('vector.file.format' is set)"
                                + " and cannot be a partition key.");
            }
        }
        if (hasBlob && !hasNonBlob) {
            throw Errors.invalidSchema(
                    "A table with BLOB columns needs at least one non-BLOB column.");
        }
        for (String name : TableOptions.blobDescriptorFields(schema.options())) {
            if (schema.field(name).map(f -> f.type().root() != TypeRoot.BLOB).orElse(true)) {
                throw Errors.invalidSchema(
                        "'"
                                + TableOptions.BLOB_DESCRIPTOR_FIELD
                                + "' names '"
                                + name
                                + "', which is not a BLOB column; list BLOB columns (declared"
                                + " in '"
                                + TableOptions.BLOB_FIELD
                                + "') only.");
            }
        }
    }

    /**
     * Whether column {@code field} of {@code schema} is stored in dedicated files: a BLOB column
     * not stored inline as descriptors ({@code blob-descriptor-field}), or a VECTOR column when
     * {@code vector.file.format} is set.
     */
    public static boolean isDedicatedColumn(TableSchema schema, DataField field) {
        return (isBlobColumn(field.type())
                        && !TableOptions.blobDescriptorFields(schema.options())
                                .contains(field.name()))
                || (field.type().root() == TypeRoot.VECTOR
                        && schema.options().containsKey(TableOptions.VECTOR_FILE_FORMAT));
    }

    /** BLOB, ARRAY&lt;BLOB&gt; or MAP&lt;K, BLOB&gt;: columns stored in dedicated .blob files. */
    public static boolean isBlobColumn(DataType type) {
        if (type instanceof ArrayType array) {
            return array.element().root() == TypeRoot.BLOB;
        }
        if (type instanceof MapType map) {
            return map.value().root() == TypeRoot.BLOB;
        }
        return type.root() == TypeRoot.BLOB;
    }
}
