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
package io.dovetail.e2e.cluster;

import io.dovetail.e2e.cluster.FlinkCluster.CliRun;
import io.dovetail.e2e.cluster.SqlGatewaySession.StatementFailed;
import io.dovetail.e2e.paimon.PaimonWorkbench;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.paimon.Snapshot;
import org.apache.paimon.table.FileStoreTable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dovetail on a real standalone Flink cluster ({@link FlinkClusterExtension}: separate JVMs, the
 * shaded SQL connector on their class path as in {@code lib/}): SQL through the SQL Gateway,
 * actions with {@code flink run}, a TaskManager killed during a streaming insert and during a
 * merge, and a merge racing a streaming insert. Every table is checked row by row against a model
 * and, where it has no deletion vectors, by Apache Paimon 1.4.2 reading the same files.
 */
class ClusterEndToEndITCase {

    @RegisterExtension static final FlinkClusterExtension CLUSTER = new FlinkClusterExtension();

    private static final String[] ROW_WITH_ID = {"id", "name", "score", "dt", "_ROW_ID"};
    private static final Duration ACTION_TIMEOUT = Duration.ofMinutes(2);

    private static PaimonWorkbench paimon;
    private FlinkCluster cluster;

    @BeforeAll
    static void openPaimon() {
        paimon = new PaimonWorkbench(CLUSTER.warehouse());
    }

    @AfterAll
    static void closePaimon() throws Exception {
        paimon.close();
    }

    @BeforeEach
    void noJobsAndAllTaskManagersUp() throws Exception {
        cluster = CLUSTER.cluster();
        cluster.cancelRunningJobs();
        while (cluster.taskManagers() < FlinkClusterExtension.TASK_MANAGERS) {
            cluster.startTaskManager();
        }
        cluster.awaitTaskManagers(FlinkClusterExtension.TASK_MANAGERS);
    }

    @Test
    void sqlScriptThroughTheGateway() throws Exception {
        TableModel model = new TableModel().insert(1, 600);
        try (SqlGatewaySession sql = session()) {
            sql.execute(createTable("media", true));
            sql.fetch(insert(sql, "media", 1, 600, 300));
            assertThat(snapshotFiles("media"))
                    .as("one commit per checkpoint")
                    .hasSizeGreaterThan(1);
            assertMatchesModel(select(sql, "media"), model);

            sql.execute("UPDATE media SET name = CONCAT('u', name) WHERE MOD(id, 3) = 0");
            model.rename(r -> r.id() % 3 == 0, name -> "u" + name);
            List<String> merged =
                    sql.execute(
                            "CALL dovetail.sys.data_evolution_merge(target => 'default.media',"
                                    + " source => 'SELECT * FROM (VALUES (CAST(5 AS BIGINT), CAST(500"
                                    + " AS BIGINT)), (CAST(1000 AS BIGINT), CAST(7 AS BIGINT))) AS"
                                    + " v(id, score)', merge_condition => 't.id = s.id',"
                                    + " matched_update_set => 'score = s.score',"
                                    + " not_matched_insert_values => 'id = s.id, name = ''new'', score"
                                    + " = s.score, dt = ''a''')");
            assertThat(merged).singleElement().asString().contains("updated=1", "inserted=1");
            model.updateScores(r -> r.id() == 5, r -> 500);
            model.put(1000, "new", 7, "a");
            List<String> rows = select(sql, "media");
            assertMatchesModel(rows, model);

            sql.execute("DELETE FROM media WHERE id <= 10");
            assertThat(select(sql, "media"))
                    .as("the other rows keep their row ids")
                    .isEqualTo(rows.stream().filter(r -> id(r) > 10).toList());
        }
    }

