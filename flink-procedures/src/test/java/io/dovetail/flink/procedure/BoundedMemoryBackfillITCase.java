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

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 100% backfill whose new values are several times the JVM's heap (this class runs alone in a JVM
 * of {@code -Xmx256m}, see the pom): {@value #ROWS} rows get a 200-character caption by {@code
 * UPDATE}, then another by a merge through the SQL join, and another by a batch {@code INSERT INTO
 * t$column_updates}, about 0.6 GB of new values each. The writers stream the changes Flink's
 * spilling sort hands them in {@code _ROW_ID} order, so all finish, and every row holds exactly its
 * new value.
 */
class BoundedMemoryBackfillITCase {

    private static final long ROWS = 3_000_000;

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static java.nio.file.Path warehouse;

    private static TableEnvironment sql;

    @BeforeAll
    static void table() {
        sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        // every job on the one cluster (a job of its own local cluster would double the memory)
        sql.getConfig().addConfiguration(CLUSTER.getClientConfiguration());
        sql.getConfig().set("execution.target", "remote");
        sql.getConfig().set("parallelism.default", "2");
        sql.getConfig().set("table.dml-sync", "true");
        sql.getConfig().set("dovetail.merge.broadcast-join.max-source-size", "0");
        execute(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        execute("USE CATALOG dt");
        execute(
                "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                        + " 'fields.id.end' = '"
                        + (ROWS - 1)
                        + "', 'number-of-rows' = '"
                        + ROWS
                        + "', 'rows-per-second' = '100000000')");
        // small Parquet row groups: a writer's file buffer is part of its bounded memory
        String options = " WITH ('parquet.block.size' = '8388608')";
        execute("CREATE TABLE t (id BIGINT, caption STRING)" + options);
        execute("INSERT INTO t SELECT id, CAST(NULL AS STRING) FROM ids");
        execute("CREATE TABLE src (id BIGINT, caption STRING)" + options);
        execute("INSERT INTO src SELECT id, " + caption("'m'") + " FROM ids");
    }

    @Test
    void anUpdateAndAMergeOfEveryRowFinishInAHeapSmallerThanTheirNewValues() {
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
        assertThat(heap).as("the JVM's heap").isLessThan(300L << 20);

        execute("UPDATE t SET caption = " + caption("'u'"));
        assertThat(mismatches("'u'")).containsExactly(ROWS + ", 0");

        execute(
                "CALL dt.sys.data_evolution_merge(target => 'default.t', source => 'default.src',"
                        + " merge_condition => 't.id = s.id', matched_update_set => 'caption ="
                        + " s.caption')");
        assertThat(mismatches("'m'")).containsExactly(ROWS + ", 0");
    }

    @Test
    void aBatchInsertIntoColumnUpdatesOfEveryRowFinishesInAHeapSmallerThanItsNewValues() {
        execute(
                "INSERT INTO `t$column_updates` (_ROW_ID, caption) SELECT _ROW_ID, "
                        + caption("'c'")
                        + " FROM `t$row_tracking`");
        assertThat(mismatches("'c'")).containsExactly(ROWS + ", 0");
    }

    /** A 200-character caption made of {@code prefix} and the row's id. */
    private static String caption(String prefix) {
        return "CONCAT(" + prefix + ", LPAD(CAST(id AS STRING), 19, '0'), REPEAT('x', 180))";
    }

    /** The rows, and those whose caption is not the one {@code prefix} gives. */
    private static List<String> mismatches(String prefix) {
        return rows(
                "SELECT COUNT(*), SUM(CASE WHEN caption = "
                        + caption(prefix)
                        + " AND CHAR_LENGTH(caption) = 200 THEN 0 ELSE 1 END) FROM t");
    }

    private static List<String> rows(String query) {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.getField(0) + ", " + r.getField(1)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out;
    }

    private static void execute(String statement) {
        try {
            sql.executeSql(statement).await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
