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
package io.dovetail.flink.system;

import io.dovetail.table.TableStore;
import io.dovetail.table.json.Json;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.schema.TableSchemaJson;
import io.dovetail.table.snapshot.Snapshot;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

import static io.dovetail.flink.system.Values.string;

/**
 * {@code t$schemas}: one row per schema file, oldest first. {@code fields}, {@code partition_keys},
 * {@code primary_keys} and {@code options} are compact JSON in the schema file's own encoding, so
 * {@code fields} carries the field ids that resolve each file's {@code write_cols}.
 */
final class SchemasTable implements SystemTable {

    private static final RowType TYPE =
            (RowType)
                    DataTypes.ROW(
                                    DataTypes.FIELD("schema_id", DataTypes.BIGINT().notNull()),
                                    DataTypes.FIELD("fields", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("partition_keys", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("primary_keys", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("options", DataTypes.STRING().notNull()),
                                    DataTypes.FIELD("comment", DataTypes.STRING()),
                                    DataTypes.FIELD(
                                            "update_time", DataTypes.TIMESTAMP(3).notNull()))
                            .notNull()
                            .getLogicalType();

    @Override
    public String name() {
        return "schemas";
    }

    @Override
    public RowType rowType() {
        return TYPE;
    }

    @Override
    public List<RowData> rows(TableStore store, @Nullable Snapshot snapshot) {
        List<RowData> rows = new ArrayList<>();
        for (long id : store.schemas().listIds()) {
            TableSchema schema = store.schemas().schema(id);
            JsonNode file = asStored(schema);
            rows.add(
                    GenericRowData.of(
                            schema.id(),
                            string(file.get("fields")),
                            string(file.get("partitionKeys")),
                            string(file.get("primaryKeys")),
                            string(file.get("options")),
                            string(schema.comment()),
                            Values.localTime(schema.timeMillis())));
        }
        return rows;
    }

    /** The schema as its file encodes it; {@link JsonNode#toString()} gives compact JSON. */
    private static JsonNode asStored(TableSchema schema) {
        try {
            return Json.parse(TableSchemaJson.toBytes(schema));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A schema did not read back as JSON", e);
        }
    }
}
