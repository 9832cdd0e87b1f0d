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

import io.dovetail.table.TableStore;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Flink SQL DDL against a Dovetail catalog: what it stores is checked through the table core. */
class DovetailCatalogTest {

    @TempDir java.nio.file.Path warehouse;

    private TableEnvironment sql;

    @BeforeEach
    void createCatalog() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
    }

    @Test
    void createTableStoresADataEvolutionSchema() {
        sql.executeSql("CREATE DATABASE media");
        sql.executeSql(
                "CREATE TABLE media.images ("
                        + " id BIGINT NOT NULL COMMENT 'the image id',"
                        + " uri STRING,"
                        + " meta ROW<w INT, h INT>,"
                        + " tags ARRAY<STRING>,"
                        + " dt STRING"
                        + ") COMMENT 'images' PARTITIONED BY (dt) WITH ('file.format' = 'orc')");

        TableSchema schema = schema("media", "images");
        assertThat(schema.fieldNames()).containsExactly("id", "uri", "meta", "tags", "dt");
        assertThat(schema.fields().get(0).description()).isEqualTo("the image id");
        assertThat(schema.fields().get(0).type().nullable()).isFalse();
        assertThat(schema.partitionKeys()).containsExactly("dt");
        assertThat(schema.comment()).isEqualTo("images");
        assertThat(schema.options())
                .containsEntry("row-tracking.enabled", "true")
                .containsEntry("data-evolution.enabled", "true")
                .containsEntry("file.format", "orc");
        assertThat(schema.highestFieldId()).isEqualTo(6);

        assertThat(rows("SHOW DATABASES")).containsExactly("default", "media");
        assertThat(rows("SHOW TABLES FROM media")).containsExactly("images");
        assertThat(rows("DESCRIBE media.images"))
                .contains("id, BIGINT, false, null, null, null, the image id")
                .contains("meta, ROW<`w` INT, `h` INT>, true, null, null, null, null");
    }

    @Test
    void alterTableEvolvesTheSchemaByFieldId() {
        sql.executeSql("CREATE TABLE t (id BIGINT, name STRING, score FLOAT, meta ROW<a INT>)");
        sql.executeSql("ALTER TABLE t ADD (caption STRING COMMENT 'generated' AFTER id)");
        sql.executeSql("ALTER TABLE t RENAME name TO title");
        sql.executeSql("ALTER TABLE t MODIFY score DOUBLE");
        sql.executeSql("ALTER TABLE t MODIFY meta ROW<a BIGINT, b STRING>");
        sql.executeSql("ALTER TABLE t DROP title");
        sql.executeSql("ALTER TABLE t SET ('snapshot.num-retained.min' = '5')");

        TableSchema schema = schema("default", "t");
        assertThat(schema.fields())
                .extracting(DataField::name, DataField::id)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("id", 0),
                        org.assertj.core.groups.Tuple.tuple("caption", 5),
                        org.assertj.core.groups.Tuple.tuple("score", 2),
                        org.assertj.core.groups.Tuple.tuple("meta", 3));
        assertThat(schema.field("score").orElseThrow().type().asSqlString()).isEqualTo("DOUBLE");
        assertThat(schema.field("meta").orElseThrow().type().asSqlString())
                .isEqualTo("ROW<a BIGINT, b STRING>");
        assertThat(schema.options()).containsEntry("snapshot.num-retained.min", "5");
        assertThat(schema.id()).isEqualTo(6);
    }

    @Test
    void badDefinitionsAndChangesAreRefusedAndChangeNothing() {
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE pk (id BIGINT, PRIMARY KEY (id) NOT"
                                                + " ENFORCED)"))
                .hasStackTraceContaining("has no primary key");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "CREATE TABLE c (id BIGINT) WITH ('connector' ="
                                                + " 'filesystem')"))
                .hasStackTraceContaining("take no 'connector' option");
        sql.executeSql("CREATE TABLE t (id BIGINT, d DATE)");
        assertThatThrownBy(
                        () ->
                                sql.executeSql(
                                        "ALTER TABLE t SET ('data-evolution.enabled' = 'false')"))
                .hasStackTraceContaining("cannot be changed after the table is created");
        assertThatThrownBy(() -> sql.executeSql("ALTER TABLE t MODIFY d INT"))
                .hasStackTraceContaining("Cannot change the type of column 'd' from DATE to INT");
        assertThat(schema("default", "t").id()).isZero();
        assertThat(rows("SHOW TABLES")).containsExactly("t");
    }

    @Test
    void tablesAreRenamedAndDropped() {
        sql.executeSql("CREATE TABLE a (id BIGINT)");
        sql.executeSql("ALTER TABLE a RENAME TO b");
        assertThat(rows("SHOW TABLES")).containsExactly("b");
        assertThat(schema("default", "b").fieldNames()).containsExactly("id");
        sql.executeSql("DROP TABLE b");
        assertThat(rows("SHOW TABLES")).isEmpty();
        assertThat(warehouse.resolve("default.db/b")).doesNotExist();
    }

    private TableSchema schema(String database, String table) {
        return TableStore.open(new Warehouse(new Path(warehouse.toUri())).table(database, table))
                .latestSchema();
    }

    private List<String> rows(String statement) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(statement).collect()) {
            it.forEachRemaining(
                    row -> {
                        List<String> fields = new ArrayList<>();
                        for (int i = 0; i < row.getArity(); i++) {
                            fields.add(String.valueOf(row.getField(i)));
                        }
                        out.add(String.join(", ", fields));
                    });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
