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

import io.dovetail.flink.sql.TableName;
import io.dovetail.flink.system.SystemTableName;
import io.dovetail.table.TableStore;
import io.dovetail.table.error.DovetailException;
import io.dovetail.table.path.TablePaths;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.SchemaManager;

import org.apache.flink.table.api.ValidationException;

/**
 * The tables of one Dovetail catalog as procedure arguments name them ({@code 'database.table'},
 * like Paimon's procedures). A malformed name or a missing table is a {@link ValidationException}.
 */
public final class CatalogTables {

    private final String catalogName;
    private final Warehouse warehouse;

    CatalogTables(String catalogName, Warehouse warehouse) {
        this.catalogName = catalogName;
        this.warehouse = warehouse;
    }

    /** The name of the catalog the procedures belong to. */
    public String catalogName() {
        return catalogName;
    }

    /**
     * A new catalog of the same name over the same warehouse, for a procedure that plans SQL in its
     * own table environment; {@code defaultDatabase} becomes its current database.
     */
    public DovetailCatalog newCatalog(String defaultDatabase) {
        return new DovetailCatalog(catalogName, defaultDatabase, warehouse.root());
    }

    /** Opens the existing table a procedure argument names {@code 'database.table'}. */
    public TableStore open(String name) {
        return open(TableName.parseDatabaseAndTable(name));
    }

    /** Opens the existing table {@code name} of this catalog (its database given). */
    public TableStore open(TableName name) {
        String shown = name.database() + "." + name.table();
        if (name.database() == null
                || (name.catalog() != null && !name.catalog().equals(catalogName))) {
            throw new ValidationException(
                    "Table '"
                            + name.quoted()
                            + "' is not a table of catalog '"
                            + catalogName
                            + "'.");
        }
        if (SystemTableName.parse(name.table()).isSystemTable()) {
            throw new ValidationException(
                    "Procedures run on tables, not on the system table '" + shown + "'.");
        }
        TablePaths paths;
        try {
            paths = warehouse.table(name.database(), name.table());
        } catch (DovetailException e) {
            throw new ValidationException(e.getMessage(), e);
        }
        if (!new SchemaManager(paths).tableExists()) {
            throw new ValidationException(
                    "Table '" + shown + "' does not exist in catalog '" + catalogName + "'.");
        }
        return TableStore.open(paths);
    }
}
