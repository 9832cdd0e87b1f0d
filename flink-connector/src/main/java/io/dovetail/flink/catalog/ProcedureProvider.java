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

import org.apache.flink.table.procedures.Procedure;

import java.util.Map;

/**
 * Supplies {@code CALL <catalog>.sys.<name>(...)} procedures to every {@link DovetailCatalog}.
 * Implementations are found with {@link java.util.ServiceLoader} (listed in {@code
 * META-INF/services/io.dovetail.flink.catalog.ProcedureProvider}), so the connector compiles
 * without the modules that implement procedures; without any on the class path a catalog has none.
 */
public interface ProcedureProvider {

    /** The procedures by name, each resolving its table arguments through {@code tables}. */
    Map<String, Procedure> procedures(CatalogTables tables);
}
