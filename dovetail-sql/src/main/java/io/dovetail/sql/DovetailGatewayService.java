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

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.config.TableConfigOptions;
import org.apache.flink.table.api.config.TableConfigOptions.ColumnExpansionStrategy;
import org.apache.flink.table.gateway.api.operation.OperationHandle;
import org.apache.flink.table.gateway.api.session.SessionHandle;
import org.apache.flink.table.gateway.service.SqlGatewayServiceImpl;
import org.apache.flink.table.gateway.service.session.SessionManager;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Flink's SQL gateway service with the per-statement options bin/dovetail-sql needs, for scripts
 * and for the SQL client's prompt alike. Flink 2.3 rewrites an {@code UPDATE} through a {@code
 * SELECT *} whose columns it counts wrongly when virtual metadata columns are left out of the
 * expansion, so an UPDATE runs with them expanded (only aliased ones excluded: Dovetail declares
 * none); the statement's result is the same.
 */
final class DovetailGatewayService extends SqlGatewayServiceImpl {

    /** An UPDATE statement, after any leading white space and comments. */
    private static final Pattern UPDATE =
            Pattern.compile(
                    "(\\s|--[^\\n]*(\\n|$)|/\\*.*?\\*/)*UPDATE\\s",
                    Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    DovetailGatewayService(SessionManager sessions) {
        super(sessions);
    }

    @Override
    public OperationHandle executeStatement(
            SessionHandle session, String statement, long timeoutMs, Configuration config) {
        return super.executeStatement(
                session, statement, timeoutMs, withStatementOptions(statement, config));
    }

    static Configuration withStatementOptions(String statement, Configuration config) {
        if (!UPDATE.matcher(statement).lookingAt()) {
            return config;
        }
        Configuration options = new Configuration(config);
        options.set(
                TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY,
                List.of(ColumnExpansionStrategy.EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS));
        return options;
    }
}
