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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On a real cluster whose two TaskManagers have 256 MB of task heap each, a 100% backfill of a
 * 200-character caption over {@value #ROWS} rows (about 0.8 GB of new values, several times the
 * cluster's task heap) by {@code UPDATE} and then by {@code data_evolution_merge} (SQL join)
 * finishes, and every row holds exactly its new value: the writers stream the changes Flink's
 * spilling sort hands them.
 */
class BoundedMemoryClusterITCase {

    private static final long ROWS = 4_000_000;

    @RegisterExtension
    static final FlinkClusterExtension CLUSTER =
            new FlinkClusterExtension(
                    Map.of(
                            "taskmanager.memory.task.heap.size", "256m",
                            "taskmanager.memory.managed.size", "256m"));

    @Test
    void anUpdateAndAMergeOfEveryRowFinishWithTaskHeapsSmallerThanTheirNewValues()
            throws Exception {
        try (SqlGatewaySession sql = SqlGatewaySession.open(CLUSTER.cluster().gateway())) {
            sql.execute(
                    "CREATE CATALOG dovetail WITH ('type' = 'dovetail', 'warehouse' = '"
                            + CLUSTER.warehouse()
                            + "')");
            sql.execute("USE CATALOG dovetail");
            sql.execute("SET 'execution.runtime-mode' = 'batch'");
            sql.execute("SET 'table.dml-sync' = 'true'");
            sql.execute("SET 'dovetail.merge.broadcast-join.max-source-size' = '0'");
            sql.execute(
                    "CREATE TEMPORARY TABLE ids (id BIGINT) WITH ('connector' = 'datagen',"
                            + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '0',"
                            + " 'fields.id.end' = '"
                            + (ROWS - 1)
                            + "', 'number-of-rows' = '"
                            + ROWS
                            + "', 'rows-per-second' = '100000000')");
            // small Parquet row groups: a writer's file buffer is part of its bounded memory
            String options = " WITH ('parquet.block.size' = '8388608')";
            sql.execute("CREATE TABLE t (id BIGINT, caption STRING)" + options);
            sql.execute("INSERT INTO t SELECT id, CAST(NULL AS STRING) FROM ids");
            sql.execute("CREATE TABLE src (id BIGINT, caption STRING)" + options);
            sql.execute("INSERT INTO src SELECT id, " + caption("'m'") + " FROM ids");

            sql.execute("UPDATE t SET caption = " + caption("'u'"));
            assertThat(sql.execute(mismatches("'u'"))).containsExactly("n=" + ROWS + ", bad=0");

            sql.execute(
                    "CALL dovetail.sys.data_evolution_merge(target => 'default.t', source =>"
                            + " 'default.src', merge_condition => 't.id = s.id',"
                            + " matched_update_set => 'caption = s.caption')");
            assertThat(sql.execute(mismatches("'m'"))).containsExactly("n=" + ROWS + ", bad=0");
        }
    }

    /** A 200-character caption made of {@code prefix} and the row's id. */
    private static String caption(String prefix) {
        return "CONCAT(" + prefix + ", LPAD(CAST(id AS STRING), 19, '0'), REPEAT('x', 180))";
    }

    /** The rows, and those whose caption is not the one {@code prefix} gives. */
    private static String mismatches(String prefix) {
        return "SELECT COUNT(*) AS n, SUM(CASE WHEN caption = "
                + caption(prefix)
                + " AND CHAR_LENGTH(caption) = 200 THEN 0 ELSE 1 END) AS bad FROM t";
    }
}