    @Test
    void actionsWithFlinkRun() throws Exception {
        TableModel model = new TableModel().insert(1, 40);
        List<String> beforeDelete;
        try (SqlGatewaySession sql = session()) {
            sql.execute(createTable("acts", false));
            // two commits: two row-range groups per partition, for the compaction to merge
            sql.fetch(insert(sql, "acts", 1, 20, 0));
            sql.fetch(insert(sql, "acts", 21, 40, 0));
            sql.execute(createTable("acts_dv", true));
            sql.fetch(insert(sql, "acts_dv", 1, 40, 0));
            beforeDelete = select(sql, "acts_dv");
        }
        List<String> inserted = paimon.read("acts", ROW_WITH_ID);

        assertThat(
                        action(
                                "acts",
                                "merge",
                                "--source",
                                "SELECT _ROW_ID, score + 100 AS score FROM acts WHERE id <= 10",
                                "--merge_condition",
                                "t._ROW_ID = s._ROW_ID",
                                "--matched_update_set",
                                "score = s.score",
                                "--parallelism",
                                "2"))
                .contains("updated: 10");
        model.updateScores(r -> r.id() <= 10, r -> r.score() + 100);
        List<String> merged = assertPaimonReads("acts", model);
        assertThat(rowIds(merged)).isEqualTo(rowIds(inserted));

        int filesBeforeCompaction = liveFiles("acts");
        assertThat(
                        action(
                                "acts",
                                "compact",
                                "--options",
                                "compaction.min.file-num=2",
                                "--parallelism",
                                "2",
                                "--compact_strategy",
                                "full"))
                .contains("files_written: 2");
        assertThat(liveFiles("acts")).isLessThan(filesBeforeCompaction);
        assertThat(paimon.read("acts", ROW_WITH_ID)).isEqualTo(merged);

        assertThat(action("acts", "expire_snapshots", "--retain_max", "1", "--retain_min", "1"))
                .contains("expired_snapshots: 3");
        assertThat(snapshotFiles("acts")).hasSize(1);
        assertThat(paimon.read("acts", ROW_WITH_ID)).isEqualTo(merged);

        assertThat(action("acts_dv", "delete", "--where", "id > 30")).contains("snapshot_id: 2");
        try (SqlGatewaySession sql = session()) {
            assertThat(select(sql, "acts_dv"))
                    .isEqualTo(beforeDelete.stream().filter(r -> id(r) <= 30).toList());
        }
    }

    @Test
    void streamingInsertRecoversFromAKilledTaskManager() throws Exception {
        try (SqlGatewaySession sql = session()) {
            sql.execute(createTable("killed_insert", false));
            String insert = insert(sql, "killed_insert", 1, 3000, 300);
            String job = awaitRunningJob();
            cluster.await(
                    "a checkpoint committed by the streaming insert",
                    () -> !snapshotFiles("killed_insert").isEmpty());
            killTaskManagerAndReplaceIt();
            sql.fetch(insert);
            assertFailedOver(job);
        }
        List<String> rows = assertPaimonReads("killed_insert", new TableModel().insert(1, 3000));
        assertThat(rowIds(rows).values()).allMatch(rowId -> rowId < 3000);
        assertSnapshotsCommittedOnce("killed_insert", 3000);
    }

