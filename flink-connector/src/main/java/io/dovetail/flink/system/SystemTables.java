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

import io.dovetail.table.error.DovetailException;
import io.dovetail.table.error.Errors;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.types.utils.TypeConversions;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The system tables every Dovetail table has, by name: {@code $row_tracking} (a scan of the table
 * itself with its row-tracking columns) and the metadata tables listed here, read through {@link
 * SystemTableSource}.
 */
public final class SystemTables {

    private static final Map<String, SystemTable> METADATA = new LinkedHashMap<>();

    static {
        for (SystemTable table :
                List.of(
                        new SnapshotsTable(),
                        new SchemasTable(),
                        new OptionsTable(),
                        new ConsumersTable(),
                        new FilesTable(),
                        new ManifestsTable(),
                        new RowGroupsTable(),
                        new TableIndexesTable())) {
            METADATA.put(table.name(), table);
        }
    }

    private SystemTables() {}

    /** The metadata table called {@code name}; empty for {@code row_tracking} and unknown names. */
    public static Optional<SystemTable> metadata(String name) {
        return Optional.ofNullable(METADATA.get(name));
    }

    /** Whether {@code name} (after the {@code $}) names a system table. */
    public static boolean exists(String name) {
        return SystemTableName.ROW_TRACKING.equals(name)
                || SystemTableName.COLUMN_UPDATES.equals(name)
                || METADATA.containsKey(name);
    }

    /** The error for a system table that does not exist, listing those that do. */
    public static DovetailException unknown(SystemTableName name) {
        List<String> names = new ArrayList<>();
        names.add(SystemTableName.SEPARATOR + SystemTableName.ROW_TRACKING);
        names.add(SystemTableName.SEPARATOR + SystemTableName.COLUMN_UPDATES + " (to write)");
        METADATA.keySet().forEach(n -> names.add(SystemTableName.SEPARATOR + n));
        return Errors.invalidArgument(
                "Unknown system table '"
                        + name.table()
                        + SystemTableName.SEPARATOR
                        + name.system()
                        + "'; Dovetail tables have "
                        + String.join(", ", names)
                        + ".");
    }

    /** How the catalog describes a metadata table to the planner: its columns only. */
    public static CatalogTable catalogTable(SystemTable table) {
        return CatalogTable.newBuilder()
                .schema(
                        Schema.newBuilder()
                                .fromRowDataType(
                                        TypeConversions.fromLogicalToDataType(table.rowType()))
                                .build())
                .build();
    }
}
