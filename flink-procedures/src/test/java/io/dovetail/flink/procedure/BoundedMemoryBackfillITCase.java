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

import io.dovetail.table.testing.ChildJvm;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.util.TestStreamEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 100% backfill whose new values are several times the heap: a JVM of {@value #HEAP_MB} MB runs a
 * MiniCluster with {@value #MANAGED_MB} MB of managed memory, and {@value #ROWS} rows get a {@value
 * #CAPTION_CHARS}-character caption by {@code UPDATE}, then another by a merge through the SQL
 * join, then another by a batch {@code INSERT INTO t$column_updates}: about 0.6 GB of new values
 * each. The writers stream the changes Flink's spilling sort hands them in {@code _ROW_ID} order,
 * so all finish, and every row holds exactly its new value.
 */
class BoundedMemoryBackfillITCase {

    static final int HEAP_MB = 128;
    static final int MANAGED_MB = 64;
    static final long ROWS = 300_000;
    static final int CAPTION_CHARS = 2_000;
    static final int PARALLELISM = 2;

    private static final String DONE = "every row holds its new value";

    @TempDir Path dir;

    @Test
    void anUpdateAMergeAndAColumnUpdateOfEveryRowFinishInAHeapSmallerThanTheirNewValues()
            throws Exception {
        String output =
                ChildJvm.run(
                        BoundedMemoryBackfillITCase.class,
                        HEAP_MB,
                        Duration.ofMinutes(5),
                        dir.toString());
        System.out.print(output);
        assertThat(output).as(output).contains(DONE);
    }

    /** The child JVM: exits with 1 when the backfills fail (the cluster's threads would stay). */
    public static void main(String[] args) {
        try {
            backfills(Path.of(args[0]));
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    /** The cluster, the tables, the three backfills and their checks. */
    private static void backfills(Path root) throws Exception {
        long newValues = ROWS * CAPTION_CHARS;
        long heap = Runtime.getRuntime().maxMemory();
        assertThat(3 * heap)
                .as("three times the heap, against the new values")
                .isLessThan(newValues);
        Configuration config = new Configuration();
        config.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.ofMebiBytes(MANAGED_MB));
        // Flink's fixed direct buffers (64 MB each by default) well inside the JVM's direct memory,
        // which is as large as its heap
        config.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(32));
        config.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(32));
        config.set(
                TaskManagerOptions.NETWORK_BATCH_SHUFFLE_READ_MEMORY, MemorySize.ofMebiBytes(32));
        config.set(CoreOptions.TMP_DIRS, Files.createDirectories(root.resolve("tmp")).toString());
        try (MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(config)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(PARALLELISM)
                                .build())) {
            cluster.start();
            // every job on this cluster, the jobs procedures build too
            TestStreamEnvironment.setAsContext(cluster, PARALLELISM);
            TableEnvironment sql = session(root);
            sql.executeSql("INSERT INTO t SELECT id, CAST(NULL AS STRING) FROM ids").await();
            sql.executeSql("INSERT INTO src SELECT id, " + caption("'m'") + " FROM ids").await();

            backfill(sql, "UPDATE t SET caption = " + caption("'u'"), "'u'");
            backfill(
                    sql,
                    "CALL dt.sys.data_evolution_merge(target => 'default.t', source =>"
                            + " 'default.src', merge_condition => 't.id = s.id',"
                            + " matched_update_set => 'caption = s.caption')",
                    "'m'");
            backfill(
                    sql,
                    "INSERT INTO `t$column_updates` (_ROW_ID, caption) SELECT _ROW_ID, "
                            + caption("'c'")
                            + " FROM `t$row_tracking`",
                    "'c'");
        }
        System.out.printf(
                "%s: %d MB of new values per backfill, in a heap of at most %d MB%n",
                DONE, newValues >> 20, heap >> 20);
    }

    /**
     * A batch session with the broadcast key join off, the dovetail catalog, a generator of the
     * ids, and the target and source tables.
     */
    private static TableEnvironment session(Path root) {
        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", String.valueOf(PARALLELISM));
        sql.getConfig().set("table.dml-sync", "true");
        sql.getConfig().set("dovetail.merge.broadcast-join.max-source-size", "0");
        sql.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + root.resolve("warehouse").toUri()
                        + "')");
        sql.executeSql("USE CATALOG dt");
        sql.executeSql(
                "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                        + " 'fields.id.end' = '"
                        + (ROWS - 1)
                        + "', 'number-of-rows' = '"
                        + ROWS
                        + "', 'rows-per-second' = '100000000')");
        // small Parquet row groups: a writer's file buffer is part of its bounded memory
        String options = " WITH ('parquet.block.size' = '8388608')";
        sql.executeSql("CREATE TABLE t (id BIGINT, caption STRING)" + options);
        sql.executeSql("CREATE TABLE src (id BIGINT, caption STRING)" + options);
        return sql;
    }

    /** Runs a backfill, then checks that every row holds the caption {@code prefix} gives. */
    private static void backfill(TableEnvironment sql, String statement, String prefix)
            throws Exception {
        long start = System.nanoTime();
        sql.executeSql(statement).await();
        long seconds = (System.nanoTime() - start) / 1_000_000_000;
        List<String> counts = new ArrayList<>();
        try (CloseableIterator<Row> it =
                sql.executeSql(
                                "SELECT COUNT(*), SUM(CASE WHEN caption = "
                                        + caption(prefix)
                                        + " AND CHAR_LENGTH(caption) = "
                                        + CAPTION_CHARS
                                        + " THEN 0 ELSE 1 END) FROM t")
                        .collect()) {
            it.forEachRemaining(
                    r -> counts.add(r.getField(0) + " rows, " + r.getField(1) + " bad"));
        }
        assertThat(counts).as(statement).containsExactly(ROWS + " rows, 0 bad");
        System.out.println("checked, after " + seconds + " s: " + statement);
    }

    /** A caption of {@value #CAPTION_CHARS} characters made of {@code prefix} and the row's id. */
    private static String caption(String prefix) {
        return "CONCAT("
                + prefix
                + ", LPAD(CAST(id AS STRING), 19, '0'), REPEAT('x', "
                + (CAPTION_CHARS - 20)
                + "))";
    }
}
