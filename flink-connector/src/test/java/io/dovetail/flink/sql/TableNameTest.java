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

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Table names of procedure arguments and merge sources, parsed in one place. */
class TableNameTest {

    @Test
    void oneToThreePartsAnyOfThemBackQuoted() {
        assertThat(TableName.parse("source", "t")).isEqualTo(new TableName(null, null, "t"));
        assertThat(TableName.parse("source", " db . t ")).isEqualTo(new TableName(null, "db", "t"));
        assertThat(TableName.parse("source", "cat.`default`.`my.table`"))
                .isEqualTo(new TableName("cat", "default", "my.table"));
        assertThat(TableName.parse("source", "db.`a``b`"))
                .isEqualTo(new TableName(null, "db", "a`b"));
    }

    @Test
    void malformedNamesAreErrorsNamingTheArgument() {
        for (String bad : new String[] {"", "db.", ".t", "a.b.c.d", "db.`t", "db..t"}) {
            assertThatThrownBy(() -> TableName.parse("source", bad))
                    .as(bad)
                    .isInstanceOf(ValidationException.class)
                    .hasMessageContaining("source must be a table name")
                    .hasMessageContaining("'" + bad + "'");
        }
    }

    @Test
    void procedureTableArgumentsAreDatabaseAndTable() {
        assertThat(TableName.parseDatabaseAndTable("db.`t$x`"))
                .isEqualTo(new TableName(null, "db", "t$x"));
        for (String bad : new String[] {"t", "cat.db.t", "db.", null}) {
            assertThatThrownBy(() -> TableName.parseDatabaseAndTable(bad))
                    .as(bad)
                    .isInstanceOf(ValidationException.class)
                    .hasMessage("A table argument must be 'database.table', got '" + bad + "'.");
        }
    }

    @Test
    void quotedForSqlAndWrittenBackAsAnArgument() {
        TableName name = new TableName(null, "default", "my.table");
        assertThat(name.quoted()).isEqualTo("`default`.`my.table`");
        assertThat(name.toString()).isEqualTo("default.`my.table`");
        assertThat(TableName.parse("table", name.toString())).isEqualTo(name);
        assertThat(new TableName(null, "db", "t").toString()).isEqualTo("db.t");
        assertThat(TableName.parse("source", "t").orIn("dt", "db"))
                .isEqualTo(new TableName("dt", "db", "t"));
        assertThat(TableName.parse("source", "c.d.t").orIn("dt", "db"))
                .isEqualTo(new TableName("c", "d", "t"));
    }
}
