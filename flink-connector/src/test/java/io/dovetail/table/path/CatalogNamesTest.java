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

import io.dovetail.table.error.DovetailException;

import org.apache.flink.core.fs.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CatalogNamesTest {

    @ParameterizedTest
    @ValueSource(strings = {"default", "orders_2024", "Ümlaut-表", "a.b", "a..b", "a b", "x$y"})
    void acceptsPlainNames(String name) {
        assertThat(CatalogNames.checkDatabaseName(name)).isEqualTo(name);
        assertThat(CatalogNames.checkTableName(name)).isEqualTo(name);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                " ",
                ".",
                "..",
                ".hidden",
                "a/b",
                "../x",
                "a\\b",
                "c:x",
                "tab\tname",
                "nl\n",
                "del\u007f",
                "nul\u0000",
                " lead",
                "trail "
            })
    void refusesNamesThatCouldLeaveTheirDirectory(String name) {
        assertThatThrownBy(() -> CatalogNames.checkTableName(name))
                .isInstanceOf(DovetailException.class)
                .hasMessageStartingWith("Invalid table name")
                .satisfies(
                        e ->
                                assertThat(((DovetailException) e).kind())
                                        .isEqualTo(DovetailException.Kind.INVALID_ARGUMENT));
        assertThatThrownBy(() -> CatalogNames.checkDatabaseName(name))
                .hasMessageStartingWith("Invalid database name");
    }

    @Test
    void explainsTheProblem() {
        assertThatThrownBy(() -> CatalogNames.checkTableName("a/b"))
                .hasMessage("Invalid table name 'a/b': it contains the path separator '/'.");
        assertThatThrownBy(() -> CatalogNames.checkTableName("x\u0001"))
                .hasMessageContaining("'x\\u0001'")
                .hasMessageContaining("control character U+0001");
        assertThatThrownBy(() -> CatalogNames.checkDatabaseName(null))
                .hasMessageContaining("missing");
        assertThatThrownBy(() -> CatalogNames.checkDatabaseName("d".repeat(253)))
                .hasMessageContaining("longer than 252 bytes");
        assertThat(CatalogNames.checkTableName("t".repeat(255))).hasSize(255);
    }

    @Test
    void warehouseLayout() {
        Warehouse warehouse = new Warehouse(new Path("file:/w"));
        assertThat(warehouse.databaseDir("default").toString()).isEqualTo("file:/w/default.db");
        TablePaths table = warehouse.table("default", "orders");
        assertThat(table.root().toString()).isEqualTo("file:/w/default.db/orders");
        assertThatThrownBy(() -> warehouse.table("..", "orders"))
                .hasMessageStartingWith("Invalid database name '..'");
        assertThatThrownBy(() -> warehouse.table("db", "x/../../y"))
                .hasMessageStartingWith("Invalid table name");
    }
}
