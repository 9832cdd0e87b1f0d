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

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A Paimon-fed insert-only pipeline switched to Dovetail: Apache Paimon 1.4.2 owns a data-evolution
 * table {@code src} and two plain append tables; one streaming job copies {@code src} into one of
 * them through Paimon's catalog, the same statement with only the source's catalog changed copies
 * it into the other through Dovetail's (Paimon's append sink takes inserts only). While both run,
 * Paimon appends rows and Dovetail updates a column of old ones: both copies get every appended row
 * once, Dovetail's nothing else (Paimon's also the update's partial rows). Dovetail's full
 * changelog mode is refused by the same sink at planning.
 */
class PaimonFedPipelineInteropITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir static java.nio.file.Path root;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void theSamePipelineRunsOnDovetailsCatalog() throws Exception {
        TableEnvironment batch = session(EnvironmentSettings.inBatchMode());
        batch.getConfig().set("table.dml-sync", "true");
        batch.executeSql(
                        "CREATE TABLE paimon.`default`.src (id BIGINT, name STRING) WITH"
                                + " ('row-tracking.enabled' = 'true', 'data-evolution.enabled' ="
                                + " 'true')")
                .await();
        for (String copy : List.of("via_paimon", "via_dovetail")) {
            batch.executeSql("CREATE TABLE paimon.`default`." + copy + " (id BIGINT, name STRING)")
                    .await();
        }
        append(batch, 0, 50);

        TableEnvironment streaming = session(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        streaming.getConfig().set("parallelism.default", "1");
        String pipeline =
                "INSERT INTO paimon.`default`.%s SELECT id, name FROM %s.`default`.src"
                        + " /*+ OPTIONS('continuous.discovery-interval' = '100 ms'%s) */";
        // Paimon's append sink takes any changelog; Dovetail's insert-only sink shows the refusal
        String fullIntoColumnUpdates =
                "INSERT INTO dovetail.`default`.`src$column_updates` (_ROW_ID, name) SELECT"
                        + " _ROW_ID, name FROM dovetail.`default`.`src$row_tracking` /*+"
                        + " OPTIONS('scan.changelog-mode' = '%s') */";
        assertThatThrownBy(() -> streaming.explainSql(String.format(fullIntoColumnUpdates, "full")))
                .hasStackTraceContaining("doesn't support consuming update");
        assertThat(streaming.explainSql(String.format(fullIntoColumnUpdates, "insert-only")))
                .contains("src$column_updates");
        List<TableResult> jobs = new ArrayList<>();
        for (String engine : List.of("paimon", "dovetail")) {
            jobs.add(streaming.executeSql(String.format(pipeline, "via_" + engine, engine, "")));
        }
        try {
            append(batch, 50, 30);
            batch.executeSql("UPDATE dovetail.`default`.src SET name = 'renamed' WHERE id < 10")
                    .await();
            append(batch, 80, 20);
            TreeSet<String> expected = new TreeSet<>();
            for (long id = 0; id < 100; id++) {
                expected.add(id + ", name-" + id);
            }
            for (String copy : List.of("via_paimon", "via_dovetail")) {
                awaitRows(batch, copy, expected.size());
            }
            Thread.sleep(1_000); // room for a duplicate or a change row to land
            assertThat(rows(batch, "via_dovetail")).containsExactlyElementsOf(expected);
            // Paimon also emits the update's partial rows: the new names, the other columns NULL
            assertThat(rows(batch, "via_paimon"))
                    .filteredOn(row -> !row.startsWith("null"))
                    .containsExactlyElementsOf(expected);
        } finally {
            for (TableResult job : jobs) {
                job.getJobClient().orElseThrow().cancel().get();
            }
        }
    }

    private static TableEnvironment session(EnvironmentSettings settings) {
        TableEnvironment sql = TableEnvironment.create(settings);
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        BothCatalogs.register(sql, root);
        return sql;
    }

    /** Paimon appends rows {@code first ..} to {@code src}, one snapshot. */
    private static void append(TableEnvironment batch, long first, int count) throws Exception {
        List<String> values = new ArrayList<>();
        for (long id = first; id < first + count; id++) {
            values.add("(" + id + ", 'name-" + id + "')");
        }
        batch.executeSql("INSERT INTO paimon.`default`.src VALUES " + String.join(", ", values))
                .await();
    }

    private static void awaitRows(TableEnvironment batch, String copy, int count)
            throws InterruptedException {
        while (rows(batch, copy).size() < count) {
            Thread.sleep(200);
        }
    }

    /** The rows of a copy as "id, name", sorted, duplicates kept. */
    private static List<String> rows(TableEnvironment batch, String copy) {
        List<String> rows = new ArrayList<>();
        try (CloseableIterator<Row> it =
                batch.executeSql("SELECT id, name FROM paimon.`default`." + copy).collect()) {
            it.forEachRemaining(row -> rows.add(row.getField(0) + ", " + row.getField(1)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        rows.sort(null);
        return rows;
    }
}
