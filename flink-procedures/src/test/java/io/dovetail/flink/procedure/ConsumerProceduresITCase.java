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

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code reset_consumer} and {@code clear_consumers} through Flink SQL, seen in {@code t$consumers}
 * and by a streaming read with that {@code consumer-id}.
 */
class ConsumerProceduresITCase {

    @TempDir java.nio.file.Path warehouse;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aResetConsumerIsWhereAStatelessReadWithItsIdGoesOn() throws Exception {
        ProcedureSession session = threeSnapshots();
        assertThat(
                        session.call(
                                "CALL dt.sys.reset_consumer(`table` => 'db.t', consumer_id =>"
                                        + " 'embedder', next_snapshot_id => 2)"))
                .extracting(Row::toString)
                .containsExactly(
                        "+I{consumer_id=embedder, previous_next_snapshot_id=null,"
                                + " next_snapshot_id=2}");
        assertThat(consumers(session)).containsExactly("embedder=2");

        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("parallelism.default", "1");
        streaming.executeSql(
                "CREATE CATALOG dt WITH ('type' = 'dovetail', 'warehouse' = '"
                        + warehouse.toUri()
                        + "')");
        TableResult read =
                streaming.executeSql(
                        "SELECT id FROM dt.db.t /*+ OPTIONS('consumer-id' = 'embedder',"
                                + " 'continuous.discovery-interval' = '50 ms') */");
        List<Object> ids = new ArrayList<>();
        try (CloseableIterator<Row> rows = read.collect()) {
            while (ids.size() < 6) {
                ids.add(rows.next().getField(0));
            }
        } finally {
            read.getJobClient().orElseThrow().cancel().get();
        }
        assertThat(ids).as("the rows of snapshots 2 and 3").containsExactly(3L, 4L, 5L, 6L, 7L, 8L);

        assertThat(
                        session.call(
                                "CALL dt.sys.reset_consumer(`table` => 'db.t', consumer_id => 'embedder')"))
                .extracting(Row::toString)
                .containsExactly(
                        "+I{consumer_id=embedder, previous_next_snapshot_id=2,"
                                + " next_snapshot_id=null}");
        assertThat(consumers(session)).isEmpty();
        assertThatThrownBy(
                        () ->
                                session.call(
                                        "CALL dt.sys.reset_consumer(`table` => 'db.t',"
                                                + " consumer_id => 'embedder')"))
                .hasStackTraceContaining("Table db.t has no consumer 'embedder' to remove");
        assertThatThrownBy(
                        () ->
                                session.call(
                                        "CALL dt.sys.reset_consumer(`table` => 'db.t',"
                                                + " consumer_id => 'embedder', next_snapshot_id"
                                                + " => 9)"))
                .hasStackTraceContaining("Cannot set consumer 'embedder' to read snapshot 9")
                .hasStackTraceContaining("holds snapshots 1..3");
    }

    @Test
    void clearConsumersRemovesTheMatchingOnes() {
        ProcedureSession session = threeSnapshots();
        for (String id : List.of("embed-a", "embed-b", "audit")) {
            session.call(
                    "CALL dt.sys.reset_consumer(`table` => 'db.t', consumer_id => '"
                            + id
                            + "', next_snapshot_id => 3)");
        }

        assertThat(
                        session.call(
                                "CALL dt.sys.clear_consumers(`table` => 'db.t',"
                                        + " including_consumers => 'embed-.*',"
                                        + " excluding_consumers => '.*-b')"))
                .extracting(Row::toString)
                .containsExactly("+I{consumer_id=embed-a, next_snapshot_id=3}");
        assertThat(consumers(session)).containsExactly("audit=3", "embed-b=3");
        assertThat(session.call("CALL dt.sys.clear_consumers(`table` => 'db.t')")).hasSize(2);
        assertThat(consumers(session)).isEmpty();
        assertThatThrownBy(
                        () ->
                                session.call(
                                        "CALL dt.sys.clear_consumers(`table` => 'db.t',"
                                                + " including_consumers => '(')"))
                .hasStackTraceContaining("including_consumers must be a Java regular expression");
    }

    private ProcedureSession threeSnapshots() {
        ProcedureSession session = new ProcedureSession(warehouse, Map.of());
        session.table.append("a", 0, 3);
        session.table.append("a", 3, 3);
        session.table.append("a", 6, 3);
        return session;
    }

    private static List<String> consumers(ProcedureSession session) {
        List<String> rows = new ArrayList<>();
        for (Row row : session.call("SELECT * FROM dt.db.`t$consumers` ORDER BY consumer_id")) {
            rows.add(row.getField("consumer_id") + "=" + row.getField("next_snapshot_id"));
        }
        return rows;
    }
}
