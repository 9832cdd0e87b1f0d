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
package io.dovetail.flink.sql;

import org.apache.flink.table.api.ValidationException;

import javax.annotation.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * A table name as procedure arguments and merge sources give it, parsed here only: {@code table},
 * {@code database.table} or {@code catalog.database.table}, any part back-quoted (a quoted part may
 * hold dots and reserved words such as {@code default}). The parts are kept unquoted.
 */
public record TableName(@Nullable String catalog, @Nullable String database, String table) {

    /** A name of one to three parts; anything else is an error naming {@code argument}. */
    public static TableName parse(String argument, String text) {
        List<String> parts = new ArrayList<>();
        try {
            for (String part : SqlFragments.split(argument, text == null ? "" : text, '.')) {
                parts.add(SqlFragments.unquote(part));
            }
        } catch (ValidationException e) {
            parts.clear(); // an empty part or an open quote
        }
        if (parts.isEmpty() || parts.size() > 3 || parts.stream().anyMatch(String::isBlank)) {
            throw new ValidationException(
                    argument
                            + " must be a table name ('table', 'database.table' or"
                            + " 'catalog.database.table'), got '"
                            + text
                            + "'.");
        }
        int n = parts.size();
        return new TableName(
                n == 3 ? parts.get(0) : null, n >= 2 ? parts.get(n - 2) : null, parts.get(n - 1));
    }

    /**
     * A procedure's table argument: {@code 'database.table'} (like Paimon's procedures), of the
     * procedure's own catalog.
     */
    public static TableName parseDatabaseAndTable(String text) {
        TableName name;
        try {
            name = parse("table", text);
        } catch (ValidationException e) {
            name = null;
        }
        if (name == null || name.catalog != null || name.database == null) {
            throw new ValidationException(
                    "A table argument must be 'database.table', got '" + text + "'.");
        }
        return name;
    }

    /** This name with the catalog and database it leaves out filled in. */
    public TableName orIn(String defaultCatalog, String defaultDatabase) {
        return new TableName(
                catalog == null ? defaultCatalog : catalog,
                database == null ? defaultDatabase : database,
                table);
    }

    /**
     * The name as a procedure argument gives it: the parts joined by dots, a part quoted only if it
     * is not a plain identifier; {@link #parse} reads it back to this name.
     */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (String part : new String[] {catalog, database, table}) {
            if (part != null) {
                text.append(text.length() == 0 ? "" : ".")
                        .append(
                                SqlFragments.isSimpleIdentifier(part)
                                        ? part
                                        : SqlFragments.quote(part));
            }
        }
        return text.toString();
    }

    /** The name with every given part quoted, safe in any SQL statement. */
    public String quoted() {
        StringBuilder sql = new StringBuilder();
        if (catalog != null) {
            sql.append(SqlFragments.quote(catalog)).append('.');
        }
        if (database != null) {
            sql.append(SqlFragments.quote(database)).append('.');
        }
        return sql.append(SqlFragments.quote(table)).toString();
    }
}
