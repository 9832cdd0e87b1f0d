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

import io.dovetail.table.TableStore;
import io.dovetail.table.index.GlobalIndexFiles;
import io.dovetail.table.index.IndexManifestEntry;
import io.dovetail.table.path.Warehouse;

import org.apache.flink.core.fs.Path;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A mixed pipeline in one warehouse: Apache Paimon 1.4.2 creates a data-evolution table {@code (id,
 * k, v)} with 1,000 rows and builds a B-tree global index on {@code k}; Dovetail writes to it.
 * Under the default {@code global-index.column-update-action = THROW_ERROR}, every Dovetail write
 * that changes {@code k} (UPDATE, merge, column updates) is refused with the table and the index
 * unchanged, so Paimon's indexed reads stay right; under {@code DROP_PARTITION_INDEX} it commits,
 * the index files are gone and Paimon finds the new value. Writes of other columns and compactions
 * keep the index, and Paimon's indexed reads still agree with the table.
 */
class GlobalIndexPolicyInteropITCase {

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
        // every job on the shared cluster, so a failed job reports its cause (a per-job local
        // cluster is gone by then, and Flink reports a failure to cancel the job instead)
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig().set("table.dml-sync", "true");
        BothCatalogs.register(sql, root);
    }

    @Test
    void anUpdateOfTheIndexedColumnIsRefusedThenDropsTheIndexUnderDropPartitionIndex() {
        indexedByPaimon("t_update");
        long snapshots = snapshotCount("t_update");

        assertThatThrownBy(
                        () ->
                                execute(
                                        "UPDATE dovetail.`default`.t_update SET k = 'zzz' WHERE id"
                                                + " = 17"))
                .hasStackTraceContaining("global indexes cover")
                .hasStackTraceContaining("global-index.column-update-action");

        assertThat(snapshotCount("t_update")).as("no snapshot").isEqualTo(snapshots);
        assertThat(globalIndexes("t_update")).isNotEmpty();
        assertThat(paimon("SELECT id, k FROM t_update WHERE k = 'k17'"))
                .containsExactly("id=17, k=k17");

        execute(
                "ALTER TABLE dovetail.`default`.t_update SET"
                        + " ('global-index.column-update-action' = 'DROP_PARTITION_INDEX')");
        execute("UPDATE dovetail.`default`.t_update SET k = 'zzz' WHERE id = 17");

        assertThat(globalIndexes("t_update")).isEmpty();
        assertThat(paimon("SELECT id, k FROM t_update WHERE k = 'zzz'"))
                .containsExactly("id=17, k=zzz");
        assertThat(paimon("SELECT COUNT(*) AS n FROM t_update WHERE k = 'k17'"))
                .containsExactly("n=0");
    }

    @Test
    void aMergeAndColumnUpdatesOfTheIndexedColumnAreRefused() {
        indexedByPaimon("t_merge");
        execute("CREATE TABLE dovetail.`default`.src (id BIGINT, k STRING)");
        execute("INSERT INTO dovetail.`default`.src VALUES (5, 'merged'), (6, 'merged')");
        long snapshots = snapshotCount("t_merge");

        assertThatThrownBy(
                        () ->
                                execute(
                                        "CALL dovetail.sys.data_evolution_merge(target =>"
                                                + " 'default.t_merge', source => 'default.src',"
                                                + " merge_condition => 't.id = s.id',"
                                                + " matched_update_set => 'k = s.k')"))
                .hasStackTraceContaining("global indexes cover");
        assertThatThrownBy(
                        () ->
                                execute(
                                        "INSERT INTO dovetail.`default`.`t_merge$column_updates`"
                                                + " (_ROW_ID, k) SELECT _ROW_ID, 'updated' FROM"
                                                + " dovetail.`default`.t_merge WHERE id < 3"))
                .hasStackTraceContaining("global indexes cover");

        assertThat(snapshotCount("t_merge")).isEqualTo(snapshots);
        assertThat(paimon("SELECT id, k FROM t_merge WHERE k = 'k5'"))
                .containsExactly("id=5, k=k5");
    }

    @Test
    void writesOfOtherColumnsAndCompactionsKeepTheIndexAndPaimonsIndexedReadsStayRight() {
        indexedByPaimon("t_keep");
        List<IndexManifestEntry> index = globalIndexes("t_keep");

        execute("UPDATE dovetail.`default`.t_keep SET v = 'changed' WHERE id < 500");
        execute("INSERT INTO dovetail.`default`.t_keep VALUES (1000, 'k1000', 'new')");
        execute(
                "CALL dovetail.sys.compact(`table` => 'default.t_keep', compact_strategy =>"
                        + " 'full')");

        assertThat(globalIndexes("t_keep")).isEqualTo(index);
        assertThat(paimon("SELECT id, k, v FROM t_keep WHERE k = 'k17'"))
                .containsExactly("id=17, k=k17, v=changed");
        assertThat(
                        paimon(
                                "SELECT id, k, v FROM t_keep /*+ OPTIONS('global-index.enabled' ="
                                        + " 'false') */ WHERE k = 'k17' OR k = 'k1000'"))
                .as("a full scan")
                .containsExactly("id=1000, k=k1000, v=new", "id=17, k=k17, v=changed");
        assertThat(paimon("SELECT COUNT(*) AS n FROM t_keep WHERE v = 'changed'"))
                .containsExactly("n=500");
    }

    /** Paimon creates {@code name}, writes 1,000 rows and builds a B-tree index on {@code k}. */
    private static void indexedByPaimon(String name) {
        execute(
                "CREATE TABLE paimon.`default`."
                        + name
                        + " (id BIGINT, k STRING, v STRING) WITH ('row-tracking.enabled' = 'true',"
                        + " 'data-evolution.enabled' = 'true', 'bucket' = '-1')");
        execute(
                "INSERT INTO paimon.`default`."
                        + name
                        + " VALUES "
                        + IntStream.range(0, 1000)
                                .mapToObj(i -> "(" + i + ", 'k" + i + "', 'v" + i + "')")
                                .collect(Collectors.joining(", ")));
        execute(
                "CALL paimon.sys.create_global_index(`table` => 'default."
                        + name
                        + "', index_column => 'k', index_type => 'btree')");
        assertThat(globalIndexes(name)).as("Paimon built a global index").isNotEmpty();
    }

    private static List<IndexManifestEntry> globalIndexes(String name) {
        TableStore store =
                TableStore.open(new Warehouse(new Path(root.toUri())).table("default", name));
        return store.files(store.latestSnapshot().orElseThrow()).indexFiles().stream()
                .filter(GlobalIndexFiles::isGlobalIndex)
                .toList();
    }

    private static long snapshotCount(String name) {
        return TableStore.open(new Warehouse(new Path(root.toUri())).table("default", name))
                .snapshots()
                .listIds()
                .length;
    }

    private static List<String> paimon(String query) {
        sql.executeSql("USE CATALOG paimon");
        try {
            return SqlRows.rendered(sql, query);
        } finally {
            sql.executeSql("USE CATALOG default_catalog");
        }
    }

    private static void execute(String statement) {
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