    @Test
    void mergeRecoversFromAKilledTaskManager() throws Exception {
        TableModel model = new TableModel().insert(1, 2000);
        try (SqlGatewaySession sql = session()) {
            sql.execute(createTable("killed_merge", false));
            sql.fetch(insert(sql, "killed_merge", 1, 2000, 0));
            Map<Long, Long> rowIds = rowIds(paimon.read("killed_merge", ROW_WITH_ID));
            long base = latestSnapshotId("killed_merge");
            batch(sql);
            // a rate-limited source keeps the merge job running long enough to lose a TaskManager
            String merge =
                    sql.submit(
                            "CALL dovetail.sys.data_evolution_merge_into(target_table =>"
                                    + " 'default.killed_merge', source_sqls => 'CREATE TEMPORARY"
                                    + " TABLE slow_ids (rid BIGINT) WITH (''connector'' ="
                                    + " ''datagen'', ''rows-per-second'' = ''400'',"
                                    + " ''number-of-rows'' = ''2000'', ''fields.rid.kind'' ="
                                    + " ''sequence'', ''fields.rid.start'' = ''0'',"
                                    + " ''fields.rid.end'' = ''1999'')', source_table =>"
                                    + " 'slow_ids', merge_condition => 'killed_merge._ROW_ID ="
                                    + " slow_ids.rid', matched_update_set => 'score = slow_ids.rid +"
                                    + " 1000000')");
            String job = awaitRunningJob();
            Thread.sleep(1000); // the kill lands while the job reads its source
            killTaskManagerAndReplaceIt();
            assertThat(sql.fetch(merge)).singleElement().asString().contains("updated=2000");
            assertFailedOver(job);
            model.updateScores(r -> true, r -> rowIds.get(r.id()) + 1_000_000);
            List<String> rows = assertPaimonReads("killed_merge", model);
            assertThat(rowIds(rows)).isEqualTo(rowIds);
            assertThat(snapshotFiles("killed_merge"))
                    .as("one merge commit")
                    .hasSize((int) base + 1);
        }
    }

    @Test
    void mergeRacingAStreamingInsertLosesNothing() throws Exception {
        TableModel model = new TableModel().insert(1, 200);
        long base;
        try (SqlGatewaySession inserting = session();
                SqlGatewaySession merging = session()) {
            inserting.execute(createTable("race", false));
            inserting.fetch(insert(inserting, "race", 1, 200, 0));
            base = latestSnapshotId("race");
            // 30 s of appends (a commit a second); the merge reads a source paced to take ~5 s, so
            // several appends commit between its base snapshot and its own commit
            String insert = insert(inserting, "race", 1001, 4000, 100);
            cluster.await(
                    "the streaming insert's first commit", () -> latestSnapshotId("race") > base);
            batch(merging);
            try {
                List<String> merged =
                        merging.execute(
                                "CALL dovetail.sys.data_evolution_merge_into(target_table =>"
                                        + " 'default.race', source_sqls => 'CREATE TEMPORARY TABLE"
                                        + " slow_ids (rid BIGINT) WITH (''connector'' = ''datagen'',"
                                        + " ''rows-per-second'' = ''40'', ''number-of-rows'' ="
                                        + " ''200'', ''fields.rid.kind'' = ''sequence'',"
                                        + " ''fields.rid.start'' = ''0'', ''fields.rid.end'' ="
                                        + " ''199'')', source_table => 'slow_ids', merge_condition"
                                        + " => 'race._ROW_ID = slow_ids.rid', matched_update_set =>"
                                        + " 'score = race.score * 10')");
                assertThat(merged).singleElement().asString().contains("updated=200");
                model.updateScores(r -> r.id() <= 200, r -> r.score() * 10);
            } catch (StatementFailed conflict) {
                assertThat(conflict).hasMessageContaining("onflict");
            }
            inserting.fetch(insert);
        }
        JsonNode merge = finishedJob("Dovetail merge into default.race");
        assertThat(insertCommitTimes("race", base))
                .as(
                        "the streaming insert committed while the merge job ran (%s)",
                        merge.path("start-time") + ".." + merge.path("end-time"))
                .anyMatch(
                        time ->
                                time > merge.path("start-time").asLong()
                                        && time < merge.path("end-time").asLong());
        model.insert(1001, 4000);
        assertPaimonReads("race", model);
    }

