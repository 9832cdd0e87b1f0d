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
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.predicate.Predicate;
import io.dovetail.table.read.ReadPlan;
import io.dovetail.table.read.ReadPlanner;
import io.dovetail.table.read.ReadRequest;
import io.dovetail.table.read.ReadSplit;
import io.dovetail.table.read.SplitReader;
import io.dovetail.table.types.DataField;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.MiniClusterExtension;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * B-tree and bitmap global indexes between Dovetail and Apache Paimon 1.4.2, both ways, on tables
 * partitioned by {@code dt} (so the second partition's row ids do not start at 0):
 *
 * <ul>
 *   <li>Paimon builds indexes on a string and a bigint column; Dovetail's index-assisted reads of
 *       equalities and INs return what Paimon's full scans and Dovetail's own full scans return,
 *       read only the rows the index names (and rows appended after the build), and {@code
 *       t$table_indexes} lists what Paimon's lists; the same for Paimon's bitmap indexes. A lookup
 *       the index narrows to one split runs as one chained task (parallelism 1, forward edges).
 *   <li>Dovetail's {@code create_global_index} builds them: Paimon's indexed queries equal its full
 *       scans (strings with NULLs, bigints, several runs and files per partition). That Paimon does
 *       use the index shows where it must not: an update kept under IGNORE leaves the index naming
 *       the old value, so Paimon's indexed query misses the new one, while Dovetail's reads (no
 *       index under IGNORE) and Paimon's full scan find it; after {@code drop_global_index} and a
 *       new build, Paimon finds it again. The same for bitmap indexes (several per partition, NULLs
 *       in their null bitmap).
 * </ul>
 */
class GlobalIndexInteropITCase {

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
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig().set("table.dml-sync", "true");
        BothCatalogs.register(sql, root);
    }

    @Test
    void equalitiesAndInsOnPaimonsIndexesReadOnlyTheNamedRowsAndEqualFullScans() {
        indexedByPaimon("t", "", "btree");

        indexedQueriesEqualFullScans("t");
        assertThat(rowsPlanned("t", "k", "k1517")).as("one row of 2,000").isEqualTo(1);
        assertThat(rowsPlanned("t", "k", null)).as("the NULLs, 20 rows of 2,000").isEqualTo(20);
    }

    @Test
    void equalitiesAndInsOnPaimonsBitmapIndexesReadOnlyTheNamedRowsAndEqualFullScans() {
        indexedByPaimon("t_bitmap", "", "bitmap");

        indexedQueriesEqualFullScans("t_bitmap");
        assertThat(paimon("SELECT index_type FROM `t_bitmap$table_indexes`"))
                .containsOnly("index_type=bitmap")
                .hasSize(4);
        assertThat(rowsPlanned("t_bitmap", "k", "k1517")).as("one row of 2,000").isEqualTo(1);
        assertThat(rowsPlanned("t_bitmap", "k", null)).as("the NULLs").isEqualTo(20);
    }

    @Test
    void aLookupTheIndexNarrowsToOneSplitRunsAsOneChainedTask() throws Exception {
        indexedByPaimon("t_job", "", "btree");

        JsonNode lookup = jobPlan("SELECT id, k, v, dt FROM t_job WHERE k = 'k1517'");
        assertThat(lookup.findValuesAsText("parallelism")).containsOnly("1");
        assertThat(lookup.findValuesAsText("ship_strategy")).containsOnly("FORWARD");
        JsonNode scan =
                jobPlan(
                        "SELECT id, k, v, dt FROM t_job /*+ OPTIONS('global-index.enabled' ="
                                + " 'false') */ WHERE k = 'k1517'");
        assertThat(scan.findValuesAsText("parallelism")).contains("2");
    }

    /** Equalities and INs read through the indexes return what both engines' full scans return. */
    private static void indexedQueriesEqualFullScans(String table) {
        for (String where :
                List.of(
                        "k = 'k17'",
                        "k = 'k1517'",
                        "k IN ('k3', 'k1003', 'nope')",
                        "id = 1999",
                        "id IN (5, 1005) AND k = 'k5'",
                        "k = 'absent'",
                        "k IS NULL",
                        "k IS NULL AND id < 1000")) {
            String columns = "SELECT id, k, v, dt FROM " + table;
            String noIndex = " /*+ OPTIONS('global-index.enabled' = 'false') */";
            List<String> expected = paimon(columns + noIndex + " WHERE " + where);
            assertThat(dovetail(columns + " WHERE " + where)).as(where).isEqualTo(expected);
            assertThat(dovetail(columns + noIndex + " WHERE " + where))
                    .as(where)
                    .isEqualTo(expected);
        }
    }

    /** The stream nodes of the job Dovetail's catalog plans for {@code query}. */
    private static JsonNode jobPlan(String query) throws Exception {
        sql.executeSql("USE CATALOG dovetail");
        try {
            String explained = sql.explainSql(query, ExplainDetail.JSON_EXECUTION_PLAN);
            String json =
                    explained.substring(explained.indexOf("== Physical Execution Plan ==") + 29);
            return new ObjectMapper().readTree(json).get("nodes");
        } finally {
            sql.executeSql("USE CATALOG default_catalog");
        }
    }

    @Test
    void rowsAppendedAfterTheBuildAreScannedAndZstdBlocksAreRead() {
        indexedByPaimon("t_zstd", ", 'btree-index.compression' = 'zstd'", "btree");
        execute(
                "INSERT INTO paimon.`default`.t_zstd VALUES (5000, 'k17', 'late', 'b'),"
                        + " (5001, 'k17', 'late', 'a')");

        assertThat(dovetail("SELECT id, k, v, dt FROM t_zstd WHERE k = 'k17'"))
                .isEqualTo(
                        paimon(
                                "SELECT id, k, v, dt FROM t_zstd /*+ OPTIONS('global-index.enabled'"
                                        + " = 'false') */ WHERE k = 'k17'"))
                .hasSize(3);
        assertThat(rowsPlanned("t_zstd", "k", "k17"))
                .as("the named row and the late file")
                .isEqualTo(3);
    }

    @Test
    void tableIndexesListWhatPaimonsListsPlusTheRowRangeAndField() {
        indexedByPaimon("t_list", "", "btree");
        String columns =
                "`partition`, bucket, index_type, file_name, file_size, row_count, dv_ranges";

        assertThat(dovetail("SELECT " + columns + " FROM `t_list$table_indexes`"))
                .isEqualTo(paimon("SELECT " + columns + " FROM `t_list$table_indexes`"))
                .hasSize(4);
        assertThat(
                        dovetail(
                                "SELECT `partition`, row_range_start, row_range_end, index_field_id,"
                                        + " index_field_name FROM `t_list$table_indexes`"))
                .containsExactlyInAnyOrder(
                        "partition={a}, row_range_start=0, row_range_end=999, index_field_id=0, index_field_name=id",
                        "partition={a}, row_range_start=0, row_range_end=999, index_field_id=1, index_field_name=k",
                        "partition={b}, row_range_start=1000, row_range_end=1999, index_field_id=0, index_field_name=id",
                        "partition={b}, row_range_start=1000, row_range_end=1999, index_field_id=1, index_field_name=k");
    }

    /**
     * Paimon creates {@code name} partitioned by dt, inserts {@link #rowsOfPartition} of 'a' and
     * 'b', and builds indexes of {@code type} on k and id.
     */
    private static void indexedByPaimon(String name, String options, String type) {
        execute(
                "CREATE TABLE paimon.`default`."
                        + name
                        + " (id BIGINT, k STRING, v STRING, dt STRING) PARTITIONED BY (dt) WITH"
                        + " ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true',"
                        + " 'bucket' = '-1'"
                        + options
                        + ")");
        for (String dt : List.of("a", "b")) {
            execute("INSERT INTO paimon.`default`." + name + rowsOfPartition(dt));
        }
        for (String column : List.of("k", "id")) {
            execute(
                    "CALL paimon.sys.create_global_index(`table` => 'default."
                            + name
                            + "', index_column => '"
                            + column
                            + "', index_type => '"
                            + type
                            + "')");
        }
    }

    @Test
    void paimonsIndexedQueriesOnADovetailBuiltIndexEqualItsFullScans() {
        filledByDovetail("t_built");
        List<String> built =
                dovetail(
                        "CALL dovetail.sys.create_global_index(`table` => 'default.t_built',"
                                + " index_column => 'k', index_type => 'btree', options =>"
                                + " 'btree-index.records-per-range=300')");
        assertThat(built)
                .containsExactly("runs=6, index_files=6, indexed_rows=2000, snapshot_id=3");
        dovetail(
                "CALL dovetail.sys.create_global_index(`table` => 'default.t_built', index_column =>"
                        + " 'id', index_type => 'btree')");

        for (String where :
                List.of(
                        "k = 'k17'",
                        "k = 'k1517'",
                        "k IN ('k3', 'k1003', 'nope')",
                        "k IS NULL",
                        "id = 1999",
                        "id IN (5, 1005, 7777)")) {
            List<String> full =
                    paimon(
                            "SELECT id, k, dt FROM t_built /*+ OPTIONS('global-index.enabled' ="
                                    + " 'false') */ WHERE "
                                    + where);
            assertThat(paimon("SELECT id, k, dt FROM t_built WHERE " + where))
                    .as(where)
                    .isEqualTo(full);
            assertThat(dovetail("SELECT id, k, dt FROM t_built WHERE " + where))
                    .as(where)
                    .isEqualTo(full);
        }
        assertThat(
                        paimon(
                                "SELECT index_type, COUNT(*) AS n FROM `t_built$table_indexes` GROUP BY"
                                        + " index_type"))
                .containsExactly("index_type=btree, n=8");
        assertThat(
                        dovetail(
                                "CALL dovetail.sys.create_global_index(`table` => 'default.t_built',"
                                        + " index_column => 'k', index_type => 'btree')"))
                .as("nothing left to index")
                .containsExactly("runs=0, index_files=0, indexed_rows=0, snapshot_id=null");
    }

    @Test
    void paimonUsesTheDovetailBuiltIndexAndARebuildFollowsAnUpdateKeptUnderIgnore() {
        filledByDovetail("t_ignore");
        execute(
                "CALL dovetail.sys.create_global_index(`table` => 'default.t_ignore',"
                        + " index_column => 'k', index_type => 'btree')");
        execute(
                "ALTER TABLE dovetail.`default`.t_ignore SET"
                        + " ('global-index.column-update-action' = 'IGNORE')");
        execute("UPDATE dovetail.`default`.t_ignore SET k = 'zzz' WHERE id = 17");

        assertThat(paimon("SELECT id FROM t_ignore WHERE k = 'zzz'"))
                .as("Paimon's indexed read misses it: it reads the index Dovetail built")
                .isEmpty();
        assertThat(
                        paimon(
                                "SELECT id FROM t_ignore /*+ OPTIONS('global-index.enabled' ="
                                        + " 'false') */ WHERE k = 'zzz'"))
                .containsExactly("id=17");
        assertThat(dovetail("SELECT id FROM t_ignore WHERE k = 'zzz'")).containsExactly("id=17");

        assertThat(
                        dovetail(
                                "CALL dovetail.sys.drop_global_index(`table` => 'default.t_ignore',"
                                        + " index_column => 'k', index_type => 'btree', partitions"
                                        + " => 'dt=a')"))
                .containsExactly("index_files=1, dropped=true");
        assertThat(
                        dovetail(
                                "CALL dovetail.sys.create_global_index(`table` =>"
                                        + " 'default.t_ignore', index_column => 'k', index_type =>"
                                        + " 'btree')"))
                .as("only partition a is built again")
                .containsExactly("runs=1, index_files=1, indexed_rows=1000, snapshot_id=6");
        assertThat(paimon("SELECT id FROM t_ignore WHERE k = 'zzz'")).containsExactly("id=17");
        assertThat(paimon("SELECT id FROM t_ignore WHERE k = 'k17'")).isEmpty();
    }

    @Test
    void paimonUsesDovetailBuiltBitmapIndexesWithNullsAndTheyAreDroppedAndRebuilt() {
        filledByDovetail("t_bitmap_built");
        assertThat(
                        dovetail(
                                "CALL dovetail.sys.create_global_index(`table` =>"
                                        + " 'default.t_bitmap_built', index_column => 'k',"
                                        + " index_type => 'bitmap', options =>"
                                        + " 'global-index.row-count-per-shard=300')"))
                .containsExactly("runs=8, index_files=8, indexed_rows=2000, snapshot_id=3");
        execute(
                "CALL dovetail.sys.create_global_index(`table` => 'default.t_bitmap_built',"
                        + " index_column => 'id', index_type => 'bitmap')");

        for (String where :
                List.of(
                        "k = 'k17'",
                        "k = 'k1517'",
                        "k IN ('k3', 'k1003', 'k1950', 'nope')",
                        "k IS NULL",
                        "id = 1999",
                        "id IN (5, 1005, 7777)")) {
            List<String> full =
                    paimon(
                            "SELECT id, k, dt FROM t_bitmap_built /*+"
                                    + " OPTIONS('global-index.enabled' = 'false') */ WHERE "
                                    + where);
            assertThat(paimon("SELECT id, k, dt FROM t_bitmap_built WHERE " + where))
                    .as(where)
                    .isEqualTo(full);
            assertThat(dovetail("SELECT id, k, dt FROM t_bitmap_built WHERE " + where))
                    .as(where)
                    .isEqualTo(full);
        }
        assertThat(
                        paimon(
                                "SELECT index_type, COUNT(*) AS n FROM"
                                        + " `t_bitmap_built$table_indexes` GROUP BY index_type"))
                .containsExactly("index_type=bitmap, n=10");

        execute(
                "ALTER TABLE dovetail.`default`.t_bitmap_built SET"
                        + " ('global-index.column-update-action' = 'IGNORE')");
        execute("UPDATE dovetail.`default`.t_bitmap_built SET k = 'zzz' WHERE id = 17");
        assertThat(paimon("SELECT id FROM t_bitmap_built WHERE k = 'zzz'"))
                .as("Paimon's indexed read misses it: it reads the bitmaps Dovetail built")
                .isEmpty();
        assertThat(dovetail("SELECT id FROM t_bitmap_built WHERE k = 'zzz'"))
                .containsExactly("id=17");
        assertThat(
                        dovetail(
                                "CALL dovetail.sys.drop_global_index(`table` =>"
                                        + " 'default.t_bitmap_built', index_column => 'k',"
                                        + " index_type => 'bitmap', partitions => 'dt=a')"))
                .containsExactly("index_files=4, dropped=true");
        assertThat(
                        dovetail(
                                "CALL dovetail.sys.create_global_index(`table` =>"
                                        + " 'default.t_bitmap_built', index_column => 'k',"
                                        + " index_type => 'bitmap')"))
                .as("only partition a is built again, in one shard")
                .containsExactly("runs=1, index_files=1, indexed_rows=1000, snapshot_id=7");
        assertThat(paimon("SELECT id FROM t_bitmap_built WHERE k = 'zzz'"))
                .containsExactly("id=17");
        assertThat(paimon("SELECT id FROM t_bitmap_built WHERE k = 'k17'")).isEmpty();
    }

    /**
     * Dovetail creates {@code name} partitioned by dt and inserts ids 0..999 into 'a' and
     * 1000..1999 into 'b', {@code k = 'k' || id} except every 100th, which is NULL.
     */
    private static void filledByDovetail(String name) {
        execute(
                "CREATE TABLE dovetail.`default`."
                        + name
                        + " (id BIGINT, k STRING, v STRING, dt STRING) PARTITIONED BY (dt)");
        for (String dt : List.of("a", "b")) {
            execute("INSERT INTO dovetail.`default`." + name + rowsOfPartition(dt));
        }
    }

    /**
     * The rows of partition {@code dt} as a query: ids 0..999 in 'a', 1000..1999 in 'b', {@code k =
     * 'k' || id} (NULL for ids ending in 50), {@code v = 'v' || id}.
     */
    private static String rowsOfPartition(String dt) {
        int from = dt.equals("a") ? 0 : 1000;
        return " SELECT CAST(i AS BIGINT), CASE WHEN MOD(i, 100) = 50 THEN CAST(NULL AS STRING)"
                + " ELSE CONCAT('k', CAST(i AS STRING)) END, CONCAT('v', CAST(i AS STRING)), '"
                + dt
                + "' FROM (VALUES "
                + IntStream.range(from, from + 1000)
                        .mapToObj(i -> "(" + i + ")")
                        .collect(Collectors.joining(", "))
                + ") AS s(i)";
    }

    /**
     * The rows Dovetail's planner hands out for {@code column = value}, or {@code column IS NULL}
     * for a null value (before filtering).
     */
    private static long rowsPlanned(String table, String column, String value) {
        TableStore store =
                TableStore.open(new Warehouse(new Path(root.toUri())).table("default", table));
        DataField field = store.latestSchema().field(column).orElseThrow();
        ReadRequest request =
                ReadRequest.allColumns(store.latestSchema())
                        .withFilter(
                                value == null
                                        ? Predicate.isNull(field)
                                        : Predicate.equal(field, StringData.fromString(value)));
        ReadPlan plan = new ReadPlanner(store).planLatest(request);
        long rows = 0;
        for (ReadSplit split : plan.splits()) {
            try (SplitReader reader = SplitReader.open(plan, split)) {
                for (var batch = reader.nextBatch(); batch != null; batch = reader.nextBatch()) {
                    rows += batch.size();
                }
            }
        }
        return rows;
    }

    private static List<String> dovetail(String query) {
        return in("dovetail", query);
    }

    private static List<String> paimon(String query) {
        return in("paimon", query);
    }

    private static List<String> in(String catalog, String query) {
        sql.executeSql("USE CATALOG " + catalog);
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
