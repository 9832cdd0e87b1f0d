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
package io.dovetail.table.path;

import org.apache.flink.core.fs.Path;

import java.util.Objects;

/**
 * The filesystem-catalog warehouse: one directory {@code <db>.db} per database (no metadata file)
 * and in it one directory per table, named after the table.
 */
public final class Warehouse {

    /** Suffix of a database directory: database {@code default} lives in {@code default.db}. */
    public static final String DATABASE_DIR_SUFFIX = ".db";

    private final Path root;

    public Warehouse(Path root) {
        this.root = Objects.requireNonNull(root, "warehouse root");
    }

    public Path root() {
        return root;
    }

    /** The directory of a database; the name is validated by {@link CatalogNames}. */
    public Path databaseDir(String database) {
        return new Path(root, CatalogNames.checkDatabaseName(database) + DATABASE_DIR_SUFFIX);
    }

    /** The paths of a table; both names are validated by {@link CatalogNames}. */
    public TablePaths table(String database, String table) {
        return new TablePaths(new Path(databaseDir(database), CatalogNames.checkTableName(table)));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Warehouse && ((Warehouse) o).root.equals(root);
    }

    @Override
    public int hashCode() {
        return root.hashCode();
    }

    @Override
    public String toString() {
        return "Warehouse(" + root + ")";
    }
}