    /**
     * The embedding pipeline (examples/embed-stream.sql) on the cluster: a streaming INSERT of
     * documents with a BLOB image and a streaming {@code docs$column_updates} job that reads each
     * new row and writes its embedding back by {@code _ROW_ID}, with both TaskManagers killed while
     * both jobs run. Every row arrives once and gets exactly its embedding, every checkpoint of
     * each job commits once, and the images stay in the {@code .blob} files the appends wrote.
     */
    @Test
    void embedPipelineRecoversFromAKilledTaskManager() throws Exception {
        int rows = 3000;
        try (SqlGatewaySession inserting = session();
                SqlGatewaySession embedding = session();
                SqlGatewaySession reading = session()) {
            inserting.execute(
                    "CREATE TABLE docs (id BIGINT, body STRING, image BYTES, embedding"
                            + " ARRAY<FLOAT>) WITH ('row-tracking.enabled' = 'true',"
                            + " 'data-evolution.enabled' = 'true', 'blob-field' = 'image')");
            embedding.execute("SET 'execution.runtime-mode' = 'streaming'");
            embedding.execute("SET 'execution.checkpointing.interval' = '500 ms'");
            embedding.execute("SET 'table.dml-sync' = 'false'");
            embedding.execute(
                    "INSERT INTO `docs$column_updates` (_ROW_ID, embedding) SELECT _ROW_ID,"
                            + " ARRAY[CAST(id AS FLOAT), CAST(MOD(id, 7) AS FLOAT) / 7,"
                            + " CAST(CHAR_LENGTH(body) AS FLOAT)] FROM `docs$row_tracking` /*+"
                            + " OPTIONS('continuous.discovery-interval' = '200 ms') */");
            cluster.await("the embedding job", () -> cluster.jobs("RUNNING").size() == 1);
            String embeddingJob = cluster.jobs("RUNNING").get(0);
            inserting.execute("SET 'execution.runtime-mode' = 'streaming'");
            inserting.execute("SET 'execution.checkpointing.interval' = '500 ms'");
            inserting.execute("SET 'table.dml-sync' = 'true'");
            inserting.execute(
                    "CREATE TEMPORARY TABLE arrivals (id BIGINT) WITH ('connector' = 'datagen',"
                            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                            + " 'fields.id.end' = '"
                            + rows
                            + "', 'number-of-rows' = '"
                            + rows
                            + "', 'rows-per-second' = '100')");
            String insert =
                    inserting.submit(
                            "INSERT INTO docs SELECT id, CONCAT('document ', CAST(id AS STRING)),"
                                    + " ENCODE(CONCAT('image of ', CAST(id AS STRING)), 'UTF-8'),"
                                    + " CAST(NULL AS ARRAY<FLOAT>) FROM arrivals");
            cluster.await("both jobs", () -> cluster.jobs("RUNNING").size() == 2);
            String insertJob =
                    cluster.jobs("RUNNING").stream()
                            .filter(job -> !job.equals(embeddingJob))
                            .findFirst()
                            .orElseThrow();
            // both streaming jobs hold all four slots: a batch query would wait for the insert to
            // end, so the first embedding commit is seen in the table's metadata
            cluster.await("an embedding committed", () -> embeddingFiles() > 0);
            // each job runs on one TaskManager or both: losing both fails over both jobs
            cluster.killBusyTaskManager();
            cluster.awaitTaskManagers(FlinkClusterExtension.TASK_MANAGERS - 1);
            cluster.killBusyTaskManager();
            cluster.awaitTaskManagers(0);
            for (int i = 0; i < FlinkClusterExtension.TASK_MANAGERS; i++) {
                cluster.startTaskManager();
            }
            inserting.fetch(insert);
            assertFailedOver(insertJob);
            cluster.await("every row embedded", () -> embedded(reading) == rows);
            assertThat(
                            cluster.rest("/jobs/" + embeddingJob + "/exceptions")
                                    .path("exceptionHistory")
                                    .path("entries"))
                    .as("the embedding job failed over")
                    .isNotEmpty();
            cluster.cancelRunningJobs();

            batch(reading);
            assertThat(
                            reading.execute(
                                    "SELECT COUNT(*) AS n, COUNT(DISTINCT id) AS ids,"
                                            + " COUNT(DISTINCT _ROW_ID) AS row_ids, MIN(id) AS"
                                            + " low, MAX(id) AS high FROM `docs$row_tracking`"))
                    .containsExactly(
                            "n="
                                    + rows
                                    + ", ids="
                                    + rows
                                    + ", row_ids="
                                    + rows
                                    + ", low=1, high="
                                    + rows);
            assertThat(
                            reading.execute(
                                    "SELECT COUNT(*) AS wrong FROM docs WHERE CARDINALITY(embedding)"
                                            + " <> 3 OR embedding[1] <> CAST(id AS FLOAT) OR"
                                            + " embedding[2] <> CAST(MOD(id, 7) AS FLOAT) / 7 OR"
                                            + " embedding[3] <> CAST(CHAR_LENGTH(body) AS FLOAT) OR"
                                            + " body <> CONCAT('document ', CAST(id AS STRING)) OR"
                                            + " image <> ENCODE(CONCAT('image of ', CAST(id AS"
                                            + " STRING)), 'UTF-8')"))
                    .containsExactly("wrong=0");
        }
        FileStoreTable docs = paimon.table("docs");
        Set<String> commits = new HashSet<>();
        for (long id = 1; id <= latestSnapshotId("docs"); id++) {
            Snapshot snapshot = docs.snapshotManager().snapshot(id);
            assertThat(commits.add(snapshot.commitUser() + "/" + snapshot.commitIdentifier()))
                    .as("snapshot %s commits its job's checkpoint once", id)
                    .isTrue();
        }
        long imageRows = 0;
        for (org.apache.paimon.manifest.ManifestEntry entry :
                docs.store().newScan().plan().files()) {
            List<String> columns = entry.file().writeCols();
            if (entry.file().fileName().endsWith(".blob")) {
                assertThat(columns).containsExactly("image");
                imageRows += entry.file().rowCount();
            } else {
                assertThat(columns)
                        .as(
                                "%s: appends hold the other columns, updates the embedding alone",
                                entry.file().fileName())
                        .isIn(List.of("id", "body", "embedding"), List.of("embedding"));
            }
        }
        assertThat(imageRows).as("every image written once, by the appends").isEqualTo(rows);
    }

