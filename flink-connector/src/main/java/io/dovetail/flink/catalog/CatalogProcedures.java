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

import io.dovetail.table.path.Warehouse;

import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.procedures.Procedure;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The procedures of one catalog: those of every {@link ProcedureProvider} on the connector's class
 * path, all in the database {@value #DATABASE} (which need not exist).
 */
final class CatalogProcedures {

    static final String DATABASE = "sys";

    private final Map<String, Procedure> procedures = new TreeMap<>();

    CatalogProcedures(String catalogName, Warehouse warehouse) {
        CatalogTables tables = new CatalogTables(catalogName, warehouse);
        for (ProcedureProvider provider :
                ServiceLoader.load(
                        ProcedureProvider.class, ProcedureProvider.class.getClassLoader())) {
            provider.procedures(tables)
                    .forEach(
                            (name, procedure) -> {
                                if (procedures.putIfAbsent(name, procedure) != null) {
                                    throw new CatalogException(
                                            "Two procedure providers define '" + name + "'.");
                                }
                            });
        }
    }

    /** The names of the procedures in {@code database}, sorted. */
    List<String> names(String database) {
        return DATABASE.equals(database) ? List.copyOf(procedures.keySet()) : List.of();
    }

    Optional<Procedure> get(ObjectPath path) {
        return DATABASE.equals(path.getDatabaseName())
                ? Optional.ofNullable(procedures.get(path.getObjectName()))
                : Optional.empty();
    }
}
