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

import io.dovetail.e2e.paimon.PaimonScenarios;
import io.dovetail.e2e.paimon.PaimonWorkbench;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Paimon 1.4.2 writes an evolved, partitioned data-evolution table (Parquet and ORC); Flink SQL on
 * a Dovetail catalog over the same warehouse returns Paimon's own read, row by row: {@code SELECT
 * *} of {@code $row_tracking}, projections, and filters on partition, data and system columns.
 */
class SqlReadPaimonWrittenTablesITCase {

    private static final List<String> FORMATS = List.of("parquet", "orc");

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private static PaimonWorkbench paimon;
    private TableEnvironment sql;

    @BeforeAll
    static void writeWithPaimon() throws Exception {
        paimon = new PaimonWorkbench(warehouse);
        for (String format : FORMATS) {
            PaimonScenarios.evolvedPartitionedTable(paimon, table(format), format);
        }
    }

    @AfterAll
    static void closePaimon() throws Exception {
        paimon.close();
    }

    @BeforeEach
    void connect() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig()
                .set("table.column-expansion-strategy", "EXCLUDE_DEFAULT_VIRTUAL_METADATA_COLUMNS");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void selectStarOfRowTrackingEqualsPaimonsRead(String format) throws Exception {
        List<String> expected = paimonRead(format, allColumns(format));
        assertThat(expected).hasSize(15);
        assertThat(rows("SELECT * FROM `" + table(format) + "$row_tracking`"))
                .containsExactlyElementsOf(expected);
        assertThat(rows("SELECT * FROM " + table(format)))
                .containsExactlyElementsOf(paimonRead(format, tableColumns(format)));
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void projectionsEqualPaimonsProjectedRead(String format) throws Exception {
        assertThat(rows("SELECT extra, title, _ROW_ID FROM `" + table(format) + "$row_tracking`"))
                .containsExactlyElementsOf(paimonRead(format, "extra", "title", "_ROW_ID"));
        assertThat(rows("SELECT attrs, nested, p_ts FROM " + table(format)))
                .containsExactlyElementsOf(paimonRead(format, "attrs", "nested", "p_ts"));
    }

    @ParameterizedTest
    @FieldSource("FORMATS")
    void filtersReturnPaimonsMatchingRows(String format) throws Exception {
        List<String> all = paimonRead(format, "p_str", "extra", "_ROW_ID");
        assertThat(
                        rows(
                                "SELECT p_str, extra, _ROW_ID FROM `"
                                        + table(format)
                                        + "$row_tracking` WHERE _ROW_ID >= 5 AND _ROW_ID < 12"))
                .containsExactlyElementsOf(
                        all.stream().filter(r -> between(rowId(r), 5, 11)).toList());
        List<String> partition = paimonRead(format, "p_str", "extra");
        String someValue =
                partition.stream()
                        .map(r -> r.substring("p_str=".length(), r.indexOf(", extra=")))
                        .filter(v -> !v.equals("null"))
                        .findFirst()
                        .orElseThrow();
        assertThat(
                        rows(
                                "SELECT p_str, extra FROM "
                                        + table(format)
                                        + " WHERE p_str = '"
                                        + someValue.replace("'", "''")
                                        + "'"))
                .isNotEmpty()
                .containsExactlyElementsOf(
                        partition.stream()
                                .filter(r -> r.startsWith("p_str=" + someValue + ", extra="))
                                .toList());
        assertThat(rows("SELECT p_str, extra FROM " + table(format) + " WHERE p_str IS NULL"))
                .containsExactlyElementsOf(
                        partition.stream().filter(r -> r.startsWith("p_str=null,")).toList());
    }

    private static String table(String format) {
        return "evolved_" + format;
    }

    private String[] tableColumns(String format) throws Exception {
        return paimon.table(table(format)).rowType().getFieldNames().toArray(String[]::new);
    }

    private String[] allColumns(String format) throws Exception {
        List<String> names = new ArrayList<>(List.of(tableColumns(format)));
        names.add("_ROW_ID");
        names.add("_SEQUENCE_NUMBER");
        return names.toArray(String[]::new);
    }

    private static List<String> paimonRead(String format, String... columns) throws Exception {
        return TwoSidedReads.paimon(paimon.table(table(format)), columns);
    }

    private List<String> rows(String query) {
        return SqlRows.rendered(sql, query);
    }

    private static long rowId(String rendered) {
        return Long.parseLong(rendered.substring(rendered.lastIndexOf("_ROW_ID=") + 8));
    }

    private static boolean between(long value, long low, long high) {
        return value >= low && value <= high;
    }
}