    /** The files of {@code docs}' latest snapshot that hold embeddings alone (column updates). */
    private static long embeddingFiles() throws Exception {
        return paimon.table("docs").store().newScan().plan().files().stream()
                .filter(entry -> List.of("embedding").equals(entry.file().writeCols()))
                .count();
    }

    /** The rows of {@code docs} with an embedding, read in batch mode. */
    private static long embedded(SqlGatewaySession sql) throws Exception {
        batch(sql);
        String count =
                sql.execute("SELECT COUNT(*) AS n FROM docs WHERE embedding IS NOT NULL").get(0);
        return Long.parseLong(count.substring("n=".length()));
    }

    /**
     * A gateway session that ran {@code CREATE CATALOG dovetail WITH ('type' = 'dovetail',
     * 'warehouse' = ..)} and {@code USE CATALOG dovetail}.
     */
    private static SqlGatewaySession session() throws Exception {
        SqlGatewaySession sql = SqlGatewaySession.open(CLUSTER.cluster().gateway());
        sql.execute(
                "CREATE CATALOG dovetail WITH ('type' = 'dovetail', 'warehouse' = '"
                        + CLUSTER.warehouse()
                        + "')");
        sql.execute("USE CATALOG dovetail");
        return sql;
    }

    /**
     * A partitioned data-evolution table; with deletion vectors (which {@code DELETE} needs) when
     * {@code deletes}, else one Paimon 1.4.2 opens (it refuses data evolution with deletion
     * vectors).
     */
    private static String createTable(String name, boolean deletes) {
        return "CREATE TABLE "
                + name
                + " ("
                + TableModel.COLUMNS
                + ") PARTITIONED BY (dt) WITH ('row-tracking.enabled' = 'true',"
                + " 'data-evolution.enabled' = 'true', 'deletion-vectors.enabled' = '"
                + deletes
                + "')";
    }

