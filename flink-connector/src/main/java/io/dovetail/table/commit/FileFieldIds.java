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
package io.dovetail.table.commit;

import io.dovetail.table.error.Errors;
import io.dovetail.table.manifest.DataFileMeta;
import io.dovetail.table.schema.SchemaManager;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The top-level field ids a data file writes: its {@code writeCols} (all fields when null) resolved
 * through the file's own schema, so a column renamed since the file was written keeps its id.
 */
final class FileFieldIds {

    private static final Set<String> SYSTEM_FIELDS = Set.of("_ROW_ID", "_SEQUENCE_NUMBER");

    private final SchemaManager schemas;
    private final Map<Long, TableSchema> schemaCache = new HashMap<>();

    FileFieldIds(SchemaManager schemas) {
        this.schemas = schemas;
    }

    Set<Integer> of(DataFileMeta file) {
        TableSchema schema = schema(file.schemaId());
        Set<Integer> ids = new TreeSet<>();
        if (file.writeCols() == null) {
            schema.fields().forEach(f -> ids.add(f.id()));
            return ids;
        }
        for (String name : file.writeCols()) {
            if (SYSTEM_FIELDS.contains(name)) {
                continue;
            }
            DataField field =
                    schema.field(name)
                            .orElseThrow(
                                    () ->
                                            Errors.invalidLayout(
                                                    "Data file "
                                                            + file.fileName()
                                                            + " writes column '"
                                                            + name
                                                            + "', which its schema "
                                                            + schema.id()
                                                            + " does not have."));
            ids.add(field.id());
        }
        return ids;
    }

    synchronized TableSchema schema(long id) {
        return schemaCache.computeIfAbsent(id, schemas::schema);
    }
}
