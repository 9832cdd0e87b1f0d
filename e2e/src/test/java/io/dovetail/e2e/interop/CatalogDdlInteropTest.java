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
package io.dovetail.e2e.interop;

import io.dovetail.e2e.paimon.PaimonWorkbench;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tables created and altered with Flink SQL in a Dovetail catalog are Paimon tables: Paimon 1.4.2's
 * own catalog over the same warehouse sees the database, the evolved schema with its field ids, the
 * partition keys and options.
 */
class CatalogDdlInteropTest {

    @TempDir java.nio.file.Path warehouse;

    @Test
    void paimonSeesWhatFlinkDdlCreated() throws Exception {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
        sql.executeSql(
                "CREATE TABLE images (id BIGINT NOT NULL, uri STRING, meta ROW<w INT>, dt STRING)"
                        + " COMMENT 'images' PARTITIONED BY (dt)");
        sql.executeSql("ALTER TABLE images ADD caption STRING COMMENT 'generated'");
        sql.executeSql("ALTER TABLE images MODIFY meta ROW<w BIGINT, h INT>");
        sql.executeSql("ALTER TABLE images RENAME uri TO url");

        try (PaimonWorkbench paimon = new PaimonWorkbench(warehouse)) {
            FileStoreTable table = paimon.table("images");
            assertThat(table.schema().id()).isEqualTo(3);
            assertThat(table.rowType().asSQLString())
                    .isEqualTo(
                            "ROW<`id` BIGINT NOT NULL, `url` STRING, `meta` ROW<`w` BIGINT, `h`"
                                    + " INT>, `dt` STRING, `caption` STRING COMMENT 'generated'>");
            assertThat(table.schema().fields())
                    .extracting(f -> f.name() + "#" + f.id())
                    .containsExactly("id#0", "url#1", "meta#2", "dt#4", "caption#5");
            assertThat(table.partitionKeys()).containsExactly("dt");
            assertThat(table.comment()).hasValue("images");
            assertThat(table.options())
                    .containsEntry("row-tracking.enabled", "true")
                    .containsEntry("data-evolution.enabled", "true");
        }
    }
}