    /**
     * Submits {@code INSERT INTO table} of the rows {@code first..last} ({@link
     * TableModel#INSERTED}) from Flink's datagen source and returns the operation: streaming with a
     * checkpoint every 500 ms at {@code rowsPerSecond}, or batch when that is 0. The operation ends
     * with the job ({@code table.dml-sync}).
     */
    private static String insert(
            SqlGatewaySession sql, String table, long first, long last, int rowsPerSecond)
            throws Exception {
        String source = "ids_" + table + "_" + first;
        if (rowsPerSecond > 0) {
            sql.execute("SET 'execution.runtime-mode' = 'streaming'");
            sql.execute("SET 'execution.checkpointing.interval' = '500 ms'");
        } else {
            batch(sql);
        }
        sql.execute("SET 'table.dml-sync' = 'true'");
        sql.execute(
                "CREATE TEMPORARY TABLE "
                        + source
                        + " (id BIGINT) WITH ('connector' = 'datagen', 'fields.id.kind' ="
                        + " 'sequence', 'fields.id.start' = '"
                        + first
                        + "', 'fields.id.end' = '"
                        + last
                        + "', 'number-of-rows' = '"
                        + (last - first + 1)
                        + "'"
                        + (rowsPerSecond > 0 ? ", 'rows-per-second' = '" + rowsPerSecond + "'" : "")
                        + ")");
        return sql.submit(
                "INSERT INTO " + table + " SELECT " + TableModel.INSERTED + " FROM " + source);
    }

    private static void batch(SqlGatewaySession sql) throws Exception {
        sql.execute("SET 'execution.runtime-mode' = 'batch'");
        sql.execute("SET 'table.dml-sync' = 'true'");
    }

    /** Dovetail's read through the gateway, with row ids, rendered and sorted. */
    private static List<String> select(SqlGatewaySession sql, String table) throws Exception {
        batch(sql);
        return sql.execute("SELECT " + String.join(", ", ROW_WITH_ID) + " FROM " + table).stream()
                .sorted()
                .toList();
    }

    /**
     * Paimon 1.4.2 reads exactly the model's rows, each with its own row id; returns Paimon's rows
     * with {@code _ROW_ID}, sorted.
     */
    private static List<String> assertPaimonReads(String table, TableModel model) throws Exception {
        List<String> rows = paimon.read(table, ROW_WITH_ID);
        assertMatchesModel(rows, model);
        return rows;
    }

    /** Rendered rows with {@code _ROW_ID} are the model's rows, each with its own row id. */
    private static void assertMatchesModel(List<String> rows, TableModel model) {
        assertThat(rows.stream().map(r -> r.substring(0, r.lastIndexOf(", _ROW_ID="))).sorted())
                .containsExactlyElementsOf(model.rendered());
        assertThat(new HashSet<>(rowIds(rows).values())).hasSize(rows.size());
    }

    /** Row id by id of rendered rows {@code id=.., ..., _ROW_ID=..}. */
    private static Map<Long, Long> rowIds(List<String> rows) {
        return rows.stream()
                .collect(
                        Collectors.toMap(
                                ClusterEndToEndITCase::id,
                                r -> Long.parseLong(r.substring(r.lastIndexOf('=') + 1))));
    }

    private static long id(String row) {
        return Long.parseLong(row.substring("id=".length(), row.indexOf(',')));
    }

