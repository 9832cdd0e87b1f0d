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
package io.dovetail.flink.function;

import org.apache.flink.table.catalog.CatalogFunction;
import org.apache.flink.table.catalog.CatalogFunctionImpl;
import org.apache.flink.table.catalog.FunctionLanguage;
import org.apache.flink.table.functions.UserDefinedFunction;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The functions a Dovetail catalog serves in its {@code sys} database, by name (Paimon's). */
public final class SystemFunctions {

    private static final Map<String, Class<? extends UserDefinedFunction>> FUNCTIONS =
            new TreeMap<>(
                    Map.of(
                            "path_to_descriptor", PathToDescriptor.class,
                            "descriptor_to_string", DescriptorToString.class));

    private SystemFunctions() {}

    public static List<String> names() {
        return List.copyOf(FUNCTIONS.keySet());
    }

    public static Optional<CatalogFunction> get(String name) {
        return Optional.ofNullable(FUNCTIONS.get(name))
                .map(c -> new CatalogFunctionImpl(c.getName(), FunctionLanguage.JAVA));
    }
}
