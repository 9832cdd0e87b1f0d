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
package io.dovetail.flink.catalog;

import io.dovetail.table.error.Errors;
import io.dovetail.table.format.vector.VectorFileFormat;
import io.dovetail.table.read.SystemFields;
import io.dovetail.table.schema.ColumnDeclarations;
import io.dovetail.table.schema.TableOptions;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;
import io.dovetail.table.types.FlinkTypes;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Converts between Flink's catalog tables and Dovetail table schemas: what CREATE TABLE may declare
 * (physical columns, partition keys, options, comments) and how a stored schema looks to Flink.
 */
final class TableDefinitions {

    /** A Dovetail table needs no connector option: the catalog knows how to read and write it. */
    static final String CONNECTOR = "connector";

    private TableDefinitions() {}

    /** What {@code CREATE TABLE} asks for, checked; ids are assigned fresh. */
    record NewTable(
            List<DataField> fields,
            List<String> partitionKeys,
            Map<String, String> options,
            String comment) {}

    static NewTable fromFlink(ResolvedCatalogTable table) {
        ResolvedSchema schema = table.getResolvedSchema();
        for (Column column : schema.getColumns()) {
            if (!column.isPhysical()) {
                throw Errors.unsupported(
                        "column '" + column.getName() + "': computed and metadata columns",
                        "Declare physical columns only; _ROW_ID and _SEQUENCE_NUMBER are"
                                + " provided by the table");
            }
        }
        if (schema.getPrimaryKey().isPresent()) {
            throw Errors.invalidSchema(
                    "A data-evolution table has no primary key (rows are identified by _ROW_ID);"
                            + " remove the PRIMARY KEY clause.");
        }
        if (!schema.getWatermarkSpecs().isEmpty()) {
            throw Errors.unsupported(
                    "watermarks on a data-evolution table", "Remove the WATERMARK clause");
        }
        if (table.getDistribution().isPresent()) {
            throw Errors.unsupported(
                    "DISTRIBUTED BY on a data-evolution table (it is bucket-unaware)",
                    "Remove the DISTRIBUTED BY clause");
        }
        Map<String, String> options = new LinkedHashMap<>(table.getOptions());
        if (options.containsKey(CONNECTOR)) {
            throw Errors.invalidArgument(
                    "Tables of a Dovetail catalog take no 'connector' option (got '"
                            + options.get(CONNECTOR)
                            + "'); remove it.");
        }
        options.putIfAbsent(TableOptions.ROW_TRACKING_ENABLED, "true");
        options.putIfAbsent(TableOptions.DATA_EVOLUTION_ENABLED, "true");
        List<DataField> fields =
                FlinkTypes.toFields((RowType) schema.toPhysicalRowDataType().getLogicalType());
        if (!TableOptions.blobDescriptorFields(options).isEmpty()) {
            throw Errors.unsupported(
                    "BLOB columns stored inline as descriptors ('"
                            + TableOptions.BLOB_DESCRIPTOR_FIELD
                            + "')",
                    "Store them in .blob files: list them in '"
                            + TableOptions.BLOB_FIELD
                            + "' only");
        }
        Set<String> blobs = TableOptions.names(options, TableOptions.BLOB_FIELD);
        Set<String> vectors = TableOptions.names(options, TableOptions.VECTOR_FIELD);
        List<DataField> described = new ArrayList<>();
        for (int i = 0; i < fields.size(); i++) {
            DataField field = fields.get(i);
            blobs.remove(field.name());
            vectors.remove(field.name());
            field =
                    field.withType(
                            ColumnDeclarations.declared(field.name(), field.type(), options));
            described.add(
                    field.withDescription(schema.getColumns().get(i).getComment().orElse(null)));
        }
        if (!blobs.isEmpty()) {
            throw Errors.invalidSchema(
                    "'"
                            + TableOptions.BLOB_FIELD
                            + "' names "
                            + blobs
                            + ", which the table does not declare; list BYTES columns of the"
                            + " table.");
        }
        VectorFileFormat.ofTableOptions(options); // refuses formats Dovetail cannot write
        if (!vectors.isEmpty()) {
            throw Errors.invalidSchema(
                    "'"
                            + TableOptions.VECTOR_FIELD
                            + "' names "
                            + vectors
                            + ", which the table does not declare (or also names in '"
                            + TableOptions.BLOB_FIELD
                            + "'); list ARRAY columns of the table.");
        }
        return new NewTable(described, table.getPartitionKeys(), options, table.getComment());
    }

    /**
     * The stored schema as Flink sees it: columns with comments, partition keys, options, and
     * {@code _ROW_ID} / {@code _SEQUENCE_NUMBER} as virtual metadata columns: selectable by name,
     * never written, and left out of {@code SELECT *} where {@code table.column-expansion-strategy}
     * excludes virtual metadata columns.
     */
    static CatalogTable toFlink(TableSchema schema) {
        return toFlink(schema, true);
    }

    /**
     * The {@code $row_tracking} system table: the table's columns followed by {@code _ROW_ID} and
     * {@code _SEQUENCE_NUMBER}, which {@code SELECT *} always includes (non-virtual metadata
     * columns of a read-only table).
     */
    static CatalogTable toFlinkRowTracking(TableSchema schema) {
        return toFlink(schema, false);
    }

    /** The sink {@code t$column_updates}: {@code _ROW_ID}, then every column of the table. */
    static CatalogTable toFlinkColumnUpdates(TableSchema schema) {
        Schema.Builder builder = Schema.newBuilder();
        List<DataField> fields = new ArrayList<>(List.of(SystemFields.ROW_ID));
        fields.addAll(schema.fields());
        for (DataField field : fields) {
            builder.column(
                    field.name(),
                    TypeConversions.fromLogicalToDataType(FlinkTypes.toFlink(field.type())));
        }
        return CatalogTable.newBuilder().schema(builder.build()).options(Map.of()).build();
    }

    private static CatalogTable toFlink(TableSchema schema, boolean virtualSystemColumns) {
        Schema.Builder builder = Schema.newBuilder();
        for (DataField field : schema.fields()) {
            builder.column(
                    field.name(),
                    TypeConversions.fromLogicalToDataType(FlinkTypes.toFlink(field.type())));
            if (field.description() != null) {
                builder.withComment(field.description());
            }
        }
        for (DataField field : List.of(SystemFields.ROW_ID, SystemFields.SEQUENCE_NUMBER)) {
            builder.columnByMetadata(
                    field.name(),
                    TypeConversions.fromLogicalToDataType(FlinkTypes.toFlink(field.type())),
                    virtualSystemColumns);
        }
        return CatalogTable.newBuilder()
                .schema(builder.build())
                .comment(schema.comment())
                .partitionKeys(schema.partitionKeys())
                .options(schema.options())
                .build();
    }
}
