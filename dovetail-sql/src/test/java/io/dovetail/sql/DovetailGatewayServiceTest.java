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

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DovetailGatewayServiceTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "UPDATE t SET a = 1",
                "update t set a = 1",
                "  \n\tUPDATE\nt SET a = 1",
                "-- backfill\nUPDATE t SET a = 1",
                "/* one; two */ UPDATE t SET a = 1"
            })
    void anUpdateRunsWithVirtualMetadataColumnsExpanded(String statement) {
        Configuration options =
                DovetailGatewayService.withStatementOptions(statement, new Configuration());

        assertThat(options.get(TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY))
                .containsExactly(ColumnExpansionStrategy.EXCLUDE_ALIASED_VIRTUAL_METADATA_COLUMNS);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "SELECT * FROM t",
                "UPDATES",
                "INSERT INTO t SELECT 'UPDATE t SET a = 1'",
                "-- UPDATE t SET a = 1\nSELECT 1"
            })
    void otherStatementsKeepTheSessionsOptions(String statement) {
        Configuration session = new Configuration();
        session.set(
                TableConfigOptions.TABLE_COLUMN_EXPANSION_STRATEGY,
                List.of(ColumnExpansionStrategy.EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS));

        assertThat(DovetailGatewayService.withStatementOptions(statement, session))
                .isSameAs(session);
    }
}
