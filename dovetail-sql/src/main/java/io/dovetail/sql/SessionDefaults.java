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
package io.dovetail.sql;

import io.dovetail.flink.catalog.DovetailCatalogFactory;

import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.api.config.TableConfigOptions;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What every session starts with, in scripts and in the interactive client alike: the options
 * ({@code RESET} returns to them) and the statements that register and select the warehouse's
 * catalog.
 */
final class SessionDefaults {

    static final String CATALOG = "dovetail";

    private SessionDefaults() {}

    static Map<String, String> options(LauncherOptions options) {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(DeploymentOptions.TARGET.key(), EmbeddedExecutorFactory.TARGET);
        defaults.put(DeploymentOptions.ATTACHED.key(), "true");
        defaults.put(ExecutionOptions.RUNTIME_MODE.key(), options.runtimeMode());
        defaults.put(CoreOptions.DEFAULT_PARALLELISM.key(), String.valueOf(options.parallelism()));
        // SELECT * leaves out virtual metadata columns such as _ROW_ID and _SEQUENCE_NUMBER
        defaults.put(
                TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY.key(),
                "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
        // a script's next statement sees what an INSERT, UPDATE or DELETE wrote
        defaults.put(TableConfigOptions.TABLE_DML_SYNC.key(), "true");
        return defaults;
    }

    static List<String> catalogStatements(LauncherOptions options) {
        return List.of(
                "CREATE CATALOG "
                        + CATALOG
                        + " WITH ('type' = '"
                        + DovetailCatalogFactory.IDENTIFIER
                        + "', 'warehouse' = '"
                        + options.warehouse().toString().replace("'", "''")
                        + "')",
                "USE CATALOG " + CATALOG);
    }
}
