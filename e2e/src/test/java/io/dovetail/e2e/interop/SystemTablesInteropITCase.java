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
import io.dovetail.table.TableStore;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.update.ColumnUpdater;
import io.dovetail.table.update.RowUpdate;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail writes a data-evolution table (appends to two partitions, a partial-column update, a
 * compaction); Dovetail's {@code $snapshots} and {@code $files} through Flink SQL report the same
 * core columns as Paimon 1.4.2's own system tables over the same files, value by value (times,
 * paths and the partition text included).
 */
class SystemTablesInteropITCase {

    private static final String TABLE = "regions";

    private static final List<String> SNAPSHOT_COLUMNS =
            List.of(
                    "snapshot_id",
                    "schema_id",
                    "commit_user",
                    "commit_identifier",
                    "commit_kind",
                    "commit_time",
                    "base_manifest_list",
                    "delta_manifest_list",
                    "changelog_manifest_list",
                    "total_record_count",
                    "delta_record_count",
                    "changelog_record_count",
                    "watermark",
                    "next_row_id");

    private static final List<String> FILE_COLUMNS =
            List.of(
                    "partition",
                    "bucket",
                    "file_path",
                    "file_format",
                    "schema_id",
                    "level",
                    "record_count",
                    "file_size_in_bytes",
                    "min_sequence_number",
                    "max_sequence_number",
                    "creation_time",
                    "file_source",
                    "first_row_id",
                    "write_cols");

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private static PaimonWorkbench paimon;

    @BeforeAll
    static void writeWithDovetail() {
        TableStore store = DovetailTables.regionTable(warehouse, TABLE);
        DovetailTables.appendToRegion(store, "writer", 1, 0, 10, "eu");
        DovetailTables.appendToRegion(store, "writer", 2, 10, 5, "eu");
        DovetailTables.appendToRegion(store, "writer", 3, 15, 10, "us");
        ColumnUpdater.on(store, store.latestSnapshot().orElseThrow(), List.of("name"))
                .commit(
                        "writer",
                        4,
                        List.of(new RowUpdate(17, GenericRowData.of(StringData.fromString("x"))))
                                .iterator())
                .orElseThrow();
        new DataEvolutionCompaction(store)
                .compact(
                        "compactor",
                        5,
                        p -> p.getString(0).toString().equals("eu"),
                        new CompactionConfig(256 << 20, 4 << 20, 2, CompactionConfig.Rewrite.FULL));
        paimon = new PaimonWorkbench(warehouse);
    }

    @AfterAll
    static void closePaimon() throws Exception {
        paimon.close();
    }

    @Test
    void snapshotsReportWhatPaimonReports() throws Exception {
        List<String> expected = paimon.readSystemTable(TABLE, "snapshots", SNAPSHOT_COLUMNS);
        assertThat(expected).hasSize(5);
        assertThat(dovetail("snapshots", SNAPSHOT_COLUMNS)).isEqualTo(expected);
    }

    @Test
    void filesReportWhatPaimonReports() throws Exception {
        List<String> expected = paimon.readSystemTable(TABLE, "files", FILE_COLUMNS);
        assertThat(expected).hasSize(3);
        assertThat(dovetail("files", FILE_COLUMNS)).isEqualTo(expected);
    }

    /** Dovetail's rows of {@code TABLE$system}, rendered as Paimon's side renders them, sorted. */
    private static List<String> dovetail(String system, List<String> columns) throws Exception {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        List<String> out = new ArrayList<>();
        String query =
                "SELECT `"
                        + String.join("`, `", columns)
                        + "` FROM dt.`default`.`"
                        + TABLE
                        + "$"
                        + system
                        + "`";
        try (CloseableIterator<Row> rows = sql.executeSql(query).collect()) {
            rows.forEachRemaining(row -> out.add(render(columns, row)));
        }
        out.sort(Comparator.naturalOrder());
        return out;
    }

    private static String render(List<String> columns, Row row) {
        List<String> fields = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            Object value = row.getField(i);
            fields.add(
                    columns.get(i)
                            + "="
                            + (value instanceof Object[] array
                                    ? Arrays.toString(array)
                                    : String.valueOf(value)));
        }
        return String.join(", ", fields);
    }
}
