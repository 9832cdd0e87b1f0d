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
package io.dovetail.flink.procedure;

import io.dovetail.table.TableStore;
import io.dovetail.table.commit.CommitRequest;
import io.dovetail.table.commit.TableCommit;
import io.dovetail.table.maintenance.CompactionConfig;
import io.dovetail.table.maintenance.DataEvolutionCompaction;
import io.dovetail.table.maintenance.ExpireConfig;
import io.dovetail.table.maintenance.SnapshotExpiry;
import io.dovetail.table.manifest.ManifestEntry;
import io.dovetail.table.path.Warehouse;
import io.dovetail.table.schema.TableSchema;
import io.dovetail.table.snapshot.CommitKind;
import io.dovetail.table.snapshot.Snapshot;
import io.dovetail.table.write.DataFileWriter;

import org.apache.flink.api.common.JobStatus;
import org.apache.flink.client.program.ClusterClient;
import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.test.junit5.InjectClusterClient;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code CALL sys.data_evolution_merge} and Paimon's {@code data_evolution_merge_into} on one
 * MiniCluster at parallelism 2: the rows and row ids read back after each merge, the one snapshot
 * it commits, its result row, and the errors that leave the table unchanged.
 */
class MergeProcedureITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(4)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private static final String BROADCAST_JOIN_MAX_SIZE =
            "dovetail.merge.broadcast-join.max-source-size";

    private TableEnvironment sql;

    @BeforeEach
    void connect() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "2");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
    }

    /**
     * Rows 0..19 (score = id, partitions a = even, b = odd), written by two inserts: four groups of
     * five rows, row id = id.
     */
    private void target(String name) {
        execute(
                "CREATE TABLE "
                        + name
                        + " (id INT, name STRING, score INT, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('sink.parallelism' = '1', 'deletion-vectors.enabled' = 'true')");
        execute("INSERT INTO " + name + " " + values(0, 10));
        execute("INSERT INTO " + name + " " + values(10, 20));
    }

    private static String values(int from, int to) {
        return "VALUES "
                + IntStream.range(from, to)
                        .mapToObj(
                                i ->
                                        "("
                                                + i
                                                + ", 'n"
                                                + i
                                                + "', "
                                                + i
                                                + ", '"
                                                + (i % 2 == 0 ? "a" : "b")
                                                + "')")
                        .collect(Collectors.joining(", "));
    }

    @Test
    void updatesInsertsAndDeletesInOneSnapshot() {
        target("m1");
        execute(
                "CREATE TABLE m1_src (id INT, score INT, op STRING, dt STRING)"
                        + " WITH ('sink.parallelism' = '1')");
        execute(
                "INSERT INTO m1_src VALUES (3, 300, 'U', 'b'), (4, 400, 'U', 'a'),"
                        + " (7, 0, 'D', 'b'), (100, 1000, 'U', 'a'), (101, 1010, 'U', 'b')");
        long before = latest("m1").id();
        Map<Integer, Long> rowIds = rowIdsById("m1");
        Row result =
                call(
                        "CALL dt.sys.data_evolution_merge(target => 'default.m1', source =>"
                                + " 'm1_src', merge_condition => 't.id = s.id',"
                                + " matched_update_set => 'score = s.score',"
                                + " matched_delete_condition => 's.op = ''D''',"
                                + " not_matched_insert_values => 'id = s.id, name = ''new'',"
                                + " score = s.score, dt = s.dt')");
        Snapshot after = latest("m1");
        assertThat(after.id()).isEqualTo(before + 1);
        assertThat(result.getField("snapshot_id")).isEqualTo(after.id());
        assertThat(result.getField("source_rows")).isEqualTo(5L);
        assertThat(result.getField("matched")).isEqualTo(3L);
        assertThat(result.getField("updated")).isEqualTo(2L);
        assertThat(result.getField("inserted")).isEqualTo(2L);
        assertThat(result.getField("deleted")).isEqualTo(1L);
        assertThat(result.getField("groups_rewritten")).isEqualTo(2L); // rows 3 and 4
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (i != 7) {
                int score = i == 3 ? 300 : i == 4 ? 400 : i;
                expected.add(
                        i
                                + ",n"
                                + i
                                + ","
                                + score
                                + ","
                                + (i % 2 == 0 ? "a" : "b")
                                + "@"
                                + rowIds.get(i));
            }
        }
        List<String> rows = renderWithRowIds("m1");
        assertThat(rows).containsAll(expected).hasSize(expected.size() + 2);
        assertThat(rows)
                .filteredOn(r -> r.startsWith("100,") || r.startsWith("101,"))
                .map(r -> r.substring(0, r.indexOf('@')))
                .containsExactlyInAnyOrder("100,new,1000,a", "101,new,1010,b");
        assertThat(rows)
                .filteredOn(r -> r.startsWith("100,") || r.startsWith("101,"))
                .map(r -> r.substring(r.indexOf('@') + 1))
                .containsExactlyInAnyOrder("20", "21"); // new row ids, after every old one
    }

    @Test
    void deletesTargetRowsNotMatchedBySourceAndInsertsByName() {
        target("m2");
        execute("CREATE TABLE m2_src (id INT, name STRING, score INT, dt STRING)");
        execute(
                "INSERT INTO m2_src VALUES (1, 'one', 10, 'b'), (2, 'two', 20, 'a'),"
                        + " (50, 'fifty', 500, 'a')");
        Row result =
                call(
                        "CALL dt.sys.data_evolution_merge(target => 'default.m2', source =>"
                                + " 'm2_src', merge_condition => 't.id = s.id',"
                                + " matched_update_set => 'name = s.name',"
                                + " not_matched_insert_values => '*',"
                                + " not_matched_by_source_delete_condition => 't.id >= 15')");
        assertThat(result.getField("deleted")).isEqualTo(5L); // 15..19
        assertThat(result.getField("inserted")).isEqualTo(1L);
        assertThat(result.getField("updated")).isEqualTo(2L);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            String name = i == 1 ? "one" : i == 2 ? "two" : "n" + i;
            expected.add("+I[" + i + ", " + name + ", " + i + "]");
        }
        expected.add("+I[50, fifty, 500]");
        assertThat(rows("SELECT id, name, score FROM m2"))
                .containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void selfMergeOnRowIdNeedsNoJoin() {
        target("m3");
        Map<Integer, Long> rowIds = rowIdsById("m3");
        Row result =
                call(
                        "CALL dt.sys.data_evolution_merge(target => 'default.m3', source =>"
                                + " 'SELECT _ROW_ID, score * 10 AS score FROM m3 WHERE dt = ''a''',"
                                + " merge_condition => 't._ROW_ID = s._ROW_ID',"
                                + " matched_update_set => 'score = s.score')");
        assertThat(result.getField("updated")).isEqualTo(10L);
        assertThat(result.getField("groups_rewritten")).isEqualTo(2L); // partition a's groups
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String dt = i % 2 == 0 ? "a" : "b";
            int score = i % 2 == 0 ? i * 10 : i;
            expected.add(i + ",n" + i + "," + score + "," + dt + "@" + rowIds.get(i));
        }
        assertThat(renderWithRowIds("m3")).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void staleRowIdsFailOrAreSkipped() {
        target("m4");
        long before = latest("m4").id();
        String merge =
                "CALL dt.sys.data_evolution_merge(target => 'default.m4', source =>"
                        + " 'SELECT * FROM (VALUES (CAST(5 AS BIGINT), 55), (CAST(999 AS BIGINT),"
                        + " 1)) AS v(rid, score)', merge_condition => 't._ROW_ID = s.rid',"
                        + " matched_update_set => 'score = s.score'";
        assertThatThrownBy(() -> call(merge + ")"))
                .hasStackTraceContaining("Stale row id 999: it is in no live row range")
                .hasStackTraceContaining("on_stale_row_id");
        assertThat(latest("m4").id()).isEqualTo(before);
        Row result = call(merge + ", on_stale_row_id => 'skip')");
        assertThat(result.getField("skipped")).isEqualTo(1L);
        assertThat(result.getField("updated")).isEqualTo(1L);
        assertThat(rows("SELECT score FROM m4 WHERE _ROW_ID = 5")).containsExactly("+I[55]");
    }

    /**
     * A merge with no matched_update_set writes no partial-column file: its matched rows are only
     * deleted (found by the random surface test: the SQL join's writer failed with "Name at least
     * one column to update").
     */
    @Test
    void aMergeThatUpdatesNoColumnOnlyDeletesAndInserts() {
        target("m_deletes");
        Map<Integer, Long> rowIds = rowIdsById("m_deletes");
        Row result =
                call(
                        "CALL dt.sys.data_evolution_merge(target => 'default.m_deletes', source =>"
                                + " 'SELECT * FROM (VALUES (3, ''D''), (4, ''U''), (100, ''U''))"
                                + " AS v(id, op)', merge_condition => 't.id = s.id',"
                                + " matched_delete_condition => 's.op = ''D''',"
                                + " not_matched_insert_values => 'id = s.id, name = ''new'',"
                                + " score = 0, dt = ''a''')");
        assertThat(result.getField("deleted")).isEqualTo(1L);
        assertThat(result.getField("inserted")).isEqualTo(1L);
        assertThat(result.getField("updated")).isEqualTo(0L);
        assertThat(result.getField("groups_rewritten")).isEqualTo(0L);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            if (i != 3) {
                expected.add(i + ",n" + i + "," + i + "," + (i % 2 == 0 ? "a" : "b"));
            }
        }
        expected.add("100,new,0,a");
        assertThat(renderWithRowIds("m_deletes"))
                .map(r -> r.substring(0, r.indexOf('@')))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(renderWithRowIds("m_deletes"))
                .contains("4,n4,4,a@" + rowIds.get(4), "100,new,0,a@20");

        String selfMerge =
                "CALL dt.sys.data_evolution_merge(target => 'default.m_deletes', source =>"
                        + " 'SELECT * FROM (VALUES (CAST("
                        + rowIds.get(6)
                        + " AS BIGINT)), (CAST(999 AS BIGINT)))"
                        + " AS v(rid)', merge_condition => 't._ROW_ID = s.rid',"
                        + " matched_delete_condition => 'TRUE'";
        long before = latest("m_deletes").id();
        assertThatThrownBy(() -> call(selfMerge + ")"))
                .hasStackTraceContaining("Stale row id 999: it is in no live row range");
        assertThat(latest("m_deletes").id()).isEqualTo(before);
        Row skipped = call(selfMerge + ", on_stale_row_id => 'skip')");
        assertThat(skipped.getField("deleted")).isEqualTo(1L);
        assertThat(skipped.getField("skipped")).isEqualTo(1L);
        assertThat(rows("SELECT id FROM m_deletes WHERE id = 5 OR id = 6"))
                .containsExactly("+I[5]");
    }

    @Test
    void aTargetRowMatchedTwiceFailsNamingBothMatches() {
        target("m5");
        long before = latest("m5").id();
        execute("CREATE TABLE m5_src (id INT, score INT)");
        execute("INSERT INTO m5_src VALUES (3, 31), (3, 32), (4, 40)");
        assertThatThrownBy(
                        () ->
                                call(
                                        "CALL dt.sys.data_evolution_merge(target => 'default.m5',"
                                                + " source => 'm5_src', merge_condition => 't.id ="
                                                + " s.id', matched_update_set => 'score ="
                                                + " s.score')"))
                .hasStackTraceContaining("is matched by more than one source row")
                .hasStackTraceContaining("[31]")
                .hasStackTraceContaining("[32]");
        assertThat(latest("m5").id()).isEqualTo(before);
    }

    @Test
    void joinStrategiesGiveTheSameTable() {
        String equal = "t.id = s.id";
        String between = "t.id >= s.id AND t.id <= s.id"; // no equi-join key: nested loop
        String[][] plans = {
            {"104857600", "ShuffleHashJoin,SortMergeJoin,NestedLoopJoin", equal}, // broadcast
            {"-1", "BroadcastHashJoin,NestedLoopJoin,SortMergeJoin", equal}, // shuffle hash
            {"-1", "HashJoin,NestedLoopJoin", equal}, // sort merge
            {"-1", "HashJoin,SortMergeJoin", between}, // nested loop
        };
        execute("CREATE TABLE m6_src (id INT, score INT)");
        execute("INSERT INTO m6_src VALUES (1, 10), (6, 60), (13, 130), (18, 180)");
        List<List<String>> results = new ArrayList<>();
        target("m6_key_join"); // the broadcast key join, whatever the planner options
        call(
                "CALL dt.sys.data_evolution_merge(target => 'default.m6_key_join', source =>"
                        + " 'm6_src', merge_condition => 't.id = s.id', matched_update_set =>"
                        + " 'score = s.score')");
        List<String> keyJoin = rows("SELECT id, score FROM m6_key_join");
        sql.getConfig().set(BROADCAST_JOIN_MAX_SIZE, "0"); // the SQL join of each plan
        for (int p = 0; p < plans.length; p++) {
            String name = "m6_" + p;
            target(name);
            sql.getConfig().set("table.optimizer.join.broadcast-threshold", plans[p][0]);
            sql.getConfig().set("table.exec.disabled-operators", plans[p][1]);
            call(
                    "CALL dt.sys.data_evolution_merge(target => 'default."
                            + name
                            + "', source => 'm6_src', merge_condition => '"
                            + plans[p][2]
                            + "', matched_update_set => 'score = s.score')");
            results.add(rows("SELECT id, score FROM " + name));
        }
        sql.getConfig()
                .set("table.exec.disabled-operators", "HashJoin,SortMergeJoin,NestedLoopJoin");
        assertThatThrownBy( // proves the session's planner options reach the merge's planner
                        () ->
                                call(
                                        "CALL dt.sys.data_evolution_merge(target => 'default.m6_0',"
                                                + " source => 'm6_src', merge_condition => 't.id ="
                                                + " s.id', matched_update_set => 'score ="
                                                + " s.score')"))
                .hasStackTraceContaining("Cannot plan the merge");
        sql.getConfig().set("table.exec.disabled-operators", "");
        sql.getConfig().getConfiguration().removeKey(BROADCAST_JOIN_MAX_SIZE);
        assertThat(results.get(0)).hasSize(20).contains("+I[13, 130]", "+I[1, 10]", "+I[2, 2]");
        assertThat(keyJoin).containsExactlyInAnyOrderElementsOf(results.get(0));
        assertThat(results.get(1)).containsExactlyInAnyOrderElementsOf(results.get(0));
        assertThat(results.get(2)).containsExactlyInAnyOrderElementsOf(results.get(0));
        assertThat(results.get(3)).containsExactlyInAnyOrderElementsOf(results.get(0));
    }

    /**
     * A matched-only merge on equal columns (two keys, one a partition column) runs as a broadcast
     * key join, and gives what the SQL join gives: the same rows, row ids and result row. Source
     * rows with a NULL key, a key matching no row, a duplicate key matching none, and a target row
     * deleted before the merge match nothing; the delete condition reads the source only.
     */
    @Test
    void aBroadcastKeyJoinGivesWhatTheSqlJoinGives(@InjectClusterClient ClusterClient<?> client)
            throws Exception {
        execute("CREATE TABLE m9_src (id INT, dt STRING, score INT, op STRING)");
        execute(
                "INSERT INTO m9_src VALUES (3, 'b', 30, 'U'), (4, 'a', 40, 'D'), (5, 'a', 50,"
                        + " 'U'), (12, 'a', 120, 'U'), (CAST(NULL AS INT), 'a', 0, 'U'), (99, 'b',"
                        + " 1, 'U'), (99, 'b', 2, 'U'), (16, 'a', 160, 'U'), (17, 'b', 170, 'U')");
        String merge =
                "', source => 'm9_src', merge_condition => 't.id = s.id AND (s.dt = t.dt)',"
                        + " matched_update_set => 'score = s.score + 1, name = ''m''',"
                        + " matched_delete_condition => 's.op = ''D''', parallelism => 2)";
        List<Row> results = new ArrayList<>();
        List<List<String>> tables = new ArrayList<>();
        for (String name : List.of("m9_key_join", "m9_sql_join")) {
            target(name);
            execute("DELETE FROM " + name + " WHERE id = 16");
            if (name.equals("m9_sql_join")) {
                sql.getConfig().set(BROADCAST_JOIN_MAX_SIZE, "0");
            }
            results.add(
                    call("CALL dt.sys.data_evolution_merge(target => 'default." + name + merge));
            sql.getConfig().getConfiguration().removeKey(BROADCAST_JOIN_MAX_SIZE);
            assertThat(latestJobRanAKeyJoin(client)).isEqualTo(name.equals("m9_key_join"));
            tables.add(renderWithRowIds(name));
        }
        assertThat(tables.get(0)).hasSize(18);
        assertThat(tables.get(0).stream().map(row -> row.substring(0, row.indexOf('@'))))
                .contains("3,m,31,b", "12,m,121,a", "17,m,171,b", "5,n5,5,b")
                .noneMatch(row -> row.startsWith("4,") || row.startsWith("16,"));
        assertThat(tables.get(1)).containsExactlyInAnyOrderElementsOf(tables.get(0));
        assertThat(results.get(0).toString()).isEqualTo(results.get(1).toString());
        assertThat(results.get(0).getField("matched")).isEqualTo(4L);
        assertThat(results.get(0).getField("updated")).isEqualTo(3L);
        assertThat(results.get(0).getField("deleted")).isEqualTo(1L);
        assertThat(results.get(0).getField("source_rows")).isEqualTo(9L);
    }

    @Test
    void aSourceThatOutgrowsTheBroadcastKeyJoinRerunsAsTheSqlJoin(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        target("m10");
        execute("CREATE TABLE m10_src (id INT, name STRING)");
        String caption = "c".repeat(4_000); // estimated at 24 bytes
        execute(
                "INSERT INTO m10_src VALUES "
                        + IntStream.range(0, 40)
                                .mapToObj(i -> "(" + i + ", '" + i + caption + "')")
                                .collect(Collectors.joining(", ")));
        sql.getConfig().set(BROADCAST_JOIN_MAX_SIZE, "64 kb"); // 40 rows estimated at 4.8 kb

        Row result =
                call(
                        "CALL dt.sys.data_evolution_merge(target => 'default.m10', source =>"
                                + " 'm10_src', merge_condition => 't.id = s.id', matched_update_set"
                                + " => 'name = s.name', parallelism => 2)");
        sql.getConfig().getConfiguration().removeKey(BROADCAST_JOIN_MAX_SIZE);

        assertThat(latestJobRanAKeyJoin(client)).isFalse();
        assertThat(client.listJobs().get())
                .anyMatch(
                        job ->
                                job.getJobName().equals("Dovetail merge into default.m10")
                                        && job.getJobState() == JobStatus.FAILED);
        assertThat(result.getField("updated")).isEqualTo(20L);
        assertThat(result.getField("source_rows")).isEqualTo(40L);
        assertThat(ProcedureSession.namedRows(sql.executeSql("SELECT id, name FROM m10")))
                .hasSize(20)
                .allMatch(row -> row.getField("name").equals(row.getField("id") + caption));
    }

    /**
     * Whether the newest job ran a broadcast key join (it counts source rows, the SQL join not).
     */
    private static boolean latestJobRanAKeyJoin(ClusterClient<?> client) throws Exception {
        JobStatusMessage latest = null;
        for (JobStatusMessage job : client.listJobs().get()) {
            if (latest == null || job.getStartTime() > latest.getStartTime()) {
                latest = job;
            }
        }
        return client.getAccumulators(latest.getJobId())
                .get()
                .containsKey("dovetail-merge-source-rows");
    }

    @Test
    void badArgumentsFailClearlyAndChangeNothing() {
        target("m7");
        execute("CREATE TABLE m7_src (id INT, score INT, name STRING)");
        execute("INSERT INTO m7_src VALUES (1, 10, 'x')");
        long before = latest("m7").id();
        assertThatThrownBy(() -> merge7("nope", "t.id = s.id", "score = s.score"))
                .hasStackTraceContaining("Cannot plan the merge's source")
                .hasStackTraceContaining("nope");
        assertThatThrownBy(() -> merge7("m7_src", "t.id = s.idx", "score = s.score"))
                .hasStackTraceContaining("Cannot plan the merge")
                .hasStackTraceContaining("idx");
        assertThatThrownBy(() -> merge7("m7_src", "t.id = s.id", "dt = s.name"))
                .hasStackTraceContaining("partition column 'dt'");
        assertThatThrownBy(() -> merge7("m7_src", "t.id = s.id", "_ROW_ID = s.id"))
                .hasStackTraceContaining("system column '_ROW_ID'");
        assertThatThrownBy(() -> merge7("m7_src", "t.id = s.id", "score = s.name"))
                .hasStackTraceContaining("column 'score' of default.m7 is INT")
                .hasStackTraceContaining("CAST the value explicitly");
        assertThatThrownBy(() -> merge7("m7_src", "t.id = s.id", "nope = s.id"))
                .hasStackTraceContaining("unknown column 'nope'");
        assertThatThrownBy(
                        () ->
                                call(
                                        "CALL dt.sys.data_evolution_merge(target => 'default.nope',"
                                                + " source => 'm7_src', merge_condition => 't.id ="
                                                + " s.id', matched_update_set => 'score = s.score')"))
                .hasStackTraceContaining("does not exist");
        assertThat(latest("m7").id()).isEqualTo(before);
    }

    private Row merge7(String source, String condition, String set) {
        return call(
                "CALL dt.sys.data_evolution_merge(target => 'default.m7', source => '"
                        + source
                        + "', merge_condition => '"
                        + condition
                        + "', matched_update_set => '"
                        + set
                        + "')");
    }

    @Test
    void paimonsMergeIntoCallRunsUnchanged() {
        target("m8");
        execute("CREATE TABLE m8_src (id INT, score INT)");
        execute("INSERT INTO m8_src VALUES (2, 20), (3, 30), (77, 0)");
        Row joined =
                call(
                        "CALL dt.sys.data_evolution_merge_into('default.m8', '', '', 'm8_src',"
                                + " 'm8.id = m8_src.id', 'score = m8_src.score', 2)");
        assertThat(joined.getField("updated")).isEqualTo(2L);
        Row self =
                call(
                        "CALL dt.sys.data_evolution_merge_into(target_table => 'default.m8',"
                                + " target_alias => 'T', source_sqls => 'CREATE TEMPORARY VIEW fix"
                                + " AS SELECT _ROW_ID, score + 1 AS score FROM m8 WHERE id < 4',"
                                + " source_table => 'fix', merge_condition => 'T._ROW_ID ="
                                + " fix._ROW_ID', matched_update_set => 'score = fix.score',"
                                + " sink_parallelism => 2)");
        assertThat(self.getField("updated")).isEqualTo(4L);
        assertThat(rows("SELECT id, score FROM m8 WHERE id < 5"))
                .containsExactlyInAnyOrder(
                        "+I[0, 1]", "+I[1, 2]", "+I[2, 21]", "+I[3, 31]", "+I[4, 4]");
    }

    @Test
    void sourceSqlsSplitOnlyAtStatementEndsNotAtSemicolonsInLiterals() {
        target("m11");
        Row merged =
                call(
                        "CALL dt.sys.data_evolution_merge_into(target_table => 'default.m11',"
                                + " target_alias => 'T', source_sqls => '-- two views; one"
                                + " comment\nCREATE TEMPORARY VIEW named AS SELECT _ROW_ID,"
                                + " CONCAT(name, '';x'') AS name FROM m11 WHERE id < 2; CREATE"
                                + " TEMPORARY VIEW fix AS SELECT * FROM named;', source_table =>"
                                + " 'fix', merge_condition => 'T._ROW_ID = fix._ROW_ID',"
                                + " matched_update_set => 'name = fix.name', sink_parallelism =>"
                                + " 2)");
        assertThat(merged.getField("updated")).isEqualTo(2L);
        assertThat(rows("SELECT id, name FROM m11 WHERE id < 3"))
                .containsExactlyInAnyOrder("+I[0, n0;x]", "+I[1, n1;x]", "+I[2, n2]");
    }

    /**
     * A compaction committed while a merge job runs (after the merge pinned its base snapshot,
     * before it commits) folds the groups the merge rewrites: the merge's partial-column files are
     * rebased onto the compacted files, nothing is lost on either side and the row ids stay.
     */
    @Test
    void aCompactionCommittedWhileTheMergeRunsIsRebasedOnto(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        target("m9");
        execute("UPDATE m9 SET name = CONCAT('u', name)"); // a partial file in every group
        Map<Integer, Long> rowIds = rowIdsById("m9");
        TableStore store = store("m9");
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Row> merge =
                    caller.submit(
                            () ->
                                    call(
                                            "CALL dt.sys.data_evolution_merge_into(target_table =>"
                                                    + " 'default.m9', source_sqls => 'CREATE TEMPORARY"
                                                    + " TABLE slow (id INT, score INT) WITH"
                                                    + " (''connector'' = ''datagen'', ''number-of-rows''"
                                                    + " = ''20'', ''rows-per-second'' = ''10'',"
                                                    + " ''fields.id.kind'' = ''sequence'',"
                                                    + " ''fields.id.start'' = ''0'', ''fields.id.end'' ="
                                                    + " ''19'', ''fields.score.kind'' = ''sequence'',"
                                                    + " ''fields.score.start'' = ''1000'',"
                                                    + " ''fields.score.end'' = ''1019'')', source_table"
                                                    + " => 'slow', merge_condition => 'm9.id ="
                                                    + " slow.id', matched_update_set => 'score ="
                                                    + " slow.score', sink_parallelism => 2)"));
            awaitRunningMerge(client, merge);
            long base = latest("m9").id();
            DataEvolutionCompaction.Result compacted =
                    new DataEvolutionCompaction(store)
                            .compact(
                                    "test-compaction",
                                    1,
                                    partition -> true,
                                    new CompactionConfig(
                                            256 << 20, 4 << 20, 2, CompactionConfig.Rewrite.FULL));
            assertThat(compacted.snapshotId()).hasValue(base + 1);
            assertThat(merge.isDone()).as("the merge was still running").isFalse();

            Row result = merge.get(2, TimeUnit.MINUTES);
            assertThat(result.getField("updated")).isEqualTo(20L);
            assertThat(result.getField("snapshot_id")).isEqualTo(base + 2);
            assertThat(store.snapshots().snapshot(base + 1).commitKind())
                    .isEqualTo(CommitKind.COMPACT);
        } finally {
            caller.shutdownNow();
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            expected.add(
                    i
                            + ",un"
                            + i
                            + ","
                            + (1000 + i)
                            + ","
                            + (i % 2 == 0 ? "a" : "b")
                            + "@"
                            + rowIds.get(i));
        }
        assertThat(renderWithRowIds("m9")).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * A merge slower than the table's snapshot retention (2 snapshots) while INSERTs commit and
     * expire snapshots behind it: the merge's pin keeps its base, so it commits, and once it is
     * done the next expiry goes on as before.
     */
    @Test
    void aMergeLongerThanTheSnapshotRetentionStillCommits(
            @InjectClusterClient ClusterClient<?> client) throws Exception {
        execute(
                "CREATE TABLE m12 (id INT, name STRING, score INT, dt STRING) PARTITIONED BY (dt)"
                        + " WITH ('snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' ="
                        + " '2')");
        execute("INSERT INTO m12 " + values(0, 20));
        long base = latest("m12").id();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Row> merge =
                    caller.submit(
                            () ->
                                    call(
                                            "CALL dt.sys.data_evolution_merge_into(target_table =>"
                                                    + " 'default.m12', source_sqls => 'CREATE"
                                                    + " TEMPORARY TABLE slow (id INT, score INT) WITH"
                                                    + " (''connector'' = ''datagen'', ''number-of-rows''"
                                                    + " = ''20'', ''rows-per-second'' = ''4'',"
                                                    + " ''fields.id.kind'' = ''sequence'',"
                                                    + " ''fields.id.start'' = ''0'', ''fields.id.end'' ="
                                                    + " ''19'', ''fields.score.kind'' = ''sequence'',"
                                                    + " ''fields.score.start'' = ''1000'',"
                                                    + " ''fields.score.end'' = ''1019'')', source_table"
                                                    + " => 'slow', merge_condition => 'm12.id ="
                                                    + " slow.id', matched_update_set => 'score ="
                                                    + " slow.score', sink_parallelism => 2)"));
            awaitRunningMerge(client, merge);
            int insertsWhileRunning = 0;
            for (int i = 0; i < 4; i++) {
                appendAndExpire(store("m12"), 100 + i); // as a streaming INSERT's commits do
                assertThat(store("m12").snapshots().exists(base))
                        .as("the running merge's base is pinned")
                        .isTrue();
                insertsWhileRunning += merge.isDone() ? 0 : 1;
            }
            assertThat(insertsWhileRunning)
                    .as("commits beyond the retention of 2 while the merge ran")
                    .isGreaterThanOrEqualTo(2);

            Row result = merge.get(2, TimeUnit.MINUTES);
            assertThat(result.getField("updated")).isEqualTo(20L);
        } finally {
            caller.shutdownNow();
        }
        assertThat(rows("SELECT score FROM m12 WHERE id < 20 AND score >= 1000")).hasSize(20);
        execute("INSERT INTO m12 " + values(200, 201));
        assertThat(store("m12").snapshots().listIds())
                .as("expiry goes on once the merge released its pin")
                .hasSize(2);
    }

    /**
     * Appends one row through the core and expires snapshots by the table's options, as every
     * commit of a Dovetail writer does (a SQL INSERT would wait for the merge's task slots).
     */
    private static void appendAndExpire(TableStore store, int id) {
        TableSchema schema = store.latestSchema();
        GenericRowData partition = GenericRowData.of(StringData.fromString("a"));
        List<ManifestEntry> files;
        try (DataFileWriter writer = DataFileWriter.forAppend(store.paths(), schema, partition)) {
            writer.write(
                    GenericRowData.of(
                            id, StringData.fromString("n" + id), id, StringData.fromString("a")));
            files = writer.finish();
        }
        new TableCommit(store).commit(CommitRequest.append("appender", id, files));
        new SnapshotExpiry(store)
                .expire(ExpireConfig.fromOptions(schema.options()), System.currentTimeMillis());
    }

    /** Waits until the merge's job runs (its base snapshot is pinned when the job is built). */
    private static void awaitRunningMerge(ClusterClient<?> client, Future<Row> merge)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline) {
            for (JobStatusMessage job : client.listJobs().get()) {
                if (job.getJobName().startsWith("Dovetail merge")
                        && job.getJobState() == JobStatus.RUNNING) {
                    return;
                }
            }
            if (merge.isDone()) {
                merge.get(); // its error
                throw new AssertionError("The merge finished before a compaction could race it");
            }
            Thread.sleep(20);
        }
        throw new AssertionError("The merge job did not start");
    }

    @Test
    void mergesOfBlobAndVectorColumnsRewriteOnlyTheirOwnFiles() {
        execute(
                "CREATE TABLE media (id INT, caption STRING, img BYTES, emb ARRAY<FLOAT>) WITH"
                        + " ('sink.parallelism' = '1', 'blob-field' = 'img', 'vector-field' ="
                        + " 'emb', 'field.emb.vector-dim' = '2', 'vector.file.format' = 'avro')");
        execute(
                "INSERT INTO media SELECT id, 'c' || CAST(id AS STRING), X'0102', ARRAY[CAST(id"
                        + " AS FLOAT), CAST(0 AS FLOAT)] FROM (VALUES (0), (1), (2), (3), (4),"
                        + " (5)) AS t (id)");
        execute("CREATE TABLE media_src (id INT, caption STRING, img BYTES, emb ARRAY<FLOAT>)");
        execute(
                "INSERT INTO media_src VALUES (1, 'one', X'AA', ARRAY[CAST(9 AS FLOAT), CAST(9 AS"
                        + " FLOAT)]), (4, 'four', X'BB', ARRAY[CAST(8 AS FLOAT), CAST(8 AS"
                        + " FLOAT)])");
        Function<String, List<String>> files =
                suffix ->
                        store("media").files(latest("media")).liveFiles().stream()
                                .map(e -> e.file().fileName())
                                .filter(n -> n.endsWith(suffix))
                                .sorted()
                                .toList();
        List<String> blobs = files.apply(".blob");
        List<String> vectors = files.apply(".vector.avro");

        // the caption only: neither kind of dedicated file is written
        call(
                "CALL sys.data_evolution_merge(target => 'default.media', source => 'media_src',"
                        + " merge_condition => 't.id = s.id', matched_update_set => 'caption ="
                        + " s.caption')");
        assertThat(files.apply(".blob")).isEqualTo(blobs);
        assertThat(files.apply(".vector.avro")).isEqualTo(vectors);
        // the image and the embedding: one new file of each over the touched range
        call(
                "CALL sys.data_evolution_merge(target => 'default.media', source => 'media_src',"
                        + " merge_condition => 't.id = s.id', matched_update_set => 'img = s.img,"
                        + " emb = s.emb')");
        assertThat(files.apply(".blob")).hasSize(blobs.size() + 1).containsAll(blobs);
        assertThat(files.apply(".vector.avro")).hasSize(vectors.size() + 1).containsAll(vectors);
        List<String> read = new ArrayList<>();
        for (Row row :
                ProcedureSession.namedRows(
                        sql.executeSql("SELECT id, caption, img, emb FROM media"))) {
            read.add(
                    row.getField("id")
                            + ","
                            + row.getField("caption")
                            + ","
                            + HexFormat.of().formatHex((byte[]) row.getField("img"))
                            + ","
                            + Arrays.toString((Object[]) row.getField("emb")));
        }
        assertThat(read)
                .containsExactlyInAnyOrder(
                        "0,c0,0102,[0.0, 0.0]",
                        "1,one,aa,[9.0, 9.0]",
                        "2,c2,0102,[2.0, 0.0]",
                        "3,c3,0102,[3.0, 0.0]",
                        "4,four,bb,[8.0, 8.0]",
                        "5,c5,0102,[5.0, 0.0]");
    }

    // ---------------------------------------------------------------------------------------

    private Row call(String statement) {
        List<Row> rows = ProcedureSession.namedRows(sql.executeSql(statement));
        assertThat(rows).hasSize(1);
        return rows.get(0);
    }

    private List<String> rows(String query) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private Map<Integer, Long> rowIdsById(String table) {
        Map<Integer, Long> ids = new HashMap<>();
        for (Row row :
                ProcedureSession.namedRows(sql.executeSql("SELECT id, _ROW_ID FROM " + table))) {
            ids.put((Integer) row.getField("id"), (Long) row.getField("_ROW_ID"));
        }
        return ids;
    }

    /** Rows as {@code id,name,score,dt@rowId}. */
    private List<String> renderWithRowIds(String table) {
        List<String> out = new ArrayList<>();
        for (Row row :
                ProcedureSession.namedRows(
                        sql.executeSql("SELECT id, name, score, dt, _ROW_ID FROM " + table))) {
            out.add(
                    row.getField("id")
                            + ","
                            + row.getField("name")
                            + ","
                            + row.getField("score")
                            + ","
                            + row.getField("dt")
                            + "@"
                            + row.getField("_ROW_ID"));
        }
        return out;
    }

    private void execute(String statement) {
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static TableStore store(String table) {
        return TableStore.open(new Warehouse(new Path(warehouse.toUri())).table("default", table));
    }

    private Snapshot latest(String table) {
        return store(table).latestSnapshot().orElseThrow();
    }
}