    /** Runs an action of the actions jar on {@code table} with {@code flink run}. */
    private String action(String table, String name, String... options) throws Exception {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                ClusterJars.actionsJar().toString(),
                                name,
                                "--warehouse",
                                CLUSTER.warehouse().toString(),
                                "--database",
                                "default",
                                "--table",
                                table));
        args.addAll(List.of(options));
        CliRun run = cluster.flinkRun(ACTION_TIMEOUT, args.toArray(String[]::new));
        assertThat(run.exitCode()).as("flink run %s:\n%s", name, run.output()).isZero();
        return run.output();
    }

    private void killTaskManagerAndReplaceIt() throws Exception {
        cluster.killBusyTaskManager();
        cluster.awaitTaskManagers(FlinkClusterExtension.TASK_MANAGERS - 1);
        cluster.startTaskManager();
    }

    /** The one running job's id, once it runs. */
    private String awaitRunningJob() throws Exception {
        cluster.await("a running job", () -> cluster.jobs("RUNNING").size() == 1);
        return cluster.jobs("RUNNING").get(0);
    }

    /** The overview of the one job called {@code name}. */
    private JsonNode finishedJob(String name) throws Exception {
        List<JsonNode> jobs = new ArrayList<>();
        for (JsonNode job : cluster.rest("/jobs/overview").path("jobs")) {
            if (job.path("name").asText().equals(name)) {
                jobs.add(job);
            }
        }
        assertThat(jobs).as("jobs called %s", name).hasSize(1);
        return jobs.get(0);
    }

    /** When the snapshots after {@code base} that no merge committed were written. */
    private static List<Long> insertCommitTimes(String table, long base) throws Exception {
        FileStoreTable paimonTable = paimon.table(table);
        List<Long> times = new ArrayList<>();
        for (long id = base + 1; id <= latestSnapshotId(table); id++) {
            Snapshot snapshot = paimonTable.snapshotManager().snapshot(id);
            if (!snapshot.commitUser().startsWith("dovetail-merge-")) {
                times.add(snapshot.timeMillis());
            }
        }
        return times;
    }

    /** The job finished after failing over: the lost TaskManager is in its exception history. */
    private void assertFailedOver(String job) throws Exception {
        assertThat(cluster.rest("/jobs/" + job).path("state").asText()).isEqualTo("FINISHED");
        assertThat(
                        cluster.rest("/jobs/" + job + "/exceptions")
                                .path("exceptionHistory")
                                .path("entries"))
                .as("failures of job %s", job)
                .isNotEmpty();
    }

    /**
     * Snapshots 1..latest all exist, no checkpoint was committed twice, and they add exactly {@code
     * rows} rows.
     */
    private static void assertSnapshotsCommittedOnce(String table, long rows) throws Exception {
        long latest = latestSnapshotId(table);
        assertThat(snapshotFiles(table))
                .isEqualTo(
                        LongStream.rangeClosed(1, latest)
                                .mapToObj(id -> "snapshot-" + id)
                                .collect(Collectors.toCollection(TreeSet::new)));
        FileStoreTable paimonTable = paimon.table(table);
        Set<String> commits = new HashSet<>();
        long added = 0;
        for (long id = 1; id <= latest; id++) {
            Snapshot snapshot = paimonTable.snapshotManager().snapshot(id);
            assertThat(commits.add(snapshot.commitUser() + "/" + snapshot.commitIdentifier()))
                    .as("snapshot %s commits checkpoint %s once", id, snapshot.commitIdentifier())
                    .isTrue();
            added += snapshot.deltaRecordCount();
        }
        assertThat(added).isEqualTo(rows);
        assertThat(paimonTable.snapshotManager().snapshot(latest).totalRecordCount())
                .isEqualTo(rows);
    }

    private static long latestSnapshotId(String table) throws Exception {
        Long latest = paimon.table(table).snapshotManager().latestSnapshotId();
        return latest == null ? 0 : latest;
    }

    /** The names of the table's snapshot files. */
    private static Set<String> snapshotFiles(String table) throws IOException {
        Path dir = CLUSTER.warehouse().resolve("default.db").resolve(table).resolve("snapshot");
        if (!Files.isDirectory(dir)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.startsWith("snapshot-"))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static int liveFiles(String table) throws Exception {
        return paimon.table(table).store().newScan().plan().files().size();
    }
}
