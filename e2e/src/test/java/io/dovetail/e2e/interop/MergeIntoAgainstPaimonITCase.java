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
import org.apache.flink.test.junit5.MiniClusterExtension;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Paimon user's {@code CALL sys.data_evolution_merge_into(...)} runs unchanged on a Dovetail
 * catalog and leaves the same table as Apache Paimon 1.4.2's own procedure on an identical Paimon
 * table (run with a shuffled join, the plan under which Paimon's result is right): a joined merge
 * of a column from another table, then a self-merge on {@code _ROW_ID} through a temporary view in
 * {@code source_sqls}. Rows are compared; each engine keeps its row ids.
 */
class MergeIntoAgainstPaimonITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path root;

    private static TableEnvironment sql;

    @BeforeAll
    static void catalogs() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig().set("table.dml-sync", "true"); // Paimon's CALL would return at submission
        sql.getConfig().set("table.optimizer.join.broadcast-threshold", "-1");
        sql.getConfig().set("table.exec.disabled-operators", "NestedLoopJoin,BroadcastHashJoin");
        for (String engine : List.of("dovetail", "paimon")) {
            sql.executeSql(
                    "CREATE CATALOG "
                            + engine
                            + " WITH ('type' = '"
                            + engine
                            + "', 'warehouse' = '"
                            + root.resolve(engine).toUri()
                            + "')");
            String options =
                    " WITH ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true',"
                            + " 'bucket' = '-1')";
            execute(
                    "CREATE TABLE "
                            + engine
                            + ".`default`.media (id BIGINT, url STRING, caption STRING)"
                            + options);
            execute(
                    "CREATE TABLE "
                            + engine
                            + ".`default`.src (id BIGINT, caption STRING)"
                            + options);
            execute("INSERT INTO " + engine + ".`default`.media " + media(0, 120));
            execute("INSERT INTO " + engine + ".`default`.media " + media(120, 200));
            execute(
                    "INSERT INTO "
                            + engine
                            + ".`default`.src VALUES (3, 'c3'), (50, 'c50'), (119, 'c119'),"
                            + " (120, 'c120'), (199, 'c199'), (500, 'none')");
        }
    }

    private static String media(int from, int to) {
        return "VALUES "
                + IntStream.range(from, to)
                        .mapToObj(i -> "(" + i + ", 'u" + i + "', CAST(NULL AS STRING))")
                        .collect(Collectors.joining(", "));
    }

    @Test
    void joinedMergeThenSelfMergeLeaveWhatPaimonLeaves() {
        List<String> dovetailRowIds = rowIds("dovetail");
        List<String> paimonRowIds = rowIds("paimon");
        for (String engine : List.of("dovetail", "paimon")) {
            execute(
                    "CALL "
                            + engine
                            + ".sys.data_evolution_merge_into('default.media', '', '',"
                            + " 'default.src', 'media.id = src.id', 'caption = src.caption', 2)");
        }
        List<String> afterJoin = rows("dovetail");
        assertThat(afterJoin).hasSize(200).contains("id=3, url=u3, caption=c3");
        assertThat(afterJoin).isEqualTo(rows("paimon"));

        for (String engine : List.of("dovetail", "paimon")) {
            execute(
                    "CALL "
                            + engine
                            + ".sys.data_evolution_merge_into('default.media', 'T', 'CREATE"
                            + " TEMPORARY VIEW fix AS SELECT _ROW_ID, UPPER(url) AS url FROM"
                            + " `default`.`media$row_tracking` WHERE id < 10 OR id > 195',"
                            + " 'fix', 'T._ROW_ID = fix._ROW_ID', 'url = fix.url', 2)");
        }
        List<String> afterSelfMerge = rows("dovetail");
        assertThat(afterSelfMerge)
                .contains("id=3, url=U3, caption=c3", "id=196, url=U196, caption=null");
        assertThat(afterSelfMerge).isEqualTo(rows("paimon"));
        assertThat(rowIds("dovetail")).as("merges keep row ids").isEqualTo(dovetailRowIds);
        assertThat(rowIds("paimon")).isEqualTo(paimonRowIds);
    }

    /** Row ids by id (the engines' writers may number rows in a different order). */
    private static List<String> rowIds(String engine) {
        return SqlRows.rendered(
                sql, "SELECT id, _ROW_ID FROM " + engine + ".`default`.`media$row_tracking`");
    }

    private static List<String> rows(String engine) {
        return SqlRows.rendered(
                sql, "SELECT id, url, caption FROM " + engine + ".`default`.`media$row_tracking`");
    }

    private static void execute(String statement) {
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
